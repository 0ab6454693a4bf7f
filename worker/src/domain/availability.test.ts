import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  availabilityCalendar, availableForCheckin, availableForCheckout, emptyLedger, ledgerKey, ledgerWindow, minAvailable, slotState,
  UNLIMITED_UNITS, type DayEntry, type Ledger, type TimeslotEntry,
} from "./availability";
import type { Product } from "./product";
import { addDays, dateRange } from "../lib/time";

const allDays = { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true };
const product = (over: Partial<Product>): Product => ({
  id: 1, type: "accommodation", title: "T", backoffice_title: "T", description: "", extended_description: "",
  image: { small: "", medium: "", large: "" }, gender: null, backoffice_category_id: null, frontoffice_category_id: null,
  location_id: null, accommodation_type_id: null,
  duration: { is_flexible: true, min: 1, default: 7, unit: "day", variants: [] }, pax_min: 1, pax_max: 4,
  default_start_time: null, is_private: false, allowed_checkin_days: allDays, is_on_timeslots: false, timeslots: [],
  is_promoted: false, rooms: null, beds_per_room: null, srs: null, default_capacity: 8, translations: {},
  schedule: (over.timeslots ?? []).map((time) => ({ time, capacity: null, days: null })), ...over,
});
const ledger = (inv: [string, string, number, boolean][] = [], alloc: [string, string, number][] = []): Ledger => {
  const l = emptyLedger();
  for (const [d, s, capacity, blocked] of inv) l.inventory.set(ledgerKey(d, s), { capacity, blocked });
  for (const [d, s, q] of alloc) l.allocated.set(ledgerKey(d, s), q);
  return l;
};
// 2026-12-05 is a Saturday.
const week = { mon: false, tue: false, wed: false, thu: false, fri: false, sat: true, sun: false };
const pkg = product({ type: "package", duration: { is_flexible: true, min: 7, default: 7, unit: "day", variants: [7, 14] }, allowed_checkin_days: week, default_capacity: 40 });

describe("capacity", () => {
  it("is capacity minus live allocations, from inventory first, else the product's default", () => {
    const p = product({});
    const l = ledger([["2026-12-02", "", 3, false]], [["2026-12-01", "", 5], ["2026-12-02", "", 1]]);
    expect(slotState(p, l, "2026-12-01")).toEqual({ capacity: 8, available: 3, blocked: false });
    expect(slotState(p, l, "2026-12-02")).toEqual({ capacity: 3, available: 2, blocked: false });
    expect(slotState(p, ledger([], [["2026-12-01", "", 11]]), "2026-12-01").available).toBe(0); // never negative
  });

  it("treats a null default capacity as unlimited", () => {
    const p = product({ default_capacity: null });
    expect(slotState(p, ledger(), "2026-12-01")).toEqual({ capacity: null, available: null, blocked: false });
    const entry = availabilityCalendar(p, ledger(), "2026-12-01", "2026-12-01")["2026-12-01"] as DayEntry;
    expect(entry.available).toBe(UNLIMITED_UNITS);
    expect(minAvailable(p, ledger(), ["2026-12-01"])).toBeNull();
  });

  it("gives a blocked date no capacity", () => {
    const p = product({});
    const l = ledger([["2026-12-24", "", 0, true], ["2026-12-25", "", 0, true]]);
    const cal = availabilityCalendar(p, l, "2026-12-23", "2026-12-26") as Record<string, DayEntry>;
    expect(cal["2026-12-23"]).toMatchObject({ blocked: false, available: 8, available_for_checkin: true });
    expect(cal["2026-12-24"]).toMatchObject({ blocked: true, available: 0, capacity: 0, available_for_checkin: false });
    expect(cal["2026-12-25"]).toMatchObject({ blocked: true, available: 0 });
    // Leaving on the 24th is fine (the last night is the 23rd); leaving on the 25th or 26th is not.
    expect(cal["2026-12-24"].available_for_checkout).toBe(true);
    expect(cal["2026-12-25"].available_for_checkout).toBe(false);
    expect(cal["2026-12-26"].available_for_checkout).toBe(false);
  });
});

describe("check-in and check-out", () => {
  it("allow check-in only on the allowed weekdays", () => {
    expect(availableForCheckin(pkg, ledger(), "2026-12-05")).toBe(true); // Saturday
    expect(availableForCheckin(pkg, ledger(), "2026-12-06")).toBe(false); // Sunday
    expect(availableForCheckin(pkg, ledger(), "2026-12-04")).toBe(false); // Friday
  });

  it("need the whole shortest stay to be available", () => {
    const full = ledger([], [["2026-12-11", "", 40]]); // the 7th night of the week from the 5th
    expect(availableForCheckin(pkg, full, "2026-12-05")).toBe(false);
    expect(availableForCheckin(pkg, ledger([], [["2026-12-12", "", 40]]), "2026-12-05")).toBe(true); // checkout day itself
  });

  it("allow check-out where an allowed duration ends after a check-in day", () => {
    expect(availableForCheckout(pkg, ledger(), "2026-12-12")).toBe(true); // 7 nights after a Saturday
    expect(availableForCheckout(pkg, ledger(), "2026-12-19")).toBe(true); // 14 nights
    expect(availableForCheckout(pkg, ledger(), "2026-12-13")).toBe(false); // Sunday
    // The 7-night stay is full, but a 14-night stay from the Saturday before still ends on the 19th.
    const l = ledger([], [["2026-12-15", "", 40]]);
    expect(availableForCheckout(pkg, l, "2026-12-19")).toBe(false);
    expect(availableForCheckout(pkg, ledger([], [["2026-12-02", "", 40]]), "2026-12-19")).toBe(true);
  });

  it("reads the lookback before and the stay after the window", () => {
    expect(ledgerWindow(pkg, "2026-12-05", "2026-12-10")).toEqual({ from: "2026-11-21", to: "2026-12-17" });
    const acc = product({});
    expect(ledgerWindow(acc, "2026-12-05", "2026-12-10")).toEqual({ from: "2026-11-28", to: "2026-12-11" });
  });
});

