import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { allocate, MAY_SAT, Y } from "./catalog-fixtures";
import { callJson, createKey } from "./helpers";

let key: string;
beforeAll(async () => {
  key = await createKey("public");
});
const get = (path: string) => callJson(`/api/pub/v2${path}`, { key });
const d = (n: number) => addDays(MAY_SAT, n);

describe("GET /packages/{id}", () => {
  it("lists single items and groups with roles, quantities, prices and dates", async () => {
    const res = await get(`/packages/101?start_date=${MAY_SAT}&duration=7&language=de`);
    expect(res.status).toBe(200);
    expect(res.body.start_date).toBe(MAY_SAT);
    expect(res.body.end_date).toBe(d(7));
    expect(res.body.single_items.map((i: any) => [i.package_item_id, i.role, i.product.id])).toEqual([
      [1001, "default", 301], [1002, "option", 302], [1003, "option", 501],
    ]);
    expect(res.body.groups).toHaveLength(1);
    expect(res.body.groups[0].is_configurable_dates).toBe(true);
    expect(res.body.groups[0].items.map((i: any) => [i.package_item_id, i.role])).toEqual([[1004, "alternative"], [1005, "upgrade"]]);

    const surf = res.body.single_items[0];
    expect(surf).toMatchObject({ qty: { min: 1, max: 1, default: 1 }, is_configurable_dates: false, product: { title: "Surfunterricht", is_on_timeslots: false } });
    expect(surf.dates).toHaveLength(7);
    expect(surf.dates[0]).toEqual({ date: MAY_SAT, available: 40, capacity: 40, timeslots: null });
    expect(surf.dates[6].date).toBe(d(6));

    const yoga = res.body.single_items[1];
    expect(yoga.product.price).toEqual({ value: 12, currency: "EUR", type: "person", from_price: true });
    expect(yoga.price).toEqual({ value: 12, currency: "EUR", type: "person" });
    expect(yoga.is_configurable_dates).toBe(true);
    expect(yoga.dates[0]).toEqual({
      date: MAY_SAT, available: null, capacity: null,
      timeslots: [{ time: "08:00", available: 12, capacity: 12 }, { time: "18:00", available: 12, capacity: 12 }],
    });

    const transfer = res.body.single_items[2];
    expect(transfer.dates[0]).toMatchObject({ available: "unlimited", capacity: "unlimited", timeslots: null });
    expect(transfer.price).toEqual({ value: 40, currency: "EUR", type: "person" }); // one checkbox, once per stay
    expect(res.body.groups[0].items[0].product.price.from_price).toBe(true); // softboard: cheaper from 3 days
  });

  it("converts prices to the requested currency and shows holds in the item dates", async () => {
    await allocate({ product: 302, date: d(9), slot: "08:00", qty: 4 });
    const res = await get(`/packages/101?start_date=${d(7)}&duration=7&currency=USD`);
    const yoga = res.body.single_items[1];
    expect(yoga.product.price).toMatchObject({ value: 13.02, currency: "USD" }); // 12 * 1.085
    expect(yoga.dates[2].timeslots[0]).toEqual({ time: "08:00", available: 8, capacity: 12 });
  });

  it("accepts the 14-night variant", async () => {
    const res = await get(`/packages/101?start_date=${MAY_SAT}&duration=14`);
    expect(res.status).toBe(200);
    expect(res.body.single_items[0].dates).toHaveLength(14);
  });

  it.each([
    [`start_date=${d(1)}&duration=7`, ["start_date"]],
    [`start_date=${MAY_SAT}&duration=5`, ["duration"]],
    [`start_date=${MAY_SAT}`, ["duration"]],
    [`duration=7`, ["start_date"]],
    [`start_date=${MAY_SAT}&duration=0`, ["duration"]],
    [`start_date=${MAY_SAT}&duration=1e3`, ["duration"]],
    [`start_date=${MAY_SAT}&duration=99999`, ["duration"]],
    [`start_date=${Y}-02-29x&duration=7`, ["start_date"]],
    [`start_date=${MAY_SAT}&duration=7&currency=GBP`, ["currency"]],
    [`start_date=${MAY_SAT}&duration=7&language=FRA`, ["language"]],
  ])("answers 422 to %s", async (query, paths) => {
    const res = await get(`/packages/101?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(paths);
  });

  it("answers 404 for a product that is not a package", async () => {
    expect((await get(`/packages/201?start_date=${MAY_SAT}&duration=7`)).status).toBe(404);
    expect((await get(`/packages/999?start_date=${MAY_SAT}&duration=7`)).status).toBe(404);
  });
});

describe("GET /packages/{id}/accommodations", () => {
  const acc = (party: string, extra = "", start = MAY_SAT) => get(`/packages/101/accommodations?start_date=${start}&duration=7&${party}${extra}`);
  const ids = (body: any[]) => body.map((o) => o.product.id);

  it("lists the room types that take the party, with price, availability and srs", async () => {
    const res = await acc("males=1&females=0&couples=0");
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([201, 203, 204, 205]); // not the women's dorm
    const men = res.body[0];
    expect(men).toMatchObject({ start_date: MAY_SAT, end_date: d(7), available: 8, price: { type: "person", value: 140, currency: "EUR" } });
    expect(men.product).toMatchObject({ id: 201, accommodation_type: { id: 1, title: "Dorm" }, pax: { min: 1, max: 4 }, is_private: false, srs: null });
    expect(res.body[1].product.srs).toEqual({ charge: 140, fixed: true }); // twin: 20.00 a night for the room
    expect(res.body[2].product.srs).toEqual({ charge: 105, fixed: false }); // garden dorm: 15.00 a night per unbooked bed
    expect(res.body[3]).toMatchObject({ available: 3, price: { type: "room", value: 630 }, product: { is_private: true, srs: null } });
  });

  it("applies the gender and couples rules", async () => {
    expect(ids((await acc("males=0&females=2&couples=0")).body)).toEqual([202, 203, 204, 205]);
    expect(ids((await acc("males=1&females=1&couples=0")).body)).toEqual([203, 204, 205]);
    expect(ids((await acc("males=0&females=0&couples=1")).body)).toEqual([203, 204, 205]);
    const five = await acc("males=5&females=0&couples=0");
    expect(ids(five.body)).toEqual([201, 203, 204, 205]);
    // five fit one six-bed garden room (srs for the one unbooked bed), not a twin room
    expect(five.body.map((o: any) => o.product.srs)).toEqual([null, null, { charge: 105, fixed: false }, null]);
    expect(ids((await acc("males=7&females=0&couples=0")).body)).toEqual([201, 203]); // 6 garden beds, 3 double rooms
  });

  it("drops a room type that is full on any night, and srs when no whole room is free", async () => {
    const start = d(14);
    await allocate({ product: 201, date: addDays(start, 3), qty: 8 });
    await allocate({ product: 204, date: addDays(start, 5), qty: 1 });
    const res = await acc("males=1&females=0&couples=0", "", start);
    expect(ids(res.body)).toEqual([203, 204, 205]);
    expect(res.body[1]).toMatchObject({ available: 5, product: { id: 204, srs: null } });
  });

  it("orders by accommodation type, then price, with group=1", async () => {
    const res = await acc("males=1&females=0&couples=0", "&group=1&currency=USD");
    expect(res.body.map((o: any) => [o.product.accommodation_type.id, o.product.id])).toEqual([[1, 204], [1, 201], [2, 203], [2, 205]]);
    expect(res.body[0].price).toEqual({ type: "person", value: 136.71, currency: "USD" }); // 126 * 1.085 = 136.71
  });

  it.each([
    ["males=0&females=0&couples=0", "males"],
    ["males=1&females=0", "couples"],
    ["males=-1&females=0&couples=0", "males"],
    ["males=1.5&females=0&couples=0", "males"],
    ["males=1&females=0&couples=0&group=2", "group"],
    ["males=1000&females=0&couples=0", "males"],
  ])("answers 422 to %s", async (party, field) => {
    const res = await acc(party);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain(field);
  });
});
