import { describe, expect, test } from "vitest";
import { de } from "./de";
import { deCheckout } from "./de-checkout";
import { en } from "./en";
import { enCheckout } from "./en-checkout";
import { es } from "./es";
import { esCheckout } from "./es-checkout";
import { pt } from "./pt";
import { ptCheckout } from "./pt-checkout";
import { fr } from "./fr";
import { frCheckout } from "./fr-checkout";
import { it } from "./it";
import { itCheckout } from "./it-checkout";
import { nl } from "./nl";
import { nlCheckout } from "./nl-checkout";
import { fill } from "./index";

const keys = (o: object, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [p + k] : keys(v, `${p}${k}.`)));
const get = (o: any, k: string): string => k.split(".").reduce((x, y) => x[y], o);
const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join();
const english = { ...en, ...enCheckout };

describe("string tables", () => {
  test.each([["de", { ...de, ...deCheckout }], ["es", { ...es, ...esCheckout }], ["pt", { ...pt, ...ptCheckout }], ["fr", { ...fr, ...frCheckout }], ["it", { ...it, ...itCheckout }], ["nl", { ...nl, ...nlCheckout }]])("%s has every key of the English table, with the same placeholders, and translates", (_, table) => {
    expect(keys(table)).toEqual(keys(english));
    for (const k of keys(english)) expect(placeholders(get(table, k)), k).toBe(placeholders(get(english, k)));
    // a half-translated table would repeat the English: only words that are the same in both may
    const same = keys(english).filter((k) => get(table, k) === get(english, k) && !/^(Extras|Total|Postcode|\(optional\)|\{start\} – \{end\})$/.test(get(english, k)));
    expect(same).toEqual([]);
  });
  test("the halves do not overlap: each key lives in one of them", () => {
    expect(Object.keys(en).filter((k) => k in enCheckout)).toEqual([]);
  });
  test("fill() puts values in their placeholders and leaves unknown ones visible", () => {
    expect(fill("Step {n} of {total}", { n: 2, total: 7 })).toBe("Step 2 of 7");
    expect(fill("Held for {time}")).toBe("Held for {time}");
  });
});
