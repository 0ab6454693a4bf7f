import { describe, expect, it } from "vitest";
import { utf8Length, utf8Octets } from "./utf8";

describe("UTF-8 lengths", () => {
  it("count what TextEncoder writes, for one-, two-, three- and four-byte characters and lone surrogates", () => {
    const encoded = (s: string) => new TextEncoder().encode(s).length;
    for (const text of ["", "surf@camp.example", "josé@café.example", "€uro", "😀🌊", "a\ud800b", "\udc00", "x\ud83d", "ç€😀".repeat(9)]) {
      expect(utf8Length(text), text).toBe(encoded(text));
      expect([...text].reduce((n, ch) => n + utf8Octets(ch.codePointAt(0)!), 0), text).toBe(encoded(text));
    }
  });
});
