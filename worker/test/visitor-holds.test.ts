import { describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { saturdayFrom, Y } from "./catalog-fixtures";
import { addToCart, clock, count, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createBusiness, createKey } from "./helpers";

// What one widget visitor can hold at once is bounded: places for guests over all its open carts
// (max_guests_held_per_visitor) and how long a cart holds them (max_hold_seconds_per_visitor).
// An integrator's API key is not a visitor and is bounded by neither.

let seq = 0;
async function shop(config: Record<string, unknown> = {}) {
  const slug = `holds-${Date.now().toString(36)}-${++seq}`;
  const businessId = await createBusiness(slug, { widget_allow_loopback: true, rate_limit_per_minute: 10_000, max_open_carts_per_client: 100, ...config });
  return { slug, businessId, key: await createKey("public", businessId), pkg: await smallPackage(businessId, 100) };
}

const t = clock();
const visitorHeaders = (ip: string) => ({ Origin: "http://localhost:5173", "CF-Connecting-IP": ip });
const ip = () => `198.51.100.${++seq % 250}`;

function widget(slug: string, address: string) {
  return {
    add: (body: Record<string, unknown>, now: string) => callJson(`/widget/v1/${slug}/bookings/add`, { body: { currency: "EUR", ...body }, now, headers: visitorHeaders(address) }),
    extend: (cartId: string, now: string) => callJson(`/widget/v1/${slug}/carts/${cartId}/extend`, { method: "PUT", now, headers: visitorHeaders(address) }),
    remove: (cartId: string, now: string) => callJson(`/widget/v1/${slug}/carts/${cartId}`, { method: "DELETE", now, headers: visitorHeaders(address) }),
  };
}

/** `n` guests on a two-night stay. */
const guests = (pkg: number, n: number) => {
  const { start, end } = stay(2);
  return { guests: Array.from({ length: n }, () => guest(pkg, start, end)) };
};

describe("places one visitor holds at once", () => {
  it("an add that would take the visitor past max_guests_held_per_visitor is refused, over all its carts, and adds nothing", async () => {
    const { businessId, slug, pkg } = await shop({ max_guests_held_per_visitor: 10 });
    const me = widget(slug, ip());
    expect((await me.add(guests(pkg, 6), t(0))).status).toBe(201);
    const over = await me.add(guests(pkg, 5), t(1));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("limit_exceeded");
    expect(over.body.detail).toContain("max_guests_held_per_visitor");
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(1);
    expect((await me.add(guests(pkg, 4), t(2))).status).toBe(201);
    expect((await me.add(guests(pkg, 11), t(2))).status).toBe(409);
    // another visitor has a budget of its own
    expect((await widget(slug, ip()).add(guests(pkg, 10), t(3))).status).toBe(201);
  });

  it("adding to an open cart counts too; a deleted or expired cart frees its places", async () => {
    const { slug, pkg } = await shop({ max_guests_held_per_visitor: 8 });
    const me = widget(slug, ip());
    const cart = await me.add(guests(pkg, 5), t(0));
    const more = await me.add({ cart_id: cart.body.cart_id, ...guests(pkg, 4) }, t(1));
    expect(more.status).toBe(409);
    expect(more.body.detail).toContain("max_guests_held_per_visitor");
    await me.remove(cart.body.cart_id, t(2));
    expect((await me.add(guests(pkg, 8), t(3))).status).toBe(201);
    // after that cart's expiry (lifetime 600 s) its places count no more
    expect((await me.add(guests(pkg, 8), t(700))).status).toBe(201);
  });

  it("holds even when the visitor's adds race", async () => {
    const { businessId, slug, pkg } = await shop({ max_guests_held_per_visitor: 10 });
    const me = widget(slug, ip());
    const answers = await Promise.all(Array.from({ length: 6 }, () => me.add(guests(pkg, 4), t(0))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.body.code).toBe("limit_exceeded");
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE business_id = ?", businessId)).toBe(8);
  });

  it("an integrator's API key is not a visitor: its carts are not bounded this way", async () => {
    const { key, pkg } = await shop({ max_guests_held_per_visitor: 2 });
    expect((await addToCart(key, guests(pkg, 5), t(0))).status).toBe(201);
    expect((await addToCart(key, guests(pkg, 5), t(1))).status).toBe(201);
  });

  it("by default, a party of 8 on the demo's fortnight with every option fits; taking whole room types for a week does not", async () => {
    const start = saturdayFrom(`${Y}-10-01`);
    const end = addDays(start, 14);
    const everything = [
      { package_item_id: 1002, dates: [`${addDays(start, 1)} 08:00:00`] },
      { package_item_id: 1003, dates: [start] },
      { package_item_id: 1004, dates: [addDays(start, 1), addDays(start, 2)] },
    ];
    const party = Array.from({ length: 8 }, (_, i) => ({
      first_name: `P${i}`, last_name: "Party", gender: "f", birth_date: "1990-01-01",
      package: { id: 101, start_date: start, end_date: end, accommodation_id: 202, items: everything },
    }));
    const me = { Origin: "http://localhost:5173", "CF-Connecting-IP": ip() };
    const party8 = await callJson("/widget/v1/demo/bookings/add", { body: { currency: "EUR", guests: party }, headers: me });
    expect([party8.status, party8.body.detail]).toEqual([201, undefined]);
    // One visitor taking the men's dorm, the mixed dorm and the twins for a week, in two carts.
    const week = addDays(start, 7);
    const hog = (room: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ first_name: `H${i}`, last_name: "Hog", gender: "m", birth_date: "1990-01-01", package: { id: 101, start_date: week, end_date: addDays(week, 7), accommodation_id: room } }));
    const hogger = { Origin: "http://localhost:5173", "CF-Connecting-IP": ip() };
    const first = await callJson("/widget/v1/demo/bookings/add", { body: { currency: "EUR", guests: hog(201, 8) }, headers: hogger });
    expect(first.status).toBe(201);
    const second = await callJson("/widget/v1/demo/bookings/add", { body: { currency: "EUR", guests: hog(204, 6) }, headers: hogger });
    expect(second.status).toBe(409);
    expect(second.body.detail).toContain("max_guests_held_per_visitor");
  });
});

