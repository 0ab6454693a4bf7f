/**
 * The Payments screen's reads (issue 31): the ledger's entries of a period with their booking,
 * and the confirmed bookings that still owe money. One D1 round trip each page. The sums are
 * domain/payments-report.ts's; a booking's balance is the rule of domain/payments.ts (the total
 * less what succeeded payments brought net of succeeded refunds), written here in SQL so that a
 * list of bookings is one query.
 */
import type { EntryStatus, PaymentMethod } from "../domain/payments";
import type { D1 } from "./d1";
import { NET_PAID_SQL } from "./payments";

export interface ReportEntry {
  id: string;
  booking_id: string;
  reference: string;
  booker_first_name: string | null;
  booker_last_name: string | null;
  kind: "payment" | "refund";
  method: PaymentMethod;
  status: EntryStatus;
  amount_minor: number;
  currency: string;
  provider_reference: string | null;
  actor_name: string;
  created_at: string;
}

export interface OpenBalance {
  id: string;
  reference: string;
  start_date: string;
  booker_first_name: string | null;
  booker_last_name: string | null;
  total_minor: number;
  currency: string;
  net_paid_minor: number;
  balance_minor: number;
}

const BOOKER = "json_extract(k.person_snapshot, '$.first_name') AS booker_first_name, json_extract(k.person_snapshot, '$.last_name') AS booker_last_name";

/**
 * The entries made from `from` (inclusive) to `to` (exclusive), both UTC datetimes as the ledger
 * writes them, oldest first, at most `limit`; and how many there are in all.
 */
export async function entriesBetween(db: D1, businessId: number, from: string, to: string, limit: number): Promise<{ rows: ReportEntry[]; total: number }> {
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT x.id, x.booking_id, printf('%s-%05d', b.reference_year, b.reference_number) AS reference, ${BOOKER},
                x.kind, x.method, x.status, x.amount_minor, x.currency, x.reference AS provider_reference, x.actor_name, x.created_at
           FROM payments x JOIN bookings b ON b.id = x.booking_id AND b.business_id = x.business_id
           LEFT JOIN bookers k ON k.booking_id = b.id
          WHERE x.business_id = ? AND x.created_at >= ? AND x.created_at < ?
          ORDER BY x.created_at, x.id LIMIT ?`,
      )
      .bind(businessId, from, to, limit),
    db.prepare("SELECT COUNT(*) AS n FROM payments WHERE business_id = ? AND created_at >= ? AND created_at < ?").bind(businessId, from, to),
  ]);
  return { rows: rows.results as unknown as ReportEntry[], total: (count.results[0] as { n: number }).n };
}

/** Confirmed bookings whose net paid is below their total, the soonest to start first, at most `limit`; and how many in all. */
export async function openBalances(db: D1, businessId: number, limit: number): Promise<{ rows: OpenBalance[]; total: number }> {
  const owing = `SELECT b.id, printf('%s-%05d', b.reference_year, b.reference_number) AS reference, b.start_date, ${BOOKER},
                        b.total_minor, b.currency, ${NET_PAID_SQL} AS net_paid_minor
                   FROM bookings b LEFT JOIN bookers k ON k.booking_id = b.id
                  WHERE b.business_id = ? AND b.status = 'confirmed'`;
  const [rows, count] = await db.batch([
    db.prepare(`SELECT *, total_minor - net_paid_minor AS balance_minor FROM (${owing}) WHERE net_paid_minor < total_minor ORDER BY start_date, reference LIMIT ?`).bind(businessId, limit),
    db.prepare(`SELECT COUNT(*) AS n FROM (${owing}) WHERE net_paid_minor < total_minor`).bind(businessId),
  ]);
  return { rows: rows.results as unknown as OpenBalance[], total: (count.results[0] as { n: number }).n };
}
