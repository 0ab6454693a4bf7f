import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { allocate, DEC_SAT, MAY_SAT, Y } from "./catalog-fixtures";
import { callJson, createKey } from "./helpers";

let key: string;
beforeAll(async () => {
  key = await createKey("public");
});
const get = (path: string, now?: string) => callJson(`/api/pub/v2${path}`, { key, now });
const d = (n: number) => addDays(MAY_SAT, n);

describe("GET /products/{id}/availabilities", () => {
  it("defaults to today and the 30 days after it, by the request's clock", async () => {
    const res = await get("/products/201/availabilities", `${Y}-03-10T23:30:00Z`);
    expect(res.status).toBe(200);
    const dates = Object.keys(res.body);
    expect(dates).toHaveLength(31);
    expect(dates[0]).toBe(`${Y}-03-10`);
    expect(dates[30]).toBe(`${Y}-04-09`);
    const only = await get(`/products/201/availabilities?start_date=${Y}-03-01`, `${Y}-01-01T00:00:00Z`);
    expect(Object.keys(only.body).at(-1)).toBe(`${Y}-03-31`);
  });

  it("gives the entry of the spec, with check-in days and check-out durations", async () => {
    const res = await get(`/products/101/availabilities?start_date=${d(0)}&end_date=${d(14)}`);
    // a week from the Saturday before also ends here
    expect(res.body[d(0)]).toEqual({ available_for_checkin: true, available_for_checkout: true, blocked: false, available: 40, capacity: 40, timeslots: null });
    expect(res.body[d(1)].available_for_checkin).toBe(false); // only Saturdays
    expect(res.body[d(7)]).toMatchObject({ available_for_checkin: true, available_for_checkout: true }); // 7 nights
    expect(res.body[d(14)].available_for_checkout).toBe(true); // 14 nights
    expect(res.body[d(8)].available_for_checkout).toBe(false);
  });

  it("shows the Christmas closure as blocked and refuses a stay across it", async () => {
    const res = await get(`/products/101/availabilities?start_date=${DEC_SAT}&end_date=${Y}-12-26`);
    expect(res.body[`${Y}-12-24`]).toEqual({ available_for_checkin: false, available_for_checkout: false, blocked: true, available: 0, capacity: 0, timeslots: null });
    expect(res.body[`${Y}-12-25`].blocked).toBe(true);
    expect(res.body[`${Y}-12-26`].blocked).toBe(false);
    expect(res.body[DEC_SAT].available_for_checkin).toBe(false); // its week includes the 24th
    const dorm = await get(`/products/201/availabilities?start_date=${Y}-12-23&end_date=${Y}-12-26`);
    expect(dorm.body[`${Y}-12-23`].available_for_checkin).toBe(true); // the dorm's shortest stay is one night
    expect(dorm.body[`${Y}-12-24`].available_for_checkout).toBe(true);
    expect(dorm.body[`${Y}-12-26`]).toMatchObject({ available_for_checkin: true, available_for_checkout: false });
  });

  it("uses the timeslot form for products on timeslots", async () => {
    await allocate({ product: 302, date: d(3), slot: "18:00", qty: 5 });
    const res = await get(`/products/302/availabilities?start_date=${d(3)}&end_date=${d(3)}`);
    expect(res.body).toEqual({
      [d(3)]: { blocked: false, timeslots: [{ time: "08:00", available: 12, capacity: 12 }, { time: "18:00", available: 7, capacity: 12 }] },
    });
  });

  it("shows a product without a capacity limit as 1000000000", async () => {
    const res = await get(`/products/501/availabilities?start_date=${d(0)}&end_date=${d(0)}`);
    expect(res.body[d(0)]).toMatchObject({ available: 1_000_000_000, capacity: 1_000_000_000, available_for_checkin: true });
  });

  it("reflects holds and bookings at once, and ignores expired or released ones", async () => {
    const date = d(20);
    const url = `/products/202/availabilities?start_date=${date}&end_date=${date}`;
    const now = `${Y}-01-15T12:00:00.000Z`;
    expect((await get(url, now)).body[date].available).toBe(8);
    await allocate({ product: 202, date, qty: 3, expiresAt: `${Y}-01-15T12:10:00.000Z` });
    expect((await get(url, now)).body[date].available).toBe(5);
    await allocate({ product: 202, date, qty: 2, booking: `booking-${crypto.randomUUID()}` });
    expect((await get(url, now)).body[date].available).toBe(3);
    await allocate({ product: 202, date, qty: 1, expiresAt: `${Y}-01-15T11:59:59.000Z` }); // already expired
    await allocate({ product: 202, date, qty: 1, booking: "cancelled", released: true });
    expect((await get(url, now)).body[date].available).toBe(3);
    // Once the hold's expiry passes, its beds are free again; the booking stays.
    expect((await get(url, `${Y}-01-15T12:10:01.000Z`)).body[date].available).toBe(6);
  });

  it("turns a full stay's check-in off", async () => {
    const date = d(30); // a Saturday, in a week no other test touches
    await allocate({ product: 101, date: addDays(date, 6), qty: 40, booking: `b-${crypto.randomUUID()}` });
    const res = await get(`/products/101/availabilities?start_date=${date}&end_date=${date}`);
    expect(res.body[date]).toMatchObject({ available_for_checkin: false, available: 40 });
  });

  it.each([
    [`start_date=${Y}-02-30`, "start_date"],
    [`start_date=${Y}-05-10&end_date=${Y}-05-01`, "end_date"],
    [`start_date=${Y}-01-01&end_date=${Y + 1}-01-03`, "end_date"],
    ["start_date=tomorrow", "start_date"],
  ])("answers 422 to %s", async (query, field) => {
    const res = await get(`/products/201/availabilities?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual([field]);
  });

  it("accepts a whole year and answers 404 for an unknown product", async () => {
    const res = await get(`/products/201/availabilities?start_date=${Y}-01-01&end_date=${Y}-12-31`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toHaveLength(365 + (Y % 4 === 0 ? 1 : 0));
    expect((await get("/products/999/availabilities")).status).toBe(404);
  });
});

describe("GET /products/availabilities", () => {
  const window = `start_date=${d(0)}&end_date=${d(1)}`;

  it("keys by product id, then by date, for ids sent either way", async () => {
    const res = await get(`/products/availabilities?${window}&ids[]=201&ids[]=302`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["201", "302"]);
    expect(Object.keys(res.body["201"])).toEqual([d(0), d(1)]);
    expect(res.body["302"][d(0)].timeslots).toHaveLength(2);
    expect(Object.keys((await get(`/products/availabilities?${window}&ids=201,302`)).body)).toEqual(["201", "302"]);
    expect(Object.keys((await get(`/products/availabilities?${window}&ids[]=201&ids=302`)).body)).toEqual(["201", "302"]);
  });

  it("filters by type and back-office category, and lists every product otherwise", async () => {
    expect(Object.keys((await get(`/products/availabilities?${window}&type=rental`)).body)).toEqual(["401", "402"]);
    expect(Object.keys((await get(`/products/availabilities?${window}&backoffice_category_id=2`)).body)).toEqual(["201", "202", "203", "204", "205"]);
    expect(Object.keys((await get(`/products/availabilities?${window}`)).body)).toHaveLength(12);
    expect((await get(`/products/availabilities?${window}&type=rental&backoffice_category_id=2`)).body).toEqual({});
  });

  it("answers 422 to bad filters", async () => {
    for (const q of ["ids[]=abc", "ids=1,-2", "type=hotel", "backoffice_category_id=x", `start_date=${Y}-13-01`]) {
      const res = await get(`/products/availabilities?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});
