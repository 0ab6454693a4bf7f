/**
 * The balance-due reminders (issue 31, docs/payments.md "Reminders"), sent by the scheduled
 * upkeep (index.ts `scheduled`, after db/maintenance.ts runMaintenance) on every shard.
 *
 * A confirmed booking gets ONE balance-due e-mail with a fresh Stripe payment link for its balance
 * (manage/stripe.ts createPaymentLink, the reminder's template) when:
 * - its business has Stripe connected (a secret key) and sends e-mail;
 * - something is still owed (balance_due > 0);
 * - the business's day (its time zone) is on or after `reminder_days` before the booking's
 *   balance due date (domain/booking-dues.ts), and not after that date: a run that missed the
 *   whole window (the upkeep down for days) sends none late;
 * - it was not made inside its balance window (it owed everything when it booked: recorded as
 *   skipped, never reminded). One whose window passed unsent is recorded as skipped too, so the
 *   bookings each run looks at (soonest to start first, a bounded number) are the ones to come.
 * `balance_reminders` records it in the batch that writes the e-mail: a second run, or two at
 * once, sends nothing more. Stripe failing leaves the booking for the next run.
 */
import type { Actor } from "../db/audit-log";
import { bookingLines, bookingRow } from "../db/bookings";
import { businessById } from "../db/businesses";
import { storedBookingDues } from "../db/booking-dues";
import { ledgerOf } from "../db/payments";
import { isReminderSent, reminderCandidates, reminderSentStatement } from "../db/reminders";
import { onShard, shardsOf } from "../db/shards";
import { paymentTotals } from "../domain/payments";
import { addDays, dateIn, isoDate } from "../lib/time";
import { createPaymentLink } from "./stripe";

/** Who the reminders' links and audit entries are made by. */
export const REMINDER_ACTOR: Actor = { kind: "cli", id: "balance-reminders", name: "Balance reminders (scheduled upkeep)" };

/** Bookings one run looks at per shard, soonest to start first. */
const CANDIDATES_PER_RUN = 200;
/** The widest window a policy may ask: balance_due_days (at most 365) plus reminder_days (at most 60), and a day of time zones. */
const WINDOW_DAYS = 365 + 60 + 1;

export interface ReminderReport {
  sent: number;
  skipped: number;
  failed: number;
}

/**
 * Send the reminders due at `now`. `origin` is where a link's guest comes back (PUBLIC_ORIGIN):
 * without one no link can be made, and none is sent.
 */
export async function sendBalanceReminders(env: Env, now: Date, origin: string | undefined): Promise<ReminderReport> {
  const report: ReminderReport = { sent: 0, skipped: 0, failed: 0 };
  if (!origin?.trim()) return report;
  const back = new URL(origin.trim()).origin;
  for (let shard = 0; shard < shardsOf(env).length; shard++) {
    const on = onShard(env, shard);
    const utcToday = isoDate(now);
    const candidates = await reminderCandidates(on.DB, addDays(utcToday, -1), addDays(utcToday, WINDOW_DAYS), CANDIDATES_PER_RUN);
    for (const c of candidates) {
      try {
        const outcome = await remindOne(on, c.business_id, c.booking_id, now, back);
        if (outcome === "sent") report.sent++;
        else if (outcome === "skipped") report.skipped++;
      } catch (err) {
        if (isReminderSent(err)) continue;
        report.failed++;
        console.error(JSON.stringify({ level: "error", msg: "balance reminder failed", business_id: c.business_id, booking_id: c.booking_id, error: String(err) }));
      }
    }
  }
  return report;
}

async function remindOne(env: Env, businessId: number, bookingId: string, now: Date, origin: string): Promise<"sent" | "skipped" | "not_yet"> {
  const db = env.DB;
  const [booking, business, lines, ledger] = await Promise.all([bookingRow(db, businessId, bookingId), businessById(db, businessId), bookingLines(db, businessId, bookingId), ledgerOf(db, businessId, bookingId)]);
  if (!booking || !business || booking.status !== "confirmed") return "not_yet";
  const config = business.config;
  const dues = await storedBookingDues(db, businessId, config, booking, lines);
  const balance = paymentTotals(booking.total_minor, ledger).balance_due;
  if (balance <= 0) return "not_yet";
  if (dues.in_full_now) {
    // made inside its balance window: it owed everything at once, and is never reminded
    await db.batch([reminderSentStatement(db, businessId, bookingId, dues.balance_due_date, balance, null, now, "booked_in_full")]);
    return "skipped";
  }
  const today = dateIn(now, config.time_zone);
  const from = addDays(dues.balance_due_date, -config.payment_policy.reminder_days);
  if (today < from) return "not_yet";
  if (today > dues.balance_due_date) {
    // its whole window passed unsent (the upkeep was down, or Stripe was connected later): none late, and not looked at again
    await db.batch([reminderSentStatement(db, businessId, bookingId, dues.balance_due_date, balance, null, now, "due_date_passed")]);
    return "skipped";
  }
  await createPaymentLink(env, REMINDER_ACTOR, businessId, bookingId, { send_email: true }, now, origin, business.slug, {
    reminder: {
      dueDate: dues.balance_due_date,
      statement: (paymentId) => reminderSentStatement(db, businessId, bookingId, dues.balance_due_date, balance, paymentId, now),
    },
  });
  return "sent";
}
