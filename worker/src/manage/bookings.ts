/**
 * Changes to bookings, made the same way whoever asks (the private API, the back office): each
 * is one D1 batch with its guard, its webhook events and its audit entry.
 */
import { referenceOf } from "../domain/reference";
import { bookingEvent } from "../domain/events";
import { releaseBookingStatement } from "../db/allocations";
import { auditStatements, type Actor } from "../db/audit-log";
import { bookerRow, bookingConfirmedGuard, bookingRow, cancelBookingStatement } from "../db/bookings";
import { businessById } from "../db/businesses";
import { bookerMailTarget, emailStatements } from "../db/emails";
import { bookingEmails, mailConfig } from "../domain/email/plan";
import { platformMail } from "../domain/email/sender";
import { insertBookingNoteStatement } from "../db/booking-notes";
import { ApiError, invalid, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isGuardFailure } from "./input";
import { write, type Store } from "./write";
import type { D1, D1Env } from "../db/d1";

const reference = (b: { reference_year: string; reference_number: number }) => referenceOf(b.reference_year, b.reference_number);

/**
 * Cancel a confirmed booking: its units are released at once (available again), BookingCancelled
 * is sent, and so are the e-mails of a cancellation (to the booker and the business). 404 for no such booking, 409 when it is cancelled already (also when a concurrent
 * cancel came first: the guard decides in the batch).
 */
export async function cancelBooking(env: D1Env, actor: Actor, businessId: number, bookingId: string, now: Date): Promise<void> {
  const db = env.DB;
  const [booking, booker, business] = await Promise.all([bookingRow(db, businessId, bookingId), bookerRow(db, businessId, bookingId), businessById(db, businessId)]);
  if (!booking || !business) throw notFound("The booking");
  const already = new ApiError(409, "conflict", "The booking is already cancelled.");
  if (booking.status === "cancelled") throw already;
  // The booker's cancellation e-mail and the business's notifications, written with the cancellation.
  const emails = bookingEmails("cancelled", bookingId, bookerMailTarget(booker), mailConfig(business.config, platformMail(env)));
  try {
    await write(env, actor, businessId, now, {
      statements: [bookingConfirmedGuard(db, businessId, bookingId), cancelBookingStatement(db, businessId, bookingId, now), releaseBookingStatement(db, businessId, bookingId, now)],
      events: [bookingEvent("BookingCancelled", bookingId)],
      audit: [{ action: "cancelled", entity: "booking", entityId: bookingId, summary: `Cancelled booking ${reference(booking)}`, before: { status: "confirmed" }, after: { status: "cancelled" } }],
      emails: emailStatements(db, businessId, bookingId, emails, now),
    });
  } catch (err) {
    if (isGuardFailure(err)) throw already;
    throw err;
  }
}

export const NOTE_MAX = 2000;

/** Add a note to a booking (any status). 422 for an empty or too long note, 404 for no such booking. */
export async function addBookingNote(db: D1, actor: Actor, businessId: number, bookingId: string, text: string, now: Date): Promise<string> {
  const body = text.trim();
  if (!body) throw invalid("note", "must not be empty");
  if (body.length > NOTE_MAX) throw invalid("note", `must be at most ${NOTE_MAX} characters`);
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  const id = newId(now.getTime());
  const [insert] = await db.batch([
    insertBookingNoteStatement(db, businessId, { id, bookingId, author: actor.name, body }, now),
    ...auditStatements(db, businessId, actor, [
      { action: "noted", entity: "booking", entityId: bookingId, summary: `Note on booking ${reference(booking)}`, after: { note: body } },
    ], now),
  ]);
  if (!insert.meta.changes) throw notFound("The booking");
  return id;
}

/** How a booking made in the back office reached the business (issue 31). */
export const DESK_CHANNELS = ["phone", "walk_in"] as const;
export type DeskChannel = (typeof DESK_CHANNELS)[number];

/**
 * The audit entry of a booking the front desk made (a phone or walk-in booking, through the same
 * cart operations as the widget): who made it, by which channel, from which cart. The booking's
 * cart also names its maker in the checkout's own batch (its client is `staff:<user id>`), so the
 * booking says who made it even if this entry were lost with its process.
 */
export async function recordDeskBooking(
  store: Store,
  actor: Actor,
  businessId: number,
  booking: { id: string; reference: string; cart_id: string; total: number; currency: string },
  channel: DeskChannel,
  now: Date,
): Promise<void> {
  await write(store, actor, businessId, now, {
    statements: [],
    audit: [
      {
        action: "booked",
        entity: "booking",
        entityId: booking.id,
        summary: `Booking ${booking.reference} made in the back office (${channel === "phone" ? "phone" : "walk-in"}) by ${actor.name}`,
        after: { channel, source: "back_office", cart_id: booking.cart_id, total: booking.total, currency: booking.currency },
      },
    ],
  });
}
