import { describe, expect, it } from "vitest";
import { csvField } from "./csv";

describe("a CSV field", () => {
  it("defuses a formula at its start, in + - @ = and after a tab", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+351 912 345 678")).toBe("'+351 912 345 678");
    expect(csvField("-2")).toBe("'-2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
  });

  it("quotes a field holding either separator, and defuses each part after one", () => {
    expect(csvField("Max;=1+1;x")).toBe(`"Max;'=1+1;x"`);
    expect(csvField("a,@b")).toBe(`"a,'@b"`);
    expect(csvField('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvField("two\nlines")).toBe(`"two\nlines"`);
  });

  it("leaves plain text, numbers, dates and empty values as they are", () => {
    expect(csvField("Ana Silva")).toBe("Ana Silva");
    expect(csvField(42)).toBe("42");
    expect(csvField("2026-12-05")).toBe("2026-12-05");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });
});