describe("timeslots", () => {
  const yoga = product({ type: "activity", is_on_timeslots: true, timeslots: ["08:00", "18:00"], default_capacity: 12, duration: { is_flexible: false, min: 90, default: 90, unit: "hour", variants: [] } });

  it("count capacity per slot", () => {
    const l = ledger([["2026-12-02", "18:00", 4, false]], [["2026-12-01", "08:00", 12], ["2026-12-01", "18:00", 2], ["2026-12-02", "18:00", 1]]);
    const cal = availabilityCalendar(yoga, l, "2026-12-01", "2026-12-02") as Record<string, TimeslotEntry>;
    expect(cal["2026-12-01"]).toEqual({
      blocked: false,
      timeslots: [{ time: "08:00", available: 0, capacity: 12 }, { time: "18:00", available: 10, capacity: 12 }],
    });
    expect(cal["2026-12-02"].timeslots[1]).toEqual({ time: "18:00", available: 3, capacity: 4 });
  });

  it("show a blocked day without slots, and a blocked slot with none left", () => {
    const l = ledger([["2026-12-01", "", 0, true], ["2026-12-02", "08:00", 12, true]]);
    const cal = availabilityCalendar(yoga, l, "2026-12-01", "2026-12-02") as Record<string, TimeslotEntry>;
    expect(cal["2026-12-01"]).toEqual({ blocked: true, timeslots: [] });
    expect(cal["2026-12-02"].timeslots[0]).toEqual({ time: "08:00", available: 0, capacity: 0 });
  });

  it("follow a weekly schedule: each weekday its own slots, each slot its own capacity", () => {
    // 2026-12-05 is a Saturday, 2026-12-07 a Monday.
    const schedule = [
      { time: "07:00", capacity: 6, days: ["sat" as const, "sun" as const] },
      { time: "08:00", capacity: null, days: ["mon" as const, "tue" as const, "wed" as const, "thu" as const, "fri" as const] },
      { time: "18:00", capacity: 20, days: null },
    ];
    const weekly = product({ ...yoga, schedule, timeslots: ["07:00", "08:00", "18:00"] });
    const l = ledger([["2026-12-07", "18:00", 3, false]], [["2026-12-05", "07:00", 2]]);
    const cal = availabilityCalendar(weekly, l, "2026-12-05", "2026-12-07") as Record<string, TimeslotEntry>;
    expect(cal["2026-12-05"].timeslots).toEqual([{ time: "07:00", available: 4, capacity: 6 }, { time: "18:00", available: 20, capacity: 20 }]);
    // An inventory row still overrides a slot's scheduled capacity.
    expect(cal["2026-12-07"].timeslots).toEqual([{ time: "08:00", available: 12, capacity: 12 }, { time: "18:00", available: 3, capacity: 3 }]);
    // A slot off the schedule that day has no capacity at all.
    expect(slotState(weekly, l, "2026-12-07", "07:00")).toEqual({ capacity: 0, available: 0, blocked: false });
  });
});

describe("the calendar agrees with the per-date rules", () => {
  // availabilityCalendar() computes a window in one pass; availableForCheckin/Checkout() state
  // the rules one date at a time. Random products and ledgers must give the same answers.
  const day = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
  const arbProduct = fc.record({
    unit: fc.constantFrom("day", "day", "day", "hour"),
    variants: fc.oneof(fc.constant([] as number[]), fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { minLength: 1, maxLength: 3 })),
    flexible: fc.boolean(),
    min: fc.integer({ min: 1, max: 6 }),
    dflt: fc.integer({ min: 1, max: 9 }),
    checkin: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    capacity: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 })),
  });
  const arbLedger = fc.array(
    fc.record({ offset: fc.integer({ min: -20, max: 60 }), capacity: fc.integer({ min: 0, max: 3 }), blocked: fc.boolean(), taken: fc.integer({ min: 0, max: 4 }) }),
    { maxLength: 40 },
  );
  it("for any product, ledger and window", () => {
    fc.assert(
      fc.property(arbProduct, arbLedger, fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 40 }), (a, rows, startOffset, length) => {
        const p = product({
          type: "package",
          duration: { is_flexible: a.flexible, min: a.min, default: a.dflt, unit: a.unit as "day", variants: a.variants },
          allowed_checkin_days: Object.fromEntries(day.map((d, i) => [d, a.checkin[i]])) as Product["allowed_checkin_days"],
          default_capacity: a.capacity,
        });
        const l = emptyLedger();
        for (const r of rows) {
          const date = addDays("2026-12-01", r.offset);
          if (r.offset % 3 === 0) l.allocated.set(ledgerKey(date), r.taken);
          else l.inventory.set(ledgerKey(date), { capacity: r.capacity, blocked: r.blocked });
        }
        const start = addDays("2026-12-01", startOffset);
        const end = addDays(start, length);
        const cal = availabilityCalendar(p, l, start, end) as Record<string, DayEntry>;
        expect(Object.keys(cal)).toEqual(dateRange(start, end));
        for (const date of Object.keys(cal)) {
          expect(cal[date].available_for_checkin, `check-in ${date}`).toBe(availableForCheckin(p, l, date));
          expect(cal[date].available_for_checkout, `check-out ${date}`).toBe(availableForCheckout(p, l, date));
        }
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });
});
