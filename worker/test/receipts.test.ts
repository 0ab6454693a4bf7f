/**
 * Receipts (issue 31, docs/payments.md "Receipts"): a receipt number per business and calendar
 * year, allocated with the ledger change, and a receipt e-mail to the booker in their language for
 * every payment and refund that succeeds. The e-mails are read back as the local send_email binding
 * was handed them (.eml files, worker/test/mail-files.ts). Stripe's side is in private-stripe.test.ts.
 */
import { describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, dbOf } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";
import { decodedHeader, handedOver, mailSettled, outboxRows, textPart } from "./mail-fixtures";

const MAIL = { email_from: "mail@camp.example", languages: ["en", "de"], default_language: "en" };

/** A business of its own (its receipt series starts at 1), its private key, and a booking of `totalMinor` by a booker speaking `language`. */
async function setUp(language: string, totalMinor = 50000, config: Record<string, unknown> = {}) {
  const businessId = await createBusiness(`rcpt-${crypto.randomUUID().slice(0, 8)}`, { ...MAIL, ...config });
  const key = await createKey("private", businessId);
  const b = await createBookingFixture({
    businessId,
    booker: { email: uniqueEmail("rcpt"), first_name: "Rita", last_name: "Payer", language_code: language } as any,
    guests: [{ first_name: "Gustav", last_name: "Gast" } as any],
    lines: [{ product_id: 999999, product_type: "package", dates: ["2026-12-05"], price_minor: totalMinor }],
    totalMinor,
  });
  return { businessId, key, bookingId: b.bookingId };
}

const pay = (key: string, bookingId: string, body: unknown, headers: Record<string, string> = {}) =>
  callJson(`/private/bookings/${bookingId}/payments`, { key, method: "POST", body, headers });
const refund = (key: string, bookingId: string, body: unknown) => callJson(`/private/bookings/${bookingId}/refunds`, { key, method: "POST", body });
const ledger = async (key: string, bookingId: string) => (await callJson(`/private/bookings/${bookingId}/payments`, { key })).body.data as any[];

