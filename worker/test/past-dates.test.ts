import { describe, expect, it } from "vitest";
import { configSchemas } from "../src/contract/config";
import { dateIn } from "../src/lib/time";
import { addToCart, cartBusiness, count, guest, smallPackage } from "./carts-fixtures";
import { callJson } from "./helpers";

// Nothing before today, the business's date in its time zone (settings time_zone), is available
// or bookable. The test clock is 2026-11-21 10:00 UTC: 2026-11-22 already in Kiritimati (UTC+14),
// still 2026-11-21 in Lisbon, and 2026-11-21 02:00 in Los Angeles.
const NOW = "2026-11-21T10:00:00.000Z";
const EARLY = "2026-11-21T05:00:00.000Z"; // 2026-11-20 21:00 in Los Angeles

async function business(timeZone?: string) {
  const b = await cartBusiness(timeZone ? { time_zone: timeZone } : {});
  return { ...b, pkg: await smallPackage(b.businessId, 5) };
}

describe("a stay in the past cannot be booked", () => {
  it("a widget or API add starting 2020-01-04 is a 422 naming start_date, and nothing is held", async () => {
    const { businessId, key, pkg } = await business();
    const res = await addToCart(key, { guests: [guest(pkg, "2020-01-04", "2020-01-06")] }, NOW);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "guests.0.package.start_date", message: "must not be before today (2026-11-21 in the business's time zone, UTC)" }]);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(0);
  });

  it("yesterday is refused and today is taken, by the business's date, not UTC's", async () => {
    const utc = await business();
    expect((await addToCart(utc.key, { guests: [guest(utc.pkg, "2026-11-20", "2026-11-22")] }, NOW)).status).toBe(422);
    expect((await addToCart(utc.key, { guests: [guest(utc.pkg, "2026-11-21", "2026-11-23")] }, NOW)).status).toBe(201);
    // Already the 22nd in Kiritimati: the 21st is past there.
    const ahead = await business("Pacific/Kiritimati");
    const refused = await addToCart(ahead.key, { guests: [guest(ahead.pkg, "2026-11-21", "2026-11-23")] }, NOW);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toBe("must not be before today (2026-11-22 in the business's time zone, Pacific/Kiritimati)");
    // Still the 20th in Los Angeles at 05:00 UTC: a stay from the 20th can be booked there.
    const behind = await business("America/Los_Angeles");
    expect((await addToCart(behind.key, { guests: [guest(behind.pkg, "2026-11-20", "2026-11-22")] }, EARLY)).status).toBe(201);
  });
});

