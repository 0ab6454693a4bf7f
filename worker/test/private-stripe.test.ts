/**
 * Online payment through Stripe (issue 31): the business's Stripe secrets, payment links, the
 * signed webhook, refunds through Stripe. The real `stripe` SDK talks HTTP to a loopback stand-in
 * (worker/test/stripe-standin.ts, STRIPE_API_BASE in worker/vitest.config.ts); events are signed
 * with the SDK's own test helper and verified as in production.
 */
import { env } from "cloudflare:test";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, dbOf } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";
import type { Received } from "./stripe-standin";
import { REFUND } from "./stripe-fixtures";
import { decodedHeader, handedOver, mailSettled, outboxRows, textPart } from "./mail-fixtures";

const SK = "rk_test_standinKey0123456789";
const WHSEC = "whsec_standinSigningSecret0123456789";

let key: string;
let biz: number;
let slug: string;
beforeAll(async () => {
  slug = `stripe-${crypto.randomUUID().slice(0, 6)}`;
  biz = await createBusiness(slug);
  key = await createKey("private", biz, `owner-${biz}`);
});

const standin = (path: string, init?: RequestInit) => fetch(`${env.STRIPE_API_BASE}${path}`, init);
const received = async (filter: (r: Received) => boolean) => ((await (await standin("/_standin/requests")).json()) as Received[]).filter(filter);
const paySession = async (id: string) => (await (await standin(`/_standin/sessions/${id}/pay`, { method: "POST" })).json()) as Stripe.Checkout.Session;

const booking = (totalMinor = 50000, businessId = biz) => createBookingFixture({ businessId, booker: { email: uniqueEmail("stripe"), first_name: "Payer" }, totalMinor });
const connect = (body: unknown, k = key) => callJson("/private/settings/stripe", { key: k, method: "PUT", body });
const link = (bookingId: string, body: unknown = {}, k = key) => callJson(`/private/bookings/${bookingId}/payment-links`, { key: k, method: "POST", body });
const refund = (bookingId: string, body: unknown, headers: Record<string, string> = {}) => callJson(`/private/bookings/${bookingId}/refunds`, { key, method: "POST", body, headers });
const ledger = async (bookingId: string) => (await callJson(`/private/bookings/${bookingId}/payments`, { key })).body.data as any[];
const money = async (bookingId: string) => {
  const d = (await callJson(`/private/bookings/${bookingId}`, { key })).body.data;
  return { amount_paid: d.amount_paid, amount_refunded: d.amount_refunded, balance_due: d.balance_due, payment_status: d.payment_status };
};

