import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { BookingEnvelope, BookingList } from "../../contract/private";
import { problemResponse } from "../../contract/problem";
import { toMajor } from "../../domain/money";
import { bookedTotals } from "../../domain/totals";
import { paymentTotals } from "../../domain/payments";
import { ledgerOf } from "../../db/payments";
import { productPaymentPolicies } from "../../db/products";
import { bookingDues, cancellationRefund } from "../../domain/booking-dues";
import { bookerRow, bookingConditions, bookingLines, bookingRow, listBookings, type BookingFilter } from "../../db/bookings";
import { guestsOfBooking } from "../../db/guests";
import { personsWithDerivedByIds } from "../../db/persons";
import { readTenant } from "../../db/tenant-read";
import type { AppEnv } from "../../db/request-env";
import { notFound } from "../../lib/errors";
import { cancelBooking } from "../../manage/bookings";
import { keyActor } from "./actor";
import { createRouter } from "../router";
import { authResponses, bodyResponses, json, uuidPath } from "./openapi-parts";
import { enumListParam, QueryReader, rangeParam, setPagingHeaders, uuidParam, pageParam, limitParam } from "./query";
import { bookerView, bookingSummaryView, guestView } from "./views";
import { dietsIn, locationsIn } from "../../domain/catalog";

const tags = ["Bookings"];

const BookingParam = z.object({ booking_id: uuidPath("booking_id") });

const listRoute = createRoute({
  method: "get",
  path: "/bookings",
  operationId: "listBookings",
  tags,
  summary: "List bookings",
  description:
    "Newest first. Filters: `status` (list), `start_date`, `end_date` (date or range from..to), `created_at` (datetime or range), `reference_number`, `reference_year`, or `reference` as YEAR-NUMBER. `page`, `limit` (1 to 100, default 10); X-Total-Count and Link headers.",
  request: {
    query: z.object({
      status: enumListParam(["confirmed", "cancelled"], "The bookings' status."),
      start_date: rangeParam("Date."),
      end_date: rangeParam("Date."),
      created_at: rangeParam("Datetime.", "datetime"),
      reference: z.string().optional().openapi({ pattern: "^\\d{4}-\\d{1,10}$", description: "YEAR-NUMBER, e.g. 2026-1001; other values are a 422." }),
      reference_number: z.string().optional().openapi({ pattern: "^\\d{1,10}$", description: "The booking's number (digits)." }),
      reference_year: z.string().optional().openapi({ pattern: "^\\d{4}$", description: "A four-digit year." }),
      page: pageParam(),
      limit: limitParam(),
    }),
  },
  responses: { 200: json(BookingList, "One page of bookings."), ...authResponses, 422: problemResponse("An invalid query parameter.") },
});
const getRoute = createRoute({
  method: "get",
  path: "/bookings/{booking_id}",
  operationId: "getBooking",
  tags,
  summary: "Fetch a booking with its booker, guests, lines, totals and payments",
  description:
    "`amount_paid`, `amount_refunded`, `balance_due` and `payment_status` come from the booking's ledger (GET /bookings/{booking_id}/payments), in major units of its currency. " +
    "`deposit_due`, `deposit_due_date` and `balance_due_date` are what the business's payment policy (settings `payment_policy`, a product's own `payment_policy`) asks of this booking.",
  request: { params: BookingParam },
  responses: { 200: json(BookingEnvelope, "The booking."), 400: problemResponse("booking_id is not a UUID."), ...authResponses, 404: problemResponse("No such booking.") },
});
const cancelRoute = createRoute({
  method: "post",
  path: "/bookings/{booking_id}/cancel",
  operationId: "cancelBooking",
  tags,
  summary: "Cancel a booking",
  description:
    "Releases the booked units at once (they become available again) and sends BookingCancelled. Guests and booker stay on the booking. The answer's `suggested_refund` is what the business's cancellation terms suggest refunding of what was paid; nothing is refunded automatically.",
  request: { params: BookingParam },
  responses: {
    200: json(BookingEnvelope, "The cancelled booking."),
    400: problemResponse("booking_id is not a UUID."),
    ...authResponses,
    // No body is read, but one that is too large or not JSON is refused before the route runs.
    ...bodyResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("The booking is already cancelled."),
  },
});