describe("availability reports nothing before today", () => {
  it("past dates are not available for check-in or check-out and have nothing available; today and later are", async () => {
    const { key, pkg } = await business();
    const res = await callJson(`/api/pub/v2/products/${pkg}/availabilities?start_date=2026-11-18&end_date=2026-11-23`, { key, now: NOW });
    expect(res.status).toBe(200);
    for (const d of ["2026-11-18", "2026-11-19", "2026-11-20"]) {
      expect([d, res.body[d]]).toEqual([d, expect.objectContaining({ available_for_checkin: false, available_for_checkout: false, available: 0, blocked: false })]);
    }
    expect(res.body["2026-11-21"]).toMatchObject({ available_for_checkin: true, available: 5 });
    // checking out on the 21st would mean a night in the past
    expect(res.body["2026-11-21"].available_for_checkout).toBe(false);
    expect(res.body["2026-11-22"]).toMatchObject({ available_for_checkin: true, available_for_checkout: true, available: 5 });
  });

  it("follows the business's time zone, and the default window starts on its today", async () => {
    const { key, pkg } = await business("Pacific/Kiritimati");
    const res = await callJson(`/api/pub/v2/products/${pkg}/availabilities?start_date=2026-11-21&end_date=2026-11-22`, { key, now: NOW });
    expect(res.body["2026-11-21"]).toMatchObject({ available_for_checkin: false, available: 0 });
    expect(res.body["2026-11-22"]).toMatchObject({ available_for_checkin: true, available: 5 });
    const window = await callJson(`/api/pub/v2/products/${pkg}/availabilities`, { key, now: NOW });
    expect(Object.keys(window.body)[0]).toBe("2026-11-22");
    const many = await callJson(`/api/pub/v2/products/availabilities?ids[]=${pkg}&start_date=2026-11-20&end_date=2026-11-22`, { key, now: NOW });
    expect(many.body[String(pkg)]["2026-11-20"]).toMatchObject({ available_for_checkin: false, available: 0 });
    expect(many.body[String(pkg)]["2026-11-22"]).toMatchObject({ available_for_checkin: true });
  });

  it("the demo's timeslot product and package items show no room on a past date", async () => {
    const { createKey } = await import("./helpers");
    const key = await createKey("public");
    const yoga = await callJson("/api/pub/v2/products/302/availabilities?start_date=2026-11-20&end_date=2026-11-21", { key, now: NOW });
    expect(yoga.body["2026-11-20"].timeslots.map((s: any) => s.available)).toEqual([0, 0]);
    expect(yoga.body["2026-11-21"].timeslots.every((s: any) => s.available > 0)).toBe(true);
    // A Saturday before the test clock's today: the package's items have nothing available.
    const items = await callJson("/api/pub/v2/packages/101?start_date=2026-11-14&duration=7", { key, now: NOW });
    expect(items.status).toBe(200);
    const surf = items.body.single_items.find((i: any) => i.package_item_id === 1001);
    expect(surf.dates.filter((d: any) => d.date < "2026-11-21").map((d: any) => d.available)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("the time_zone setting", () => {
  it("defaults to UTC and refuses a name that is no IANA time zone", () => {
    expect(configSchemas().BusinessConfig.parse({}).time_zone).toBe("UTC");
    expect(configSchemas().BusinessConfig.parse({ time_zone: "Europe/Lisbon" }).time_zone).toBe("Europe/Lisbon");
    const bad = configSchemas().BusinessConfig.safeParse({ time_zone: "Mars/Olympus_Mons" });
    expect(bad.success).toBe(false);
  });

  it("dateIn gives the calendar date of an instant in a zone", () => {
    expect(dateIn(new Date(NOW), "UTC")).toBe("2026-11-21");
    expect(dateIn(new Date(NOW), "Pacific/Kiritimati")).toBe("2026-11-22");
    expect(dateIn(new Date(EARLY), "America/Los_Angeles")).toBe("2026-11-20");
    expect(dateIn(new Date("2026-03-29T00:30:00Z"), "Europe/Lisbon")).toBe("2026-03-29");
  });

  // dateIn remembers the last date per zone for the minute it was asked in: the date must still
  // turn at the zone's midnight, to the millisecond, and a clock that goes back gets its own date.
  it("dateIn turns the date at the zone's midnight, even asked within the same minute before it", () => {
    expect(dateIn(new Date("2026-11-21T23:59:00.000Z"), "UTC")).toBe("2026-11-21");
    expect(dateIn(new Date("2026-11-21T23:59:59.999Z"), "UTC")).toBe("2026-11-21");
    expect(dateIn(new Date("2026-11-22T00:00:00.000Z"), "UTC")).toBe("2026-11-22");
    expect(dateIn(new Date("2026-11-21T23:59:59.999Z"), "UTC")).toBe("2026-11-21");
    // Kathmandu is UTC+05:45: its midnight is at 18:15 UTC
    expect(dateIn(new Date("2026-11-21T18:14:30.000Z"), "Asia/Kathmandu")).toBe("2026-11-21");
    expect(dateIn(new Date("2026-11-21T18:14:59.999Z"), "Asia/Kathmandu")).toBe("2026-11-21");
    expect(dateIn(new Date("2026-11-21T18:15:00.000Z"), "Asia/Kathmandu")).toBe("2026-11-22");
    expect(dateIn(new Date("2026-11-21T18:14:59.999Z"), "Asia/Kathmandu")).toBe("2026-11-21");
  });
});
