import { BOOKING_RELATED_FIELDS } from "../contract/private";
import { isoDateTime } from "../lib/time";
import { derivedColumns, type PersonWithDerived } from "./persons";

export interface GuestRow {
  id: string;
  business_id: number;
  booking_id: string;
  person_id: string;
  person_snapshot: string;
  web_check_in_at: string | null;
  check_in_at: string | null;
  checked_in_at: string | null;
  check_out_at: string | null;
  checked_out_at: string | null;
  arrival_date: string | null;
  odd_arrival_date: string | null;
  arrival_time: string | null;
  arrival_location_id: number | null;
  arrival_flight: string | null;
  arrival_airline: string | null;
  departure_date: string | null;
  odd_departure_date: string | null;
  departure_time: string | null;
  departure_location_id: number | null;
  departure_flight: string | null;
  departure_airline: string | null;
  transfer_comment: string | null;
  guest_group_id: number | null;
  level_id: number | null;
  /** Derived, kept by triggers (migration 0060): odd arrival, else arrival, else the booking's start date. Never written by the code. */
  arrives_on: string | null;
  /** Derived likewise: odd departure, else departure, else the booking's end date. */
  departs_on: string | null;
  created_at: string;
  updated_at: string;
}

/** A booking's guest (of the business), or null. */
export async function guestRow(db: D1Database, businessId: number, bookingId: string, guestId: string): Promise<GuestRow | null> {
  return db.prepare("SELECT * FROM guests WHERE id = ? AND booking_id = ? AND business_id = ?").bind(guestId, bookingId, businessId).first<GuestRow>();
}

export async function guestsOfBooking(db: D1Database, businessId: number, bookingId: string): Promise<GuestRow[]> {
  const rows = await db.prepare("SELECT * FROM guests WHERE booking_id = ? AND business_id = ? ORDER BY created_at, rowid").bind(bookingId, businessId).all<GuestRow>();
  return rows.results;
}

/** UPDATE of a guest: its person, its snapshot and the booking-related fields given. */
export function updateGuestStatement(
  db: D1Database,
  businessId: number,
  guestId: string,
  change: { personId: string; snapshot: string; related: Record<string, unknown> },
  now: Date,
): D1PreparedStatement {
  const fields = Object.keys(change.related).filter((k) => (BOOKING_RELATED_FIELDS as string[]).includes(k));
  const sets = ["person_id = ?", "person_snapshot = ?", ...fields.map((f) => `${f} = ?`), "updated_at = ?"];
  return db
    .prepare(`UPDATE guests SET ${sets.join(", ")} WHERE id = ? AND business_id = ?`)
    .bind(change.personId, change.snapshot, ...fields.map((f) => (change.related[f] ?? null) as string | number | null), isoDateTime(now), guestId, businessId);
}

export function deleteGuestStatement(db: D1Database, businessId: number, guestId: string): D1PreparedStatement {
  return db.prepare("DELETE FROM guests WHERE id = ? AND business_id = ?").bind(guestId, businessId);
}

/** Batch guard: the guest is still there when the batch commits. */
export function guestExistsGuard(db: D1Database, businessId: number, guestId: string): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'guest_gone', EXISTS (SELECT 1 FROM guests WHERE id = ? AND business_id = ?)").bind(guestId, businessId);
}

/** A built WHERE clause of GET /guests (aliases: g guests, b bookings). */
export interface GuestQuery {
  where: string[];
  params: (string | number)[];
  order: string[];
  page: number;
  limit: number;
}

export type GuestListRow = GuestRow & {
  b_reference_number: number;
  b_reference_year: string;
  b_status: "confirmed" | "cancelled";
  b_currency: string;
  b_total_minor: number;
  b_start_date: string;
  b_end_date: string;
  b_location_id: number | null;
  b_created_at: string;
  b_updated_at: string;
  b_cancelled_at: string | null;
};

/**
 * The page, the count and the page's Persons (with their derived totals) of a guest list, to put
 * in ONE batch; guestListFrom() reads them. The Persons are those of the very page (the same
 * WHERE, order and window as a subquery), so the list costs one round trip, not two.
 *
 * The page is chosen among the guests alone, then joined with its ten bookings: when no filter or
 * sort needs the booking, the matching guests are counted and sorted without a booking lookup
 * each (every guest has its booking, of its business: a foreign key, and guests are only made
 * at checkout), which with 3,600 guests arriving in a fortnight is a third of the time.
 */
export function listGuestsStatements(db: D1Database, businessId: number, q: GuestQuery): D1PreparedStatement[] {
  const where = ["g.business_id = ?", ...q.where].join(" AND ");
  const params = [businessId, ...q.params];
  const join = "JOIN bookings b ON b.id = g.booking_id AND b.business_id = g.business_id";
  const order = [...q.order, "g.created_at ASC", "g.rowid ASC"].join(", ");
  const matching = /\bb\./.test(`${where} ${order}`) ? `FROM guests g ${join}` : "FROM guests g";
  const window = [q.limit, (q.page - 1) * q.limit];
  const pageOf = (column: string) => `SELECT ${column} ${matching} WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`;
  return [
    db
      .prepare(
        `SELECT g.*, b.reference_number AS b_reference_number, b.reference_year AS b_reference_year, b.status AS b_status,
                b.currency AS b_currency, b.total_minor AS b_total_minor, b.start_date AS b_start_date, b.end_date AS b_end_date,
                b.location_id AS b_location_id, b.created_at AS b_created_at, b.updated_at AS b_updated_at, b.cancelled_at AS b_cancelled_at
         FROM guests g ${join} WHERE g.rowid IN (${pageOf("g.rowid")}) ORDER BY ${order}`,
      )
      .bind(...params, ...window),
    db.prepare(`SELECT COUNT(*) AS n ${matching} WHERE ${where}`).bind(...params),
    db
      .prepare(`SELECT p.*, ${derivedColumns("p")} FROM persons p WHERE p.business_id = ? AND p.id IN (${pageOf("g.person_id")})`)
      .bind(businessId, ...params, ...window),
  ];
}

export function guestListFrom([page, count, persons]: D1Result[]): { rows: GuestListRow[]; total: number; persons: Map<string, PersonWithDerived> } {
  return {
    rows: page.results as unknown as GuestListRow[],
    total: (count.results[0] as { n: number }).n,
    persons: new Map((persons.results as unknown as PersonWithDerived[]).map((p) => [p.id, p])),
  };
}
