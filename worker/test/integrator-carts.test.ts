import { describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { MAY_SAT } from "./catalog-fixtures";
import { addToCart, clock, count, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createBusiness, createKey } from "./helpers";

// One public key serves an integrator's whole website: its carts are its visitors' carts.

let seq = 0;
async function site(config: Record<string, unknown> = {}) {
  const slug = `integrator-${Date.now().toString(36)}-${++seq}`;
  // The business's defaults (max_open_carts_per_client 5, max_items_per_cart 40) unless the test says otherwise.
  const businessId = await createBusiness(slug, { rate_limit_per_minute: 10_000, widget_allow_loopback: true, ...config });
  return { slug, businessId, key: await createKey("public", businessId), pkg: await smallPackage(businessId, 100) };
}

describe("the open-cart limit is an end client's, never an API key's", () => {
  it("one key opens carts for many shoppers at once: the sixth shopper is not turned away", async () => {
    const { businessId, key, pkg } = await site();
    const t = clock();
    const { start, end } = stay(1);
    const answers = await Promise.all(Array.from({ length: 12 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ? AND status = 'open'", businessId)).toBe(12);
  });

  it("a widget visitor is held to max_open_carts_per_client, even when its requests race; another visitor is not", async () => {
    const { slug, pkg } = await site({ max_open_carts_per_client: 2 });
    const t = clock();
    const { start, end } = stay(1);
    const add = (ip: string) =>
      callJson(`/widget/v1/${slug}/bookings/add`, { body: { currency: "EUR", guests: [guest(pkg, start, end)] }, now: t(0), headers: { Origin: "http://localhost:5173", "CF-Connecting-IP": ip } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => add("198.51.100.60")));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.code).toBe("limit_exceeded");
      expect(a.body.detail).toContain("max_open_carts_per_client");
    }
    expect((await add("198.51.100.61")).status).toBe(201);
  });
});

describe("the items-per-cart limit counts guests, not priced lines", () => {
  it("a party of 8 with every option fits in one cart (48 priced lines, 8 guests)", async () => {
    const key = await createKey("public");
    const start = MAY_SAT;
    const end = addDays(MAY_SAT, 7);
    const everything = [
      { package_item_id: 1002, dates: [`${addDays(start, 1)} 08:00:00`] },
      { package_item_id: 1003, dates: [start] },
      { package_item_id: 1004, dates: [addDays(start, 1), addDays(start, 2)] },
    ];
    const party = Array.from({ length: 8 }, (_, i) => ({
      first_name: `Guest${i}`,
      last_name: "Party",
      email: `party.${i}.${crypto.randomUUID().slice(0, 6)}@example.com`,
      gender: "f",
      birth_date: "1990-01-01",
      package: { id: 101, start_date: start, end_date: end, accommodation_id: 202, items: everything },
    }));
    const res = await callJson("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: party } });
    expect([res.status, res.body.errors ?? res.body.detail]).toEqual([201, undefined]);
    expect(res.body.guests).toHaveLength(8);
    expect(res.body.item_count).toBe(48);
  });

  it("a ninth guest beyond max_items_per_cart 8 is refused with a limit that speaks of guests", async () => {
    const { key, pkg } = await site({ max_items_per_cart: 8 });
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: Array.from({ length: 8 }, () => guest(pkg, start, end)) }, t(0));
    expect(cart.status).toBe(201);
    const ninth = await addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end)] }, t(1));
    expect(ninth.status).toBe(409);
    expect(ninth.body.code).toBe("limit_exceeded");
    expect(ninth.body.detail).toContain("guests");
    expect(ninth.body.detail).toContain("max_items_per_cart");
  });
});