export async function detail(c: Context<AppEnv>, bookingId: string) {
  const { businessId } = c.get("tenant");
  const db = c.env.DB;
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  const [booker, guests, lines, ledger] = await Promise.all([
    bookerRow(db, businessId, bookingId),
    guestsOfBooking(db, businessId, bookingId),
    bookingLines(db, businessId, bookingId),
    ledgerOf(db, businessId, bookingId),
  ]);
  const own = await productPaymentPolicies(db, businessId, lines.map((l) => l.product_id));
  const { snap } = await readTenant(c);
  const diets = dietsIn(snap);
  const locations = locationsIn(snap);
  const persons = await personsWithDerivedByIds(db, businessId, [...(booker ? [booker.person_id] : []), ...guests.map((g) => g.person_id)]);
  const totals = bookedTotals(booking, snap.currencies, lines);
  const major = (minor: number) => toMajor(minor, totals.digits);
  const paid = paymentTotals(totals.total, ledger);
  const config = snap.business.config;
  const suggested = booking.status === "cancelled" ? cancellationRefund(config.payment_policy, booking, booking.cancelled_at ?? booking.updated_at, ledger, config.time_zone) : null;
  const dues = bookingDues(config.payment_policy, booking, lines, own, config.time_zone, snap.currencies.find((x) => x.is_default)?.iso_code ?? booking.currency);
  return {
    data: {
      ...bookingSummaryView(booking),
      total_default_currency: toMajor(totals.total_default, totals.default_digits),
      amount_paid: major(paid.amount_paid),
      amount_refunded: major(paid.amount_refunded),
      balance_due: major(paid.balance_due),
      payment_status: paid.payment_status,
      // the business's payment policy (domain/booking-dues.ts)
      deposit_due: dues.deposit_due === null ? null : major(dues.deposit_due),
      deposit_due_date: dues.deposit_due_date,
      balance_due_date: dues.balance_due_date,
      suggested_refund: suggested === null ? null : major(suggested.amount_minor),
      newsletter_opt_in: booking.newsletter_opt_in === 1,
      booker: booker ? bookerView(booker, persons.get(booker.person_id)!, diets) : null,
      guests: guests.map((g) => guestView(g, persons.get(g.person_id)!, { diets, locations, expand: [] })),
      lines: lines.map((l) => ({
        id: l.id,
        guest_id: l.guest_id,
        product_id: l.product_id,
        product_title: l.product_title,
        product_type: l.product_type,
        package_item_id: l.package_item_id,
        role: l.role,
        dates: safeDates(l.dates),
        qty: l.qty,
        price: major(l.price_minor),
      })),
      totals: { lines: major(totals.lines), total: major(totals.total), currency: totals.currency, guest_count: guests.length },
    },
  };
}

function safeDates(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The filters of GET /bookings read from a query: a typed filter that db/bookings.ts turns into SQL. */
function bookingFilterOf(q: QueryReader): BookingFilter {
  const filter: BookingFilter = {
    statuses: q.enums("status", ["confirmed", "cancelled"] as const),
    startDate: q.range("start_date", "date"),
    endDate: q.range("end_date", "date"),
    createdAt: q.range("created_at", "datetime"),
  };
  const reference = q.reference();
  if (reference.number !== undefined) filter.referenceNumber = reference.number;
  if (reference.year !== undefined) filter.referenceYear = reference.year;
  return filter;
}

export const bookingRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = new QueryReader(c);
    const filter = bookingFilterOf(q);
    const paging = q.paging();
    q.done();
    const { rows, total } = await listBookings(c.env.DB, c.get("tenant").businessId, { ...bookingConditions(filter), ...paging });
    setPagingHeaders(c, total, paging.page, paging.limit);
    return c.json({ data: rows.map(bookingSummaryView), meta: { ...paging, total } }, 200);
  })
  .openapi(getRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    return c.json(await detail(c, bookingId), 200);
  })
  .openapi(cancelRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    await cancelBooking(c.env, keyActor(c), c.get("tenant").businessId, bookingId, c.get("now"));
    return c.json(await detail(c, bookingId), 200);
  });
