/**
 * The payments ledger's SQL (migration 0460): a booking's payments and refunds, each a row that is
 * never edited or deleted. The rules over them are domain/payments.ts's; the changes go through
 * manage/payments.ts.
 */
import type { EntryStatus, LedgerEntry, PaymentMethod } from "../domain/payments";
import type { Actor } from "./audit-log";
import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

/** Who made an entry: a guest (online), a staff user, an API key (by name), a CLI. */
export type EntryActor = { kind: "guest"; id: string | null; name: string } | Actor;

export interface PaymentRow extends LedgerEntry {
  business_id: number;
  booking_id: string;
  currency: string;
  reference: string | null;
  reason: string | null;
  actor_kind: EntryActor["kind"];
  actor_id: string | null;
  actor_name: string;
  updated_at: string;
  /** A stripe payment's PaymentIntent, once its Checkout Session is paid (migration 0480). */
  provider_intent: string | null;
  /** "2026-000123": a succeeded entry's receipt number (migration 0510); null before it succeeded. */
  receipt_number: string | null;
}

/** A booking's ledger, oldest first. */
export async function ledgerOf(db: D1, businessId: number, bookingId: string): Promise<PaymentRow[]> {
  const rows = await ledgerStatement(db, businessId, bookingId).all<PaymentRow>();
  return rows.results;
}

/** A booking's ledger, oldest first, as a statement (for a batch that reads more). */
export function ledgerStatement(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db.prepare("SELECT * FROM payments WHERE booking_id = ? AND business_id = ? ORDER BY created_at, id").bind(bookingId, businessId);
}

/**
 * The receipt number of an entry that is succeeded and has none yet, allocated in the caller's
 * batch (put these after the statement that makes the entry succeeded): the business's counter for
 * `year` (its calendar year in its time zone) goes up by one, and the entry takes it, written
 * "YYYY-NNNNNN". The counter moves only when the entry is succeeded and unnumbered, so a batch
 * that settles nothing (or aborts) takes no number: the numbers are gap-free, and, the counter
 * only growing, never reused. Batches are serialised by D1, so two at once get two numbers.
 */
export function receiptNumberStatements(db: D1, businessId: number, entryId: string, year: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO receipt_counters (business_id, year, last_number)
         SELECT ?1, ?2, 1 WHERE EXISTS (SELECT 1 FROM payments WHERE id = ?3 AND business_id = ?1 AND status = 'succeeded' AND receipt_number IS NULL)
         ON CONFLICT (business_id, year) DO UPDATE SET last_number = last_number + 1`,
      )
      .bind(businessId, year, entryId),
    db
      .prepare(
        `UPDATE payments SET receipt_number = (SELECT printf('%04d-%06d', year, last_number) FROM receipt_counters WHERE business_id = ?1 AND year = ?2)
          WHERE id = ?3 AND business_id = ?1 AND status = 'succeeded' AND receipt_number IS NULL`,
      )
      .bind(businessId, year, entryId),
  ];
}

export interface NewEntry {
  id: string;
  bookingId: string;
  kind: "payment" | "refund";
  amountMinor: number;
  currency: string;
  method: PaymentMethod;
  status: EntryStatus;
  reference: string | null;
  reason: string | null;
  refundsPaymentId: string | null;
}

/**
 * One new entry. A refund is refused by the table's trigger ('refund_exceeds_payment') when its
 * payment has less left than it asks, whatever another request wrote meanwhile.
 */
export function insertEntryStatement(db: D1, businessId: number, actor: EntryActor, e: NewEntry, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare(
      `INSERT INTO payments (id, business_id, booking_id, kind, amount_minor, currency, method, status, reference, reason, refunds_payment_id,
                             actor_kind, actor_id, actor_name, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(e.id, businessId, e.bookingId, e.kind, e.amountMinor, e.currency, e.method, e.status, e.reference, e.reason, e.refundsPaymentId, actor.kind, actor.id, actor.name, ts, ts);
}

/** The refund was refused by the ledger's trigger: its payment had less left (a concurrent refund came first). */
export const isRefundTooLarge = (err: unknown) => /refund_exceeds_payment/.test(String((err as Error)?.message ?? err));

/** What succeeded entries of booking `b` brought, net (payments less refunds), in its minor units: domain/payments.ts's rule, as SQL for lists. */
export const NET_PAID_SQL = `COALESCE((SELECT SUM(CASE x.kind WHEN 'payment' THEN x.amount_minor ELSE -x.amount_minor END)
    FROM payments x WHERE x.booking_id = b.id AND x.status = 'succeeded'), 0)`;

/**
 * A Person's bookings as booker that have ledger entries, as JSON for the Person's totals: each
 * `[currency, total_minor, total_default_minor, currency's rate now, net paid minor]`, and the
 * business's default currency. Columns of a persons query on the person `p` (db/persons.ts).
 */
export function paidAsBookerColumns(p: string): string {
  return `
    (SELECT json_group_array(json_array(b.currency, b.total_minor, b.total_default_minor, COALESCE(c.exchange_rate, 1),
              ${NET_PAID_SQL}))
       FROM bookers k JOIN bookings b ON b.id = k.booking_id
       LEFT JOIN currencies c ON c.business_id = b.business_id AND c.iso_code = b.currency
      WHERE k.person_id = ${p}.id AND EXISTS (SELECT 1 FROM payments x WHERE x.booking_id = b.id)) AS t_paid_booker,
    (SELECT d.iso_code FROM currencies d WHERE d.business_id = ${p}.business_id AND d.is_default = 1 LIMIT 1) AS t_default_currency`;
}
