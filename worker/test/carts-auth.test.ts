import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../src/index";
import { describe, expect, it, vi } from "vitest";
import { cartDeskOf } from "../src/carts/desk";
import { addToCart, cartBusiness, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { BASE, callJson, createKey, watchedDb } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

// The cart routes settle the key in the round trip that reads the cart (worker/src/index.ts,
// settledByHandler): a refused key must still change nothing, whichever write it sends.

/** Everything a cart write could leave behind in the business, as one comparable picture. */
async function picture(businessId: number) {
  const q = (sql: string) => env.DB.prepare(sql).bind(businessId).all();
  return {
    carts: (await q("SELECT id, status, expires_at, extensions, revision FROM carts WHERE business_id = ? ORDER BY id")).results,
    guests: (await q("SELECT COUNT(*) AS n FROM cart_guests WHERE business_id = ?")).results,
    holds: (await q("SELECT COUNT(*) AS n, COUNT(released_at) AS released FROM allocations WHERE business_id = ?")).results,
    bookings: (await q("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?")).results,
    outbox: (await q("SELECT COUNT(*) AS n FROM outbox WHERE business_id = ?")).results,
    idempotency: (await q("SELECT COUNT(*) AS n FROM idempotency WHERE business_id = ?")).results,
  };
}

describe("a refused key changes nothing through the cart routes", () => {
  it("revoked, unknown to the business or of the wrong scope: 401/403 for every cart write, with or without an Idempotency-Key", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(2);
    const cartId = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id as string;

    const revoked = await createKey("public", businessId, `carts-auth-revoked-${businessId}`);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = ?").bind(new Date().toISOString(), `carts-auth-revoked-${businessId}`).run();
    const privateKey = await createKey("private", businessId);
    const before = await picture(businessId);

    const writes = (k: string, headers: Record<string, string>) => [
      () => addToCart(k, { guests: [guest(pkg, start, end)] }, t(10), headers),
      () => addToCart(k, { cart_id: cartId, guests: [guest(pkg, start, end)] }, t(10), headers),
      () => callJson(`/api/pub/v2/carts/${cartId}/extend`, { key: k, method: "PUT", now: t(10), headers }),
      () => callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key: k, now: t(10), headers, body: { terms_accepted: true, customer: customer() } }),
      () => callJson(`/api/pub/v2/carts/${cartId}`, { key: k, method: "DELETE", now: t(10), headers }),
    ];
    let n = 0;
    for (const [k, status] of [[revoked, 401], [privateKey, 403]] as const) {
      for (const headers of [{}, { "Idempotency-Key": `refused-${++n}` }] as Record<string, string>[]) {
        for (const write of writes(k, headers)) {
          const res = await write();
          expect(res.status, JSON.stringify(res.body)).toBe(status);
        }
      }
    }
    expect(await picture(businessId)).toEqual(before);
    // The cart is untouched and still works for its own key.
    const out = await callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now: t(20), body: { terms_accepted: true, customer: customer() } });
    expect(out.status).toBe(200);
  });

  it("a key past its rate limit: 429 for a checkout, and nothing booked", async () => {
    const { businessId, key } = await cartBusiness({ rate_limit_per_minute: 3 });
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(2);
    const cartId = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id as string;
    expect((await callJson(`/api/pub/v2/carts/${cartId}`, { key, now: t(1) })).status).toBe(200);
    expect((await callJson(`/api/pub/v2/carts/${cartId}`, { key, now: t(2) })).status).toBe(200);
    const before = await picture(businessId);
    const out = await callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now: t(3), body: { terms_accepted: true, customer: customer() } });
    expect(out.status).toBe(429);
    expect(out.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await picture(businessId)).toEqual(before);
  });
});

/** The real D1, counting its round trips: each batch, and each statement run on its own. */
function countingEnv() {
  const trips = { count: 0 };
  return { env: { ...env, DB: watchedDb({ trip: () => void trips.count++ }) }, trips };
}

describe("opening a cart checks the key inside the cart's own write", () => {
  // An add may find its shard on the directory entry the process read moments before (the shard
  // guard in the desk's batch refuses it on a shard its business is leaving: docs/design.md
  // "Shards"), so it costs its one round trip, which the business's cart desk makes
  // (durable/cart-desk.ts), and no read of the directory.
  it("costs one D1 round trip on its shard once the process knows the business: the write, with the check inside", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1);
    const counted = countingEnv();
    const open = async (at: number) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`${BASE}/api/pub/v2/bookings/add`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "X-Test-Now": t(at) },
          body: JSON.stringify({ currency: "EUR", guests: [guest(pkg, start, end)] }),
        }),
        counted.env as typeof env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    expect((await open(0)).status).toBe(201); // learns the business's catalog
    const shard = (await env.DB.prepare("SELECT shard FROM shard_directory WHERE business_id = ?").bind(businessId).first<{ shard: number }>())?.shard ?? 0;
    const desk = cartDeskOf(env, shard, businessId);
    const atDesk = await desk.counts();
    counted.trips.count = 0;
    expect((await open(1)).status).toBe(201);
    expect(counted.trips.count).toBe(0); // no read of the directory: the entry read for the first add
    expect((await desk.counts()).trips - atDesk.trips).toBe(1); // the write, at the desk
  });

  it("prices the cart on the catalog as it is, when it changed since the process last read it", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1);
    // The process reads the business's catalog (100.00 a night) ...
    expect((await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.total).toBe(100);
    // ... then the price changes behind its back (a new catalog version) ...
    await env.DB.prepare("UPDATE rates SET amount_minor = 12345 WHERE product_id = ?").bind(pkg).run();
    // ... and the next cart is priced on the new one: the write refused the old version.
    const next = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1));
    expect(next.status).toBe(201);
    expect(next.body.total).toBe(123.45);
  });

  it("refuses a key revoked since the process last saw it, writing nothing, and logs the key's name when it opens", async () => {
    const { businessId } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const name = `carts-auth-fused-${businessId}`;
    const key = await createKey("public", businessId, name);
    const t = clock();
    const { start, end } = stay(1);
    const log = vi.spyOn(console, "log");
    try {
      expect((await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).status).toBe(201);
      const opened = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1));
      expect(opened.status).toBe(201);
      const line = log.mock.calls.map((args) => String(args[0])).filter((l) => l.includes('"path":"/api/pub/v2/bookings/add"')).pop()!;
      expect(JSON.parse(line)).toMatchObject({ status: 201, key: name });
    } finally {
      log.mockRestore();
    }
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = ?").bind(new Date().toISOString(), name).run();
    const before = await picture(businessId);
    const refused = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(2));
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([401, "unauthorized", "The API key has been revoked."]);
    expect(await picture(businessId)).toEqual(before);
  });
});
