import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, dbOf } from "./helpers";

describe("business limits: a clear 409 limit_exceeded, never a silent drop", () => {
  it("max_items_per_cart: an add that would pass the limit adds nothing", async () => {
    const { businessId, key } = await cartBusiness({ max_items_per_cart: 3 });
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end)] }, t(0));
    expect(cart.body.item_count).toBe(2);
    const over = await addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end), guest(pkg, start, end)] }, t(1));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("limit_exceeded");
    expect(over.body.detail).toContain("max_items_per_cart");
    expect(await count("SELECT COUNT(*) AS n FROM cart_lines WHERE cart_id = ?", cart.body.cart_id)).toBe(2);
    expect(await count("SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE cart_id = ?", cart.body.cart_id)).toBe(2);
    expect((await addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end)] }, t(2))).status).toBe(200);
    const tooBig = await addToCart(key, { guests: [1, 2, 3, 4].map(() => guest(pkg, start, end)) }, t(3));
    expect(tooBig.status).toBe(409);
    expect(tooBig.body.code).toBe("limit_exceeded");
  });

  it("max_open_carts_per_client: counted per widget visitor, even when requests race; closed or expired carts do not count", async () => {
    const { businessId, key } = await cartBusiness({ max_open_carts_per_client: 2, widget_allow_loopback: true });
    const slug = (await (await dbOf(businessId)).prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!.slug;
    const pkg = await smallPackage(businessId, 100);
    const t = clock();
    const { start, end } = stay(1);
    // One visitor (one address) through the widget: carts are added to and deleted with the public key, as the cart is the same.
    const visitor = { Origin: "http://localhost:5173", "CF-Connecting-IP": "203.0.113.9" };
    const open = (now: string) => callJson(`/widget/v1/${slug}/bookings/add`, { body: { currency: "EUR", guests: [guest(pkg, start, end)] }, now, headers: visitor });
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(t(0))));
    const opened = answers.filter((a) => a.status === 201);
    expect(opened).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.code).toBe("limit_exceeded");
      expect(a.body.detail).toContain("max_open_carts_per_client");
    }
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(2);
    // Adding to an open cart is always allowed.
    expect((await addToCart(key, { cart_id: opened[0].body.cart_id, guests: [guest(pkg, start, end)] }, t(1))).status).toBe(200);
    // Deleting one frees a place; so does an expiry.
    await callJson(`/api/pub/v2/carts/${opened[0].body.cart_id}`, { key, method: "DELETE", now: t(2) });
    expect((await open(t(3))).status).toBe(201);
    expect((await open(t(4))).status).toBe(409);
    expect((await open(t(601))).status).toBe(201);
  });

  it("max_extensions_per_cart: the next extension is refused, the expiry stays", async () => {
    const { businessId, key } = await cartBusiness({ max_extensions_per_cart: 2 });
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const id = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id;
    expect((await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(100) })).body.expiry_date).toBe("2026-11-21T10:11:40Z");
    expect((await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(200) })).body.expiry_date).toBe("2026-11-21T10:13:20Z");
    const third = await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(300) });
    expect(third.status).toBe(409);
    expect(third.body.code).toBe("limit_exceeded");
    expect(third.body.detail).toContain("max_extensions_per_cart is 2");
    const cart = await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(301) });
    expect(cart.body).toMatchObject({ expiry_date: "2026-11-21T10:13:20Z", extensions_left: 0 });
  });

  it("an extension never shortens a longer cart lifetime", async () => {
    const { businessId, key } = await cartBusiness({ cart_lifetime_seconds: 3600 });
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const id = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id;
    expect((await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(60) })).body.expiry_date).toBe("2026-11-21T11:00:00Z");
    expect((await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(3300) })).body.expiry_date).toBe("2026-11-21T11:05:00Z");
  });
});