/** Stripe's event of `type` about `object`, as its webhook POSTs it, signed with `secret` at `timestamp` (seconds). */
async function deliver(type: Stripe.Event.Type, object: Stripe.Checkout.Session | Stripe.Refund, options: { secret?: string; timestamp?: number; id?: string; to?: string } = {}) {
  const event = {
    id: options.id ?? `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } as Stripe.Event;
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? WHSEC,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  const res = await callJson(`/stripe/webhook/${options.to ?? slug}`, { method: "POST", body: payload, headers: { "Stripe-Signature": signature } });
  return { ...res, event };
}

describe("connecting Stripe", () => {
  it("keeps the key and the signing secret write-only, sealed at rest, and says only whether they are set", async () => {
    const other = await createBusiness(`stripe-w-${crypto.randomUUID().slice(0, 6)}`);
    const k = await createKey("private", other);
    expect((await callJson("/private/settings/stripe", { key: k })).body.data).toMatchObject({ secret_key_set: false, webhook_secret_set: false, webhook_events: expect.arrayContaining(["checkout.session.completed"]) });
    const put = await connect({ secret_key: SK, webhook_secret: WHSEC }, k);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ secret_key_set: true, webhook_secret_set: true });
    expect(put.body.data.webhook_url).toMatch(/\/stripe\/webhook\/stripe-w-/);
    expect(JSON.stringify(put.body)).not.toContain("standin");
    const row = await env.DB.prepare("SELECT * FROM stripe_accounts WHERE business_id = ?").bind(other).first<any>();
    expect(JSON.stringify(row)).not.toContain("standinKey");
    expect(JSON.stringify(row)).not.toContain("standinSigning");
    // a field left out is kept; null removes
    expect((await connect({ webhook_secret: null }, k)).body.data).toMatchObject({ secret_key_set: true, webhook_secret_set: false });
    const bad = await connect({ secret_key: "pk_live_notASecretKey123" }, k);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("secret_key");
  });

  it("asks no link without a key: 409 payments_not_configured, nothing recorded", async () => {
    const other = await createBusiness(`stripe-n-${crypto.randomUUID().slice(0, 6)}`);
    const k = await createKey("private", other);
    const b = await booking(20000, other);
    const res = await link(b.bookingId, {}, k);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("payments_not_configured");
    expect((await callJson(`/private/bookings/${b.bookingId}/payments`, { key: k })).body.data).toEqual([]);
  });
});

describe("payment links and the webhook", () => {
  beforeAll(async () => {
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC })).status).toBe(200);
  });

  it("makes a hosted Checkout Session for the balance, records it pending, and the signed webhook settles it once", async () => {
    const b = await booking(50000);
    const res = await link(b.bookingId, { send_email: false });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 500, currency: "EUR", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
    const sessionId = res.body.data.session_id;
    const [asked] = await received((r) => r.path === "/v1/checkout/sessions" && r.form["metadata[booking_id]"] === b.bookingId);
    expect(asked.form).toMatchObject({ mode: "payment", ui_mode: "hosted_page", "line_items[0][price_data][unit_amount]": "50000", "line_items[0][price_data][currency]": "eur", "metadata[business_id]": String(biz) });
    expect(asked.key).toBe(`payment-link:${b.bookingId}:50000:0`);
    expect(await ledger(b.bookingId)).toMatchObject([{ id: res.body.data.payment_id, method: "stripe", status: "pending", amount: 500, reference: sessionId }]);
    // the same link asked again: the same session, no second entry
    const again = await link(b.bookingId, { send_email: false });
    expect(again.body.data.session_id).toBe(sessionId);
    expect(await ledger(b.bookingId)).toHaveLength(1);
    expect(await money(b.bookingId)).toMatchObject({ amount_paid: 0, payment_status: "unpaid" });

    const seq = await lastOutboxSeq();
    const paid = await paySession(sessionId);
    const first = await deliver("checkout.session.completed", paid);
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe("applied");
    expect(await ledger(b.bookingId)).toMatchObject([{ status: "succeeded", amount: 500 }]);
    expect(await money(b.bookingId)).toEqual({ amount_paid: 500, amount_refunded: 0, balance_due: 0, payment_status: "paid" });
    // the same event again, and an expiry arriving after: nothing changes
    expect((await deliver("checkout.session.completed", paid, { id: first.event.id })).body.outcome).toBe("duplicate");
    // Stripe's other event for the same paid session (another id): nothing twice
    expect((await deliver("checkout.session.async_payment_succeeded", paid)).status).toBe(200);
    expect((await deliver("checkout.session.expired", { ...paid, status: "expired" })).status).toBe(200);
    expect(await ledger(b.bookingId)).toMatchObject([{ status: "succeeded" }]);
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data.payment_id, e.data.amount, e.data.method])).toEqual([["PaymentReceived", res.body.data.payment_id, 500, "stripe"]]);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity_id = ? ORDER BY id").bind(biz, b.bookingId).all<any>();
    expect(audit.results.map((a) => a.action)).toEqual(["payment_link_created", "payment_recorded"]);
  });

  it("Stripe down while a link is made: 503 stripe_unavailable, nothing recorded; the retry makes it", async () => {
    const b = await booking(20000);
    await standin(`/_standin/outage?count=1&match=${b.bookingId}`, { method: "POST" });
    const down = await link(b.bookingId, { send_email: false });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe("stripe_unavailable");
    expect(down.headers.get("Retry-After")).toBe("5");
    expect(await ledger(b.bookingId)).toEqual([]);
    expect((await link(b.bookingId, { send_email: false })).status).toBe(201);
    expect(await ledger(b.bookingId)).toHaveLength(1);
  });

  it("the same link asked five times at once is one session and one pending entry", async () => {
    const b = await booking(20000);
    const all = await Promise.all(Array.from({ length: 5 }, () => link(b.bookingId, { send_email: false })));
    expect(all.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(all.map((r) => r.body.data.session_id)).size).toBe(1);
    expect(new Set(all.map((r) => r.body.data.payment_id)).size).toBe(1);
    expect(await ledger(b.bookingId)).toHaveLength(1);
  });

  it("refuses a bad or old signature, and another business's booking, with nothing changed", async () => {
    const b = await booking(30000);
    const res = await link(b.bookingId, { amount: 90, send_email: false });
    expect(res.body.data.amount).toBe(90);
    const paid = await paySession(res.body.data.session_id);
    const forged = await deliver("checkout.session.completed", paid, { secret: "whsec_notTheBusinessSecret000" });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe("invalid_signature");
    const old = await deliver("checkout.session.completed", paid, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(old.status).toBe(400);
    const elsewhere = await deliver("checkout.session.completed", { ...paid, metadata: { ...paid.metadata, business_id: String(biz + 100000) } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe("wrong_business");
    expect(await ledger(b.bookingId)).toMatchObject([{ status: "pending" }]);
    expect(await money(b.bookingId)).toMatchObject({ amount_paid: 0 });
  });

  it("an expired link cancels its pending payment with PaymentFailed; an async failure fails it", async () => {
    const b = await booking(30000);
    const seq = await lastOutboxSeq();
    const l1 = (await link(b.bookingId, { amount: 100, send_email: false })).body.data;
    expect((await deliver("checkout.session.expired", { ...(await paySession(l1.session_id)), status: "expired", payment_status: "unpaid" })).body.outcome).toBe("applied");
    const l2 = (await link(b.bookingId, { amount: 100, send_email: false })).body.data;
    expect(l2.session_id).not.toBe(l1.session_id);
    expect((await deliver("checkout.session.async_payment_failed", await paySession(l2.session_id))).body.outcome).toBe("applied");
    expect((await ledger(b.bookingId)).map((e) => e.status)).toEqual(["canceled", "failed"]);
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data.status])).toEqual([
      ["PaymentFailed", "canceled"],
      ["PaymentFailed", "failed"],
    ]);
  });

  it("records the payment as Stripe took it when the pending entry was lost (a crash between the link and its entry)", async () => {
    const b = await booking(40000);
    const l = (await link(b.bookingId, { amount: 150, send_email: false })).body.data;
    const paid = await paySession(l.session_id);
    // the session as Stripe has it, for a link whose entry never reached the ledger
    const orphan = { ...paid, id: `${paid.id}x` };
    expect((await deliver("checkout.session.completed", orphan)).body.outcome).toBe("applied");
    expect((await ledger(b.bookingId)).map((e) => [e.status, e.amount, e.reference])).toEqual([
      ["pending", 150, l.session_id],
      ["succeeded", 150, orphan.id],
    ]);
  });

  it("a crash between the webhook and its effects loses nothing: the event is applied whole on Stripe's retry, once", async () => {
    const b = await booking(40000);
    const l = (await link(b.bookingId, { amount: 120, send_email: false })).body.data;
    const paid = await paySession(l.session_id);
    const db = await dbOf(biz);
    const seq = await lastOutboxSeq();
    // The effects' write dies (here: the outbox refuses it, as a storage failure would) after the
    // ledger's change was made in the same batch.
    await db.prepare("CREATE TRIGGER crash_between_webhook_and_effects BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'storage failed'); END").run();
    let crashed;
    try {
      crashed = await deliver("checkout.session.completed", paid);
    } finally {
      await db.prepare("DROP TRIGGER IF EXISTS crash_between_webhook_and_effects").run();
    }
    // Stripe is told it failed (so it delivers again), and nothing of it stayed: not the payment, not the event marked seen
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    expect(await ledger(b.bookingId)).toMatchObject([{ status: "pending" }]);
    expect(await outboxEvents(biz, seq)).toEqual([]);
    // Stripe's retry of the same event: applied, its effects with it, and once
    expect((await deliver("checkout.session.completed", paid, { id: crashed.event.id })).body.outcome).toBe("applied");
    expect((await deliver("checkout.session.completed", paid, { id: crashed.event.id })).body.outcome).toBe("duplicate");
    expect(await ledger(b.bookingId)).toMatchObject([{ status: "succeeded", amount: 120 }]);
    expect((await outboxEvents(biz, seq)).map((e) => e.event)).toEqual(["PaymentReceived"]);
    const audit = await db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND entity_id = ? AND action = 'payment_recorded'").bind(biz, b.bookingId).first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });
});

describe("the webhook of a business on another shard", () => {
  it("finds the business, and its signing secret, on its own database by the slug in the path", async () => {
    const slug1 = `stripe-s1-${crypto.randomUUID().slice(0, 6)}`;
    const other = await createBusiness(slug1, {}, 1);
    const k = await createKey("private", other);
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC }, k)).status).toBe(200);
    const event = await deliver("customer.created" as Stripe.Event.Type, { ...REFUND }, { to: slug1 });
    expect(event.status).toBe(200);
    expect(event.body.outcome).toBe("ignored");
    expect(await env.DB_SHARD_1.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE business_id = ?").bind(other).first("n")).toBe(1);
  });
});

describe("the payment link e-mail", () => {
  it("is sent to the booker in their language with the link, the amount, what it is for and until when (the business's clock), by default, once per link", async () => {
    const other = await createBusiness(`stripe-m-${crypto.randomUUID().slice(0, 6)}`, { email_from: "mail@camp.example", languages: ["en", "de"], default_language: "en", time_zone: "Europe/Berlin" });
    const k = await createKey("private", other);
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC }, k)).status).toBe(200);
    const b = await createBookingFixture({ businessId: other, booker: { email: "payer@guest.example", first_name: "Payer", language_code: "de" } as any, totalMinor: 25000 });
    const res = await link(b.bookingId, {}, k);
    expect(res.status).toBe(201);
    expect(res.body.data.email_queued).toBe(true);
    await link(b.bookingId, {}, k);
    await mailSettled(other);
    const rows = (await outboxRows(other)).filter((r: any) => r.kind === "payment_link");
    expect(rows.map((r: any) => [r.recipient, r.language, r.status])).toEqual([["payer@guest.example", "de", "sent"]]);
    const [sent] = await handedOver(rows[0].message_id);
    expect(decodedHeader(sent.raw, "Subject")).toMatch(/^Zahlen Sie 250,00\s€ für Ihre Buchung/);
    const text = textPart(sent.raw);
    expect(text).toContain(res.body.data.url);
    expect(text).toMatch(/Jetzt 250,00\s€ zahlen/);
    expect(text).toMatch(/^Zu zahlender Betrag: 250,00\s€\r?$/m);
    // what for: the booking, by its reference
    const d = (await callJson(`/private/bookings/${b.bookingId}`, { key: k })).body.data;
    const reference = `${d.reference_year}-${String(d.reference_number).padStart(5, "0")}`;
    expect(text).toContain(`bittet Sie, 250,00\u00a0€ für Ihre Buchung ${reference} zu zahlen`);
    expect(text).toMatch(new RegExp(`^Buchungsnummer: ${reference}\\r?$`, "m"));
    // until when: as Berlin's clock shows it (CET in winter, an hour ahead of UTC), the zone named
    const expires = new Date(res.body.data.expires_at);
    const berlin = `${String((expires.getUTCHours() + 1) % 24).padStart(2, "0")}:${String(expires.getUTCMinutes()).padStart(2, "0")}`;
    expect(text).toMatch(new RegExp(`^Der Link ist bis .*\\b${berlin} MEZ gültig\\.\\r?$`, "m"));
  });
});

describe("refunds through Stripe", () => {
  beforeAll(async () => {
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC })).status).toBe(200);
  });

  async function paidBooking(total = 50000) {
    const b = await booking(total);
    const l = (await link(b.bookingId, { send_email: false })).body.data;
    const paid = await paySession(l.session_id);
    await deliver("checkout.session.completed", paid);
    return { bookingId: b.bookingId, paymentId: l.payment_id as string, intent: paid.payment_intent as string };
  }

  it("refunds part of a stripe payment through refunds.create, once, and records it when Stripe says succeeded", async () => {
    const p = await paidBooking();
    const seq = await lastOutboxSeq();
    const res = await refund(p.bookingId, { amount: 120.5, currency: "EUR", reason: "one day less" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: "refund", method: "stripe", status: "succeeded", amount: 120.5, payment_id: p.paymentId, reference: expect.stringMatching(/^re_/) });
    const asked = await received((r) => r.path === "/v1/refunds" && r.form.payment_intent === p.intent);
    expect(asked.map((r) => [r.form.amount, r.key])).toEqual([["12050", `refund:${res.body.data.id}`]]);
    expect(await money(p.bookingId)).toEqual({ amount_paid: 500, amount_refunded: 120.5, balance_due: 120.5, payment_status: "partially_refunded" });
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data.refund_id, e.data.amount])).toEqual([["PaymentRefunded", res.body.data.id, 120.5]]);
  });

  it("a refund Stripe answers pending is recorded pending, and succeeded when refund.updated says so", async () => {
    const p = await paidBooking();
    await standin(`/_standin/refunds-pending?match=${p.intent}`, { method: "POST" });
    const res = await refund(p.bookingId, { amount: 80, currency: "EUR" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "pending", reference: expect.stringMatching(/^re_/) });
    expect(await money(p.bookingId)).toMatchObject({ amount_refunded: 0 });
    const seq = await lastOutboxSeq();
    const stripeRefund = { ...REFUND, id: res.body.data.reference, amount: 8000, currency: "eur", payment_intent: p.intent, status: "succeeded", metadata: { business_id: String(biz), booking_id: p.bookingId, refund_id: res.body.data.id } };
    expect((await deliver("refund.updated", stripeRefund)).body.outcome).toBe("applied");
    expect((await deliver("refund.updated", stripeRefund)).body.outcome).not.toBe("applied");
    expect(await money(p.bookingId)).toMatchObject({ amount_refunded: 80, payment_status: "partially_refunded" });
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data.refund_id])).toEqual([["PaymentRefunded", res.body.data.id]]);
  });

  it("Stripe down: 503, the refund stays pending; the retry with the same Idempotency-Key refunds once", async () => {
    const p = await paidBooking();
    await standin(`/_standin/outage?count=1&match=${p.intent}`, { method: "POST" });
    const body = { amount: 50, currency: "EUR" };
    const down = await refund(p.bookingId, body, { "Idempotency-Key": `r-${p.bookingId}` });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe("stripe_unavailable");
    expect(await money(p.bookingId)).toMatchObject({ amount_refunded: 0 });
    expect((await ledger(p.bookingId)).filter((e) => e.type === "refund").map((e) => e.status)).toEqual(["pending"]);
    const retry = await refund(p.bookingId, body, { "Idempotency-Key": `r-${p.bookingId}` });
    expect(retry.status).toBe(201);
    expect(retry.body.data.status).toBe("succeeded");
    const again = await refund(p.bookingId, body, { "Idempotency-Key": `r-${p.bookingId}` });
    expect(again.body.data.id).toBe(retry.body.data.id);
    const asked = await received((r) => r.path === "/v1/refunds" && r.form.payment_intent === p.intent);
    // the refused one and the retry, with the same key: one refund at Stripe
    expect(asked.map((r) => r.key)).toEqual([`refund:${retry.body.data.id}`, `refund:${retry.body.data.id}`]);
    expect((await ledger(p.bookingId)).filter((e) => e.type === "refund")).toHaveLength(1);
    expect(await money(p.bookingId)).toMatchObject({ amount_refunded: 50, payment_status: "partially_refunded" });
  });
});

describe("receipts of stripe payments and refunds", () => {
  it("the webhook that settles a payment writes its receipt once, with the next number; replays and Stripe's second event write none; a refund Stripe confirms gets its own", async () => {
    const to = `stripe-r-${crypto.randomUUID().slice(0, 6)}`;
    const other = await createBusiness(to, { email_from: "mail@camp.example" });
    const k = await createKey("private", other);
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC }, k)).status).toBe(200);
    const b = await createBookingFixture({ businessId: other, booker: { email: uniqueEmail("stripe-r"), first_name: "Payer" }, totalMinor: 50000 });
    const l = (await link(b.bookingId, { send_email: false }, k)).body.data;
    const receiptRows = async () => {
      await mailSettled(other);
      return (await outboxRows(other)).filter((r: any) => r.kind.endsWith("_receipt"));
    };
    // pending: no number, no receipt
    expect((await callJson(`/private/bookings/${b.bookingId}/payments`, { key: k })).body.data.map((e: any) => e.receipt_number)).toEqual([null]);
    expect(await receiptRows()).toEqual([]);

    const paid = await paySession(l.session_id);
    const settled = await deliver("checkout.session.completed", paid, { to });
    expect(settled.body.outcome).toBe("applied");
    const year = new Date().getUTCFullYear();
    expect((await callJson(`/private/bookings/${b.bookingId}/payments`, { key: k })).body.data.map((e: any) => [e.status, e.receipt_number])).toEqual([["succeeded", `${year}-000001`]]);
    // the same event again, and Stripe's other event for the same paid session
    expect((await deliver("checkout.session.completed", paid, { id: settled.event.id, to })).body.outcome).toBe("duplicate");
    expect((await deliver("checkout.session.async_payment_succeeded", paid, { to })).body.outcome).toBe("ignored");
    const rows = await receiptRows();
    expect(rows.map((r: any) => [r.kind, r.status])).toEqual([["payment_receipt", "sent"]]);
    const [sent] = await handedOver(rows[0].message_id);
    const text = textPart(sent.raw);
    expect(text).toContain(`Receipt number: ${year}-000001`);
    expect(text).toContain("Amount paid: €500.00");
    expect(text).toContain("Method: Card (online)");
    expect(text).toContain("Balance left to pay: €0.00");

    // a refund Stripe answers pending: no receipt until refund.updated says succeeded, then one
    const intent = paid.payment_intent as string;
    await standin(`/_standin/refunds-pending?match=${intent}`, { method: "POST" });
    const r = (await callJson(`/private/bookings/${b.bookingId}/refunds`, { key: k, method: "POST", body: { amount: 80, currency: "EUR" } })).body.data;
    expect([r.status, r.receipt_number]).toEqual(["pending", null]);
    expect((await receiptRows()).map((e: any) => e.kind)).toEqual(["payment_receipt"]);
    const stripeRefund = { ...REFUND, id: r.reference, amount: 8000, currency: "eur", payment_intent: intent, status: "succeeded", metadata: { business_id: String(other), booking_id: b.bookingId, refund_id: r.id } };
    expect((await deliver("refund.updated", stripeRefund, { to })).body.outcome).toBe("applied");
    expect((await deliver("refund.updated", stripeRefund, { to })).body.outcome).not.toBe("applied");
    const after = await receiptRows();
    expect(after.map((e: any) => e.kind).sort()).toEqual(["payment_receipt", "refund_receipt"]);
    const refundText = textPart((await handedOver(after.find((e: any) => e.kind === "refund_receipt").message_id))[0].raw);
    expect(refundText).toContain(`Receipt number: ${year}-000002`);
    expect(refundText).toContain("Amount refunded: €80.00");
    expect(refundText).toContain(`Refund of the payment: ${year}-000001, `);
    expect(refundText).toContain("Balance left to pay: €80.00");
  });

  it("the same success delivered several times at the same moment (a replay, Stripe's second event) settles once: one receipt, one number", async () => {
    const to = `stripe-rr-${crypto.randomUUID().slice(0, 6)}`;
    const other = await createBusiness(to, { email_from: "mail@camp.example" });
    const k = await createKey("private", other);
    expect((await connect({ secret_key: SK, webhook_secret: WHSEC }, k)).status).toBe(200);
    const b = await createBookingFixture({ businessId: other, booker: { email: uniqueEmail("stripe-rr"), first_name: "Payer" }, totalMinor: 30000 });
    const paid = await paySession((await link(b.bookingId, { send_email: false }, k)).body.data.session_id);
    const id = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
    const outcomes = await Promise.all([
      deliver("checkout.session.completed", paid, { to, id }),
      deliver("checkout.session.completed", paid, { to, id }),
      deliver("checkout.session.async_payment_succeeded", paid, { to }),
      deliver("checkout.session.completed", paid, { to }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200, 200]);
    expect(outcomes.filter((o) => o.body.outcome === "applied")).toHaveLength(1);
    const year = new Date().getUTCFullYear();
    expect((await callJson(`/private/bookings/${b.bookingId}/payments`, { key: k })).body.data.map((e: any) => [e.status, e.receipt_number])).toEqual([["succeeded", `${year}-000001`]]);
    await mailSettled(other);
    expect((await outboxRows(other)).filter((r: any) => r.kind.endsWith("_receipt")).map((r: any) => [r.kind, r.status])).toEqual([["payment_receipt", "sent"]]);
  });
});
