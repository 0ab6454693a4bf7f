import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

/** An Idempotency-Key as stored for the business's (only) public key: its caller, a space, the key. */
async function storedKey(businessId: number, sent: string): Promise<string> {
  const row = await env.DB.prepare("SELECT id FROM api_keys WHERE business_id = ? AND scope = 'public'").bind(businessId).first<{ id: string }>();
  return `key:${row!.id} ${sent}`;
}

async function setup() {
  const { businessId, key } = await cartBusiness();
  const pkg = await smallPackage(businessId, 50);
  const { start, end } = stay(1);
  return { businessId, key, pkg, start, end, t: clock() };
}

/** A business with a cart checked out under `idempotencyKey` (at t(10)). */
async function checkedOut(idempotencyKey: string) {
  const ctx = await setup();
  const cart = (await addToCart(ctx.key, { guests: [guest(ctx.pkg, ctx.start, ctx.end)] }, ctx.t(0))).body;
  const body = { terms_accepted: true, customer: customer() };
  const path = `/api/pub/v2/carts/${cart.cart_id}/checkout`;
  const first = await callJson(path, { key: ctx.key, body, now: ctx.t(10), headers: { "Idempotency-Key": idempotencyKey } });
  expect(first.status).toBe(200);
  return { ...ctx, body, path, first };
}

describe("Idempotency-Key on POST /bookings/add", () => {
  it("the same key and body replays the first answer without adding anything", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const body = { guests: [guest(pkg, start, end)] };
    const first = await addToCart(key, body, t(0), { "Idempotency-Key": "add-1" });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    // The same JSON with its keys in another order is the same request.
    const reordered = { guests: [Object.fromEntries(Object.entries(body.guests[0]).reverse())] };
    const second = await addToCart(key, reordered, t(5), { "Idempotency-Key": "add-1" });
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(1);
    expect(await count("SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(1);
  });

  it("the same key with another body is 422 idempotency_key_reused, and changes nothing", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0), { "Idempotency-Key": "add-2" });
    const other = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1), { "Idempotency-Key": "add-2" });
    expect(other.status).toBe(422);
    expect(other.headers.get("Content-Type")).toContain("application/problem+json");
    expect(other.body.code).toBe("idempotency_key_reused");
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(1);
  });

  it("a retry while the first request runs is 409 idempotency_in_progress with Retry-After", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const body = { currency: "EUR", guests: [guest(pkg, start, end)] };
    // The first request is mid-flight: its record says running.
    const { sha256Hex } = await import("../src/lib/keys");
    const hash = await sha256Hex(`POST /api/pub/v2/bookings/add\n${canonical(body)}`);
    await env.DB.prepare("INSERT INTO idempotency (business_id, key, route, request_hash, state, created_at) VALUES (?, ?, 'POST /api/pub/v2/bookings/add', ?, 'running', ?)")
      .bind(businessId, await storedKey(businessId, "add-3"), hash, "2026-11-21T10:00:00Z")
      .run();
    const retry = await addToCart(key, body, t(1), { "Idempotency-Key": "add-3" });
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe("idempotency_in_progress");
    expect(retry.headers.get("Retry-After")).toBe("1");
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(0);
    // A request that died while running is taken over after a while.
    const later = await addToCart(key, body, t(300), { "Idempotency-Key": "add-3" });
    expect(later.status).toBe(201);
  });

  it("concurrent identical requests with one key: one cart; the others replay it or are told to retry", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const body = { guests: [guest(pkg, start, end)] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => addToCart(key, body, t(0), { "Idempotency-Key": "add-4" })));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.cart_id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.code).toBe("idempotency_in_progress");
    }
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(1);
  });

  it("keys are per business and kept 24 hours", async () => {
    const a = await setup();
    const b = await setup();
    const first = await addToCart(a.key, { guests: [guest(a.pkg, a.start, a.end)] }, a.t(0), { "Idempotency-Key": "shared" });
    const other = await addToCart(b.key, { guests: [guest(b.pkg, b.start, b.end)] }, b.t(0), { "Idempotency-Key": "shared" });
    expect(other.status).toBe(201);
    expect(other.body.cart_id).not.toBe(first.body.cart_id);
    // 24 hours later the key is forgotten: a new body under it runs as a new request.
    const dayLater = await addToCart(a.key, { guests: [guest(a.pkg, a.start, a.end)] }, a.t(86_401), { "Idempotency-Key": "shared" });
    expect(dayLater.status).toBe(201);
    expect(dayLater.body.cart_id).not.toBe(first.body.cart_id);
  });

  it("refuses a malformed key", async () => {
    const { key, pkg, start, end, t } = await setup();
    const res = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0), { "Idempotency-Key": "x".repeat(300) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("Idempotency-Key");
  });
});

