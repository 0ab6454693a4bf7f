/**
 * The back office's lists, filtered by typed values (the screens read their filter forms into
 * these; the SQL stays here): the Bookings screen's list, the Guests screen's list and CSV, and
 * the product titles a booking's page names its lines by.
 */
import { bookingConditions, bookingSearchCondition, listBookings, type BookingRow } from "./bookings";
import { GUEST_SORT_FIELDS, listGuestsStatements, type GuestFilter, type GuestListRow, type GuestSortField } from "./guests";
import type { Range } from "./list-filters";
import type { D1 } from "./d1";

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

/** A screen's date range as the lists' Range (db/list-filters.ts), or "null"/"notnull" where a screen allows them. */
const range = (r: DateRange | Presence | undefined): Range | undefined =>
  r === undefined ? undefined : r === "null" || r === "notnull" ? { kind: r } : { kind: "range", from: r.from, to: r.to };

/** One page of the business's bookings that match, newest first, with the count of all that match: GET /private/bookings's filter (db/bookings.ts), and the search. */
export async function listBookingsFiltered(
  db: D1,
  businessId: number,
  filter: BookingListFilter,
  paging: { page: number; limit: number },
): Promise<{ rows: BookingRow[]; total: number }> {
  const c = bookingConditions({
    statuses: filter.status,
    startDate: range(filter.start_date),
    endDate: range(filter.end_date),
    createdAt: range(filter.created_at),
    referenceNumber: filter.reference_number,
    referenceYear: filter.reference_year,
  });
  if (filter.search) {
    const s = bookingSearchCondition(filter.search);
    c.where.push(s.sql);
    c.params.push(...s.params);
  }
  return listBookings(db, businessId, { ...c, ...paging });
}

/** The back-office title of each of the business's products (archived ones too: old bookings name them). */
export async function productTitles(db: D1, businessId: number): Promise<Map<number, string>> {
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

/** The orders a guest list can be sorted by: the private API's (db/guests.ts). */
export const GUEST_SORTS = Object.fromEntries(GUEST_SORT_FIELDS.map((f) => [f, f])) as Record<GuestSortField, GuestSortField>;
export type GuestSort = { by: GuestSortField; desc: boolean };

/**
 * The screen's filter as the private API's (db/guests.ts GuestFilter): one filter, one SQL for
 * both, so the Guests screen and its CSV list exactly what GET /private/guests lists.
 */
export function asGuestFilter(f: GuestListFilter, sort: GuestSort[]): GuestFilter {
  return {
    // agreements and product variants are not recorded here: filtering by them matches nothing
    matchesNothing: f.agreement_id !== undefined || f.booking_product_variant_id !== undefined ? true : undefined,
    arrivalLocationIds: f.arrival_location_id,
    departureLocationIds: f.departure_location_id,
    arrives: range(f.arrives_at),
    departs: range(f.departs_at),
    bookingCreatedAt: range(f.booking_created_at),
    bookingUpdatedAt: range(f.booking_updated_at),
    bookingStartDate: range(f.booking_start_date),
    bookingEndDate: range(f.booking_end_date),
    bookingIds: f.booking_id,
    bookingLocationIds: f.booking_location_id,
    productIds: f.booking_product_id,
    productTypes: f.booking_product_type,
    referenceNumber: f.booking_reference_number,
    referenceYear: f.booking_reference_year,
    bookingStatuses: f.booking_status,
    checkInAt: range(f.check_in_at),
    checkOutAt: range(f.check_out_at),
    checkedInAt: range(f.checked_in_at),
    checkedOutAt: range(f.checked_out_at),
    customFields: f.custom_fields,
    dietIds: f.diet_id,
    oddArrival: f.is_odd_arrival,
    oddDeparture: f.is_odd_departure,
    onSite: f.on_site_at,
    transferDates: f.transfer_dates,
    sort: sort.map((s) => ({ field: s.by, desc: s.desc })),
  };
}

export async function listGuestsFiltered(
  db: D1,
  businessId: number,
  filter: GuestListFilter,
  sort: GuestSort[],
  paging: { page: number; limit: number },
): Promise<{ rows: GuestListRow[]; total: number }> {
  // the page and its count; not the page's Persons (the batch's third): the screen shows the details each guest booked with
  const [page, count] = await db.batch(listGuestsStatements(db, businessId, { filter: asGuestFilter(filter, sort), ...paging }).slice(0, 2));
  return { rows: page.results as unknown as GuestListRow[], total: (count.results[0] as { n: number }).n };
}
