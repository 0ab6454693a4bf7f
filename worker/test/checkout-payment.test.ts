/**
 * A guest paying online at checkout (issue 31, docs/payments.md "Paying at checkout"): with the
 * business's payment_policy (online payment, a 30 % deposit, pay_to_confirm) and Stripe connected
 * to the loopback stand-in, checkout books nothing and answers the payment page; Stripe's signed
 * webhook books the cart once, releases it when the page expires, or refunds the payment when the
 * places are gone. The real SDK talks HTTP to the stand-in; events are signed with its test helper.
 */
import { env } from "cloudflare:test";
import Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, customer, guest, liveUnits, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey, dbOf } from "./helpers";
import type { Received } from "./stripe-standin";
import { outboxRows } from "./mail-fixtures";

const SK = "rk_test_standinKey0123456789";
const WHSEC = "whsec_checkoutSigningSecret0123456789";
const POLICY = { online_payment: true, deposit: { type: "percent", percent: 30 }, pay_to_confirm: true, payment_hold_minutes: 30 };

const standin = (path: string, init?: RequestInit) => fetch(`${env.STRIPE_API_BASE}${path}`, init);
const received = async (filter: (r: Received) => boolean) => ((await (await standin("/_standin/requests")).json()) as Received[]).filter(filter);
const paySession = async (id: string) => (await (await standin(`/_standin/sessions/${id}/pay`, { method: "POST" })).json()) as Stripe.Checkout.Session;

async function business(policy: Record<string, unknown> = POLICY) {
  const { businessId, key } = await cartBusiness({ payment_policy: policy });
  const priv = await createKey("private", businessId);
  const slug = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())?.slug
    ?? (await env.DB_SHARD_1.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!.slug;
  expect((await callJson("/private/settings/stripe", { key: priv, method: "PUT", body: { secret_key: SK, webhook_secret: WHSEC } })).status).toBe(200);
  return { businessId, key, priv, slug };
}

/** Stripe's event of `type` about `session`, signed as its webhook sends it, at the test clock's `now`. */
async function deliver(slug: string, type: Stripe.Event.Type, session: Stripe.Checkout.Session, now: string, id = `evt_${crypto.randomUUID().replaceAll("-", "")}`) {
  const event = { id, object: "event", api_version: "2026-10-28.endive", created: Math.floor(Date.parse(now) / 1000), data: { object: session }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type } as Stripe.Event;
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WHSEC, timestamp: Math.floor(Date.parse(now) / 1000), cryptoProvider: Stripe.createSubtleCryptoProvider() });
  return { ...(await callJson(`/stripe/webhook/${slug}`, { method: "POST", body: payload, headers: { "Stripe-Signature": signature }, now })), event };
}

const checkout = (key: string, cartId: string, now: string, extra: Record<string, unknown> = {}) =>
  callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now, body: { terms_accepted: true, customer: customer(), ...extra } });
const bookingsOf = (businessId: number) => count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId);
async function holdsUntil(cartId: string): Promise<string | null> {
  const rows = await Promise.all([env.DB, env.DB_SHARD_1].map((db) => db.prepare("SELECT MIN(expires_at) AS at FROM allocations WHERE cart_id = ? AND booking_id IS NULL AND released_at IS NULL").bind(cartId).first<{ at: string | null }>()));
  return rows.map((r) => r?.at ?? null).find((at) => at !== null) ?? null;
}

