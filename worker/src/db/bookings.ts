import { isoDateTime } from "../lib/time";
import { conditions, inList, inRange, type Conditions, type Range } from "./list-filters";
import type { D1 } from "./d1";

export interface BookingRow {
  id: string;
  business_id: number;
  cart_id: string | null;
  reference_number: number;
  reference_year: string;
  status: "confirmed" | "cancelled";
  currency: string;
  total_minor: number;
  total_default_minor: number;
  start_date: string;
  end_date: string;
  location_id: number | null;
  newsletter_opt_in: number;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
}

export async function bookingRow(db: D1, businessId: number, id: string): Promise<BookingRow | null> {
  return db.prepare("SELECT * FROM bookings WHERE id = ? AND business_id = ?").bind(id, businessId).first<BookingRow>();
}

export interface BookingLineRow {
  id: number;
  guest_id: string | null;
  product_id: number;
  /** The product's title now; archived products keep theirs. */
  product_title: string;
  product_type: string;
  package_item_id: number | null;
  role: string;
  dates: string;
  qty: number;
  price_minor: number;
}

export async function bookingLines(db: D1, businessId: number, bookingId: string): Promise<BookingLineRow[]> {
  const rows = await db
    .prepare(
      `SELECT l.id, l.guest_id, l.product_id, COALESCE(p.title, '') AS product_title, l.product_type, l.package_item_id, l.role, l.dates, l.qty, l.price_minor
         FROM booking_lines l LEFT JOIN products p ON p.id = l.product_id AND p.business_id = l.business_id
        WHERE l.booking_id = ? AND l.business_id = ? ORDER BY l.id`,
    )
    .bind(bookingId, businessId)
    .all<BookingLineRow>();
  return rows.results;
}

export async function bookerRow(db: D1, businessId: number, bookingId: string) {
  return db
    .prepare("SELECT * FROM bookers WHERE booking_id = ? AND business_id = ?")
    .bind(bookingId, businessId)
    .first<{ id: string; booking_id: string; person_id: string; person_snapshot: string; company_name: string | null; tax_number: string | null }>();
}

/** The filters of a bookings list (GET /private/bookings, the back office's Bookings screen), every one optional. */
export interface BookingFilter {
  statuses?: string[];
  startDate?: Range;
  endDate?: Range;
  createdAt?: Range;
  referenceNumber?: number;
  referenceYear?: string;
}

/** A bookings filter as SQL conditions on the booking `b`, for listBookings(). */
export function bookingConditions(f: BookingFilter): Conditions {
  const c = conditions();
  inList(c, "b.status", f.statuses);
  inRange(c, "b.start_date", f.startDate);
  inRange(c, "b.end_date", f.endDate);
  inRange(c, "b.created_at", f.createdAt);
  if (f.referenceNumber !== undefined) {
    c.where.push("b.reference_number = ?");
    c.params.push(f.referenceNumber);
  }
  if (f.referenceYear !== undefined) {
    c.where.push("b.reference_year = ?");
    c.params.push(f.referenceYear);
  }
  return c;
}

export interface BookingQuery {
  where: string[];
  params: (string | number)[];
  page: number;
  limit: number;
}

export async function listBookings(db: D1, businessId: number, q: BookingQuery): Promise<{ rows: BookingRow[]; total: number }> {
  const where = ["b.business_id = ?", ...q.where].join(" AND ");
  const params = [businessId, ...q.params];
  const [page, count] = await db.batch([
    db.prepare(`SELECT b.* FROM bookings b WHERE ${where} ORDER BY b.created_at DESC, b.id LIMIT ? OFFSET ?`).bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS n FROM bookings b WHERE ${where}`).bind(...params),
  ]);
  return { rows: page.results as unknown as BookingRow[], total: (count.results[0] as { n: number }).n };
}

/** Batch guard: the booking exists and is confirmed when the batch commits. */
export function bookingConfirmedGuard(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO batch_guard (reason, ok) SELECT 'booking_not_confirmed', EXISTS (SELECT 1 FROM bookings WHERE id = ? AND business_id = ? AND status = 'confirmed')")
    .bind(bookingId, businessId);
}

export function cancelBookingStatement(db: D1, businessId: number, bookingId: string, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare("UPDATE bookings SET status = 'cancelled', cancelled_at = ?, updated_at = ? WHERE id = ? AND business_id = ? AND status = 'confirmed'")
    .bind(ts, ts, bookingId, businessId);
}

/** Aborts the batch ('booker_changed') unless the booker still belongs to `personId` (no concurrent e-mail flow moved it). */
export function bookerStillOfStatement(db: D1, bookerId: string, personId: string): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'booker_changed', EXISTS (SELECT 1 FROM bookers WHERE id = ? AND person_id = ?)").bind(bookerId, personId);
}

/** The booker's Person, snapshot and invoicing fields, as PUT /bookings/{id}/booker leaves them. */
export function updateBookerStatement(
  db: D1,
  businessId: number,
  bookerId: string,
  b: { personId: string; snapshot: string; companyName: string | null; taxNumber: string | null; updatedAt: string },
): D1PreparedStatement {
  return db
    .prepare("UPDATE bookers SET person_id = ?, person_snapshot = ?, company_name = ?, tax_number = ?, updated_at = ? WHERE id = ? AND business_id = ?")
    .bind(b.personId, b.snapshot, b.companyName, b.taxNumber, b.updatedAt, bookerId, businessId);
}

/** The id of the booker of a booking. */
export function bookerIdStatement(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db.prepare("SELECT id FROM bookers WHERE booking_id = ? AND business_id = ?").bind(bookingId, businessId);
}

/**
 * The back office's booking search: a reference ("2026-1001" or its number), or part of the
 * booker's name or e-mail (as entered for the booking). A condition on the booking `b`.
 */
export function bookingSearchCondition(text: string): { sql: string; params: (string | number)[] } {
  const term = text.trim().slice(0, 100);
  const ref = /^(\d{4})-(\d{1,10})$/.exec(term);
  if (ref) return { sql: "(b.reference_year = ? AND b.reference_number = ?)", params: [ref[1], Number(ref[2])] };
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const number = /^\d{1,10}$/.test(term) ? Number(term) : -1;
  return {
    sql: `(b.reference_number = ? OR EXISTS (SELECT 1 FROM bookers k WHERE k.booking_id = b.id AND (
            lower(COALESCE(json_extract(k.person_snapshot, '$.first_name'), '') || ' ' || COALESCE(json_extract(k.person_snapshot, '$.last_name'), '')) LIKE ? ESCAPE '\\'
            OR lower(COALESCE(json_extract(k.person_snapshot, '$.email'), '')) LIKE ? ESCAPE '\\')))`,
    params: [number, like, like],
  };
}

/** The bookers' names of some bookings (for a list). */
export async function bookerNames(db: D1, businessId: number, bookingIds: string[]): Promise<Map<string, string>> {
  if (!bookingIds.length) return new Map();
  const rows = await db
    .prepare(
      `SELECT booking_id, TRIM(COALESCE(json_extract(person_snapshot, '$.first_name'), '') || ' ' || COALESCE(json_extract(person_snapshot, '$.last_name'), '')) AS name,
              json_extract(person_snapshot, '$.email') AS email
         FROM bookers WHERE business_id = ? AND booking_id IN (SELECT value FROM json_each(?))`,
    )
    .bind(businessId, JSON.stringify(bookingIds))
    .all<{ booking_id: string; name: string; email: string | null }>();
  return new Map(rows.results.map((r) => [r.booking_id, r.name || r.email || ""]));
}
