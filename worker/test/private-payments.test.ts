import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";

let key: string;
let biz: number;
beforeAll(async () => {
  biz = await createBusiness(`pay-${crypto.randomUUID().slice(0, 6)}`);
  await env.DB.prepare("INSERT INTO currencies (business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (?, 'USD', 'Dollar', '$', 1.085, 0)").bind(biz).run();
  key = await createKey("private", biz, `front-desk-${biz}`);
});

const booking = (totalMinor = 50000, extra: { status?: "confirmed" | "cancelled"; email?: string } = {}) =>
  createBookingFixture({ businessId: biz, booker: { email: extra.email ?? uniqueEmail("pay"), first_name: "Payer" }, totalMinor, status: extra.status });
const pay = (bookingId: string, body: unknown, headers: Record<string, string> = {}, k = key) =>
  callJson(`/private/bookings/${bookingId}/payments`, { key: k, method: "POST", body, headers });
const refund = (bookingId: string, body: unknown, headers: Record<string, string> = {}, k = key) =>
  callJson(`/private/bookings/${bookingId}/refunds`, { key: k, method: "POST", body, headers });
const ledger = async (bookingId: string) => (await callJson(`/private/bookings/${bookingId}/payments`, { key })).body.data as any[];
const detail = async (bookingId: string) => (await callJson(`/private/bookings/${bookingId}`, { key })).body.data;
const money = (d: any) => ({ total: d.total, amount_paid: d.amount_paid, amount_refunded: d.amount_refunded, balance_due: d.balance_due, payment_status: d.payment_status });

