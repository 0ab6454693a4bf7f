import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { JUNE_BASE_NIGHTS, JUNE_SAT, MAY_SAT, Y } from "./catalog-fixtures";
import { call, callJson, createKey } from "./helpers";

let key: string;
beforeAll(async () => {
  key = await createKey("public");
});
const get = (path: string) => callJson(`/api/pub/v2${path}`, { key });
const post = (body: unknown) => callJson("/api/pub/v2/packages/prices", { key, body });
const d = (n: number) => addDays(MAY_SAT, n);

describe("GET /products/{id}/prices", () => {
  it("prices the default duration for the party", async () => {
    const res = await get(`/products/101/prices?start_date=${MAY_SAT}&pax=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total_price: 770 }); // 2 guests * 7 nights * 55.00
  });

  it("sums a stay across two seasons, each night at its own rate", async () => {
    const res = await get(`/products/101/prices?start_date=${JUNE_SAT}&pax=1&duration=14`);
    expect(res.body.total_price).toBe(JUNE_BASE_NIGHTS * 55 + (14 - JUNE_BASE_NIGHTS) * 70);
    // a season's first day is in it, the day before is not
    expect((await get(`/products/201/prices?start_date=${Y}-06-14&pax=1&duration=1`)).body.total_price).toBe(20);
    expect((await get(`/products/201/prices?start_date=${Y}-06-15&pax=1&duration=1`)).body.total_price).toBe(28);
    expect((await get(`/products/201/prices?start_date=${Y}-09-15&pax=1&duration=1`)).body.total_price).toBe(28);
    expect((await get(`/products/201/prices?start_date=${Y}-09-16&pax=1&duration=1`)).body.total_price).toBe(20);
  });

  it("converts, then rounds half-up to the currency's minor unit", async () => {
    expect((await get(`/products/101/prices?start_date=${MAY_SAT}&pax=1&currency=USD`)).body.total_price).toBe(417.73); // 385 * 1.085 = 417.725
    expect((await get(`/products/302/prices?start_date=${MAY_SAT}&pax=1&currency=USD`)).body.total_price).toBe(13.02);
  });

  it("charges room rates per room and applies quantity tiers", async () => {
    expect((await get(`/products/205/prices?start_date=${MAY_SAT}&pax=2&duration=2`)).body.total_price).toBe(180); // one room
    expect((await get(`/products/205/prices?start_date=${MAY_SAT}&pax=3&duration=2`)).body.total_price).toBe(360); // two rooms
    expect((await get(`/products/401/prices?start_date=${MAY_SAT}&pax=1&duration=2`)).body.total_price).toBe(30);
    expect((await get(`/products/401/prices?start_date=${MAY_SAT}&pax=1&duration=3`)).body.total_price).toBe(36); // 12.00 a day from 3
    expect((await get(`/products/302/prices?start_date=${MAY_SAT}&pax=5`)).body.total_price).toBe(50); // 10.00 each from 5
  });

  it.each([
    [`start_date=${MAY_SAT}`, "pax"],
    [`pax=1`, "start_date"],
    [`start_date=${MAY_SAT}&pax=0`, "pax"],
    [`start_date=${MAY_SAT}&pax=-3`, "pax"],
    [`start_date=${MAY_SAT}&pax=abc`, "pax"],
    [`start_date=${MAY_SAT}&pax=1&duration=400`, "duration"],
    [`start_date=${MAY_SAT}&pax=1&duration_unit=hour`, "duration_unit"],
    [`start_date=${MAY_SAT}&pax=1&duration_unit=week`, "duration_unit"],
    [`start_date=${MAY_SAT}&pax=1&currency=usd`, "currency"],
    [`start_date=${MAY_SAT}&pax=1&currency=JPY`, "currency"],
  ])("answers 422 to %s", async (query, field) => {
    const res = await get(`/products/101/prices?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual([field]);
  });

  it("answers 404 for an unknown product", async () => {
    expect((await get(`/products/999/prices?start_date=${MAY_SAT}&pax=1`)).status).toBe(404);
  });
});

describe("GET /products/prices", () => {
  it("keys the totals by product id, ids sent either way", async () => {
    const q = `start_date=${MAY_SAT}&pax=1&duration=7`;
    const res = await get(`/products/prices?${q}&product_ids[]=101&product_ids[]=201`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ "101": 385, "201": 140 });
    expect((await get(`/products/prices?${q}&product_ids=101,201&currency=USD`)).body).toEqual({ "101": 417.73, "201": 151.9 });
  });

  it("requires product_ids and duration, and answers 404 for an unknown id", async () => {
    const missing = await get(`/products/prices?start_date=${MAY_SAT}&pax=1&duration=7`);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: "product_ids", message: expect.stringMatching(/required/) }]);
    const noDuration = await get(`/products/prices?start_date=${MAY_SAT}&pax=1&product_ids[]=101`);
    expect(noDuration.body.errors.map((e: any) => e.path)).toEqual(["duration"]);
    const unknown = await get(`/products/prices?start_date=${MAY_SAT}&pax=1&duration=7&product_ids[]=101&product_ids[]=999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/999/);
  });
});

/** The demo package's charge ids (migration 0170) by kind and product. */
async function chargeIds() {
  const rows = (await env.DB.prepare("SELECT id, product_id, kind FROM package_charges WHERE package_id = 101").all<{ id: number; product_id: number; kind: string }>()).results;
  return (kind: string, product: number) => rows.find((r) => r.kind === kind && r.product_id === product)!.id;
}

describe("POST /packages/prices", () => {
  const pkg = (extra: Record<string, unknown> = {}) => ({ id: 101, start_date: MAY_SAT, end_date: d(7), ...extra });

  it("returns the breakdown per unique_id, a shared room listed once", async () => {
    const res = await post({
      currency_id: "EUR",
      guests: [
        { unique_id: "ana", first_name: "Ana", last_name: "Silva", gender: "f", package: pkg({ accommodation_id: 205, items: [{ package_item_id: 1004, dates: [d(1), d(2), d(3)] }] }) },
        { unique_id: "ben", gender: "m", package: pkg({ accommodation_id: 205, items: [{ package_item_id: 1002, dates: [`${d(1)} 08:00:00`] }] }) },
        { unique_id: "cy", gender: "m", package: pkg({ accommodation_id: 204, srs: true }) },
      ],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ana", "ben", "cy"]);
    const charge = await chargeIds();
    expect(res.body.ana).toEqual([
      { package_item_id: charge("package", 101), product_id: 101, price: 385, is_fixed: false, guest_to_charge: ["ana"] },
      { package_item_id: charge("accommodation", 205), product_id: 205, price: 630, is_fixed: false, guest_to_charge: ["ana", "ben"] },
      { package_item_id: 1001, product_id: 301, price: 0, is_fixed: true, guest_to_charge: ["ana"] },
      { package_item_id: 1004, product_id: 401, price: 36, is_fixed: false, guest_to_charge: ["ana"] },
    ]);
    expect(res.body.ben.map((l: any) => l.package_item_id)).toEqual([charge("package", 101), 1001, 1002]);
    expect(res.body.ben[2]).toMatchObject({ package_item_id: 1002, product_id: 302, price: 12 });
    expect(res.body.cy.find((l: any) => l.package_item_id === charge("srs", 204))).toEqual({
      package_item_id: charge("srs", 204), product_id: 204, price: 525, is_fixed: false, guest_to_charge: ["cy"], // 5 unbooked beds * 7 nights * 15.00
    });
  });

  it("converts each line to the requested currency", async () => {
    const res = await post({ currency: "USD", guests: [{ unique_id: "u", gender: "f", package: pkg({ accommodation_id: 202 }) }] });
    expect(res.body.u.slice(0, 2).map((l: any) => l.price)).toEqual([417.73, 151.9]);
  });

  it("refuses invalid selections with 422 and the body's paths", async () => {
    const res = await post({
      currency: "EUR",
      guests: [
        { unique_id: "a", gender: "f", package: pkg({ accommodation_id: 201 }) },
        { unique_id: "b", gender: "m", package: pkg({ start_date: d(1), accommodation_id: 201, items: [{ package_item_id: 1002, dates: [d(2)] }] }) },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual([
      "guests.0.package.accommodation_id",
      "guests.1.package.end_date",
      "guests.1.package.start_date",
      "guests.1.package.items.0.dates.0",
    ]);
  });

  it.each([
    [{ guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: MAY_SAT, end_date: "x" } }] }, "guests.0.package.end_date"],
    [{ guests: [{ unique_id: "a", gender: "x", package: { id: 101, start_date: MAY_SAT, end_date: MAY_SAT } }] }, "guests.0.gender"],
    [{ guests: [] }, "guests"],
    [{ currency: "GBP", guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: MAY_SAT, end_date: d(7), accommodation_id: 201 } }] }, "currency"],
    [{ currency_id: "GBP", guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: MAY_SAT, end_date: d(7), accommodation_id: 201 } }] }, "currency_id"],
    [
      { guests: [{ unique_id: "a", gender: "m", package: pkg({ accommodation_id: 201 }) }, { unique_id: "a", gender: "m", package: pkg({ accommodation_id: 201 }) }] },
      "guests.1.unique_id",
    ],
  ])("answers 422 to a malformed body (%#)", async (body, path) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain(path);
  });

  it("answers 404 for an unknown package and 400 for malformed JSON", async () => {
    expect((await post({ guests: [{ unique_id: "a", gender: "m", package: { id: 999, start_date: MAY_SAT, end_date: d(7) } }] })).status).toBe(404);
    const res = await call("/api/pub/v2/packages/prices", { key, method: "POST", body: "{not json", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).code).toBe("malformed_json");
  });
});
