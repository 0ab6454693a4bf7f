/**
 * The back office's lists, filtered by typed values (the screens read their filter forms into
 * these; the SQL stays here): the Bookings screen's list and the product titles a booking's page
 * names its lines by.
 */
import { bookingSearchCondition, listBookings, type BookingRow } from "./bookings";

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
