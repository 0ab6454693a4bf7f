/**
 * A booking's dues from its stored rows (issue 31): the ONE place that turns a booking, its lines
 * and the business's payment policy into duesOf's input (domain/payment-policy.ts decides the
 * rules). Every reader calls this: the private API's booking, the back office's booking page, the
 * confirmation e-mail, the balance reminders, and the widget's pay at checkout.
 *
 * - The parts are the products as booked: each guest's lines go to the package the guest booked
 *   (its `package` line's product; a product sold on its own is its own package), a line without
 *   one to its own product. A part counts its guests and the sum of its lines.
 * - The day it was booked is `created_at`'s date in the business's time zone.
 * - A per-person deposit (major units of the business's default currency) converts at the
 *   booking's own rate (its total over its total in the default currency, as stored at checkout),
 *   or 1 when the booking has no total in the default currency.
 */
import type { PaymentPolicy, ProductPaymentPolicy } from "../contract/payment-policy";
import { dateIn, isoDateTime } from "../lib/time";
import { minorDigits, roundHalfUp } from "./money";
import type { LedgerEntry } from "./payments";
import { duesOf, refundPercent, suggestedRefund, type BookedPart, type Dues } from "./payment-policy";

/** What of a booking's row the dues need. */
export interface DuesBooking {
  currency: string;
  total_minor: number;
  total_default_minor: number;
  start_date: string;
  created_at: string;
}

/** What of a booking line the dues need. */
export interface DuesLine {
  guest_id: string | null;
  product_id: number;
  role: string;
  price_minor: number;
}

/** The booking's products as booked, with their guests and their part of the total. */
export function bookedParts(lines: readonly DuesLine[]): BookedPart[] {
  const packageOf = new Map<string, number>();
  for (const l of lines) if (l.role === "package" && l.guest_id !== null && !packageOf.has(l.guest_id)) packageOf.set(l.guest_id, l.product_id);
  const parts = new Map<number, { guests: Set<string>; amount: number }>();
  for (const l of lines) {
    const product = (l.guest_id !== null ? packageOf.get(l.guest_id) : undefined) ?? l.product_id;
    const part = parts.get(product) ?? { guests: new Set<string>(), amount: 0 };
    if (l.guest_id !== null) part.guests.add(l.guest_id);
    part.amount += l.price_minor;
    parts.set(product, part);
  }
  return [...parts].map(([product_id, p]) => ({ product_id, guests: p.guests.size, amount_minor: p.amount }));
}

/**
 * The dues of a stored booking under `policy` (the business's, from settings), its products' own
 * policies from `own` (db/products.ts productPaymentPolicies), `timeZone` the business's.
 * `defaultCurrency` is the business's default currency (a per-person deposit is in it).
 */
export function bookingDues(
  policy: PaymentPolicy,
  booking: DuesBooking,
  lines: readonly DuesLine[],
  own: ReadonlyMap<number, ProductPaymentPolicy> | ((productId: number) => ProductPaymentPolicy | null | undefined),
  timeZone: string,
  defaultCurrency: string,
): Dues {
  const rate = booking.total_default_minor > 0 ? booking.total_minor / booking.total_default_minor : 1;
  const defaultDigits = minorDigits(defaultCurrency);
  const perPersonMinor = (amount: number) => roundHalfUp(amount * 10 ** defaultDigits * rate);
  const ownOf = typeof own === "function" ? own : (id: number) => own.get(id);
  return duesOf(
    policy,
    { total_minor: booking.total_minor, start_date: booking.start_date, booked_on: bookedOn(booking.created_at, timeZone), parts: bookedParts(lines) },
    ownOf,
    perPersonMinor,
  );
}

/** The day a booking was made in the business's time zone (its `created_at` is UTC). */
export function bookedOn(createdAt: string, timeZone: string): string {
  const at = new Date(createdAt);
  if (Number.isNaN(at.getTime())) return createdAt.slice(0, 10);
  try {
    return dateIn(at, timeZone);
  } catch {
    return createdAt.slice(0, 10);
  }
}

/** What is still owed of the deposit (0 once paid, null without one), from what was paid net. */
export function depositOwed(dues: Pick<Dues, "deposit_due">, netPaid: number): number | null {
  return dues.deposit_due === null ? null : Math.max(0, dues.deposit_due - netPaid);
}

/** The refund the cancellation terms suggest, and their percent (null without terms). */
export interface SuggestedRefund {
  percent: number;
  /** What the terms suggest refunding of what was paid net when the booking was cancelled. */
  amount_minor: number;
  /** What of it is still to refund: less what was refunded since the cancellation. */
  left_minor: number;
  /** The cancellation's day in the business's time zone, which the terms count from. */
  on: string;
}

/**
 * What the business's cancellation terms suggest refunding when `booking` is cancelled at
 * `cancelledAt` (its `cancelled_at`, or now for a booking about to be): suggestedRefund
 * (domain/payment-policy.ts) of what was paid net then (succeeded payments, less the refunds made
 * before it), by the cancellation's date in the business's time zone; and what is left of it once
 * the refunds made since are counted (so a refund made as suggested leaves nothing suggested).
 * null when the policy states no terms. Nothing is ever refunded by this: staff do it.
 */
export function cancellationRefund(policy: PaymentPolicy, booking: { start_date: string }, cancelledAt: Date | string, ledger: readonly LedgerEntry[], timeZone: string): SuggestedRefund | null {
  const at = typeof cancelledAt === "string" ? cancelledAt : isoDateTime(cancelledAt);
  const on = bookedOn(at, timeZone);
  const ok = (e: LedgerEntry) => e.status === "succeeded";
  const paid = ledger.reduce((sum, e) => sum + (ok(e) && e.kind === "payment" ? e.amount_minor : 0), 0);
  const refundedBefore = ledger.reduce((sum, e) => sum + (ok(e) && e.kind === "refund" && e.created_at < at ? e.amount_minor : 0), 0);
  const refundedSince = ledger.reduce((sum, e) => sum + (ok(e) && e.kind === "refund" && e.created_at >= at ? e.amount_minor : 0), 0);
  const percent = refundPercent(policy.cancellation_rules, booking.start_date, on);
  const amount = suggestedRefund(policy.cancellation_rules, booking.start_date, on, paid - refundedBefore);
  if (percent === null || amount === null) return null;
  const suggested = Math.max(0, amount);
  return { percent, amount_minor: suggested, left_minor: Math.max(0, suggested - refundedSince), on };
}
