/**
 * The webhook events of the private API (spec section 6) and the shape of their `data`.
 * Pure: no platform imports. The event names are the contract's (contract/events.ts).
 */
import type { EventName } from "../contract/events";

/** One event to write to the outbox, with the same `data` that the webhook body carries. */
export interface PendingEvent {
  event: EventName;
  data: Record<string, unknown>;
}

// The spec gives Guest and Booker events `person_id` and `booking_id`; it leaves the Person
// events' payload open, so they carry `person_id` (and PersonDeleted the bookings it was in).
export const guestEvent = (event: "GuestCreated" | "GuestUpdated" | "GuestDeleted", personId: string, bookingId: string): PendingEvent => ({
  event,
  data: { person_id: personId, booking_id: bookingId },
});
export const bookerEvent = (event: "BookerCreated" | "BookerUpdated", personId: string, bookingId: string): PendingEvent => ({
  event,
  data: { person_id: personId, booking_id: bookingId },
});
export const personEvent = (event: "PersonCreated" | "PersonUpdated", personId: string): PendingEvent => ({
  event,
  data: { person_id: personId },
});
/** `booking_id` is the person's most recent booking (null when none); `booking_ids` lists all. */
export const personDeletedEvent = (personId: string, bookingIds: string[]): PendingEvent => ({
  event: "PersonDeleted",
  data: { person_id: personId, booking_id: bookingIds[0] ?? null, booking_ids: bookingIds },
});
export const bookingEvent = (event: "BookingCreated" | "BookingCancelled", bookingId: string): PendingEvent => ({
  event,
  data: { booking_id: bookingId },
});
/**
 * A payment recorded on a booking (PaymentReceived), a refund of one (PaymentRefunded), or an
 * online payment that failed or whose link expired unpaid (PaymentFailed, status failed or
 * canceled): amounts in major units of the booking's currency.
 */
export const paymentEvent = (
  event: "PaymentReceived" | "PaymentRefunded" | "PaymentFailed",
  data: { booking_id: string; payment_id: string; refund_id?: string; amount: number; currency: string; method: string; status: string },
): PendingEvent => ({ event, data });
