/**
 * The balance-due reminders of the scheduled upkeep (issue 31, docs/payments.md "Reminders"): one
 * e-mail with a fresh Stripe payment link for the balance, `reminder_days` before the balance due
 * date in the business's time zone, once however often the upkeep runs; none for a cancelled or
 * paid booking, one made inside its balance window, or a business without Stripe. Run on the test
 * clock: the cron's scheduled time is the upkeep's now.
 */
import { createScheduledController, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../src/index";
import { callJson, createBusiness, createKey, dbOf } from "./helpers";
import { createBookingFixture } from "./private-fixtures";
import { decodedHeader, handedOver, mailSettled, outboxRows, textPart } from "./mail-fixtures";
import type { Received } from "./stripe-standin";
import { mailStub } from "../src/db/emails";

const SK = "rk_test_standinKey0123456789";
const WHSEC = "whsec_standinSigningSecret0123456789";
const ORIGIN = "https://book.example.com";

/** What wrangler's cron trigger does, at `at`, on a deployment whose PUBLIC_ORIGIN is set. */
const runCron = (at: string) => worker.scheduled(createScheduledController({ scheduledTime: Date.parse(at), cron: "*/10 * * * *" }), { ...env, PUBLIC_ORIGIN: ORIGIN });
const sessionsCreated = async (bookingId: string) =>
  ((await (await fetch(`${env.STRIPE_API_BASE}/_standin/requests`)).json()) as Received[]).filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions" && JSON.stringify(r).includes(bookingId));

let biz: number;
let key: string;
const bookings: Record<string, string> = {};
beforeAll(async () => {
  biz = await createBusiness(`remind-${crypto.randomUUID().slice(0, 6)}`, {
    email_from: "mail@camp.example",
    time_zone: "America/New_York",
    payment_policy: { deposit: { type: "percent", percent: 30 }, balance_due_days: 30, reminder_days: 3 },
  });
  key = await createKey("private", biz);
  // the business's e-mail delivery on the same clock as the upkeep's runs
  await mailStub(env, biz).setTestNow("2027-02-05T00:00:00Z");
  expect((await callJson("/private/settings/stripe", { key, method: "PUT", body: { secret_key: SK, webhook_secret: WHSEC } })).status).toBe(200);
  const make = (name: string, o: { start: string; created: string; status?: "confirmed" | "cancelled"; total?: number }) =>
    createBookingFixture({ businessId: biz, booker: { email: `${name}@guest.example`, first_name: name }, start: o.start, end: o.start, createdAt: o.created, status: o.status, totalMinor: o.total ?? 50_000 });
  // due 2027-02-04 (30 days before 6 March): the reminder from 1 February, New York time
  bookings.due = (await make("due", { start: "2027-03-06", created: "2026-11-20T12:00:00Z" })).bookingId;
  bookings.cancelled = (await make("cancelled", { start: "2027-03-06", created: "2026-11-20T12:00:00Z", status: "cancelled" })).bookingId;
  bookings.paid = (await make("paid", { start: "2027-03-06", created: "2026-11-20T12:00:00Z" })).bookingId;
  // made on 25 January for 20 February: its balance was due on 21 January, before it was made
  bookings.inFull = (await make("infull", { start: "2027-02-20", created: "2027-01-25T12:00:00Z" })).bookingId;
  // due 2027-03-02: not yet on 1 February
  bookings.later = (await make("later", { start: "2027-04-01", created: "2026-11-20T12:00:00Z" })).bookingId;
  expect((await callJson(`/private/bookings/${bookings.paid}/payments`, { key, method: "POST", body: { amount: 500, currency: "EUR", method: "bank_transfer" } })).status).toBe(201);
});

const reminders = async () => (await outboxRows(biz)).filter((r: any) => r.kind === "balance_reminder");

describe("balance-due reminders", () => {
  it("are sent reminder_days before the balance due date in the business's time zone, once however often the upkeep runs, with a payment link for the balance", async () => {
    // the day the booking made inside its window was made: it owed everything then, and is never reminded
    await runCron("2027-01-25T18:00:00Z");
    await runCron("2027-01-31T12:00:00Z");
    // 04:00 UTC on 1 February is still 31 January in New York
    await runCron("2027-02-01T04:00:00Z");
    expect(await reminders()).toEqual([]);
    expect(await sessionsCreated(bookings.due)).toEqual([]);

    await runCron("2027-02-01T06:00:00Z");
    await runCron("2027-02-01T06:10:00Z");
    await Promise.all([runCron("2027-02-02T06:00:00Z"), runCron("2027-02-02T06:00:00Z")]);
    await mailSettled(biz);
    const rows = await reminders();
    expect(rows.map((r: any) => [r.recipient, r.booking_id, r.status])).toEqual([["due@guest.example", bookings.due, "sent"]]);
    // one pending stripe entry of the whole balance, one Checkout Session asked of Stripe
    const ledger = (await callJson(`/private/bookings/${bookings.due}/payments`, { key })).body.data;
    expect(ledger.map((e: any) => [e.method, e.status, e.amount])).toEqual([["stripe", "pending", 500]]);
    expect((await sessionsCreated(bookings.due)).length).toBe(1);

    const [sent] = await handedOver(rows[0].message_id);
    expect(decodedHeader(sent.raw, "Subject")).toMatch(/^Reminder: €500\.00 due by Thu, Feb 4, 2027 for your booking/);
    const text = textPart(sent.raw);
    expect(text).toMatch(/Pay €500\.00 now: https:\/\/\S+/);
    expect(text).toContain("Balance due: €500.00");

    const recorded = await (await dbOf(biz)).prepare("SELECT booking_id, balance_due_date, amount_minor, skipped FROM balance_reminders WHERE business_id = ? ORDER BY booking_id").bind(biz).all();
    expect(recorded.results).toEqual(
      [
        { booking_id: bookings.due, balance_due_date: "2027-02-04", amount_minor: 50_000, skipped: null },
        { booking_id: bookings.inFull, balance_due_date: "2027-01-25", amount_minor: 50_000, skipped: "booked_in_full" },
        // "later" (due 2 March) is not looked at as done: it has no row yet
      ].sort((a, b) => (a.booking_id < b.booking_id ? -1 : 1)),
    );
  });

  it("are not sent for a cancelled or paid booking, one made after its due date, or before the window", async () => {
    for (const id of [bookings.cancelled, bookings.paid, bookings.inFull, bookings.later]) {
      expect(await sessionsCreated(id), id).toEqual([]);
      expect((await callJson(`/private/bookings/${id}/payments`, { key })).body.data.filter((e: any) => e.method === "stripe"), id).toEqual([]);
    }
    expect((await reminders()).map((r: any) => r.booking_id)).toEqual([bookings.due]);
  });

  it("are not sent late: a booking whose whole window passed unsent is recorded as skipped", async () => {
    // the upkeep did not run from 26 February to 3 March: "later" (due 2 March) had its window then
    await runCron("2027-03-03T12:00:00Z");
    expect((await reminders()).map((r: any) => r.booking_id)).toEqual([bookings.due]);
    expect(await sessionsCreated(bookings.later)).toEqual([]);
    const row = await (await dbOf(biz)).prepare("SELECT skipped FROM balance_reminders WHERE booking_id = ?").bind(bookings.later).first();
    expect(row).toEqual({ skipped: "due_date_passed" });
  });

  it("are not sent by a business without Stripe", async () => {
    const other = await createBusiness(`remind-ns-${crypto.randomUUID().slice(0, 6)}`, { email_from: "mail@camp.example", payment_policy: { balance_due_days: 30 } });
    const b = await createBookingFixture({ businessId: other, booker: { email: "nostripe@guest.example", first_name: "N" }, start: "2027-03-06", createdAt: "2026-11-20T12:00:00Z", totalMinor: 10_000 });
    await runCron("2027-02-03T12:00:00Z");
    await mailSettled(other);
    expect((await outboxRows(other)).filter((r: any) => r.kind === "balance_reminder")).toEqual([]);
    expect(await sessionsCreated(b.bookingId)).toEqual([]);
  });
});