describe("how long one visitor's cart holds", () => {
  it("extensions end at max_hold_seconds_per_visitor after the cart's opening; the expiry stays", async () => {
    const { slug, pkg } = await shop({ max_hold_seconds_per_visitor: 1800, max_extensions_per_cart: 100 });
    const me = widget(slug, ip());
    const cart = (await me.add(guests(pkg, 1), t(0))).body;
    expect((await me.extend(cart.cart_id, t(500))).body.expiry_date).toBe("2026-11-21T10:18:20Z");
    expect((await me.extend(cart.cart_id, t(1000))).body.expiry_date).toBe("2026-11-21T10:26:40Z");
    const refused = await me.extend(cart.cart_id, t(1500));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("limit_exceeded");
    expect(refused.body.detail).toContain("max_hold_seconds_per_visitor");
    const view = await callJson(`/widget/v1/${slug}/carts/${cart.cart_id}`, { now: t(1501), headers: visitorHeaders("203.0.113.200") });
    expect(view.body.expiry_date).toBe("2026-11-21T10:26:40Z");
  });

  it("a cart lifetime longer than the bound is cut to it for a visitor, not for an API key", async () => {
    const { slug, key, pkg } = await shop({ cart_lifetime_seconds: 7200, max_hold_seconds_per_visitor: 1800 });
    expect((await widget(slug, ip()).add(guests(pkg, 1), t(0))).body.expiry_date).toBe("2026-11-21T10:30:00Z");
    expect((await addToCart(key, guests(pkg, 1), t(0))).body.expiry_date).toBe("2026-11-21T12:00:00Z");
  });

  it("twelve extensions no longer keep a visitor's cart for seventy minutes", async () => {
    const { slug, pkg } = await shop({ max_extensions_per_cart: 100 });
    const me = widget(slug, ip());
    const cart = (await me.add(guests(pkg, 1), t(0))).body;
    const statuses = [];
    for (let i = 1; i <= 12; i++) statuses.push((await me.extend(cart.cart_id, t(i * 330))).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(6);
    const last = await callJson(`/widget/v1/${slug}/carts/${cart.cart_id}`, { now: t(1), headers: visitorHeaders("203.0.113.201") });
    expect(Date.parse(last.body.expiry_date) - Date.parse(t(0))).toBeLessThanOrEqual(1800_000);
  });
});