describe("the payments ledger", () => {
  it("records a manual payment: 201, in the ledger, on the booking's amounts, with its event and audit entry", async () => {
    const b = await booking(50000);
    expect(money(await detail(b.bookingId))).toEqual({ total: 500, amount_paid: 0, amount_refunded: 0, balance_due: 500, payment_status: "unpaid" });
    const seq = await lastOutboxSeq();
    const res = await pay(b.bookingId, { amount: 150.5, currency: "eur", method: "cash", reference: "till 2" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      booking_id: b.bookingId, type: "payment", amount: 150.5, currency: "EUR", method: "cash", status: "succeeded", reference: "till 2", payment_id: null,
      created_by: { type: "api_key", name: `front-desk-${biz}` },
    });
    const d = await detail(b.bookingId);
    expect(money(d)).toEqual({ total: 500, amount_paid: 150.5, amount_refunded: 0, balance_due: 349.5, payment_status: "deposit_paid" });
    // the default policy: no deposit, the balance due on the first day (private-payment-policy.test.ts has the rest)
    expect([d.deposit_due, d.deposit_due_date, d.balance_due_date]).toEqual([null, null, "2026-12-05"]);
    const second = await pay(b.bookingId, { amount: 349.5, currency: "EUR", method: "bank_transfer", reference: "SEPA 42" });
    expect((await ledger(b.bookingId)).map((e) => [e.id, e.amount, e.method])).toEqual([
      [res.body.data.id, 150.5, "cash"],
      [second.body.data.id, 349.5, "bank_transfer"],
    ]);
    expect(money(await detail(b.bookingId))).toMatchObject({ amount_paid: 500, balance_due: 0, payment_status: "paid" });
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data])).toEqual([
      ["PaymentReceived", { booking_id: b.bookingId, payment_id: res.body.data.id, amount: 150.5, currency: "EUR", method: "cash", status: "succeeded" }],
      ["PaymentReceived", { booking_id: b.bookingId, payment_id: second.body.data.id, amount: 349.5, currency: "EUR", method: "bank_transfer", status: "succeeded" }],
    ]);
    const audit = await env.DB.prepare("SELECT action, summary FROM audit_log WHERE business_id = ? AND entity_id = ? ORDER BY id").bind(biz, b.bookingId).all<any>();
    expect(audit.results.map((a) => a.action)).toEqual(["payment_recorded", "payment_recorded"]);
    expect(audit.results[0].summary).toMatch(/^Payment of 150\.50 EUR \(cash\)/);
  });

  it("refunds part of a payment (the latest that covers it by default), then all of it", async () => {
    const b = await booking(50000);
    const first = (await pay(b.bookingId, { amount: 300, currency: "EUR", method: "card_terminal" })).body.data;
    const second = (await pay(b.bookingId, { amount: 100, currency: "EUR", method: "cash" })).body.data;
    const seq = await lastOutboxSeq();
    const r1 = await refund(b.bookingId, { amount: 40, currency: "EUR", reason: "one day less" });
    expect(r1.status).toBe(201);
    expect(r1.body.data).toMatchObject({ type: "refund", amount: 40, method: "cash", status: "succeeded", payment_id: second.id, reason: "one day less" });
    expect(money(await detail(b.bookingId))).toEqual({ total: 500, amount_paid: 400, amount_refunded: 40, balance_due: 140, payment_status: "partially_refunded" });
    // 60 left on the second: 70 comes from the first
    const r2 = await refund(b.bookingId, { amount: 70, currency: "EUR" });
    expect(r2.body.data.payment_id).toBe(first.id);
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data.payment_id, e.data.amount])).toEqual([
      ["PaymentRefunded", second.id, 40],
      ["PaymentRefunded", first.id, 70],
    ]);
    await refund(b.bookingId, { amount: 60, currency: "EUR", payment_id: second.id });
    await refund(b.bookingId, { amount: 230, currency: "EUR", payment_id: first.id });
    expect(money(await detail(b.bookingId))).toMatchObject({ amount_paid: 400, amount_refunded: 400, balance_due: 500, payment_status: "refunded" });
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND entity_id = ? AND action = 'payment_refunded'").bind(biz, b.bookingId).first<any>();
    expect(audit.n).toBe(4);
  });

  it("refuses bad input with 422 naming the field, and records nothing", async () => {
    const b = await booking(50000);
    const p = (await pay(b.bookingId, { amount: 100, currency: "EUR", method: "cash" })).body.data;
    const cancelled = await booking(50000, { status: "cancelled" });
    const seq = await lastOutboxSeq();
    const cases: [string, () => ReturnType<typeof pay>, string][] = [
      ["zero", () => pay(b.bookingId, { amount: 0, currency: "EUR", method: "cash" }), "amount"],
      ["negative", () => pay(b.bookingId, { amount: -5, currency: "EUR", method: "cash" }), "amount"],
      ["three decimals", () => pay(b.bookingId, { amount: 10.005, currency: "EUR", method: "cash" }), "amount"],
      ["another currency", () => pay(b.bookingId, { amount: 10, currency: "USD", method: "cash" }), "currency"],
      ["stripe by hand", () => pay(b.bookingId, { amount: 10, currency: "EUR", method: "stripe" }), "method"],
      ["cancelled booking", () => pay(cancelled.bookingId, { amount: 10, currency: "EUR", method: "cash" }), "booking_id"],
      ["refund above the payment", () => refund(b.bookingId, { amount: 100.01, currency: "EUR", payment_id: p.id }), "amount"],
      ["refund above any payment", () => refund(b.bookingId, { amount: 100.01, currency: "EUR" }), "amount"],
      ["refund of nothing paid", () => refund(cancelled.bookingId, { amount: 1, currency: "EUR" }), "amount"],
      ["refund in another currency", () => refund(b.bookingId, { amount: 1, currency: "USD" }), "currency"],
      ["refund of another booking's payment", () => refund(cancelled.bookingId, { amount: 1, currency: "EUR", payment_id: p.id }), "payment_id"],
      ["refund with too many decimals", () => refund(b.bookingId, { amount: 0.001, currency: "EUR" }), "amount"],
    ];
    for (const [what, send, path] of cases) {
      const res = await send();
      expect(res.status, what).toBe(422);
      expect(res.headers.get("Content-Type"), what).toMatch(/problem\+json/);
      expect(res.body.errors.map((e: any) => e.path), what).toContain(path);
    }
    expect((await ledger(b.bookingId)).map((e) => e.id)).toEqual([p.id]);
    expect(await ledger(cancelled.bookingId)).toEqual([]);
    expect(await outboxEvents(biz, seq)).toEqual([]);
  });

  it("refuses to refund a Stripe payment while the business has no Stripe key (409), recording nothing", async () => {
    const b = await booking(50000);
    // a payment the provider confirmed, as the Stripe integration records it (private-stripe.test.ts refunds one through Stripe)
    await env.DB.prepare(
      `INSERT INTO payments (id, business_id, booking_id, kind, amount_minor, currency, method, status, reference, actor_kind, actor_id, actor_name, created_at, updated_at)
       VALUES (?, ?, ?, 'payment', 15000, 'EUR', 'stripe', 'succeeded', 'pi_123', 'guest', NULL, 'Payer', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z')`,
    ).bind(crypto.randomUUID(), biz, b.bookingId).run();
    const res = await refund(b.bookingId, { amount: 50, currency: "EUR" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("payments_not_configured");
    expect(res.body.detail).toMatch(/Stripe/);
    expect((await ledger(b.bookingId)).map((e) => e.type)).toEqual(["payment"]);
    expect(money(await detail(b.bookingId))).toMatchObject({ amount_paid: 150, payment_status: "deposit_paid" });
  });

  it("answers 404 for another business's booking, exactly as for a missing one", async () => {
    const other = await createBusiness(`pay-other-${crypto.randomUUID().slice(0, 6)}`);
    const otherKey = await createKey("private", other);
    const b = await booking(50000);
    await pay(b.bookingId, { amount: 10, currency: "EUR", method: "cash" });
    expect((await callJson(`/private/bookings/${b.bookingId}/payments`, { key: otherKey })).status).toBe(404);
    expect((await pay(b.bookingId, { amount: 10, currency: "EUR", method: "cash" }, {}, otherKey)).status).toBe(404);
    expect((await refund(b.bookingId, { amount: 1, currency: "EUR" }, {}, otherKey)).status).toBe(404);
    expect((await callJson(`/private/bookings/${crypto.randomUUID()}/payments`, { key })).status).toBe(404);
    expect((await ledger(b.bookingId)).length).toBe(1);
  });

  it("honours Idempotency-Key: a retry replays the first answer, never a second payment", async () => {
    const b = await booking(50000);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await pay(b.bookingId, { amount: 25, currency: "EUR", method: "cash" }, headers);
    const again = await pay(b.bookingId, { currency: "EUR", method: "cash", amount: 25 }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await pay(b.bookingId, { amount: 26, currency: "EUR", method: "cash" }, headers)).body.code).toBe("idempotency_key_reused");
    const rh = { "Idempotency-Key": crypto.randomUUID() };
    const r1 = await refund(b.bookingId, { amount: 5, currency: "EUR" }, rh);
    const r2 = await refund(b.bookingId, { amount: 5, currency: "EUR" }, rh);
    expect(r2.body.data.id).toBe(r1.body.data.id);
    expect((await ledger(b.bookingId)).map((e) => e.amount)).toEqual([25, 5]);
  });

  it("answers a retry whose first request recorded its payment but died before its answer with that payment, never a second", async () => {
    const b = await booking(50000);
    const sent = `died-${crypto.randomUUID()}`;
    const body = { amount: 30, currency: "EUR", method: "bank_transfer", reference: "SEPA 7" };
    const first = await pay(b.bookingId, body, { "Idempotency-Key": sent });
    // what a crash between the entry's batch and the answer's record leaves: the key still running, the entry made
    const keyId = (await env.DB.prepare("SELECT id FROM api_keys WHERE name = ?").bind(`front-desk-${biz}`).first<{ id: string }>())!.id;
    const stored = `key:${keyId} ${sent}`;
    const forged = await env.DB.prepare("UPDATE idempotency SET state = 'running', response_status = NULL, response_body = NULL WHERE business_id = ? AND key = ?").bind(biz, stored).run();
    expect(forged.meta.changes).toBe(1);
    const retry = await pay(b.bookingId, body, { "Idempotency-Key": sent });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body.data).toEqual(first.body.data);
    expect((await ledger(b.bookingId)).length).toBe(1);
  });

  it("lets two refunds at once never take more than the payment had", async () => {
    const b = await booking(50000);
    await pay(b.bookingId, { amount: 100, currency: "EUR", method: "cash" });
    const answers = await Promise.all([refund(b.bookingId, { amount: 60, currency: "EUR" }), refund(b.bookingId, { amount: 60, currency: "EUR" })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(money(await detail(b.bookingId))).toMatchObject({ amount_refunded: 60 });
  });

  it("keeps every entry: the ledger refuses a delete or an edit", async () => {
    const b = await booking(50000);
    const p = (await pay(b.bookingId, { amount: 100, currency: "EUR", method: "cash" })).body.data;
    await expect(env.DB.prepare("DELETE FROM payments WHERE id = ?").bind(p.id).run()).rejects.toThrow(/ledger_entry_kept/);
    await expect(env.DB.prepare("UPDATE payments SET amount_minor = 1 WHERE id = ?").bind(p.id).run()).rejects.toThrow(/ledger_entry_kept/);
    await expect(env.DB.prepare("UPDATE payments SET status = 'failed' WHERE id = ?").bind(p.id).run()).rejects.toThrow(/ledger_entry_kept/);
    expect((await ledger(b.bookingId)).map((e) => [e.amount, e.status])).toEqual([[100, "succeeded"]]);
  });
});

