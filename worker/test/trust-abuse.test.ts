/**
 * Issue 28, abuse of the open widget: what one visitor may confirm. A visitor is the widget
 * door's client (an address, CF-Connecting-IP where trusted); an integrator's API key is not one.
 * Every call here goes through the widget proxy, as a browser's would.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cartBusiness, count, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey, dbOf } from "./helpers";

async function widgetBusiness(config: Record<string, unknown> = {}) {
  const { businessId, key } = await cartBusiness({ max_bookings_per_visitor_per_hour: 3, max_bookings_per_visitor_per_day: 4, ...config });
  const pkg = await smallPackage(businessId, 100);
  const { slug } = (await (await dbOf(businessId)).prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!;
  return { businessId, key, pkg, slug };
}

/** One booking through the widget door by the visitor at `address`, at `now`. */
async function bookAs(b: { slug: string; pkg: number }, address: string, now: string) {
  const headers = { "CF-Connecting-IP": address };
  const { start, end } = stay(2);
  const added = await callJson(`/widget/v1/${b.slug}/bookings/add`, { method: "POST", body: { currency: "EUR", guests: [guest(b.pkg, start, end)] }, headers, now });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return callJson(`/widget/v1/${b.slug}/carts/${added.body.cart_id}/checkout`, { method: "POST", body: { terms_accepted: true, customer: customer() }, headers, now });
}

const at = (minutes: number) => new Date(Date.parse("2026-11-21T10:00:00.000Z") + minutes * 60_000).toISOString();

describe("bookings one widget visitor may confirm", () => {
  it("stop at the hourly bound with 429 and Retry-After, nothing booked, and come back after the hour", async () => {
    const b = await widgetBusiness();
    for (let i = 0; i < 3; i++) expect((await bookAs(b, "198.51.100.21", at(i))).status).toBe(200);
    const refused = await bookAs(b, "198.51.100.21", at(5));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.headers.get("Retry-After")).toBe("3600");
    expect(refused.body.detail).toContain("max_bookings_per_visitor_per_hour");
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", b.businessId)).toBe(3);
    // An hour after the first ones the visitor may book again, up to the daily bound.
    expect((await bookAs(b, "198.51.100.21", at(61))).status).toBe(200);
    expect((await bookAs(b, "198.51.100.21", at(62))).status).toBe(429);
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", b.businessId)).toBe(4);
  });

  it("bound each visitor on its own: many visitors book, one visitor's loop stops", async () => {
    const b = await widgetBusiness();
    const visitors = Array.from({ length: 6 }, (_, i) => `203.0.113.${40 + i}`);
    for (const address of visitors) expect((await bookAs(b, address, at(0))).status).toBe(200);
    const loop = [];
    for (let i = 0; i < 8; i++) loop.push((await bookAs(b, "192.0.2.77", at(1))).status);
    expect(loop).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", b.businessId)).toBe(9);
  });

  it("hold when a visitor's checkouts race: the bound is decided in the batch", async () => {
    const b = await widgetBusiness();
    const headers = { "CF-Connecting-IP": "198.51.100.99" };
    const carts = [];
    for (let i = 0; i < 6; i++) {
      const { start, end } = stay(2);
      const added = await callJson(`/widget/v1/${b.slug}/bookings/add`, { method: "POST", body: { currency: "EUR", guests: [guest(b.pkg, start, end)] }, headers, now: at(0) });
      expect(added.status).toBe(201);
      carts.push(added.body.cart_id as string);
    }
    const answers = await Promise.all(
      carts.map((id) => callJson(`/widget/v1/${b.slug}/carts/${id}/checkout`, { method: "POST", body: { terms_accepted: true, customer: customer() }, headers, now: at(1) })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", b.businessId)).toBe(3);
  });

  it("do not apply to an integrator's API key", async () => {
    const b = await widgetBusiness();
    const key = await createKey("public", b.businessId);
    for (let i = 0; i < 5; i++) {
      const { start, end } = stay(2);
      const added = await callJson("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [guest(b.pkg, start, end)] }, now: at(i) });
      const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() }, now: at(i) });
      expect(res.status).toBe(200);
    }
  });
});
