/**
 * The payment policy in the back office (issue 31): a booking's deposit and balance due date on
 * its page, the refund the cancellation terms suggest when staff cancel (prefilled for a manager,
 * shown to the front desk, never made automatically), and the product form's own policy.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createStaff, signedIn } from "./admin-fixtures";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";
import { addDays, dateIn } from "../src/lib/time";

let key: string;
let zone: string;
beforeAll(async () => {
  key = await createKey("private", DEMO_BUSINESS_ID);
  zone = (await callJson("/private/settings", { key })).body.data.time_zone;
});
const policy = (p: unknown) => callJson("/private/settings", { key, method: "PATCH", body: { payment_policy: p } });
const page = async (b: Awaited<ReturnType<typeof signedIn>>, id: string) => (await b.get(`/admin/demo/bookings/${id}`)).text();
const ledger = async (id: string) => (await env.DB.prepare("SELECT kind, amount_minor FROM payments WHERE booking_id = ? ORDER BY created_at, id").bind(id).all()).results;

describe("a booking's dues on its page", () => {
  it("shows the deposit, whether it is paid, and the balance due date", async () => {
    expect((await policy({ deposit: { type: "percent", percent: 25 }, balance_due_days: 30 })).status).toBe(200);
    const b = await createBookingFixture({
      booker: { email: uniqueEmail("bo-dues"), first_name: "Dues" },
      start: "2027-04-10",
      end: "2027-04-17",
      createdAt: "2026-11-20T12:00:00Z",
      totalMinor: 80_000,
      lines: [{ product_id: 999_001, product_type: "activity", dates: ["2027-04-10"], price_minor: 80_000 }],
    });
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    let html = await page(desk, b.bookingId);
    expect(/data-deposit[^>]*>([^]*?)<\/dd>/.exec(html)?.[1].replace(/<!-- -->/g, "")).toBe("200.00 EUR · 200.00 EUR still owed, due 2026-11-20");
    expect(/data-balance-due-date[^>]*>([^<]*)</.exec(html)?.[1]).toBe("2027-03-11");
    await desk.post(`/admin/demo/bookings/${b.bookingId}/payments`, { amount: "150", method: "cash" });
    html = await page(desk, b.bookingId);
    expect(/data-deposit[^>]*>([^]*?)<\/dd>/.exec(html)?.[1].replace(/<!-- -->/g, "")).toBe("200.00 EUR · 50.00 EUR still owed, due 2026-11-20");
    await desk.post(`/admin/demo/bookings/${b.bookingId}/payments`, { amount: "50", method: "cash" });
    html = await page(desk, b.bookingId);
    expect(/data-deposit[^>]*>([^]*?)<\/dd>/.exec(html)?.[1].replace(/<!-- -->/g, "")).toBe("200.00 EUR · paid");
    expect(/data-balance[^>]*>([^<]*)</.exec(html)?.[1]).toBe("600.00 EUR");
  });
});

describe("cancellation terms", () => {
  it("suggest a refund when staff cancel: prefilled in a manager's refund form, shown to the front desk, nothing refunded automatically", async () => {
    await policy({ deposit: { type: "none" }, cancellation_rules: [{ days_before: 30, refund_percent: 100 }, { days_before: 7, refund_percent: 50 }] });
    const today = dateIn(new Date(), zone);
    // ten days ahead: at least 7, less than 30 -> half of what was paid
    const b = await createBookingFixture({ booker: { email: uniqueEmail("bo-cancel"), first_name: "Cancel" }, start: addDays(today, 10), end: addDays(today, 12), totalMinor: 60_000 });
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    await desk.post(`/admin/demo/bookings/${b.bookingId}/payments`, { amount: "401", method: "card_terminal" });
    let html = await page(desk, b.bookingId);
    // before cancelling, the cancel form says what the terms would suggest today
    expect(/data-would-refund="([^"]*)"/.exec(html)?.[1]).toBe("200.50 EUR");

    const manager = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "manager")).email);
    expect((await manager.post(`/admin/demo/bookings/${b.bookingId}/cancel`, { confirm: "yes" })).status).toBe(303);
    html = await page(manager, b.bookingId);
    expect(/data-suggested-refund="([^"]*)"/.exec(html)?.[1]).toBe("200.50 EUR");
    expect(html).toMatch(/id="f-refund-amount"[^>]*value="200.50"|value="200.50"[^>]*id="f-refund-amount"/);
    expect(await ledger(b.bookingId)).toEqual([{ kind: "payment", amount_minor: 40_100 }]);

    // the front desk sees the suggestion, not the refund form
    html = await page(desk, b.bookingId);
    expect(/data-suggested-refund="([^"]*)"/.exec(html)?.[1]).toBe("200.50 EUR");
    expect(html).not.toContain('id="f-refund-amount"');

    // the private API says the same of the cancelled booking
    expect((await callJson(`/private/bookings/${b.bookingId}`, { key })).body.data.suggested_refund).toBe(200.5);
    // the manager refunds it as suggested
    expect((await manager.post(`/admin/demo/bookings/${b.bookingId}/refunds`, { amount: "200.50", payment_id: "" })).status).toBe(303);
    expect(await ledger(b.bookingId)).toEqual([{ kind: "payment", amount_minor: 40_100 }, { kind: "refund", amount_minor: 20_050 }]);
    // refunded as suggested: the suggestion stays as it was, nothing more is prefilled
    html = await page(manager, b.bookingId);
    expect(/data-suggested-refund="([^"]*)"/.exec(html)?.[1]).toBe("200.50 EUR");
    expect(html).not.toMatch(/id="f-refund-amount"[^>]*value="[^"]+"|value="[^"]+"[^>]*id="f-refund-amount"/);
    expect((await callJson(`/private/bookings/${b.bookingId}`, { key })).body.data.suggested_refund).toBe(200.5);
    await policy({ cancellation_rules: [] });
  });
});

describe("the product form's payment policy", () => {
  it("saves a product's own deposit and due days, shows a bad value at its field, and 'as the business' clears it", async () => {
    const owner = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const made = await callJson("/private/catalog/products", { key, method: "POST", body: { type: "activity", title: "Policy kayak" } });
    const id = made.body.data.id;
    const form = await (await owner.get(`/admin/demo/catalog/products/${id}`)).text();
    const fields = (over: Record<string, string>): [string, string][] => [
      ["title", "Policy kayak"],
      ["pax.min", "1"],
      ["pax.max", "1"],
      ["duration.default", "1"],
      ...["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d): [string, string] => ["allowed_checkin_days", d]),
      ...Object.entries(over),
    ];
    expect(form).toContain('name="payment_policy.deposit.type"');
    const saved = await owner.post(`/admin/demo/catalog/products/${id}`, fields({ "payment_policy.deposit.type": "percent", "payment_policy.deposit.value": "40", "payment_policy.balance_due_days": "21" }));
    expect(saved.status).toBe(303);
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy).toEqual({ deposit: { type: "percent", percent: 40 }, balance_due_days: 21 });
    const bad = await owner.post(`/admin/demo/catalog/products/${id}`, fields({ "payment_policy.deposit.type": "percent", "payment_policy.deposit.value": "140" }));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/id="f-payment_policy-deposit-error"/);
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy.deposit).toEqual({ type: "percent", percent: 40 });
    await owner.post(`/admin/demo/catalog/products/${id}`, fields({ "payment_policy.deposit.type": "", "payment_policy.deposit.value": "", "payment_policy.balance_due_days": "" }));
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy).toBeNull();
  });
});