describe("Idempotency-Key on checkout", () => {
  it("a retried checkout replays the booking instead of answering 409, another body is 422", async () => {
    const { businessId, key, pkg, start, end, t, body, path, first } = await checkedOut("co-1");
    const retry = await callJson(path, { key, body, now: t(11), headers: { "Idempotency-Key": "co-1" } });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const changed = await callJson(path, { key, body: { ...body, newsletter_opt_in: true }, now: t(12), headers: { "Idempotency-Key": "co-1" } });
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe("idempotency_key_reused");
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(1);
    // A refusal is stored and replayed too: terms not accepted stays refused under its key.
    const cart2 = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(20))).body;
    const refused = { terms_accepted: false, customer: customer() };
    const p2 = `/api/pub/v2/carts/${cart2.cart_id}/checkout`;
    expect((await callJson(p2, { key, body: refused, now: t(21), headers: { "Idempotency-Key": "co-2" } })).body.code).toBe("terms_not_accepted");
    const replayed = await callJson(p2, { key, body: refused, now: t(22), headers: { "Idempotency-Key": "co-2" } });
    expect(replayed.status).toBe(422);
    expect(replayed.headers.get("Content-Type")).toContain("application/problem+json");
    expect(replayed.body.code).toBe("terms_not_accepted");
  });
});

