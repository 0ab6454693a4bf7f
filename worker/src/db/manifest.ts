/**
 * The manifest of a timeslot product's day (the back office's front desk: who is on the 09:00
 * boat), and the statements of moving one booking line to another slot or day (manage/booking-moves.ts).
 *
 * A booking line of a timeslot product carries its date-times ("2026-12-02 14:00:00", one per
 * day); the units it took are allocations of (product, date, slot "14:00") of its booking, merged
 * per booking (one row may count several guests' lines). A move changes both in one batch: the
 * line's date-time, and the booking's units, taken off the old slot and inserted on the new one,
 * where the allocations_capacity trigger (migration 0200) refuses anything beyond capacity or at
 * a time that is not a slot of that day.
 */
import { isoDateTime } from "../lib/time";
import { stamp } from "./allocations";
import type { D1 } from "./d1";
import { lastIdSql } from "./id-range";

/** One guest's line on the day: which slot, whose booking, who they are (their snapshots as JSON text). */
export interface ManifestRow {
  line_id: number;
  booking_id: string;
  reference: string;
  /** The line's date-time of this day, "YYYY-MM-DD HH:mm:ss". */
  at: string;
  qty: number;
  guest_id: string | null;
  guest_snapshot: string | null;
  checked_in_at: string | null;
  booker_snapshot: string | null;
}

/**
 * The lines of confirmed bookings of product ?2 on date ?3, with their guest and booker. The
 * bookings are found through the product-date's booked allocations on a timeslot (index
 * allocations_booked, migration 0560: a line the manifest shows has a time, and so its units a
 * slot), their lines through booking_lines_booking, so a business's other days and
 * products are never read (the joins are CROSS: SQLite keeps their order).
 */
export function manifestStatement(db: D1, businessId: number, productId: number, date: string): D1PreparedStatement {
  return db
    .prepare(
      `WITH day AS (
         SELECT DISTINCT a.booking_id FROM allocations a INDEXED BY allocations_booked
          WHERE a.product_id = ?2 AND a.date = ?3 AND a.slot <> '' AND a.released_at IS NULL AND a.booking_id IS NOT NULL AND a.business_id = ?1)
       SELECT l.id AS line_id, b.id AS booking_id, printf('%s-%05d', b.reference_year, b.reference_number) AS reference, j.value AS at, l.qty,
              l.guest_id, g.person_snapshot AS guest_snapshot, g.checked_in_at, k.person_snapshot AS booker_snapshot
         FROM day
         CROSS JOIN bookings b ON b.id = day.booking_id AND b.business_id = ?1 AND b.status = 'confirmed'
         CROSS JOIN booking_lines l INDEXED BY booking_lines_booking ON l.booking_id = b.id AND l.business_id = b.business_id AND l.product_id = ?2
         CROSS JOIN json_each(l.dates) j ON substr(j.value, 1, 10) = ?3 AND length(j.value) > 10
         LEFT JOIN guests g ON g.id = l.guest_id AND g.business_id = b.business_id
         LEFT JOIN bookers k ON k.booking_id = b.id AND k.business_id = b.business_id
        ORDER BY j.value, json_extract(g.person_snapshot, '$.last_name'), json_extract(g.person_snapshot, '$.first_name'), l.id`,
    )
    .bind(businessId, productId, date);
}

export const manifestRows = (result: D1Result | undefined): ManifestRow[] => (result?.results ?? []) as unknown as ManifestRow[];

/** A booking's live allocation rows of one product-date-slot (the units a move takes from). */
export interface AllocationRow {
  id: number;
  qty: number;
}

export async function bookingSlotAllocations(db: D1, businessId: number, bookingId: string, productId: number, date: string, slot: string): Promise<AllocationRow[]> {
  const rows = await db
    .prepare(
      `SELECT id, qty FROM allocations WHERE booking_id = ? AND business_id = ? AND product_id = ? AND date = ? AND slot = ? AND released_at IS NULL ORDER BY id`,
    )
    .bind(bookingId, businessId, productId, date, slot)
    .all<AllocationRow>();
  return rows.results;
}