/** The receipts the business's booker was sent, each as [kind, Message-ID], in the order they were written. */
async function receipts(businessId: number) {
  await mailSettled(businessId);
  return (await outboxRows(businessId)).filter((r: any) => r.kind.endsWith("_receipt")).sort((a: any, b: any) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The text part of the one message handed over with this Message-ID. */
async function sentText(messageId: string) {
  const sent = await handedOver(messageId);
  expect(sent).toHaveLength(1);
  return { text: textPart(sent[0].raw), subject: decodedHeader(sent[0].raw, "Subject") };
}

const year = () => new Date().getUTCFullYear();
const NBSP = "\u00a0";

describe("receipts", () => {
  it("sends the booker a numbered receipt for a payment and for a refund of it: number, date, amount, method, what was paid for, balance left (English)", async () => {
    const { businessId, key, bookingId } = await setUp("en");
    const p = await pay(key, bookingId, { amount: 150.5, currency: "EUR", method: "cash", reference: "till 2" });
    expect(p.status).toBe(201);
    expect(p.body.data.receipt_number).toBe(`${year()}-000001`);
    const r = await refund(key, bookingId, { amount: 20, currency: "EUR", reason: "one lesson less" });
    expect(r.status).toBe(201);
    expect(r.body.data.receipt_number).toBe(`${year()}-000002`);
    expect((await ledger(key, bookingId)).map((e) => [e.type, e.receipt_number])).toEqual([
      ["payment", `${year()}-000001`],
      ["refund", `${year()}-000002`],
    ]);

    const sent = await receipts(businessId);
    expect(sent.map((e: any) => [e.kind, e.language, e.status])).toEqual([
      ["payment_receipt", "en", "sent"],
      ["refund_receipt", "en", "sent"],
    ]);
    const paid = await sentText(sent[0].message_id);
    expect(paid.subject).toMatch(new RegExp(`^Receipt ${year()}-000001: €150\\.50 received for your booking \\d{4}-\\d+$`));
    expect(paid.text).toContain(`Receipt number: ${year()}-000001`);
    expect(paid.text).toMatch(/^Date: \w{3}, \w{3} \d{1,2}, \d{4}\r?$/m);
    expect(paid.text).toContain("Amount paid: €150.50");
    expect(paid.text).toContain("Method: Cash");
    expect(paid.text).toMatch(/\* Gustav Gast\r?\n {2}Stay: #999999, .*: €500\.00/);
    expect(paid.text).toContain("Total: €500.00");
    expect(paid.text).toContain("Paid so far: €150.50");
    expect(paid.text).toContain("Balance left to pay: €349.50");
    expect(paid.text).toContain("not a tax invoice");

    const back = await sentText(sent[1].message_id);
    expect(back.subject).toMatch(new RegExp(`^Receipt ${year()}-000002: €20\\.00 refunded for your booking `));
    expect(back.text).toContain(`Receipt number: ${year()}-000002`);
    expect(back.text).toContain("Amount refunded: €20.00");
    expect(back.text).toContain("Method: Cash");
    expect(back.text).toMatch(new RegExp(`Refund of the payment: ${year()}-000001, `));
    expect(back.text).toContain("Reason: one lesson less");
    expect(back.text).toContain("Paid so far: €130.50");
    expect(back.text).toContain("Balance left to pay: €369.50");
  });

  it("writes the receipt in the booker's language (German: number, amount, method, balance left)", async () => {
    const { businessId, key, bookingId } = await setUp("de");
    expect((await pay(key, bookingId, { amount: 150.5, currency: "EUR", method: "bank_transfer", reference: "SEPA 42" })).status).toBe(201);
    const [row] = await receipts(businessId);
    expect([row.kind, row.language]).toEqual(["payment_receipt", "de"]);
    const { text, subject } = await sentText(row.message_id);
    expect(subject).toMatch(new RegExp(`^Quittung ${year()}-000001: 150,50${NBSP}€ für Ihre Buchung .* erhalten$`));
    expect(text).toContain(`Quittungsnummer: ${year()}-000001`);
    expect(text).toContain(`Gezahlter Betrag: 150,50${NBSP}€`);
    expect(text).toContain("Zahlungsart: Banküberweisung");
    expect(text).toContain(`Noch zu zahlen: 349,50${NBSP}€`);
  });

  it("numbers payments made at the same moment one after the other, gap-free, each receipt stating the balance after its own place", async () => {
    const { businessId, key, bookingId } = await setUp("en", 50000);
    const all = await Promise.all(Array.from({ length: 5 }, () => pay(key, bookingId, { amount: 100, currency: "EUR", method: "cash" })));
    expect(all.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const numbers = all.map((r) => r.body.data.receipt_number as string).sort();
    expect(numbers).toEqual([1, 2, 3, 4, 5].map((n) => `${year()}-00000${n}`));
    // two refunds at once of which only one fits: the refused one takes no number
    const both = { amount: 100, currency: "EUR", payment_id: all[0].body.data.id };
    const refunds = await Promise.all([refund(key, bookingId, both), refund(key, bookingId, both)]);
    expect(refunds.map((r) => r.status).sort()).toEqual([201, 422]);
    const made = refunds.filter((r) => r.status === 201);
    expect(made.map((r) => r.body.data.receipt_number).sort()).toEqual(made.map((_, i) => `${year()}-00000${6 + i}`));
    const next = await pay(key, bookingId, { amount: 1, currency: "EUR", method: "other" });
    expect(next.body.data.receipt_number).toBe(`${year()}-00000${6 + made.length}`);

    const sent = await receipts(businessId);
    // the refused refund wrote no receipt either
    expect(sent.filter((r: any) => r.kind === "refund_receipt")).toHaveLength(made.length);
    const balances: [string, string][] = [];
    for (const row of sent.filter((r: any) => r.kind === "payment_receipt")) {
      const { text } = await sentText(row.message_id);
      balances.push([/Receipt number: (\S+)/.exec(text)![1], /Balance left to pay: (\S+)/.exec(text)![1]]);
    }
    expect(balances.sort().slice(0, 5)).toEqual([
      [`${year()}-000001`, "€400.00"],
      [`${year()}-000002`, "€300.00"],
      [`${year()}-000003`, "€200.00"],
      [`${year()}-000004`, "€100.00"],
      [`${year()}-000005`, "€0.00"],
    ]);
  });

  it("takes the year in the business's time zone: at 12:00 UTC on 31 December, Auckland's receipts are of the next year, UTC's of this one", async () => {
    const at = { "X-Test-Now": "2026-12-31T12:00:00Z" };
    const auckland = await setUp("en", 50000, { time_zone: "Pacific/Auckland" });
    const utc = await setUp("en", 50000, { time_zone: "UTC" });
    expect((await pay(auckland.key, auckland.bookingId, { amount: 10, currency: "EUR", method: "cash" }, at)).body.data.receipt_number).toBe("2027-000001");
    expect((await pay(utc.key, utc.bookingId, { amount: 10, currency: "EUR", method: "cash" }, at)).body.data.receipt_number).toBe("2026-000001");
    // a new year is a new series; the old one goes on where it was
    expect((await pay(utc.key, utc.bookingId, { amount: 10, currency: "EUR", method: "cash" }, { "X-Test-Now": "2027-01-01T00:00:01Z" })).body.data.receipt_number).toBe("2027-000001");
    expect((await pay(utc.key, utc.bookingId, { amount: 10, currency: "EUR", method: "cash" }, at)).body.data.receipt_number).toBe("2026-000002");
  });

  it("never changes a receipt number once given", async () => {
    const { businessId, key, bookingId } = await setUp("en");
    const p = (await pay(key, bookingId, { amount: 10, currency: "EUR", method: "cash" })).body.data;
    const db = await dbOf(businessId);
    await expect(db.prepare("UPDATE payments SET receipt_number = '1999-000001' WHERE id = ?").bind(p.id).run()).rejects.toThrow(/ledger_entry_kept/);
    expect((await ledger(key, bookingId))[0].receipt_number).toBe(p.receipt_number);
  });
});
