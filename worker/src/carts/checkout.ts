/**
 * POST /carts/{cart_id}/checkout. One batch turns the cart into a booking: guards (cart open and
 * unexpired, every hold still live, the cart as it was read), the booking with the next reference
 * of its business and year, its lines, the holds converted to booking allocations, the booker and
 * guests with their Persons, the outbox events, and the cart checked out. Either all of it is
 * stored or none.
 */
import { CALLING_CODES } from "../contract/calling-codes";
import type { Booking, CheckoutBody } from "../contract/cart";
import { convertHoldsStatement } from "../db/allocations";
import {
  cartGuard,
  checkOutCartStatement,
  visitorBookingsGuard,
  insertBookingLinesStatement,
  insertBookingStatement,
  cartFrom,
  cartStatement,
  type CartContents,
} from "../db/carts";
import { kickDelivery } from "../db/outbox";
import { confirmationRecipientStatement, emailStatements, kickMail } from "../db/emails";
import { bookingEmails, confirmationAddress, mailConfig } from "../domain/email/plan";
import { platformMail } from "../domain/email/sender";
import { bookingPeopleStatements } from "../db/booking-people";
import { checkoutPersonsStatement, personsByNorm, type PersonRow } from "../db/persons";
import { customerErrors, customerPerson, guestPerson } from "../domain/cart-people";
import { transition } from "../domain/cart-state";
import { currencyOfCart, minorDigits, toMajor } from "../domain/money";
import { referenceOf } from "../domain/reference";
import { totalsOf } from "../domain/totals";
import { ApiError, notFound } from "../lib/errors";
import { isoDateTime } from "../lib/time";
import { stamp } from "../db/allocations";
import { idempotencyResourceStatement } from "../db/idempotency";
import { batchAbortReason, catalogOf, isWidgetVisitor, runGuarded, sender, takeRead, type CartCall, type Outcome } from "./run";
import { guestViews } from "./view";
import { newId } from "../lib/ids";
import { bookerIdStatement } from "../db/bookings";
import { type CatalogSnapshot } from "../domain/catalog";
import type { D1, D1Env } from "../db/d1";

const COUNTRY_CODES = Object.keys(CALLING_CODES);

/** A Person's e-mail was created by a concurrent request between our read and our batch. */
const isPersonClash = (err: unknown) => /UNIQUE constraint failed: persons\./.test(String((err as Error)?.message ?? err));

/** What a checkout reads first: the persons it meets (by the customer's and the guests' e-mails), then the cart. */
export function checkoutReadStatements(db: D1, businessId: number, cartId: string, body: CheckoutBody): D1PreparedStatement[] {
  return [checkoutPersonsStatement(db, businessId, cartId, body.customer.email), cartStatement(db, businessId, cartId)];
}

export function checkoutCart(env: D1Env, call: CartCall, body: CheckoutBody): Promise<Outcome<Booking>> {
  // The totals, guests and persons are computed from the cart as read: a change in between (an
  // add from another tab) runs the checkout again on what the cart became.
  return runGuarded(() => checkoutOnce(env, call, body));
}