/** What a move writes: the line's dates as read and as they become, the units to take off the old slot and put on the new one. */
export interface LineMove {
  businessId: number;
  bookingId: string;
  lineId: number;
  productId: number;
  /** The line's `dates` text as read (the guard: nobody moved it meanwhile). */
  datesBefore: string;
  datesAfter: string[];
  /** The booking's live allocation rows of the old slot, as read. */
  fromRows: AllocationRow[];
  qty: number;
  to: { date: string; slot: string };
  /** The booking's new dates, when a move changes them (a booking of timeslot lines only). */
  bookingDates?: { start: string; end: string };
}

/**
 * The statements of one move, in order: guards (the line's dates and the old slot's rows are as
 * read: a second move of the same line, or of another line sharing the rows, aborts instead of
 * taking units twice), the old slot's units taken off (whole rows released, the last one reduced),
 * the new slot's units inserted (the capacity trigger's 'sold_out' aborts the batch), the line's
 * dates, the booking's dates.
 */
export function moveLineStatements(db: D1, m: LineMove, now: Date): D1PreparedStatement[] {
  const at = stamp(now);
  const out: D1PreparedStatement[] = [
    db
      .prepare("INSERT INTO batch_guard (reason, ok) SELECT 'line_changed', EXISTS (SELECT 1 FROM booking_lines WHERE id = ? AND booking_id = ? AND business_id = ? AND dates = ?)")
      .bind(m.lineId, m.bookingId, m.businessId, m.datesBefore),
    db
      .prepare(
        `INSERT INTO batch_guard (reason, ok) SELECT 'allocations_changed',
           (SELECT COUNT(*) FROM allocations a JOIN json_each(?1) r ON a.id = json_extract(r.value, '$[0]') AND a.qty = json_extract(r.value, '$[1]')
             WHERE a.booking_id = ?2 AND a.business_id = ?3 AND a.released_at IS NULL) = json_array_length(?1)`,
      )
      .bind(JSON.stringify(m.fromRows.map((r) => [r.id, r.qty])), m.bookingId, m.businessId),
  ];
  let left = m.qty;
  for (const r of m.fromRows) {
    if (left <= 0) break;
    if (r.qty <= left) {
      out.push(db.prepare("UPDATE allocations SET released_at = ? WHERE id = ? AND business_id = ? AND released_at IS NULL").bind(at, r.id, m.businessId));
      left -= r.qty;
    } else {
      out.push(db.prepare("UPDATE allocations SET qty = qty - ? WHERE id = ? AND business_id = ? AND released_at IS NULL").bind(left, r.id, m.businessId));
      left = 0;
    }
  }
  out.push(
    db
      .prepare(`INSERT INTO allocations (id, business_id, product_id, date, slot, qty, booking_id, created_at) VALUES (${lastIdSql("allocations")} + 1, ?, ?, ?, ?, ?, ?, ?)`)
      .bind(m.businessId, m.productId, m.to.date, m.to.slot, m.qty, m.bookingId, at),
    db.prepare("UPDATE booking_lines SET dates = ? WHERE id = ? AND booking_id = ? AND business_id = ?").bind(JSON.stringify(m.datesAfter), m.lineId, m.bookingId, m.businessId),
  );
  if (m.bookingDates)
    out.push(
      db
        .prepare("UPDATE bookings SET start_date = ?, end_date = ?, updated_at = ? WHERE id = ? AND business_id = ?")
        .bind(m.bookingDates.start, m.bookingDates.end, isoDateTime(now), m.bookingId, m.businessId),
    );
  return out;
}

/** D1 aborted the batch with the capacity trigger's message. */
export const isSoldOut = (err: unknown) => /sold_out/.test(String((err as Error)?.message ?? err));
