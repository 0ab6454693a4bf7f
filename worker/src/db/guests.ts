import { BOOKING_RELATED_FIELDS } from "../contract/private";
import { isoDateTime } from "../lib/time";
import { derivedColumns, type PersonWithDerived } from "./persons";
import { conditions, inList, inRange, orderSql, rangeSql, type Conditions, type Range, type Sort } from "./list-filters";
import type { D1 } from "./d1";

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
export async function guestRow(db: D1, businessId: number, bookingId: string, guestId: string): Promise<GuestRow | null> {
  return db.prepare("SELECT * FROM guests WHERE id = ? AND booking_id = ? AND business_id = ?").bind(guestId, bookingId, businessId).first<GuestRow>();
}

export async function guestsOfBooking(db: D1, businessId: number, bookingId: string): Promise<GuestRow[]> {
  const rows = await db.prepare("SELECT * FROM guests WHERE booking_id = ? AND business_id = ? ORDER BY created_at, rowid").bind(bookingId, businessId).all<GuestRow>();
  return rows.results;
}

/** UPDATE of a guest: its person, its snapshot and the booking-related fields given. */
export function updateGuestStatement(
  db: D1,
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

export function deleteGuestStatement(db: D1, businessId: number, guestId: string): D1PreparedStatement {
  return db.prepare("DELETE FROM guests WHERE id = ? AND business_id = ?").bind(guestId, businessId);
}

/** Batch guard: the guest is still there when the batch commits. */
export function guestExistsGuard(db: D1, businessId: number, guestId: string): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'guest_gone', EXISTS (SELECT 1 FROM guests WHERE id = ? AND business_id = ?)").bind(guestId, businessId);
}

/** A built WHERE clause of GET /guests (aliases: g guests, b bookings). */
/** The fields a guest list sorts by (`sort_by`). */
export const GUEST_SORT_FIELDS = [
  "booking_related_data.arrival_date",
  "booking_related_data.departure_date",
  "booking_related_data.check_in_at",
  "booking_related_data.check_out_at",
  "booking_related_data.checked_in_at",
  "booking_related_data.checked_out_at",
  "person.gender",
] as const;
export type GuestSortField = (typeof GUEST_SORT_FIELDS)[number];
const GUEST_SORT_COLUMNS: Record<GuestSortField, string> = {
  "booking_related_data.arrival_date": "g.arrival_date",
  "booking_related_data.departure_date": "g.departure_date",
  "booking_related_data.check_in_at": "g.check_in_at",
  "booking_related_data.check_out_at": "g.check_out_at",
  "booking_related_data.checked_in_at": "g.checked_in_at",
  "booking_related_data.checked_out_at": "g.checked_out_at",
  "person.gender": "json_extract(g.person_snapshot, '$.gender')",
};

/** The filters of a guest list (GET /private/guests, the back office's Guests screen), every one optional. */
export interface GuestFilter {
  /** A filter on something not recorded here (agreements, product variants): nothing matches. */
  matchesNothing?: boolean;
  arrivalLocationIds?: number[];
  departureLocationIds?: number[];
  /** The guest's effective arrival and departure dates (its odd date, else its own, else the booking's). */
  arrives?: Range;
  departs?: Range;
  bookingCreatedAt?: Range;
  bookingUpdatedAt?: Range;
  bookingStartDate?: Range;
  bookingEndDate?: Range;
  bookingIds?: string[];
  bookingLocationIds?: number[];
  /** Bookings with a line of one of these products, or of these product types. */
  productIds?: number[];
  productTypes?: string[];
  referenceNumber?: number;
  referenceYear?: string;
  bookingStatuses?: string[];
  checkInAt?: Range;
  checkOutAt?: Range;
  checkedInAt?: Range;
  checkedOutAt?: Range;
  /** Every key equals its value in the guest's person (null: absent or null). */
  customFields?: Record<string, string | number | null>;
  dietIds?: number[];
  oddArrival?: boolean;
  oddDeparture?: boolean;
  /** On site some time in this window (confirmed bookings; checked-in/out times first, else planned ones, else the dates). */
  onSite?: { from?: string; to?: string };
  /** Arriving or departing within these dates. */
  transferDates?: { from?: string; to?: string };
  sort?: Sort<GuestSortField>[];
}

export interface GuestQuery {
  filter: GuestFilter;
  page: number;
  limit: number;
}

