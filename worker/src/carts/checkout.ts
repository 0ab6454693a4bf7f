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
  checkOutPaidCartStatement,
  paymentPendingGuard,
  retakeLapsedHoldsStatements,
  savedCheckoutRequest,
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
import { bookingDues } from "../domain/booking-dues";
import { productPaymentPolicies } from "../db/products";
import { snapshotAt } from "../db/tenant-read";
import { referenceOf } from "../domain/reference";
import { totalsOf } from "../domain/totals";
import { ApiError, notFound } from "../lib/errors";
import { isoDateTime } from "../lib/time";
import { stamp } from "../db/allocations";
import { idempotencyResourceStatement } from "../db/idempotency";
import { batchAbortReason, catalogOf, isWidgetVisitor, refuseWhilePaying, runGuarded, sender, takeRead, type CartCall, type Outcome } from "./run";
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

/**
 * What a checkout checks before it books, or before the guest is sent to pay: the cart open,
 * unexpired and not empty, the customer valid (the terms were checked by the body's schema). Reads
 * the cart and the persons its checkout meets (by the customer's and the guests' e-mails) in one
 * round trip: the one that settled the request's access, the first time.
 */
export async function readyToCheckout(env: D1Env, call: CartCall, body: CheckoutBody, options: { paying?: boolean } = {}): Promise<{ contents: CartContents; snap: CatalogSnapshot; known: Map<string, PersonRow> }> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  const snap = await catalogOf(db, call);
  const read = takeRead(call) ?? (await sender(db, call)(checkoutReadStatements(db, businessId, cartId, body)));
  const contents = cartFrom(read);
  if (!contents) throw notFound(`Cart ${cartId}`);
  const known = personsByNorm(read[0]);
  const t = transition(contents.cart, "checkout", stamp(now));
  if (!t.ok) throw new ApiError(t.refusal.status, t.refusal.code, t.refusal.detail);
  const today = isoDateTime(now).slice(0, 10);
  const errors = customerErrors(body.customer, snap.business.config, today, COUNTRY_CODES);
  if (errors.length > 0) {
    throw new ApiError(422, "validation_failed", `The customer is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
  }
  if (contents.guests.length === 0) throw new ApiError(409, "conflict", "The cart is empty: add guests with POST /bookings/add first.");
  if (!options.paying) refuseWhilePaying(contents.cart);
  return { contents, snap, known };
}

/** The booking of a cart: its row, its lines and the holds it takes, the booker and guests to store, its e-mails. */
function bookingOf(env: D1Env, businessId: number, contents: CartContents, snap: CatalogSnapshot, body: CheckoutBody, bookingId: string, now: Date) {
  const db = env.DB;
  const { cart } = contents;
  const config = snap.business.config;
  // The booking keeps its totals as of now: its total, and its total in the default currency at today's rate.
  const totals = totalsOf(contents.lines, currencyOfCart(snap.currencies, cart.currency));
  const startDate = contents.guests.reduce((m, g) => (g.start_date < m ? g.start_date : m), contents.guests[0].start_date);
  const endDate = contents.guests.reduce((m, g) => (g.end_date > m ? g.end_date : m), contents.guests[0].end_date);
  const locationId = snap.products.get(contents.guests[0].package_id)?.location_id ?? null;
  const statements = [
    insertBookingStatement(db, {
      id: bookingId,
      businessId,
      cartId: cart.id,
      referenceYear: String(now.getUTCFullYear()),
      currency: cart.currency,
      totalMinor: totals.total,
      totalDefaultMinor: totals.total_default,
      startDate,
      endDate,
      locationId,
      newsletterOptIn: body.newsletter_opt_in === true,
      now,
    }),
    convertHoldsStatement(db, businessId, cart.id, bookingId),
    insertBookingLinesStatement(db, businessId, cart.id, bookingId),
  ];
  // The booker's confirmation and the business's notifications, written with the booking.
  const emails = bookingEmails("booked", bookingId, { email: body.customer.email, language: body.customer.language_code ?? null }, mailConfig(config, platformMail(env)));
  const peopleInput = {
    booker: customerPerson(body.customer, COUNTRY_CODES, config.custom_fields),
    guests: contents.guests.map((g) => ({ id: g.id, person: guestPerson(g.data) })),
  };
  return { statements, emails, peopleInput, totalMinor: totals.total };
}

async function checkoutOnce(env: D1Env, call: CartCall, body: CheckoutBody): Promise<Outcome<Booking>> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  const send = sender(db, call);
  const ready = await readyToCheckout(env, call, body);
  const { contents, snap } = ready;
  let known: Map<string, PersonRow> | undefined = ready.known;
  const { cart } = contents;
  const bookingId = newId();
  const config = snap.business.config;
  const booking = bookingOf(env, businessId, contents, snap, body, bookingId, now);
  const fixed = [
    cartGuard(db, businessId, cartId, now, cart.revision, { liveHolds: true }),
    // What one widget visitor may confirm, decided in the batch (racing checkouts cannot both pass).
    ...(isWidgetVisitor(cart.client_id)
      ? [visitorBookingsGuard(db, businessId, cart.client_id, config.max_bookings_per_visitor_per_hour, config.max_bookings_per_visitor_per_day, now)]
      : []),
    ...booking.statements,
  ];
  const { emails, peopleInput } = booking;

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
  // and the scheduled upkeep cover a lost kick). A business with no live webhook subscription (as
  // the snapshot of the version this checkout checked says) has no one to deliver its events to:
  // its delivery object is not woken for nothing (a subscription made later starts after them; one
  // made in the same moment finds them at its first sweep).
  const kick = Promise.all([
    snap.business.live_webhooks ? kickDelivery(env, businessId, call.requestId) : undefined,
    emails.length ? kickMail(env, businessId, call.requestId) : undefined,
  ]);
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

// ---------------------------------------------------------------------------------------------
// Paying online at checkout (issue 31, docs/payments.md "Paying at checkout").

/**
 * What an online payment at booking takes of this cart (minor units of its currency): the cart's
 * dues as the booking it becomes will have them, by the same function (domain/booking-dues.ts
 * bookingDues: its products' own policies, booked today in the business's time zone).
 */
export async function dueAtBooking(db: D1, snap: CatalogSnapshot, contents: CartContents, now: Date): Promise<number> {
  const config = snap.business.config;
  const choice = currencyOfCart(snap.currencies, contents.cart.currency);
  const totals = totalsOf(contents.lines, choice);
  const lines = contents.lines.map((l) => ({ guest_id: l.cart_guest_id, product_id: l.product_id, role: l.role, price_minor: l.price_minor }));
  const startDate = contents.guests.reduce((m, g) => (g.start_date < m ? g.start_date : m), contents.guests[0].start_date);
  const own = await productPaymentPolicies(db, snap.business.id, lines.map((l) => l.product_id));
  const booking = { currency: contents.cart.currency, total_minor: totals.total, total_default_minor: totals.total_default, start_date: startDate, created_at: isoDateTime(now) };
  return bookingDues(config.payment_policy, booking, lines, own, config.time_zone, choice.base.iso_code).due_at_booking;
}

/** The booking a paid cart becomes, to write in one batch with its payment (manage/cart-payment.ts). */
export interface PaidCheckout {
  bookingId: string;
  currency: string;
  totalMinor: number;
  reference: { year: string };
  /** The booker as the saved request names them: the receipt goes to them (the booking is made in the same batch). */
  booker: { email: string | null; language: string | null };
  statements: D1PreparedStatement[];
  emails: D1PreparedStatement[];
}

/**
 * The batch that books a cart whose Checkout Session `sessionId` was paid, with the checkout
 * request it saved: guarded on the cart still waiting for that payment (a replay books nothing),
 * its lapsed holds taken again through the capacity trigger ('sold_out' when the places are
 * gone), then the booking, its lines, people and e-mails as a checkout makes them, and the cart
 * checked out. Null when the cart saved no request. `known`: false reads the persons again (a
 * person was created meanwhile).
 */
export async function paidCheckout(env: D1Env, businessId: number, cartId: string, sessionId: string, now: Date, readPersons = true): Promise<PaidCheckout | null> {
  const db = env.DB;
  const raw = await savedCheckoutRequest(db, businessId, cartId);
  if (!raw) return null;
  const body = JSON.parse(raw) as CheckoutBody;
  const read = await db.batch(checkoutReadStatements(db, businessId, cartId, body));
  const contents = cartFrom(read);
  if (!contents || contents.guests.length === 0) return null;
  const snap = await snapshotAt(db, businessId, undefined);
  const bookingId = newId(now.getTime());
  const booking = bookingOf(env, businessId, contents, snap, body, bookingId, now);
  const people = await bookingPeopleStatements(db, businessId, bookingId, booking.peopleInput, now, [{ event: "BookingCreated", data: { booking_id: bookingId } }], readPersons ? personsByNorm(read[0]) : undefined);
  return {
    bookingId,
    currency: contents.cart.currency,
    totalMinor: booking.totalMinor,
    reference: { year: String(now.getUTCFullYear()) },
    booker: { email: body.customer.email ?? null, language: body.customer.language_code ?? null },
    statements: [
      paymentPendingGuard(db, businessId, cartId, sessionId),
      ...retakeLapsedHoldsStatements(db, businessId, cartId, now, new Date(now.getTime() + 60_000)),
      ...booking.statements,
      ...people.statements,
      checkOutPaidCartStatement(db, businessId, cartId, bookingId, now),
    ],
    emails: emailStatements(db, businessId, bookingId, booking.emails, now),
  };
}

export { isPersonClash };
