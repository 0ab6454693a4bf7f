import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { quotePackages, type QuoteGuest } from "../src/domain/package-quote";
import { addDays } from "../src/lib/time";
import { snapshotAt } from "../src/db/tenant-read";
import { JUNE_BASE_NIGHTS, JUNE_SAT, MAY_SAT, Y } from "./catalog-fixtures";
import { createBusiness, DEMO_BUSINESS_ID } from "./helpers";

const d = (n: number) => addDays(MAY_SAT, n);
const week = { id: 101, start_date: MAY_SAT, end_date: d(7) }; // Saturday to Saturday, base rates
const guest = (key: string, gender: "m" | "f", pkg: Partial<QuoteGuest["package"]> = {}): QuoteGuest => ({ key, gender, package: { ...week, ...pkg } });
// The quote runs on the business's catalog snapshot, read from D1 here as a request would.
const quote = async (guests: QuoteGuest[], currency = "EUR", businessId = DEMO_BUSINESS_ID) =>
  quotePackages(await snapshotAt(env.DB, businessId, undefined), currency, guests);
const errorsOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e: any) {
    return { status: e.status, paths: (e.extra?.errors ?? []).map((x: any) => x.path), messages: (e.extra?.errors ?? []).map((x: any) => x.message) };
  }
  throw new Error("expected a refusal");
};

describe("quotePackages", () => {
  it("prices a week in a dorm with defaults, options on timeslots and a per-stay option", async () => {
    const q = await quote([
      guest("g1", "m", {
        accommodation_id: 201,
        items: [
          { package_item_id: 1002, dates: [`${d(1)} 08:00:00`, `${d(2)} 18:00:00`] },
          { package_item_id: 1003, dates: [] },
          { package_item_id: 1001, dates: [d(8)] }, // a default item sent: ignored
        ],
      }),
    ]);
    const byRole = Object.fromEntries(q.lines.map((l) => [`${l.role}:${l.product_id}`, l]));
    expect(byRole["package:101"]).toMatchObject({ package_item_id: expect.any(Number), price_minor: 7 * 5500, qty: 1, is_fixed: false, guest_to_charge: ["g1"] });
    expect(byRole["accommodation:201"]).toMatchObject({ package_item_id: expect.any(Number), price_minor: 7 * 2000 });
    expect(byRole["default:301"]).toMatchObject({ package_item_id: 1001, price_minor: 0, dates: expect.arrayContaining([d(0), d(6)]) });
    expect(byRole["default:301"].dates).toHaveLength(7);
    expect(byRole["option:302"]).toMatchObject({ package_item_id: 1002, price_minor: 2 * 1200, dates: [`${d(1)} 08:00:00`, `${d(2)} 18:00:00`] });
    expect(byRole["option:501"]).toMatchObject({ package_item_id: 1003, price_minor: 4000, is_fixed: true });
    expect(q.total_minor).toBe(7 * 5500 + 7 * 2000 + 2400 + 4000);
    expect(q).toMatchObject({ currency: "EUR", minor_digits: 2 });
    const holds = (pid: number) => q.holds.filter((h) => h.product_id === pid);
    expect(holds(101)).toHaveLength(7);
    expect(holds(201).every((h) => h.qty === 1)).toBe(true);
    expect(holds(302)).toEqual([
      { product_id: 302, date: d(1), slot: "08:00", qty: 1 },
      { product_id: 302, date: d(2), slot: "18:00", qty: 1 },
    ]);
  });

  it("shares a private room between guests and lists it once", async () => {
    const q = await quote([guest("a", "m", { accommodation_id: 205 }), guest("b", "f", { accommodation_id: 205 })]);
    const rooms = q.lines.filter((l) => l.role === "accommodation");
    expect(rooms).toEqual([expect.objectContaining({ guest_key: "a", guest_to_charge: ["a", "b"], price_minor: 7 * 9000, qty: 1 })]);
    expect(q.holds.filter((h) => h.product_id === 205).map((h) => h.qty)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(q.holds.find((h) => h.product_id === 101)!.qty).toBe(2);
  });

  it("charges a fixed srs for the room and a per-bed srs for each unbooked bed, holding every bed", async () => {
    const twin = await quote([guest("t", "f", { accommodation_id: 203, srs: true })]);
    expect(twin.lines.find((l) => l.role === "srs")).toMatchObject({ price_minor: 7 * 2000, is_fixed: true, guest_to_charge: ["t"] });
    expect(twin.lines.find((l) => l.role === "accommodation")!.price_minor).toBe(7 * 3500);
    expect(twin.holds.filter((h) => h.product_id === 203).every((h) => h.qty === 2)).toBe(true);
    const dorm = await quote([guest("d", "m", { accommodation_id: 204, srs: true })]);
    expect(dorm.lines.find((l) => l.role === "srs")).toMatchObject({ price_minor: 7 * 5 * 1500, is_fixed: false });
    expect(dorm.holds.filter((h) => h.product_id === 204).every((h) => h.qty === 6)).toBe(true);
  });

  it("sums a stay across two seasons and converts each line, rounding half-up", async () => {
    const q = await quote([guest("s", "f", { start_date: JUNE_SAT, end_date: addDays(JUNE_SAT, 14), accommodation_id: 202 })]);
    expect(q.lines[0].price_minor).toBe(JUNE_BASE_NIGHTS * 5500 + (14 - JUNE_BASE_NIGHTS) * 7000); // high season from June 15th (inclusive)
    const usd = await quote([guest("u", "f", { accommodation_id: 202 })], "USD");
    expect(usd.currency).toBe("USD");
    expect(usd.lines[0].price_minor).toBe(41773); // 385.00 EUR * 1.085 = 417.725 -> 417.73
  });

  it("refuses an invalid selection with 422 and a path per problem", async () => {
    const e = await errorsOf(
      quote([
        guest("x", "f", { start_date: d(1), end_date: d(6), accommodation_id: 201, srs: true }),
        guest("y", "m", { items: [{ package_item_id: 9999, dates: [] }, { package_item_id: 1002, dates: [d(1), `${Y}-06-30 08:00:00`] }] }),
      ]),
    );
    expect(e.status).toBe(422);
    expect(e.paths).toEqual(
      expect.arrayContaining([
        "guests.0.package.start_date", // Sunday
        "guests.0.package.end_date", // 5 nights
        "guests.0.package.accommodation_id", // a woman in the men's dorm
        "guests.0.package.srs",
        "guests.1.package.accommodation_id", // missing
        "guests.1.package.items.0.package_item_id",
        "guests.1.package.items.1.dates.0", // not a datetime
        "guests.1.package.items.1.dates.1", // outside the stay
      ]),
    );
    expect((await errorsOf(quote([guest("z", "m", { accommodation_id: 201 })], "GBP"))).paths).toEqual(["currency"]);
    expect((await errorsOf(quote([guest("z", "m", { start_date: `${Y}-02-30`, accommodation_id: 201 })]))).paths).toEqual(["guests.0.package.start_date"]);
  });

  it("answers 404 for an unknown package, a product that is not a package, or another business's package", async () => {
    expect((await errorsOf(quote([guest("n", "m", { id: 999 })]))).status).toBe(404);
    expect((await errorsOf(quote([guest("n", "m", { id: 201 })]))).status).toBe(404);
    const other = await createBusiness("quote-other");
    const e = await errorsOf(quote([guest("n", "m", { accommodation_id: 201 })], "EUR", other));
    expect(e.status).toBe(404);
  });
});
