/**
 * The payments ledger's changes (issue 31), the same whoever asks (the private API, the back
 * office): a manual payment recorded, a refund of one. Each is one batch through write(): the
 * entry, its receipt number and receipt e-mail (manage/receipts.ts), its audit entry and its
 * webhook event (PaymentReceived / PaymentRefunded), and the Idempotency-Key's record of what it
 * made when the request carries one.
 */
import type { PaymentCreate, RefundCreate } from "../contract/payments";
import { referenceOf } from "../domain/reference";
import { paymentEvent } from "../domain/events";
import { minorDigits, toMajor } from "../domain/money";
import { exactMinor, isRefusal, refundSource } from "../domain/payments";
import type { Actor } from "../db/audit-log";
import { bookingConfirmedGuard, bookingRow, type BookingRow } from "../db/bookings";
import { idempotencyResourceStatement } from "../db/idempotency";
import { insertEntryStatement, isRefundTooLarge, ledgerOf } from "../db/payments";
import { invalid, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isGuardFailure } from "./input";
import { receiptParts } from "./receipts";
import { refundThroughStripe, type StripeStore } from "./stripe";
import { write, type Store } from "./write";
import type { D1 } from "../db/d1";

const reference = (b: BookingRow) => referenceOf(b.reference_year, b.reference_number);
const shown = (minor: number, currency: string) => `${toMajor(minor, minorDigits(currency)).toFixed(minorDigits(currency))} ${currency}`;

/** The booking, and the amount as minor units of its currency: 404, or 422 naming `currency` or `amount`. */
async function bookingAndAmount(db: D1, businessId: number, bookingId: string, body: { amount: number; currency: string }) {
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  if (body.currency.toUpperCase() !== booking.currency) throw invalid("currency", `must be the booking's currency, ${booking.currency}`);
  const digits = minorDigits(booking.currency);
  const minor = exactMinor(body.amount, digits);
  if (minor === null) throw invalid("amount", `must have at most ${digits} decimals in ${booking.currency}`);
  if (minor <= 0) throw invalid("amount", "must be more than 0");
  return { booking, minor };
}

/** What the request's Idempotency-Key records of the entry made, in the same batch (none without a key). */
const keyRecord = (db: D1, businessId: number, key: string | undefined, entryId: string) => (key ? [idempotencyResourceStatement(db, businessId, key, entryId)] : []);

/**
 * Record a payment the business took itself (cash, card terminal, bank transfer, other): a
 * succeeded entry. 404 for no such booking; 422 for another currency than the booking's, an amount
 * of 0 or with too many decimals, a cancelled booking (also one cancelled while this was written:
 * the guard decides in the batch). Answers the entry's id.
 */
export async function recordPayment(store: Store, actor: Actor, businessId: number, bookingId: string, body: PaymentCreate, now: Date, idempotencyKey?: string): Promise<string> {
  const db = store.DB;
  const { booking, minor } = await bookingAndAmount(db, businessId, bookingId, body);
  const cancelled = invalid("booking_id", "the booking is cancelled: no payment can be recorded on it");
  if (booking.status !== "confirmed") throw cancelled;
  const id = newId(now.getTime());
  const ref = body.reference?.trim() || null;
  const receipt = await receiptParts(store, businessId, bookingId, { id, kind: "payment" }, now);
  try {
    await write(store, actor, businessId, now, {
      statements: [
        bookingConfirmedGuard(db, businessId, bookingId),
        insertEntryStatement(db, businessId, actor, { id, bookingId, kind: "payment", amountMinor: minor, currency: booking.currency, method: body.method, status: "succeeded", reference: ref, reason: null, refundsPaymentId: null }, now),
        ...receipt.statements,
        ...keyRecord(db, businessId, idempotencyKey, id),
      ],
      emails: receipt.emails,
      audit: [
        {
          action: "payment_recorded",
          entity: "booking",
          entityId: bookingId,
          summary: `Payment of ${shown(minor, booking.currency)} (${body.method}) on booking ${reference(booking)}`,
          after: { payment_id: id, amount: toMajor(minor, minorDigits(booking.currency)), currency: booking.currency, method: body.method, reference: ref },
        },
      ],
      events: [paymentEvent("PaymentReceived", { booking_id: bookingId, payment_id: id, amount: toMajor(minor, minorDigits(booking.currency)), currency: booking.currency, method: body.method, status: "succeeded" })],
    });
  } catch (err) {
    if (isGuardFailure(err)) throw cancelled;
    throw err;
  }
  return id;
}

/**
 * Refund an amount of one payment: the one named, else the latest succeeded payment with that
 * much left. A manual payment's refund is recorded (succeeded); a `stripe` payment's goes through
 * Stripe (manage/stripe.ts refundThroughStripe: pending until Stripe confirms it). 422 for another
 * currency, a bad amount, no such payment on this booking, or more than that payment has left
 * (also when a concurrent refund took it first: the ledger's trigger decides). A cancelled booking
 * can be refunded. Answers the refund's id.
 */
export async function recordRefund(store: StripeStore, actor: Actor, businessId: number, bookingId: string, body: RefundCreate, now: Date, idempotencyKey?: string): Promise<string> {
  const db = store.DB;
  const { booking, minor } = await bookingAndAmount(db, businessId, bookingId, body);
  const ledger = await ledgerOf(db, businessId, bookingId);
  const source = refundSource(ledger, minor, body.payment_id);
  if (isRefusal(source)) throw invalid(source.path, source.message);
  const reason = body.reason?.trim() || null;
  if (source.method === "stripe") {
    const payment = ledger.find((e) => e.id === source.id)!;
    return refundThroughStripe(store, actor, businessId, booking, payment, minor, reason, now, idempotencyKey);
  }
  const id = newId(now.getTime());
  const major = toMajor(minor, minorDigits(booking.currency));
  const receipt = await receiptParts(store, businessId, bookingId, { id, kind: "refund" }, now);
  try {
    await write(store, actor, businessId, now, {
      statements: [
        insertEntryStatement(db, businessId, actor, { id, bookingId, kind: "refund", amountMinor: minor, currency: booking.currency, method: source.method, status: "succeeded", reference: null, reason, refundsPaymentId: source.id }, now),
        ...receipt.statements,
        ...keyRecord(db, businessId, idempotencyKey, id),
      ],
      emails: receipt.emails,
      audit: [
        {
          action: "payment_refunded",
          entity: "booking",
          entityId: bookingId,
          summary: `Refund of ${shown(minor, booking.currency)} (${source.method}) on booking ${reference(booking)}`,
          after: { refund_id: id, payment_id: source.id, amount: major, currency: booking.currency, reason },
        },
      ],
      events: [paymentEvent("PaymentRefunded", { booking_id: bookingId, payment_id: source.id, refund_id: id, amount: major, currency: booking.currency, method: source.method, status: "succeeded" })],
    });
  } catch (err) {
    if (isRefundTooLarge(err)) throw invalid("amount", "is more than that payment has left to refund");
    throw err;
  }
  return id;
}
