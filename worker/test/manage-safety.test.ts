import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { updateProduct } from "../src/manage/catalog/products";
import { ApiError } from "../src/lib/errors";
import { addDays, adminBusiness, footprint, NOW, weekdayAfter, type AdminBusiness } from "./manage-fixtures";
import { addToCart, customer, guest } from "./carts-fixtures";
import { callJson, watchedDb } from "./helpers";

// Nothing booked is harmed by an owner's change: capacity never below what is held or booked,
// products with bookings archived (never deleted) and still shown, bookings keep their prices.
let b: AdminBusiness;
let night: number;
let yoga: number;
let yogaItem: number;
const start = weekdayAfter(1, 30); // a Monday
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const ORIGIN = "http://localhost:5173";

const checkout = (cartId: string, now: string) => b.pub(`/carts/${cartId}/checkout`, { now, body: { terms_accepted: true, customer: customer() } });

beforeAll(async () => {
  b = await adminBusiness({ widget_allow_loopback: true, max_open_carts_per_client: 100 });
  yoga = (await b.admin("/catalog/products", { now: NOW, body: { type: "activity", title: "Morning yoga", duration: { unit: "hour", default: 1 }, capacity: 5, timeslots: [{ time: "09:00", capacity: 3 }], rates: [{ amount: 10 }] } })).body.data.id;
  const created = await b.admin("/catalog/products", {
    now: NOW,
    body: {
      type: "package",
      title: "Night by the sea",
      capacity: 2,
      duration: { default: 1, min: 1, is_flexible: true },
      is_promoted: true,
      rates: [{ amount: 50, per: "night" }],
      package: { items: [{ product_id: yoga, role: "option", qty: { min: 0, max: 1, default: 0 }, is_configurable_dates: true }] },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  night = created.body.data.id;
  yogaItem = created.body.data.package.items[0].id;
});

/** A booking of one guest, two nights from `start`, with yoga on the first morning; and a cart holding one more night. */
async function bookAndHold() {
  const g = { ...guest(night, start, addDays(start, 2)), package: { id: night, start_date: start, end_date: addDays(start, 2), items: [{ package_item_id: yogaItem, dates: [`${start} 09:00:00`] }] } };
  const cart = await addToCart(b.publicKey, { guests: [g] }, NOW);
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const booking = await checkout(cart.body.cart_id, later(60));
  expect(booking.status, JSON.stringify(booking.body)).toBe(200);
  const hold = await addToCart(b.publicKey, { guests: [guest(night, start, addDays(start, 1))] }, later(120));
  expect(hold.status).toBe(201);
  return { booking: booking.body, holdCart: hold.body.cart_id };
}

describe("capacity never falls below what is held or booked", () => {
  let booking: any;
  beforeAll(async () => {
    ({ booking } = await bookAndHold());
  });

  it("refuses a lower capacity with 409 listing each date with its capacity, booked and held, and changes nothing", async () => {
    const before = await footprint(b.businessId);
    const res = await b.admin(`/catalog/products/${night}`, { method: "PATCH", now: later(180), body: { capacity: 1 } });
    expect(res.status).toBe(409);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("capacity_below_used");
    expect(res.body.detail).toContain(`Night by the sea on ${start}: capacity 1, 1 booked, 1 held`);
    expect(res.body.errors).toEqual([{ path: `${night}/${start}`, message: "capacity 1 < 1 booked + 1 held" }]);
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin(`/catalog/products/${night}`)).body.data.capacity).toBe(2);
  });

  it("refuses the same over a date range of the inventory, and a block of a booked date", async () => {
    const before = await footprint(b.businessId);
    const lower = await b.admin(`/catalog/products/${night}/inventory`, { method: "PATCH", now: later(180), body: { from: start, to: addDays(start, 3), capacity: 0 } });
    expect(lower.status).toBe(409);
    expect(lower.body.errors.map((e: any) => e.path)).toEqual([`${night}/${start}`, `${night}/${addDays(start, 1)}`]);
    const block = await b.admin(`/catalog/products/${night}/inventory`, { method: "PATCH", now: later(180), body: { from: addDays(start, 1), to: addDays(start, 1), blocked: true } });
    expect(block.status).toBe(409);
    expect(block.body.detail).toContain(`${addDays(start, 1)}: capacity 0, 1 booked, 0 held`);
    expect(await footprint(b.businessId)).toEqual(before);
    // A date with nothing on it can be closed.
    const free = await b.admin(`/catalog/products/${night}/inventory`, { method: "PATCH", now: later(180), body: { from: addDays(start, 2), to: addDays(start, 2), capacity: 0 } });
    expect(free.status).toBe(200);
    expect(free.body.data.days[0]).toMatchObject({ capacity: 0, source: "override", booked: 0 });
  });

  it("lets the capacity go down to what is booked once the hold has expired", async () => {
    const inventory = await b.admin(`/catalog/products/${night}/inventory?from=${start}&to=${start}`, { now: later(3600) });
    expect(inventory.body.data.days[0]).toMatchObject({ capacity: 2, booked: 1, held: 0, available: 1 });
    const res = await b.admin(`/catalog/products/${night}/inventory`, { method: "PATCH", now: later(3600), body: { from: start, to: start, capacity: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.days[0]).toMatchObject({ capacity: 1, booked: 1, available: 0 });
  });

  it("keeps a booked timeslot: neither its capacity nor its schedule may drop under the booking", async () => {
    const cut = await b.admin(`/catalog/products/${yoga}`, { method: "PATCH", now: later(3600), body: { timeslots: [{ time: "09:00", capacity: 0 }] } });
    expect(cut.status).toBe(409);
    expect(cut.body.detail).toContain(`Morning yoga on ${start} 09:00: capacity 0, 1 booked`);
    const moved = await b.admin(`/catalog/products/${yoga}`, { method: "PATCH", now: later(3600), body: { timeslots: [{ time: "10:00", capacity: 3 }] } });
    expect(moved.status).toBe(409);
    // Off the schedule only on other weekdays than the booked Monday: allowed.
    const weekdays = await b.admin(`/catalog/products/${yoga}`, { method: "PATCH", now: later(3600), body: { timeslots: [{ time: "09:00", capacity: 3, days: ["mon", "wed"] }] } });
    expect(weekdays.status, JSON.stringify(weekdays.body)).toBe(200);
  });

  it("decides a race in SQL: a booking made between the plan and the write aborts the write, which then says why", async () => {
    const day = addDays(start, 14);
    const before = await footprint(b.businessId);
    let raced = false;
    const db = watchedDb({
      async beforeBatch(sqls) {
        if (raced || !sqls.some((s) => s.includes("manage_guard"))) return;
        raced = true;
        // Another request books the last units of that day right now.
        await env.DB.prepare("INSERT INTO allocations (business_id, product_id, date, slot, qty, booking_id, created_at) VALUES (?, ?, ?, '', 2, 'raced-booking', ?)")
          .bind(b.businessId, night, day, later(3600))
          .run();
      },
    });
    const actor = { kind: "key" as const, id: "race", name: "race" };
    const err = await updateProduct({ DB: db }, actor, b.businessId, night, { capacity: 1 }, new Date(later(3600))).catch((e) => e);
    expect(raced).toBe(true);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.message).toContain(`${day}: capacity 1, 2 booked`);
    const after = await footprint(b.businessId);
    expect({ ...after, ledger: before.ledger }).toEqual(before); // only the racing booking changed the ledger
    await env.DB.prepare("DELETE FROM allocations WHERE booking_id = 'raced-booking'").run();
  });

  it("keeps the prices of bookings made before a price change, and the widget shows the new price in the same second", async () => {
    const widgetPrice = () => callJson(`/widget/v1/${b.slug}/products/${night}/prices?start_date=${addDays(start, 28)}&pax=1&duration=1`, { headers: { Origin: ORIGIN }, now: later(3600) });
    expect((await widgetPrice()).body.total_price).toBe(50);
    const cached = await widgetPrice();
    expect(cached.headers.get("X-Cache")).toBe("HIT");
    // "The same second" on the test clock: the change and the read after it carry the same instant
    // (X-Test-Now), so the new price can only come from the change, not from an entry aging out.
    const res = await b.admin(`/catalog/products/${night}`, { method: "PATCH", now: later(3600), body: { rates: [{ amount: 75, per: "night" }] } });
    expect(res.status).toBe(200);
    const fresh = await widgetPrice();
    expect(fresh.headers.get("X-Cache")).toBe("MISS");
    expect(fresh.body.total_price).toBe(75);
    expect((await b.pub(`/products/${night}/prices?start_date=${addDays(start, 28)}&pax=1&duration=1`)).body.total_price).toBe(75);
    const detail = await b.admin(`/bookings/${booking.id}`);
    expect(detail.body.data.totals.total).toBe(booking.total);
    expect(detail.body.data.lines.find((l: any) => l.role === "package").price).toBe(100); // two nights at the old 50
  });

  it("archives a product with bookings (never deletes it): gone from the public API, still shown in its bookings, restorable", async () => {
    const inUse = await b.admin(`/catalog/products/${yoga}`, { method: "PATCH", body: { archived: true } });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe("in_use");
    expect(inUse.body.detail).toContain("Night by the sea");
    const res = await b.admin(`/catalog/products/${night}`, { method: "PATCH", now: later(3600), body: { archived: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ archived: true, listed: false });
    expect((await b.pub(`/products/${night}`)).status).toBe(404);
    expect((await b.pub("/products")).body.map((p: any) => p.id)).not.toContain(night);
    expect((await addToCart(b.publicKey, { guests: [guest(night, addDays(start, 40), addDays(start, 41))] }, later(3600))).status).toBe(404);
    const detail = await b.admin(`/bookings/${booking.id}`);
    expect(detail.body.data.lines.find((l: any) => l.role === "package")).toMatchObject({ product_id: night, product_title: "Night by the sea" });
    expect((await b.admin("/catalog/products?archived=true")).body.data.map((p: any) => p.id)).toEqual([night]);
    const back = await b.admin(`/catalog/products/${night}`, { method: "PATCH", now: later(3600), body: { archived: false } });
    expect(back.body.data.archived).toBe(false);
    expect((await b.pub(`/products/${night}`)).status).toBe(200);
  });
});

describe("lookups in use", () => {
  it("refuses archiving a location products use, and an archived diet leaves the public settings", async () => {
    const loc = (await b.admin("/catalog/locations", { body: { title: "Sagres" } })).body.data;
    const diet = (await b.admin("/catalog/diets", { body: { title: "Pescatarian", abbreviation: "PSC" } })).body.data;
    await b.admin(`/catalog/products/${yoga}`, { method: "PATCH", body: { location_id: loc.id } });
    const refused = await b.admin(`/catalog/locations/${loc.id}`, { method: "PATCH", body: { archived: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`Morning yoga (${yoga})`);
    expect((await b.pub("/settings")).body.diets.map((d: any) => d.title)).toEqual(["Pescatarian"]);
    expect((await b.admin(`/catalog/diets/${diet.id}`, { method: "PATCH", body: { archived: true } })).body.data.archived).toBe(true);
    expect((await b.pub("/settings")).body.diets).toEqual([]);
    expect((await b.admin("/catalog/diets?archived=all")).body.data.map((d: any) => d.id)).toEqual([diet.id]);
  });
});
