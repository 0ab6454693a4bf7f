/**
 * The balance-due reminders' SQL (migration 0500 `balance_reminders`): which bookings may be due
 * one, and the row that records one was sent, written in the batch of its e-mail. The rules
 * (when, for whom) are manage/reminders.ts's.
 */
import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";
import { NET_PAID_SQL } from "./payments";

export interface ReminderCandidate {
  booking_id: string;
  business_id: number;
}

/**
 * Confirmed bookings not yet reminded, of businesses with Stripe connected, that start after
 * `fromDate` and no later than `toDate` (YYYY-MM-DD: the widest window a policy may ask), soonest
 * first, at most `limit`. Whether one is due a reminder today is the caller's to decide.
 */
export async function reminderCandidates(db: D1, fromDate: string, toDate: string, limit: number): Promise<ReminderCandidate[]> {
  const rows = await db
    .prepare(
      // businesses with Stripe first (a small table), then each one's bookings by bookings_dates (business_id, start_date)
      `SELECT b.id AS booking_id, b.business_id FROM stripe_accounts s
         CROSS JOIN bookings b ON b.business_id = s.business_id AND b.start_date > ?1 AND b.start_date <= ?2
        WHERE s.secret_key_sealed IS NOT NULL AND b.status = 'confirmed'
          AND NOT EXISTS (SELECT 1 FROM balance_reminders r WHERE r.booking_id = b.id)
          AND b.total_minor > ${NET_PAID_SQL}
        ORDER BY b.start_date, b.id LIMIT ?3`,
    )
    .bind(fromDate, toDate, limit)
    .all<ReminderCandidate>();
  return rows.results;
}

/** The record that the booking's reminder was sent (or decided): refused as a duplicate when it was already, aborting its batch. */
export function reminderSentStatement(db: D1, businessId: number, bookingId: string, dueDate: string, amountMinor: number, paymentId: string | null, now: Date, skipped: string | null = null): D1PreparedStatement {
  return db
    .prepare("INSERT INTO balance_reminders (booking_id, business_id, balance_due_date, amount_minor, payment_id, skipped, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(bookingId, businessId, dueDate, amountMinor, paymentId, skipped, isoDateTime(now));
}

/** The batch failed because the booking's reminder was recorded already (another run came first). */
export const isReminderSent = (err: unknown) => /UNIQUE constraint failed: balance_reminders/.test(String((err as Error)?.message ?? err));

/** When the booking's reminder was sent (null: not yet). */
export async function reminderSentAt(db: D1, businessId: number, bookingId: string): Promise<string | null> {
  const row = await db.prepare("SELECT sent_at FROM balance_reminders WHERE booking_id = ? AND business_id = ?").bind(bookingId, businessId).first<{ sent_at: string }>();
  return row?.sent_at ?? null;
}