describe("a person's total paid as booker", () => {
  it("is the net paid (payments less refunds) in the default currency, each booking at its own rate", async () => {
    const email = uniqueEmail("booker");
    const eur = await booking(50000, { email });
    const usd = await booking(0, { email });
    // 834.00 EUR booked in USD: 904.90 USD, 834.01 EUR as checkout stored it
    await env.DB.prepare("UPDATE bookings SET currency = 'USD', total_minor = 90490, total_default_minor = 83401 WHERE id = ?").bind(usd.bookingId).run();
    const totals = async () => (await callJson(`/private/persons?email=${encodeURIComponent(email)}`, { key })).body.data[0].totals;
    expect((await totals()).total_paid_as_booker).toBe(0);
    await pay(eur.bookingId, { amount: 200, currency: "EUR", method: "cash" });
    await refund(eur.bookingId, { amount: 49.5, currency: "EUR" });
    await pay(usd.bookingId, { amount: 300, currency: "USD", method: "card_terminal" });
    // 150.50 EUR + 300.00 USD at 83401/90490 = 276.50 EUR
    expect((await totals()).total_paid_as_booker).toBe(427);
    const booker = await callJson(`/private/bookings/${eur.bookingId}/booker`, { key });
    expect(booker.body.data.person.totals.total_paid_as_booker).toBe(427);
  });
});
