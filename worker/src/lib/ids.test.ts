import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { newId } from "./ids";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("row ids (UUID version 7)", () => {
  it("are UUIDs of version 7 whose first 48 bits are the creation time, as the API's UUID schemas accept", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => {
        const id = newId(ms);
        expect(id).toMatch(V7);
        expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(ms);
        expect(z.uuid().safeParse(id).success).toBe(true);
      }),
    );
  });

  it("sort by creation time (a later millisecond, a later id), and never repeat", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), fc.integer({ min: 1, max: 10_000 }), (ms, later) => {
        expect(newId(ms) < newId(Math.min(ms + later, 2 ** 48 - 1))).toBe(true);
      }),
    );
    const many = Array.from({ length: 20_000 }, () => newId(1_795_000_000_000));
    expect(new Set(many).size).toBe(many.length);
  });
});
