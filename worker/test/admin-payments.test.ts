import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createStaff, signedIn } from "./admin-fixtures";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

const page = async (b: Awaited<ReturnType<typeof signedIn>>, id: string) => (await b.get(`/admin/demo/bookings/${id}`)).text();
const sums = (html: string) => ({
  paid: /data-paid[^>]*>([^<]*)</.exec(html)?.[1],
  refunded: /data-refunded[^>]*>([^<]*)</.exec(html)?.[1],
  balance: /data-balance[^>]*>([^<]*)</.exec(html)?.[1],
  status: /data-payment-status="([^"]*)"/.exec(html)?.[1],
});

describe("a booking's payments in the back office", () => {
  it("lets the front desk record a cash deposit and see the balance, but not refund; a manager refunds part", async () => {
    const booking = await createBookingFixture({ booker: { email: uniqueEmail("bo-pay"), first_name: "Cash" }, totalMinor: 80000 });
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    let html = await page(desk, booking.bookingId);
    expect(sums(html)).toEqual({ paid: "0.00 EUR", refunded: "0.00 EUR", balance: "800.00 EUR", status: "unpaid" });
    expect(html).toContain('action="/admin/demo/bookings/' + booking.bookingId + '/payments"');

    const recorded = await desk.post(`/admin/demo/bookings/${booking.bookingId}/payments`, { amount: "240,50", method: "cash", reference: "receipt 17" });
    expect(recorded.status).toBe(303);
    html = await page(desk, booking.bookingId);
    expect(sums(html)).toEqual({ paid: "240.50 EUR", refunded: "0.00 EUR", balance: "559.50 EUR", status: "deposit_paid" });
    // the entry with its receipt number (the number the receipt e-mailed to the booker carries)
    const numbered = await env.DB.prepare("SELECT receipt_number FROM payments WHERE booking_id = ?").bind(booking.bookingId).first<{ receipt_number: string }>();
    expect(numbered?.receipt_number).toMatch(/^\d{4}-\d{6}$/);
    expect(html).toMatch(new RegExp(`<td>Cash</td>\\s*<td class="num">240\\.50 EUR</td>\\s*<td>Succeeded</td>\\s*<td>receipt 17</td>\\s*<td data-receipt="true">${numbered!.receipt_number}</td>\\s*<td>[^<]*front_desk`));
    // no refund form for the front desk, and its POST is refused with nothing recorded
    expect(html).not.toContain("/refunds");
    const refused = await desk.post(`/admin/demo/bookings/${booking.bookingId}/refunds`, { amount: "10" });
    expect(refused.status).toBe(403);

    // a bad amount is shown at the field, nothing recorded
    const bad = await desk.post(`/admin/demo/bookings/${booking.bookingId}/payments`, { amount: "10.005", method: "cash" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/id="f-payment-amount-error"/);

    const manager = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "manager")).email);
    html = await page(manager, booking.bookingId);
    expect(html).toContain(`/bookings/${booking.bookingId}/refunds`);
    const refunded = await manager.post(`/admin/demo/bookings/${booking.bookingId}/refunds`, { amount: "40.50", payment_id: "", reason: "one lesson less" });
    expect(refunded.status).toBe(303);
    html = await page(manager, booking.bookingId);
    expect(sums(html)).toEqual({ paid: "240.50 EUR", refunded: "40.50 EUR", balance: "600.00 EUR", status: "partially_refunded" });
    const ledger = await env.DB.prepare("SELECT kind, amount_minor, actor_kind FROM payments WHERE booking_id = ? ORDER BY created_at, id").bind(booking.bookingId).all();
    expect(ledger.results).toEqual([
      { kind: "payment", amount_minor: 24050, actor_kind: "staff" },
      { kind: "refund", amount_minor: 4050, actor_kind: "staff" },
    ]);
  });
});