async function checkoutOnce(env: D1Env, call: CartCall, body: CheckoutBody): Promise<Outcome<Booking>> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  const snap = await catalogOf(db, call);
  const business = snap.business;
  // The cart and the persons its checkout meets (by the customer's and the guests' e-mails), in one
  // round trip: the one that settled the request's access, the first time.
  const send = sender(db, call);
  const read = takeRead(call) ?? (await send(checkoutReadStatements(db, businessId, cartId, body)));
  const contents = cartFrom(read);
  if (!contents) throw notFound(`Cart ${cartId}`);
  let known: Map<string, PersonRow> | undefined = personsByNorm(read[0]);
  const { cart } = contents;
  const t = transition(cart, "checkout", stamp(now));
  if (!t.ok) throw new ApiError(t.refusal.status, t.refusal.code, t.refusal.detail);

  const today = isoDateTime(now).slice(0, 10);
  const errors = customerErrors(body.customer, business.config, today, COUNTRY_CODES);
  if (errors.length > 0) {
    throw new ApiError(422, "validation_failed", `The customer is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
  }
  if (contents.guests.length === 0) throw new ApiError(409, "conflict", "The cart is empty: add guests with POST /bookings/add first.");

  const bookingId = newId();
  const referenceYear = String(now.getUTCFullYear());
  // The booking keeps its totals as of now: its total, and its total in the default currency at today's rate.
  const totals = totalsOf(contents.lines, currencyOfCart(snap.currencies, cart.currency));
  const startDate = contents.guests.reduce((m, g) => (g.start_date < m ? g.start_date : m), contents.guests[0].start_date);
  const endDate = contents.guests.reduce((m, g) => (g.end_date > m ? g.end_date : m), contents.guests[0].end_date);
  const locationId = snap.products.get(contents.guests[0].package_id)?.location_id ?? null;

  const config = business.config;
  const fixed = [
    cartGuard(db, businessId, cartId, now, cart.revision, { liveHolds: true }),
    // What one widget visitor may confirm, decided in the batch (racing checkouts cannot both pass).
    ...(isWidgetVisitor(cart.client_id)
      ? [visitorBookingsGuard(db, businessId, cart.client_id, config.max_bookings_per_visitor_per_hour, config.max_bookings_per_visitor_per_day, now)]
      : []),
    insertBookingStatement(db, {
      id: bookingId,
      businessId,
      cartId,
      referenceYear,
      currency: cart.currency,
      totalMinor: totals.total,
      totalDefaultMinor: totals.total_default,
      startDate,
      endDate,
      locationId,
      newsletterOptIn: body.newsletter_opt_in === true,
      now,
    }),
    convertHoldsStatement(db, businessId, cartId, bookingId),
    insertBookingLinesStatement(db, businessId, cartId, bookingId),
  ];
  // The booker's confirmation and the business's notifications, written with the booking.
  const emails = bookingEmails("booked", bookingId, { email: body.customer.email, language: body.customer.language_code ?? null }, mailConfig(business.config, platformMail(env)));
  const peopleInput = {
    booker: customerPerson(body.customer, COUNTRY_CODES, config.custom_fields),
    guests: contents.guests.map((g) => ({ id: g.id, person: guestPerson(g.data) })),
  };

  let bookerId = "";
  let written: D1Result[];
  for (let attempt = 1; ; attempt++) {
    // BookingCreated leads the events, in the people's outbox statement.
    const people = await bookingPeopleStatements(db, businessId, bookingId, peopleInput, now, [{ event: "BookingCreated", data: { booking_id: bookingId } }], known);
    bookerId = people.bookerId;
    try {
      written = await send([
        ...fixed,
        ...people.statements,
        checkOutCartStatement(db, businessId, cartId, bookingId, now),
        ...(call.idempotencyKey ? [idempotencyResourceStatement(db, businessId, call.idempotencyKey, bookingId)] : []),
        ...emailStatements(db, businessId, bookingId, emails, now),
        cartStatement(db, businessId, cartId),
      ]);
      break;
    } catch (err) {
      const reason = batchAbortReason(err);
      if (reason === "limit_visitor_bookings") {
        throw new ApiError(
          429,
          "rate_limited",
          `This browser has confirmed as many bookings as one visitor may (max_bookings_per_visitor_per_hour ${config.max_bookings_per_visitor_per_hour}, ` +
            `max_bookings_per_visitor_per_day ${config.max_bookings_per_visitor_per_day}). Nothing was booked; the places stay held until the cart expires. ` +
            "Contact the business to book more.",
          { headers: { "Retry-After": "3600" } },
        );
      }
      if (reason === "hold_expired") {
        throw new ApiError(410, "cart_expired", "Some items of this cart are no longer held (their hold expired); nothing was booked. Start a new cart.");
      }
      if (reason === "cart_not_open" || reason === "cart_expired") {
        const again = cartFrom(await send([cartStatement(db, businessId, cartId)]));
        const refusal = again && transition(again.cart, "checkout", stamp(now));
        if (refusal && !refusal.ok) throw new ApiError(refusal.refusal.status, refusal.refusal.code, refusal.refusal.detail);
        throw err;
      }
      if (attempt === 1 && isPersonClash(err)) {
        known = undefined; // someone created one of these persons meanwhile: read them again
        continue;
      }
      throw err;
    }
  }
  // The events and e-mails are in D1: their delivery starts after the answer (the webhooks' alarm
  // and the scheduled upkeep cover a lost kick).
  const kick = Promise.all([kickDelivery(env, businessId, call.requestId), emails.length ? kickMail(env, businessId, call.requestId) : undefined]);
  if (call.after) call.after(kick);
  else await kick;
  return { status: 200, body: bookingAnswer(cartFrom(written)!, bookerId, body, snap, confirmationAddress(emails)) };
}

/** The checkout's answer: the booked cart (its booking row included), its booker and the request. */
function bookingAnswer(booked: CartContents, bookerId: string, body: CheckoutBody, snap: CatalogSnapshot, confirmationEmail: string | null): Booking {
  const { cart } = booked;
  const ref = booked.booking!;
  return {
    id: ref.id,
    reference: referenceOf(ref.reference_year, ref.reference_number),
    reference_number: ref.reference_number,
    reference_year: ref.reference_year,
    status: ref.status,
    cart_id: cart.id,
    currency: cart.currency,
    total: toMajor(ref.total_minor, minorDigits(cart.currency)),
    start_date: ref.start_date,
    end_date: ref.end_date,
    newsletter_opt_in: ref.newsletter_opt_in === 1,
    created_at: ref.created_at,
    booker: { id: bookerId, first_name: body.customer.first_name, last_name: body.customer.last_name, email: body.customer.email },
    guests: guestViews(booked, cart.currency, snap),
    confirmation_email: confirmationEmail,
  };
}

/**
 * The answer of a checkout that booked the cart but whose answer was never recorded (its process
 * died in between): read back as it was made, for the Idempotency-Key's retry. Null when the cart
 * holds no such booking.
 */
export async function bookedAnswer(env: D1Env, call: CartCall, bookingId: string, body: CheckoutBody): Promise<Booking | null> {
  const db = env.DB;
  // The booker, its confirmation's address, then the cart's rows (cartFrom() reads the last ones), in one round trip.
  const results = await db.batch([
    bookerIdStatement(db, call.businessId, bookingId),
    confirmationRecipientStatement(db, call.businessId, bookingId),
    cartStatement(db, call.businessId, call.cartId),
  ]);
  const booker = results[0].results[0] as { id: string } | undefined;
  const confirmation = results[1].results[0] as { recipient: string } | undefined;
  const booked = cartFrom(results);
  if (!booked?.booking || booked.booking.id !== bookingId || !booker) return null;
  return bookingAnswer(booked, booker.id, body, await catalogOf(db, call), confirmation?.recipient ?? null);
}