// A guest's effective arrival and departure: its odd date, else its own date, else the booking's
// (COALESCE(g.odd_arrival_date, g.arrival_date, b.start_date) and likewise for departure). Stored
// on the guest and kept by triggers (migration 0060), so that the filters search the indexes
// guests_business_arrives / guests_business_departs instead of every guest of the business.
const ARRIVAL = "g.arrives_on";
const DEPARTURE = "g.departs_on";
const ON_SITE_FROM = `COALESCE(g.checked_in_at, g.check_in_at, ${ARRIVAL} || 'T00:00:00Z')`;
const ON_SITE_TO = `COALESCE(g.checked_out_at, g.check_out_at, ${DEPARTURE} || 'T23:59:59Z')`;

/** A guest filter as SQL conditions on the guest `g` and its booking `b`. */
function guestConditions(f: GuestFilter): Conditions {
  const c = conditions();
  if (f.matchesNothing) c.where.push("0");
  inList(c, "g.arrival_location_id", f.arrivalLocationIds);
  inList(c, "g.departure_location_id", f.departureLocationIds);
  inRange(c, ARRIVAL, f.arrives);
  inRange(c, DEPARTURE, f.departs);
  inRange(c, "b.created_at", f.bookingCreatedAt);
  inRange(c, "b.updated_at", f.bookingUpdatedAt);
  inRange(c, "b.start_date", f.bookingStartDate);
  inRange(c, "b.end_date", f.bookingEndDate);
  inList(c, "g.booking_id", f.bookingIds);
  inList(c, "b.location_id", f.bookingLocationIds);
  for (const [column, values] of [["bl.product_id", f.productIds], ["bl.product_type", f.productTypes]] as const) {
    if (!values) continue;
    const line = conditions();
    inList(line, column, values);
    c.where.push(`EXISTS (SELECT 1 FROM booking_lines bl WHERE bl.booking_id = b.id AND ${line.where[0]})`);
    c.params.push(...line.params);
  }
  if (f.referenceNumber !== undefined) {
    c.where.push("b.reference_number = ?");
    c.params.push(f.referenceNumber);
  }
  if (f.referenceYear !== undefined) {
    c.where.push("b.reference_year = ?");
    c.params.push(f.referenceYear);
  }
  inList(c, "b.status", f.bookingStatuses);
  inRange(c, "g.check_in_at", f.checkInAt);
  inRange(c, "g.check_out_at", f.checkOutAt);
  inRange(c, "g.checked_in_at", f.checkedInAt);
  inRange(c, "g.checked_out_at", f.checkedOutAt);
  if (f.customFields) {
    // Every key must equal (null: absent or null), as ONE condition over ONE parameter however
    // many keys: a condition per key met D1's parameter and expression-depth limits.
    c.where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) f WHERE json_extract(g.person_snapshot, '$.custom_fields."' || f.key || '"') IS NOT f.value)`);
    c.params.push(JSON.stringify(f.customFields));
  }
  inList(c, "json_extract(g.person_snapshot, '$.diet_id')", f.dietIds);
  if (f.oddArrival !== undefined) c.where.push(`g.odd_arrival_date IS ${f.oddArrival ? "NOT " : ""}NULL`);
  if (f.oddDeparture !== undefined) c.where.push(`g.odd_departure_date IS ${f.oddDeparture ? "NOT " : ""}NULL`);
  if (f.onSite) {
    c.where.push("b.status = 'confirmed'");
    if (f.onSite.to !== undefined) {
      c.where.push(`${ON_SITE_FROM} <= ?`);
      c.params.push(f.onSite.to);
    }
    if (f.onSite.from !== undefined) {
      c.where.push(`${ON_SITE_TO} >= ?`);
      c.params.push(f.onSite.from);
    }
  }
  if (f.transferDates) {
    const a = rangeSql(ARRIVAL, { kind: "range", ...f.transferDates });
    const d = rangeSql(DEPARTURE, { kind: "range", ...f.transferDates });
    c.where.push(`((${a.sql}) OR (${d.sql}))`);
    c.params.push(...a.params, ...d.params);
  }
  return c;
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
export function listGuestsStatements(db: D1, businessId: number, q: GuestQuery): D1PreparedStatement[] {
  const c = guestConditions(q.filter);
  const where = ["g.business_id = ?", ...c.where].join(" AND ");
  const params = [businessId, ...c.params];
  const join = "JOIN bookings b ON b.id = g.booking_id AND b.business_id = g.business_id";
  const order = [...orderSql(q.filter.sort ?? [], GUEST_SORT_COLUMNS), "g.created_at ASC", "g.rowid ASC"].join(", ");
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