describe("Stripe from the booking page", () => {
  it("the front desk sends a payment link; once Stripe's signed webhook says paid, a manager refunds part of it through Stripe", async () => {
    const whsec = "whsec_adminPaymentsSecret0123456789";
    const key = await createKey("private", DEMO_BUSINESS_ID);
    expect((await callJson("/private/settings/stripe", { key, method: "PUT", body: { secret_key: "rk_test_adminPayments0123456789", webhook_secret: whsec } })).status).toBe(200);
    const booking = await createBookingFixture({ booker: { email: uniqueEmail("bo-link"), first_name: "Card" }, totalMinor: 60000 });
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    let html = await page(desk, booking.bookingId);
    expect(html).toContain(`action="/admin/demo/bookings/${booking.bookingId}/payment-links"`);
    const sent = await desk.post(`/admin/demo/bookings/${booking.bookingId}/payment-links`, { amount: "100" });
    expect(sent.status).toBe(303);
    html = await page(desk, booking.bookingId);
    expect(html).toMatch(/<td>Card \(Stripe\)<\/td>\s*<td class="num">100\.00 EUR<\/td>\s*<td>Pending<\/td>/);
    const entry = await env.DB.prepare("SELECT reference FROM payments WHERE booking_id = ?").bind(booking.bookingId).first<{ reference: string }>();
    // the guest pays on Stripe; Stripe's signed event settles it
    const paid = (await (await fetch(`${env.STRIPE_API_BASE}/_standin/sessions/${entry!.reference}/pay`, { method: "POST" })).json()) as Stripe.Checkout.Session;
    const payload = JSON.stringify({ id: `evt_${crypto.randomUUID().replaceAll("-", "")}`, object: "event", type: "checkout.session.completed", data: { object: paid }, created: 0, livemode: false, pending_webhooks: 1, request: null, api_version: null });
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: whsec, cryptoProvider: Stripe.createSubtleCryptoProvider() });
    expect((await callJson("/stripe/webhook/demo", { method: "POST", body: payload, headers: { "Stripe-Signature": signature } })).status).toBe(200);
    const manager = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "manager")).email);
    const refunded = await manager.post(`/admin/demo/bookings/${booking.bookingId}/refunds`, { amount: "30", payment_id: "", reason: "a lesson less" });
    expect(refunded.status).toBe(303);
    html = await page(manager, booking.bookingId);
    expect(sums(html)).toEqual({ paid: "100.00 EUR", refunded: "30.00 EUR", balance: "530.00 EUR", status: "partially_refunded" });
    const asked = ((await (await fetch(`${env.STRIPE_API_BASE}/_standin/requests`)).json()) as any[]).filter((r) => r.path === "/v1/refunds" && r.form.payment_intent === paid.payment_intent);
    expect(asked.map((r) => r.form.amount)).toEqual(["3000"]);
  });
});

describe("connecting Stripe in the back office", () => {
  it("the owner saves the key and the signing secret on Developers: shown as set, never shown back, sealed", async () => {
    const owner = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const saved = await owner.post("/admin/demo/developers/stripe", { secret_key: "rk_live_ownerSavedKey0123456789", webhook_secret: "whsec_ownerSavedSecret0123456789" });
    expect(saved.status).toBe(303);
    const html = await (await owner.get("/admin/demo/developers")).text();
    expect(html).toContain('data-stripe-key="set"');
    expect(html).toContain('data-stripe-webhook="set"');
    expect(html).toContain("/stripe/webhook/demo");
    expect(html).not.toContain("ownerSaved");
    const row = await env.DB.prepare("SELECT * FROM stripe_accounts WHERE business_id = ?").bind(DEMO_BUSINESS_ID).first();
    expect(JSON.stringify(row)).not.toContain("ownerSaved");
    // an empty field keeps what is set; a wrong key is refused at its field
    const bad = await owner.post("/admin/demo/developers/stripe", { secret_key: "pk_live_publishable0123456789", webhook_secret: "" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/id="f-stripe-key-error"/);
    expect((await (await owner.get("/admin/demo/developers")).text())).toContain('data-stripe-webhook="set"');
  });
});
