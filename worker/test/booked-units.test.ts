import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, api, cartBusiness, clock, customer, guest, liveUnits, smallPackage, stay } from "./carts-fixtures";
import { createKey } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

// Bookings' units per product and date are kept as a total by triggers (migration 0090, table
// booked_units); availability and the capacity check read that total plus the live holds. What
// a buyer must never notice: a total that drifts from the bookings themselves, so that a date
// shows free units it does not have, or refuses units it has.

/** The kept total and the sum over the bookings' own allocation rows, for every night of a stay. */
async function totals(productId: number, nights: string[]) {
  const out: { kept: number; summed: number }[] = [];
  for (const date of nights) {
    const kept = await env.DB.prepare("SELECT COALESCE(SUM(qty), 0) AS n FROM booked_units WHERE product_id = ? AND date = ?").bind(productId, date).first<{ n: number }>();
    const summed = await env.DB.prepare(
      "SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE product_id = ? AND date = ? AND booking_id IS NOT NULL AND released_at IS NULL",
    )
      .bind(productId, date)
      .first<{ n: number }>();
    out.push({ kept: kept!.n, summed: summed!.n });
  }
  return out;
}

const nightsOf = (start: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));

describe("booked units kept by triggers", () => {
  it("match the bookings through holds, checkout, abandon and cancellation, and availability follows", async () => {
    const { businessId, key } = await cartBusiness();
    const privateKey = await createKey("private", businessId);
    const pkg = await smallPackage(businessId, 5);
    const { start, end } = stay(2, 60);
    const nights = nightsOf(start, 2);
    const at = clock();
    const available = async (t: string) => {
      const res = await api(`/api/pub/v2/products/${pkg}/availabilities?start_date=${start}&end_date=${start}`, { key, now: t });
      expect(res.status).toBe(200);
      return res.body[start].available as number;
    };
    const expectBooked = async (n: number, t: string) => {
      for (const row of await totals(pkg, nights)) expect(row).toEqual({ kept: n, summed: n });
      expect(await available(t)).toBe(5 - (await liveUnits(pkg, start, t)));
    };

    const a = await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end)] }, at(0));
    expect(a.status).toBe(201);
    await expectBooked(0, at(1)); // held, not booked
    expect(await available(at(1))).toBe(3);

    const bookingA = await api(`/api/pub/v2/carts/${a.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() }, now: at(10) });
    expect(bookingA.status).toBe(200);
    await expectBooked(2, at(11));

    const b = await addToCart(key, { guests: [guest(pkg, start, end)] }, at(20));
    expect((await api(`/api/pub/v2/carts/${b.body.cart_id}`, { key, method: "DELETE", now: at(21) })).status).toBe(200);
    await expectBooked(2, at(22));

    const c = await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end)] }, at(30));
    expect((await api(`/api/pub/v2/carts/${c.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() }, now: at(31) })).status).toBe(200);
    await expectBooked(4, at(32));

    // One unit left: a party of two is refused, one guest fits.
    expect((await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end)] }, at(40))).status).toBe(409);
    expect((await addToCart(key, { guests: [guest(pkg, start, end)] }, at(41))).status).toBe(201);
    expect(await available(at(42))).toBe(0);

    const cancelled = await api(`/private/bookings/${bookingA.body.id}/cancel`, { key: privateKey, method: "POST", now: at(50) });
    expect(cancelled.status).toBe(200);
    await expectBooked(2, at(51));
    expect(await available(at(51))).toBe(2); // 5 − 2 booked − 1 held
  });

  it("follow any write to allocations, not only the API's: inserts, updates and deletes", async () => {
    const { businessId } = await cartBusiness();
    const pkg = await smallPackage(businessId, 50);
    const date = "2031-06-10";
    const now = "2031-01-01T00:00:00.000Z";
    const insert = (qty: number, booking: string | null, cart: string | null) =>
      env.DB.prepare(
        "INSERT INTO allocations (business_id, product_id, date, qty, cart_id, booking_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      )
        .bind(businessId, pkg, date, qty, cart, booking, booking ? null : "2031-01-01T01:00:00.000Z", now)
        .first<{ id: number }>();
    const check = async (n: number) => expect(await totals(pkg, [date])).toEqual([{ kept: n, summed: n }]);

    const booked = (await insert(3, "bk-1", null))!.id;
    await check(3);
    const hold = (await insert(4, null, "cart-1"))!.id;
    await check(3);
    await env.DB.prepare("UPDATE allocations SET booking_id = 'bk-2', expires_at = NULL WHERE id = ?").bind(hold).run(); // checked out
    await check(7);
    await env.DB.prepare("UPDATE allocations SET qty = 5 WHERE id = ?").bind(booked).run();
    await check(9);
    await env.DB.prepare("UPDATE allocations SET released_at = ? WHERE id = ?").bind(now, hold).run(); // cancelled
    await check(5);
    await env.DB.prepare("UPDATE allocations SET released_at = NULL WHERE id = ?").bind(hold).run(); // reinstated
    await check(9);
    await env.DB.prepare("DELETE FROM allocations WHERE id = ?").bind(booked).run();
    await check(4);
    // The capacity check counts the kept total: 50 − 4 booked leaves 46.
    await expect(insert(47, "bk-3", null)).rejects.toThrow(/sold_out/);
    await insert(46, "bk-3", null);
    await check(50);
  });
});
