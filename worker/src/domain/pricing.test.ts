import { describe, expect, it } from "vitest";
import { hasQuantityTiers, priceFor, rateOn, seasonsOn, type Rate, type SeasonSegment } from "./pricing";

const HIGH = 1, HOLIDAY = 2, LOW = 3;
const segments: SeasonSegment[] = [
  { season_id: HIGH, priority: 1, start_date: "2026-06-15", end_date: "2026-09-15" },
  { season_id: HOLIDAY, priority: 2, start_date: "2026-12-19", end_date: "2027-01-03" },
  { season_id: LOW, priority: 0, start_date: "2026-11-01", end_date: "2027-03-31" },
];
const r = (season_id: number | null, amount_minor: number, per: Rate["per"] = "night", min_qty = 1, unit: Rate["unit"] = "person"): Rate => ({
  season_id, amount_minor, unit, per, min_qty,
});
const packageRates = [r(null, 5500), r(HIGH, 7000), r(LOW, 4500), r(HOLIDAY, 6500)];
const one = { person: 1, unit: 1, room: 1 };

describe("seasons", () => {
  it("include a segment's first and last day, not the days around it", () => {
    expect(rateOn(packageRates, segments, "2026-06-14")!.amount_minor).toBe(5500);
    expect(rateOn(packageRates, segments, "2026-06-15")!.amount_minor).toBe(7000);
    expect(rateOn(packageRates, segments, "2026-09-15")!.amount_minor).toBe(7000);
    expect(rateOn(packageRates, segments, "2026-09-16")!.amount_minor).toBe(5500);
  });

  it("let the higher priority win where segments overlap", () => {
    expect(seasonsOn("2026-12-20", segments)).toEqual([HOLIDAY, LOW]);
    expect(rateOn(packageRates, segments, "2026-12-18")!.amount_minor).toBe(4500);
    expect(rateOn(packageRates, segments, "2026-12-19")!.amount_minor).toBe(6500);
    expect(rateOn(packageRates, segments, "2027-01-04")!.amount_minor).toBe(4500);
  });

  it("fall through to a lower season, then the base, when a season has no rate for the product", () => {
    const dorm = [r(null, 2000), r(HIGH, 2800)];
    expect(rateOn(dorm, segments, "2026-12-20")!.amount_minor).toBe(2000);
    const lowOnly = [r(null, 2000), r(LOW, 1500)];
    expect(rateOn(lowOnly, segments, "2026-12-20")!.amount_minor).toBe(1500);
  });
});

describe("stays", () => {
  it("sum the rate in force on each night across two seasons", () => {
    // 2026-09-12 .. 09-18: nights 12,13,14,15 high (7000) and 16,17,18 base (5500)
    const nights = ["2026-09-12", "2026-09-13", "2026-09-14", "2026-09-15", "2026-09-16", "2026-09-17", "2026-09-18"];
    expect(priceFor(packageRates, segments, { dates: nights, units: one }).amount_minor).toBe(4 * 7000 + 3 * 5500);
    expect(priceFor(packageRates, segments, { dates: nights, units: { ...one, person: 2 } }).amount_minor).toBe(2 * (4 * 7000 + 3 * 5500));
  });

  it("charge a stay rate once, or once per session for products sold by the hour", () => {
    const transfer = [r(null, 4000, "stay")];
    expect(priceFor(transfer, segments, { dates: ["2026-05-02", "2026-05-03"], units: one }).amount_minor).toBe(4000);
    expect(priceFor(transfer, segments, { dates: ["2026-05-02", "2026-05-03"], units: one, perSession: true }).amount_minor).toBe(8000);
  });

  it("multiply hour rates by the hours", () => {
    const lesson = [r(null, 3000, "hour")];
    expect(priceFor(lesson, segments, { dates: ["2026-05-02"], units: one, hours: 2 }).amount_minor).toBe(6000);
  });

  it("use room and unit counts for room and unit rates", () => {
    const room = [r(null, 9000, "night", 1, "room")];
    expect(priceFor(room, segments, { dates: ["2026-05-02", "2026-05-03"], units: { person: 3, unit: 1, room: 2 } }).amount_minor).toBe(36000);
  });

  it("costs nothing without dates or rates", () => {
    expect(priceFor(packageRates, segments, { dates: [], units: one }).amount_minor).toBe(0);
    expect(priceFor([], segments, { dates: ["2026-05-02"], units: one })).toEqual({ amount_minor: 0, unit: null, per: null });
  });
});

describe("quantity tiers", () => {
  const yoga = [r(null, 1200, "stay"), r(null, 1000, "stay", 5)];
  const board = [r(null, 1500, "day", 1, "unit"), r(null, 1200, "day", 3, "unit")];

  it("apply the lower price from the tier's quantity on", () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => `2026-05-0${i + 1}`);
    expect(priceFor(yoga, segments, { dates: days(4), units: one, perSession: true }).amount_minor).toBe(4 * 1200);
    expect(priceFor(yoga, segments, { dates: days(5), units: one, perSession: true }).amount_minor).toBe(5 * 1000);
    expect(priceFor(board, segments, { dates: days(2), units: one }).amount_minor).toBe(3000);
    expect(priceFor(board, segments, { dates: days(3), units: one }).amount_minor).toBe(3600);
    expect(priceFor(yoga, segments, { dates: days(1), units: { ...one, person: 5 } }).amount_minor).toBe(5000);
  });

  it("make from_price true", () => {
    expect(hasQuantityTiers(yoga)).toBe(true);
    expect(hasQuantityTiers(packageRates)).toBe(false);
  });
});
