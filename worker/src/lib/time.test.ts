import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, dateRange, daysBetween } from "./time";

// The calendar helpers remember dates they worked out; they must agree with plain Date arithmetic.
const DAY = 86_400_000;
const viaDate = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const anyDate = fc.integer({ min: Date.UTC(1970, 0, 1) / DAY, max: Date.UTC(2200, 11, 31) / DAY }).map((n) => new Date(n * DAY).toISOString().slice(0, 10));

describe("calendar arithmetic", () => {
  it("adds days across months, leap days and years, asked once or many times", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -800, max: 800 }), (iso, days) => {
        expect(addDays(iso, days)).toBe(viaDate(iso, days));
        expect(addDays(iso, days)).toBe(viaDate(iso, days)); // remembered: the same answer
        expect(daysBetween(iso, addDays(iso, days))).toBe(days);
      }),
    );
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2027-02-28", 1)).toBe("2027-03-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("lists every date of a range, both ends included, and nothing for an inverted one", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 0, max: 400 }), (from, n) => {
        const range = dateRange(from, addDays(from, n));
        expect(range).toHaveLength(n + 1);
        expect(range[0]).toBe(from);
        range.forEach((d, i) => expect(d).toBe(viaDate(from, i)));
      }),
      { numRuns: 50 },
    );
    expect(dateRange("2026-05-02", "2026-05-01")).toEqual([]);
  });

  it("throws on a date that is not one rather than answering a wrong date", () => {
    expect(() => addDays("2026-13-01", 1)).toThrow(RangeError);
  });
});