describe("paying at checkout (pay_to_confirm)", () => {
  // a business per test: the tests' packages are written straight to D1, behind the catalog's snapshot
  let biz: Awaited<ReturnType<typeof business>>;
  beforeEach(async () => {
    biz = await business();
  });

  it("asks the deposit on Stripe's page and books nothing; the signed webhook books the cart once, with its payment", async () => {
    const pkg = await smallPackage(biz.businessId, 3);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    expect(cart.total).toBe(200);
    const before = await holdsUntil(cart.cart_id);

    // a tampered amount in the body changes nothing: the server's 30 % of 200.00
    const res = await checkout(biz.key, cart.cart_id, t(60), { amount: 1, payment: { amount: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "awaiting_payment", cart_id: cart.cart_id, payment: { amount: 60, currency: "EUR", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) } });
    const [asked] = await received((r) => r.path === "/v1/checkout/sessions" && r.form["metadata[cart_id]"] === cart.cart_id);
    expect(asked.form).toMatchObject({ mode: "payment", "line_items[0][price_data][unit_amount]": "6000", "line_items[0][price_data][currency]": "eur", "metadata[business_id]": String(biz.businessId) });
    expect(asked.form.success_url).toContain(`bw_payment=success&bw_cart=${cart.cart_id}`);
    expect(asked.key).toMatch(new RegExp(`^cart-checkout:${cart.cart_id}:\\d+:6000:`));
    expect(await bookingsOf(biz.businessId)).toBe(0);
    // the places held until the page expires (30 minutes) and a grace
    const held = await holdsUntil(cart.cart_id);
    expect(Date.parse(held!)).toBeGreaterThan(Date.parse(before!));
    expect(Date.parse(held!)).toBe(Date.parse(res.body.payment.expires_at) + 5 * 60_000);
    const view = (await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(70) })).body;
    expect(view).toMatchObject({ status: "open", payment: { status: "awaiting", amount: 60, url: res.body.payment.url } });
    // while the guest pays the cart takes no change; the same checkout answers the same page
    const add = await addToCart(biz.key, { cart_id: cart.cart_id, guests: [guest(pkg, start, end)] }, t(80));
    expect(add.status).toBe(409);
    expect(add.body.code).toBe("cart_awaiting_payment");
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}/extend`, { key: biz.key, method: "PUT", now: t(80) })).body.code).toBe("cart_awaiting_payment");
    const again = await checkout(biz.key, cart.cart_id, t(90));
    expect(again.status).toBe(202);
    expect(again.body.payment.url).toBe(res.body.payment.url);

    const sessionId = res.body.payment.url.split("/").pop();
    const paid = await paySession(sessionId);
    // another business's event naming this cart: refused
    const other = await business();
    const refused = await deliver(other.slug, "checkout.session.completed", { ...paid, metadata: { ...paid.metadata, business_id: String(other.businessId) } }, t(100));
    expect(refused.status).toBe(400);
    expect(await bookingsOf(biz.businessId)).toBe(0);

    const done = await deliver(biz.slug, "checkout.session.completed", paid, t(120));
    expect(done.status).toBe(200);
    expect(done.body.outcome).toBe("applied");
    const booked = (await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(130) })).body;
    expect(booked).toMatchObject({ status: "checked_out", payment: { status: "paid", url: null } });
    const bookingId = booked.booking.id;
    const b = (await callJson(`/private/bookings/${bookingId}`, { key: biz.priv })).body.data;
    expect(b).toMatchObject({ status: "confirmed", total: 200, amount_paid: 60, balance_due: 140, payment_status: "deposit_paid" });
    const ledger = (await callJson(`/private/bookings/${bookingId}/payments`, { key: biz.priv })).body.data;
    expect(ledger).toMatchObject([{ type: "payment", method: "stripe", status: "succeeded", amount: 60, currency: "EUR", reference: sessionId, receipt_number: expect.stringMatching(/^\d{4}-000001$/) }]);
    // the booker's receipt, written in the batch that booked the cart (the booking did not exist before it)
    const receipts = (await outboxRows(biz.businessId)).filter((e: any) => e.kind === "payment_receipt");
    expect(receipts.map((e: any) => e.recipient)).toEqual([expect.stringMatching(/^buyer\d+@example\.com$/)]);

    // the same event again, Stripe's other success event, an expiry after it: nothing new
    expect((await deliver(biz.slug, "checkout.session.completed", paid, t(140), done.event.id)).body.outcome).toBe("duplicate");
    expect((await deliver(biz.slug, "checkout.session.async_payment_succeeded", paid, t(150))).status).toBe(200);
    expect((await deliver(biz.slug, "checkout.session.expired", { ...paid, status: "expired" }, t(160))).status).toBe(200);
    expect(await bookingsOf(biz.businessId)).toBe(1);
    expect((await callJson(`/private/bookings/${bookingId}/payments`, { key: biz.priv })).body.data).toHaveLength(1);
    expect((await outboxRows(biz.businessId)).filter((e: any) => e.kind === "payment_receipt")).toHaveLength(1);
    expect(await received((r) => r.path === "/v1/refunds" && r.form.payment_intent === paid.payment_intent)).toEqual([]);
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(170) })).body.status).toBe("checked_out");
    const events = await env.DB.prepare("SELECT event FROM outbox WHERE business_id = ? AND event = 'PaymentReceived'").bind(biz.businessId).all();
    const events1 = await env.DB_SHARD_1.prepare("SELECT event FROM outbox WHERE business_id = ? AND event = 'PaymentReceived'").bind(biz.businessId).all();
    expect(events.results.length + events1.results.length).toBe(1);
  });

  it("books once when Stripe tells the payment twice at the same moment", async () => {
    const pkg = await smallPackage(biz.businessId, 3);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    const paid = await paySession(res.body.payment.url.split("/").pop());
    const both = await Promise.all([
      deliver(biz.slug, "checkout.session.completed", paid, t(120)),
      deliver(biz.slug, "checkout.session.async_payment_succeeded", paid, t(120)),
      deliver(biz.slug, "checkout.session.completed", paid, t(120)),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await bookingsOf(biz.businessId)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE business_id = ? AND reference = ?", biz.businessId, paid.id)).toBe(1);
  });

  it("releases the places when the payment page expires unpaid, and DELETE cancels the page first", async () => {
    const pkg = await smallPackage(biz.businessId, 3);
    const t = clock();
    const { start, end } = stay(2);
    const bookings = await bookingsOf(biz.businessId);
    const opened = await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0));
    expect(opened.body).toMatchObject({ status: "open" });
    const cart = opened.body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    expect(res.status).toBe(202);
    expect(await liveUnits(pkg, start, t(120))).toBe(1);
    const sessionId = res.body.payment.url.split("/").pop();
    const expired = await deliver(biz.slug, "checkout.session.expired", { ...(await sessionAsIs(sessionId)), status: "expired" }, t(120));
    expect(expired.body.outcome).toBe("applied");
    expect(await liveUnits(pkg, start, t(130))).toBe(0);
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(130) })).body).toMatchObject({ status: "abandoned", payment: { status: "expired" } });

    const second = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(200))).body;
    const paying = await checkout(biz.key, second.cart_id, t(210));
    expect(paying.status).toBe(202);
    const del = await callJson(`/api/pub/v2/carts/${second.cart_id}`, { key: biz.key, method: "DELETE", now: t(220) });
    expect(del.status).toBe(200);
    expect(await liveUnits(pkg, start, t(230))).toBe(0);
    expect((await received((r) => r.path.endsWith("/expire") && r.path.includes(paying.body.payment.url.split("/").pop()))).length).toBe(1);
    expect(await bookingsOf(biz.businessId)).toBe(bookings);
  });

  it("refunds the whole payment once when the places were taken after the hold lapsed, and books nothing", async () => {
    const pkg = await smallPackage(biz.businessId, 1);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    expect(res.status).toBe(202);
    const bookings = await bookingsOf(biz.businessId);
    // the hold lapses (the page's 30 minutes and the grace), and another guest takes the one place
    const late = 60 + 40 * 60;
    const taker = await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(late));
    expect(taker.status).toBe(201);
    const sessionId = res.body.payment.url.split("/").pop();
    const paid = await paySession(sessionId);
    const first = await deliver(biz.slug, "checkout.session.completed", paid, t(late + 60));
    expect(first.status).toBe(200);
    expect(await bookingsOf(biz.businessId)).toBe(bookings);
    const refunds = () => received((r) => r.path === "/v1/refunds" && r.form.payment_intent === paid.payment_intent);
    expect((await refunds()).map((r) => [r.form.amount, r.key])).toEqual([["6000", `cart-refund:${sessionId}`]]);
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(late + 70) })).body).toMatchObject({ status: "abandoned", payment: { status: "refunded" } });
    // told again (a replay, Stripe's other success event): nothing twice
    expect((await deliver(biz.slug, "checkout.session.completed", paid, t(late + 80), first.event.id)).body.outcome).toBe("duplicate");
    expect((await deliver(biz.slug, "checkout.session.async_payment_succeeded", paid, t(late + 90))).status).toBe(200);
    expect(await refunds()).toHaveLength(1);
    expect(await bookingsOf(biz.businessId)).toBe(bookings);
    const audit = await count("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND action = 'cart_payment_refunded' AND entity_id = ?", biz.businessId, cart.cart_id);
    expect(audit).toBe(1);
  });

  it("books a paid cart whose hold lapsed while its places are still free", async () => {
    const pkg = await smallPackage(biz.businessId, 1);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    const late = 60 + 40 * 60;
    const paid = await paySession(res.body.payment.url.split("/").pop());
    expect((await deliver(biz.slug, "checkout.session.completed", paid, t(late))).body.outcome).toBe("applied");
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(late + 10) })).body.status).toBe("checked_out");
    expect(await liveUnits(pkg, start, t(late + 10))).toBe(1);
  });

  it("Stripe down at checkout: 503 stripe_unavailable, nothing booked, the cart as it was; sent again it asks for the payment", async () => {
    const pkg = await smallPackage(biz.businessId, 3);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const before = (await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(30) })).body;
    await standin(`/_standin/outage?count=1&match=${cart.cart_id}`, { method: "POST" });
    const down = await checkout(biz.key, cart.cart_id, t(60));
    expect(down.status).toBe(503);
    expect(down.body.code).toBe("stripe_unavailable");
    const after = (await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(30) })).body;
    expect(after).toEqual(before);
    expect(after.payment).toBeUndefined();
    const retry = await checkout(biz.key, cart.cart_id, t(90));
    expect(retry.status).toBe(202);
  });
});

describe("paying at checkout through the widget's door", () => {
  it("asks a visitor who confirmed as many bookings as one may for no payment: 429, nothing asked of Stripe", async () => {
    const biz = await business({ ...POLICY });
    await (await dbOf(biz.businessId)).prepare("UPDATE businesses SET config = json_set(config, '$.max_bookings_per_visitor_per_hour', 1) WHERE id = ?").bind(biz.businessId).run();
    const pkg = await smallPackage(biz.businessId, 5);
    const t = clock();
    const { start, end } = stay(2);
    const headers = { "CF-Connecting-IP": "198.51.100.31" };
    const open = async (at: string) => (await callJson(`/widget/v1/${biz.slug}/bookings/add`, { method: "POST", body: { currency: "EUR", guests: [guest(pkg, start, end)] }, headers, now: at })).body.cart_id as string;
    const pay = (cartId: string, at: string) => callJson(`/widget/v1/${biz.slug}/carts/${cartId}/checkout`, { method: "POST", body: { terms_accepted: true, customer: customer() }, headers, now: at });
    const first = await pay(await open(t(0)), t(10));
    expect(first.status).toBe(202);
    // back to the business's own page by default, with the marker
    const [asked] = await received((r) => r.path === "/v1/checkout/sessions" && r.form["metadata[cart_id]"] === first.body.cart_id);
    expect(asked.form.success_url).toMatch(new RegExp(`/book/${biz.slug}\\?bw_payment=success&bw_cart=${first.body.cart_id}$`));
    expect((await deliver(biz.slug, "checkout.session.completed", await paySession(first.body.payment.url.split("/").pop()), t(20))).body.outcome).toBe("applied");
    const second = await open(t(30));
    const refused = await pay(second, t(40));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect((await callJson(`/widget/v1/${biz.slug}/carts/${second}`, { headers, now: t(50) })).body.payment).toBeUndefined();
    expect(await bookingsOf(biz.businessId)).toBe(1);
  });
});

describe("what the widget tells the guest of paying", () => {
  it("says they pay online only while Stripe is connected", async () => {
    const { businessId } = await cartBusiness({ payment_policy: POLICY });
    const priv = await createKey("private", businessId);
    const slug = (await (await dbOf(businessId)).prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!.slug;
    const payment = async () => (await callJson(`/widget/v1/${slug}/bootstrap`)).body.payment;
    expect(await payment()).toBeNull();
    expect((await callJson("/private/settings/stripe", { key: priv, method: "PUT", body: { secret_key: SK, webhook_secret: WHSEC } })).status).toBe(200);
    expect(await payment()).toEqual({ pay_to_confirm: true });
    expect((await callJson("/private/settings/stripe", { key: priv, method: "PUT", body: { secret_key: null } })).status).toBe(200);
    expect(await payment()).toBeNull();
  });
});

describe("what paying at checkout asks", () => {
  it("is the product's own deposit where it sets one, as the booking's dues then say", async () => {
    const biz = await business();
    const pkg = await smallPackage(biz.businessId, 3);
    // the business asks 30 %; this package asks half
    await (await dbOf(biz.businessId)).prepare("UPDATE products SET payment_policy = ? WHERE id = ?").bind(JSON.stringify({ deposit: { type: "percent", percent: 50 } }), pkg).run();
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    expect(res.status).toBe(202);
    expect(res.body.payment).toMatchObject({ amount: 100, currency: "EUR" });
    const paid = await paySession(res.body.payment.url.split("/").pop());
    expect((await deliver(biz.slug, "checkout.session.completed", paid, t(120))).body.outcome).toBe("applied");
    const bookingId = (await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key: biz.key, now: t(130) })).body.booking.id;
    expect((await callJson(`/private/bookings/${bookingId}`, { key: biz.priv })).body.data).toMatchObject({ deposit_due: 100, amount_paid: 100, payment_status: "deposit_paid" });
  });
});

describe("paying at checkout, confirmed at once", () => {
  it("books the cart and answers a payment page for the deposit", async () => {
    const biz = await business({ ...POLICY, pay_to_confirm: false });
    const pkg = await smallPackage(biz.businessId, 3);
    const t = clock();
    const { start, end } = stay(2);
    const cart = (await addToCart(biz.key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(biz.key, cart.cart_id, t(60));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "confirmed", total: 200, payment: { amount: 60, currency: "EUR", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) } });
    const ledger = (await callJson(`/private/bookings/${res.body.id}/payments`, { key: biz.priv })).body.data;
    expect(ledger).toMatchObject([{ method: "stripe", status: "pending", amount: 60 }]);
  });
});

/** A session as the stand-in has it (not paid). */
async function sessionAsIs(id: string): Promise<Stripe.Checkout.Session> {
  return (await (await standin(`/v1/checkout/sessions/${id}`, { headers: { Authorization: `Bearer ${SK}` } })).json()) as Stripe.Checkout.Session;
}