describe("a request whose change was made but whose answer was never recorded (its process died)", () => {
  /** What a crash between the change's batch and the answer's record leaves: the key still running. */
  const dieBeforeAnswer = async (businessId: number, key: string) =>
    env.DB.prepare("UPDATE idempotency SET state = 'running', response_status = NULL, response_body = NULL WHERE business_id = ? AND key = ?").bind(businessId, await storedKey(businessId, key)).run();

  it("a retried add gets the cart it opened, at once and after the record went stale, never a second cart", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const body = { guests: [guest(pkg, start, end)] };
    const first = await addToCart(key, body, t(0), { "Idempotency-Key": "add-died" });
    expect(first.status).toBe(201);
    // The cart is recorded on the key by the add's own batch.
    const row = await env.DB.prepare("SELECT resource FROM idempotency WHERE business_id = ? AND key = ?").bind(businessId, await storedKey(businessId, "add-died")).first<{ resource: string }>();
    expect(row?.resource).toBe(first.body.cart_id);
    await dieBeforeAnswer(businessId, "add-died");
    const retry = await addToCart(key, body, t(1), { "Idempotency-Key": "add-died" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body).toMatchObject({ cart_id: first.body.cart_id, status: "open", total: first.body.total });
    await dieBeforeAnswer(businessId, "add-died");
    const stale = await addToCart(key, body, t(300), { "Idempotency-Key": "add-died" });
    expect(stale.status).toBe(201);
    expect(stale.body.cart_id).toBe(first.body.cart_id);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(1);
    expect(await count("SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(1);
  });

  it("a retried checkout gets the booking it made, not 'in progress' nor 'cart not open', and nothing is booked twice", async () => {
    const { businessId, key, t, body, path, first } = await checkedOut("co-died");
    await dieBeforeAnswer(businessId, "co-died");
    const retry = await callJson(path, { key, body, now: t(11), headers: { "Idempotency-Key": "co-died" } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    // Recorded now: later retries replay it as stored, stale or not.
    const later = await callJson(path, { key, body, now: t(400), headers: { "Idempotency-Key": "co-died" } });
    expect(later.body).toEqual(first.body);
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(1);
  });

  it("a request that died before making its change is still run again once its record is stale", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const body = { guests: [guest(pkg, start, end)] };
    const first = await addToCart(key, body, t(0), { "Idempotency-Key": "add-undone" });
    // Forge "died before its batch": running, nothing made (and the cart gone with it).
    await env.DB.prepare("UPDATE idempotency SET state = 'running', resource = NULL, response_status = NULL, response_body = NULL WHERE business_id = ? AND key = ?")
      .bind(businessId, await storedKey(businessId, "add-undone"))
      .run();
    expect((await addToCart(key, body, t(1), { "Idempotency-Key": "add-undone" })).body.code).toBe("idempotency_in_progress");
    const again = await addToCart(key, body, t(300), { "Idempotency-Key": "add-undone" });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(again.body.cart_id).not.toBe(first.body.cart_id);
  });
});

describe("Idempotency-Keys belong to the caller that sent them", () => {
  it("another API key of the business sending the same key and body gets its own cart, not the first caller's answer", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const otherKey = await createKey("public", businessId);
    const body = { guests: [guest(pkg, start, end)] };
    const a = await addToCart(key, body, t(0), { "Idempotency-Key": "order-1" });
    expect(a.status).toBe(201);
    const b = await addToCart(otherKey, body, t(1), { "Idempotency-Key": "order-1" });
    expect(b.status).toBe(201);
    expect(b.headers.get("Idempotent-Replayed")).toBeNull();
    expect(b.body.cart_id).not.toBe(a.body.cart_id);
    // and each caller's retry replays its own answer
    expect((await addToCart(key, body, t(2), { "Idempotency-Key": "order-1" })).body.cart_id).toBe(a.body.cart_id);
    expect((await addToCart(otherKey, body, t(2), { "Idempotency-Key": "order-1" })).body.cart_id).toBe(b.body.cart_id);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(2);
  });

  it("another caller's body under the same key is not refused, and a caller's own mismatch names no other request", async () => {
    const { businessId, key, pkg, start, end, t } = await setup();
    const otherKey = await createKey("public", businessId);
    const a = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0), { "Idempotency-Key": "order-2" });
    const b = await addToCart(otherKey, { guests: [guest(pkg, start, end)] }, t(1), { "Idempotency-Key": "order-2" });
    expect(b.status).toBe(201);
    const mismatch = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(2), { "Idempotency-Key": "order-2" });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.code).toBe("idempotency_key_reused");
    expect(mismatch.body.detail).toBe("This Idempotency-Key was already used with a different request; use a new key for a new request.");
    // Used on another route, the key's first request is not named either.
    const elsewhere = await callJson(`/api/pub/v2/carts/${a.body.cart_id}/checkout`, {
      key,
      now: t(3),
      body: { terms_accepted: true, customer: customer() },
      headers: { "Idempotency-Key": "order-2" },
    });
    expect(elsewhere.status).toBe(422);
    for (const secret of [a.body.cart_id, b.body.cart_id, "/bookings/add"]) expect(elsewhere.body.detail).not.toContain(secret);
  });

  it("a widget visitor who claims a guessable key first cannot make the integrator's request with that key fail", async () => {
    const slug = `idem-scope-${Date.now().toString(36)}`;
    const { createBusiness } = await import("./helpers");
    const businessId = await createBusiness(slug, { widget_allow_loopback: true, rate_limit_per_minute: 10_000 });
    const key = await createKey("public", businessId);
    const pkg = await smallPackage(businessId, 10);
    const { start, end } = stay(1);
    const t = clock();
    const visitor = await callJson(`/widget/v1/${slug}/bookings/add`, {
      body: { currency: "EUR", guests: [guest(pkg, start, end)] },
      now: t(0),
      headers: { Origin: "http://localhost:5173", "CF-Connecting-IP": "203.0.113.50", "Idempotency-Key": "checkout-1" },
    });
    expect(visitor.status).toBe(201);
    const integrator = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1), { "Idempotency-Key": "checkout-1" });
    expect(integrator.status).toBe(201);
    expect(integrator.headers.get("Idempotent-Replayed")).toBeNull();
    expect(integrator.body.cart_id).not.toBe(visitor.body.cart_id);
    // Two visitors are two callers too.
    const second = await callJson(`/widget/v1/${slug}/bookings/add`, {
      body: { currency: "EUR", guests: [guest(pkg, start, end)] },
      now: t(2),
      headers: { Origin: "http://localhost:5173", "CF-Connecting-IP": "203.0.113.51", "Idempotency-Key": "checkout-1" },
    });
    expect(second.status).toBe(201);
    expect(second.body.cart_id).not.toBe(visitor.body.cart_id);
  });
});

/** The middleware's canonical JSON (sorted keys), to forge a running record in a test. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
