import { describe, expect, it } from "vitest";
import type { CustomField } from "../contract/config";
import { customFieldErrors, keptAnswers, localizedFields } from "./custom-fields";

const field = (key: string, type: CustomField["type"], extra: Partial<CustomField> = {}): CustomField => ({
  key, title: key, type, options: [], required: false, applies_to: "guest", translations: {}, ...extra,
});

describe("answers to the business's questions", () => {
  it("a question named like an Object member is unanswered until answered (no inherited value counts)", () => {
    const fields = [field("constructor", "text", { required: true }), field("tostring", "text")];
    expect(customFieldErrors(fields, "guest", {}, "guests.0")).toEqual([{ path: "guests.0.custom_fields.constructor", message: "is required by this business" }]);
    expect(keptAnswers(fields, {})).toEqual({});
    expect(keptAnswers(fields, { constructor: " x " })).toEqual({ constructor: "x" });
  });

  it("a date must be a calendar date, a number finite, a boolean true or false; questions of the other party are unknown keys", () => {
    const fields = [field("d", "date"), field("n", "number"), field("b", "boolean"), field("c", "text", { applies_to: "customer" })];
    const paths = (a: Record<string, unknown>) => customFieldErrors(fields, "guest", a as never, "g").map((e) => e.path);
    expect(paths({ d: "2026-02-30", n: "1", b: 1, c: "x" })).toEqual(["g.custom_fields.c", "g.custom_fields.d", "g.custom_fields.n", "g.custom_fields.b"]);
    expect(paths({ d: "2028-02-29", n: 1.5, b: false })).toEqual([]);
  });

  it("are listed in a language with its titles, falling back to the default title and choices", () => {
    const f = field("lvl", "select", { options: ["a", "b"], translations: { de: { options: ["A", "B"] } } });
    expect(localizedFields([f], "de")[0]).toMatchObject({ title: "lvl", options: ["a", "b"], option_titles: ["A", "B"] });
    expect(localizedFields([f], "es")[0]).toMatchObject({ option_titles: ["a", "b"] });
  });
});
