/**
 * The back office's lists, filtered by typed values (the screens read their filter forms into
 * these; the SQL stays here): the Bookings screen's list, the Guests screen's list and CSV, and
 * the product titles a booking's page names its lines by.
 */
import { bookingSearchCondition, listBookings, type BookingRow } from "./bookings";
import type { GuestListRow } from "./guests";

/** A filter on a date or datetime column: from..to, either end open (both included). */
export interface DateRange {
  from?: string;
  to?: string;
}

/** What the Bookings screen filters by (the private API's GET /bookings filters, and a search). */
export interface BookingListFilter {
  status?: ("confirmed" | "cancelled")[];
  start_date?: DateRange;
  end_date?: DateRange;
  created_at?: DateRange;
  reference_number?: number;
  reference_year?: string;
  /** A reference, or part of the booker's name or e-mail (db/bookings.ts bookingSearchCondition). */
  search?: string;
}

const COLUMNS = { start_date: "b.start_date", end_date: "b.end_date", created_at: "b.created_at" } as const;

/** One page of the business's bookings that match, newest first, with the count of all that match. */
export async function listBookingsFiltered(
  db: D1Database,
  businessId: number,
  filter: BookingListFilter,
  paging: { page: number; limit: number },
): Promise<{ rows: BookingRow[]; total: number }> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.status?.length) {
    // the whole list as ONE parameter: D1 binds at most 100 per statement
    where.push("b.status IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.status));
  }
  for (const name of ["start_date", "end_date", "created_at"] as const) {
    const range = filter[name];
    if (range?.from !== undefined) {
      where.push(`${COLUMNS[name]} >= ?`);
      params.push(range.from);
    }
    if (range?.to !== undefined) {
      where.push(`${COLUMNS[name]} <= ?`);
      params.push(range.to);
    }
  }
  if (filter.reference_number !== undefined) {
    where.push("b.reference_number = ?");
    params.push(filter.reference_number);
  }
  if (filter.reference_year !== undefined) {
    where.push("b.reference_year = ?");
    params.push(filter.reference_year);
  }
  if (filter.search) {
    const s = bookingSearchCondition(filter.search);
    where.push(s.sql);
    params.push(...s.params);
  }
  return listBookings(db, businessId, { where, params, ...paging });
}

/** The back-office title of each of the business's products (archived ones too: old bookings name them). */
export async function productTitles(db: D1Database, businessId: number): Promise<Map<number, string>> {
  const rows = await db.prepare("SELECT id, backoffice_title AS title FROM products WHERE business_id = ?").bind(businessId).all<{ id: number; title: string }>();
  return new Map(rows.results.map((p) => [p.id, p.title]));
}

/** Whether a timestamp is set at all (`checked_in_at=null`: not checked in yet). */
export type Presence = "null" | "notnull";

/**
 * What the Guests screen filters by: every filter of the private API's GET /guests (the screen's
 * URL takes them all; its form offers the ones a front desk uses, the Calendar links with others).
 */
export interface GuestListFilter {
  agreement_id?: string[];
  arrival_location_id?: number[];
  departure_location_id?: number[];
  arrives_at?: DateRange;
  departs_at?: DateRange;
  booking_created_at?: DateRange;
  booking_updated_at?: DateRange;
  booking_start_date?: DateRange;
  booking_end_date?: DateRange;
  booking_id?: string[];
  booking_location_id?: number[];
  booking_product_id?: number[];
  booking_product_type?: string[];
  booking_product_variant_id?: number[];
  booking_reference_number?: number;
  booking_reference_year?: string;
  booking_status?: ("confirmed" | "cancelled")[];
  check_in_at?: DateRange;
  check_out_at?: DateRange;
  checked_in_at?: DateRange | Presence;
  checked_out_at?: DateRange | Presence;
  /** Each key must equal its value in the guest's details (null: absent or null). */
  custom_fields?: Record<string, string | number | null>;
  diet_id?: number[];
  is_odd_arrival?: boolean;
  is_odd_departure?: boolean;
  /** On site at some time of the range: arrived (or due) before its end, leaving after its start; confirmed bookings only. */
  on_site_at?: DateRange;
  /** Arriving or departing within the range. */
  transfer_dates?: DateRange;
}

/** The orders a guest list can be sorted by. */
export const GUEST_SORTS = {
  "booking_related_data.arrival_date": "g.arrival_date",
  "booking_related_data.departure_date": "g.departure_date",
  "booking_related_data.check_in_at": "g.check_in_at",
  "booking_related_data.check_out_at": "g.check_out_at",
  "booking_related_data.checked_in_at": "g.checked_in_at",
  "booking_related_data.checked_out_at": "g.checked_out_at",
  "person.gender": "json_extract(g.person_snapshot, '$.gender')",
} as const;
export type GuestSort = { by: keyof typeof GUEST_SORTS; desc: boolean };

// A guest's effective arrival and departure, kept on the guest by triggers (migration 0060).
const ARRIVAL = "g.arrives_on";
const DEPARTURE = "g.departs_on";
const ON_SITE_FROM = `COALESCE(g.checked_in_at, g.check_in_at, ${ARRIVAL} || 'T00:00:00Z')`;
const ON_SITE_TO = `COALESCE(g.checked_out_at, g.check_out_at, ${DEPARTURE} || 'T23:59:59Z')`;

