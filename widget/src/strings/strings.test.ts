import { describe, expect, test } from "vitest";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fill } from "./index";

const keys = (o: object, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [p + k] : keys(v, `${p}${k}.`)));
const get = (o: any, k: string): string => k.split(".").reduce((x, y) => x[y], o);
const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join();

describe("string tables", () => {
  test.each([["de", de], ["es", es]])("%s has every key of the English table, with the same placeholders", (_, table) => {
    expect(keys(table)).toEqual(keys(en));
    for (const k of keys(en)) expect(placeholders(get(table, k)), k).toBe(placeholders(get(en, k)));
  });
  test("fill() puts values in their placeholders and leaves unknown ones visible", () => {
    expect(fill("Step {n} of {total}", { n: 2, total: 7 })).toBe("Step 2 of 7");
    expect(fill("Held for {time}")).toBe("Held for {time}");
  });
});