/** The SQL of a guest filter: conditions on the guest `g` and its booking `b`. */
function guestConditions(f: GuestListFilter): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const inList = (expr: string, values: readonly (string | number)[] | undefined) => {
    if (!values) return;
    where.push(`${expr} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(values));
  };
  const range = (expr: string, r: DateRange | Presence | undefined) => {
    if (r === undefined) return;
    if (r === "null" || r === "notnull") {
      where.push(`${expr} IS ${r === "notnull" ? "NOT " : ""}NULL`);
      return;
    }
    if (r.from !== undefined) {
      where.push(`${expr} >= ?`);
      params.push(r.from);
    }
    if (r.to !== undefined) {
      where.push(`${expr} <= ?`);
      params.push(r.to);
    }
  };
  const onLines = (column: string, values: readonly (string | number)[] | undefined) => {
    if (!values) return;
    where.push(`EXISTS (SELECT 1 FROM booking_lines bl WHERE bl.booking_id = b.id AND ${column} IN (SELECT value FROM json_each(?)))`);
    params.push(JSON.stringify(values));
  };
  if (f.agreement_id) where.push("0"); // no agreements are recorded
  inList("g.arrival_location_id", f.arrival_location_id);
  inList("g.departure_location_id", f.departure_location_id);
  range(ARRIVAL, f.arrives_at);
  range(DEPARTURE, f.departs_at);
  range("b.created_at", f.booking_created_at);
  range("b.updated_at", f.booking_updated_at);
  range("b.start_date", f.booking_start_date);
  range("b.end_date", f.booking_end_date);
  inList("g.booking_id", f.booking_id);
  inList("b.location_id", f.booking_location_id);
  onLines("bl.product_id", f.booking_product_id);
  onLines("bl.product_type", f.booking_product_type);
  if (f.booking_product_variant_id) where.push("0"); // products have no variants here
  if (f.booking_reference_number !== undefined) {
    where.push("b.reference_number = ?");
    params.push(f.booking_reference_number);
  }
  if (f.booking_reference_year !== undefined) {
    where.push("b.reference_year = ?");
    params.push(f.booking_reference_year);
  }
  inList("b.status", f.booking_status);
  range("g.check_in_at", f.check_in_at);
  range("g.check_out_at", f.check_out_at);
  range("g.checked_in_at", f.checked_in_at);
  range("g.checked_out_at", f.checked_out_at);
  if (f.custom_fields) {
    // ONE condition over ONE parameter however many keys: a condition per key met D1's limits
    where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) f WHERE json_extract(g.person_snapshot, '$.custom_fields."' || f.key || '"') IS NOT f.value)`);
    params.push(JSON.stringify(f.custom_fields));
  }
  inList("json_extract(g.person_snapshot, '$.diet_id')", f.diet_id);
  if (f.is_odd_arrival !== undefined) where.push(`g.odd_arrival_date IS ${f.is_odd_arrival ? "NOT " : ""}NULL`);
  if (f.is_odd_departure !== undefined) where.push(`g.odd_departure_date IS ${f.is_odd_departure ? "NOT " : ""}NULL`);
  if (f.on_site_at) {
    where.push("b.status = 'confirmed'");
    if (f.on_site_at.to !== undefined) {
      where.push(`${ON_SITE_FROM} <= ?`);
      params.push(f.on_site_at.to);
    }
    if (f.on_site_at.from !== undefined) {
      where.push(`${ON_SITE_TO} >= ?`);
      params.push(f.on_site_at.from);
    }
  }
  if (f.transfer_dates) {
    const { from, to } = f.transfer_dates;
    const between = (expr: string) => [from !== undefined ? `${expr} >= ?` : "", to !== undefined ? `${expr} <= ?` : ""].filter(Boolean).join(" AND ");
    const bounds = [from, to].filter((v): v is string => v !== undefined);
    where.push(`((${between(ARRIVAL)}) OR (${between(DEPARTURE)}))`);
    params.push(...bounds, ...bounds);
  }
  return { where, params };
}

/** One page of the business's guests that match (with their booking's reference and status), and the count of all. */
export async function listGuestsFiltered(
  db: D1Database,
  businessId: number,
  filter: GuestListFilter,
  sort: GuestSort[],
  paging: { page: number; limit: number },
): Promise<{ rows: GuestListRow[]; total: number }> {
  const c = guestConditions(filter);
  const where = ["g.business_id = ?", ...c.where].join(" AND ");
  const params = [businessId, ...c.params];
  // missing values last either way (the IS NULL test on the bare column keeps the list's index usable)
  const order = [...sort.flatMap((s) => [`(${GUEST_SORTS[s.by]} IS NULL)`, `${GUEST_SORTS[s.by]} ${s.desc ? "DESC" : "ASC"}`]), "g.created_at ASC", "g.rowid ASC"].join(", ");
  const join = "JOIN bookings b ON b.id = g.booking_id AND b.business_id = g.business_id";
  const window = [paging.limit, (paging.page - 1) * paging.limit];
  // the page and its count; not the page's Persons: the screen shows the details each guest booked with
  const [page, count] = await db.batch([
    db
      .prepare(
        `SELECT g.*, b.reference_number AS b_reference_number, b.reference_year AS b_reference_year, b.status AS b_status,
                b.currency AS b_currency, b.total_minor AS b_total_minor, b.start_date AS b_start_date, b.end_date AS b_end_date,
                b.location_id AS b_location_id, b.created_at AS b_created_at, b.updated_at AS b_updated_at, b.cancelled_at AS b_cancelled_at
           FROM guests g ${join} WHERE g.rowid IN (SELECT g.rowid FROM guests g ${join} WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`,
      )
      .bind(...params, ...window),
    db.prepare(`SELECT COUNT(*) AS n FROM guests g ${join} WHERE ${where}`).bind(...params),
  ]);
  return { rows: page.results as unknown as GuestListRow[], total: (count.results[0] as { n: number }).n };
}
