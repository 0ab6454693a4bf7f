/**
 * A booking's money, as its ledger says it (issue 31): what was paid, what was refunded, what is
 * still due, and the payment status. Pure: the ledger's rows come from db/payments.ts. Amounts are
 * integers of the booking's currency's minor units (money.ts), never rounded here: the ledger's
 * entries are exact, so are their sums.
 *
 * The rules:
 * - only succeeded entries count: a pending, failed or canceled payment has paid nothing, a
 *   pending refund has given nothing back yet (but it is reserved: a payment's amount left to
 *   refund counts pending refunds, so two refunds cannot take the same money);
 * - amount_paid is the succeeded payments' sum, amount_refunded the succeeded refunds' sum, and
 *   what the guest has paid net is their difference;
 * - balance_due is the total less the net paid, never below 0 (an overpaid booking owes nothing:
 *   its status says `overpaid`);
 * - payment_status:
 *     unpaid               nothing paid net (and something is owed)
 *     deposit_paid         something paid, less than the total, nothing refunded ("part paid":
 *                          whether it covers the deposit the payment policy asks is the
 *                          booking's deposit_due to say, domain/booking-dues.ts)
 *     paid                 the net paid is the total (also a booking whose total is 0)
 *     partially_refunded   something refunded, and the net paid is above 0 and below the total
 *     refunded             something was paid and all of it refunded
 *     overpaid             the net paid is above the total
 */

import { BOOKING_PAYMENT_STATUSES, MANUAL_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES } from "../contract/payment-kinds";

export { BOOKING_PAYMENT_STATUSES, MANUAL_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES };
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods recorded by hand (a payment the business took itself): refunded by recording the refund. */
export type ManualMethod = (typeof MANUAL_METHODS)[number];
export type EntryStatus = (typeof PAYMENT_STATUSES)[number];
export type BookingPaymentStatus = (typeof BOOKING_PAYMENT_STATUSES)[number];

/** One entry of a ledger, as the rules need it. */
export interface LedgerEntry {
  id: string;
  kind: "payment" | "refund";
  amount_minor: number;
  method: PaymentMethod;
  status: EntryStatus;
  /** For a refund: the payment it refunds. */
  refunds_payment_id: string | null;
  created_at: string;
}

/** A booking's money in its currency's minor units. */
export interface PaymentTotals {
  total: number;
  amount_paid: number;
  amount_refunded: number;
  /** amount_paid − amount_refunded. */
  net_paid: number;
  balance_due: number;
  payment_status: BookingPaymentStatus;
}

const succeeded = (e: LedgerEntry, kind: LedgerEntry["kind"]) => e.kind === kind && e.status === "succeeded";

export function amountPaid(entries: readonly LedgerEntry[]): number {
  return entries.reduce((s, e) => s + (succeeded(e, "payment") ? e.amount_minor : 0), 0);
}

export function amountRefunded(entries: readonly LedgerEntry[]): number {
  return entries.reduce((s, e) => s + (succeeded(e, "refund") ? e.amount_minor : 0), 0);
}

export function paymentStatus(total: number, paid: number, refunded: number): BookingPaymentStatus {
  const net = paid - refunded;
  if (net > total) return "overpaid";
  if (net === total) return total === 0 && paid > 0 ? "refunded" : "paid";
  if (net <= 0) return refunded > 0 ? "refunded" : "unpaid";
  return refunded > 0 ? "partially_refunded" : "deposit_paid";
}

/** What a ledger adds up to against the booking's total (minor units of the booking's currency). */
export function paymentTotals(total: number, entries: readonly LedgerEntry[]): PaymentTotals {
  const paid = amountPaid(entries);
  const refunded = amountRefunded(entries);
  const net = paid - refunded;
  return { total, amount_paid: paid, amount_refunded: refunded, net_paid: net, balance_due: Math.max(0, total - net), payment_status: paymentStatus(total, paid, refunded) };
}

/** What a succeeded payment has left to refund: its amount less its refunds, pending ones included. */
export function refundableOf(payment: LedgerEntry, entries: readonly LedgerEntry[]): number {
  if (!succeeded(payment, "payment")) return 0;
  const taken = entries.reduce((s, e) => s + (e.kind === "refund" && e.refunds_payment_id === payment.id && e.status !== "failed" ? e.amount_minor : 0), 0);
  return payment.amount_minor - taken;
}

/** Why a refund cannot be made, naming the request's field. */
export interface RefundRefusal {
  path: "payment_id" | "amount";
  message: string;
}

/**
 * The payment a refund of `amount` takes its money from: the one named, or else the latest
 * succeeded payment that has at least `amount` left. A refusal names the field at fault.
 */
export function refundSource(entries: readonly LedgerEntry[], amount: number, paymentId?: string): LedgerEntry | RefundRefusal {
  if (paymentId !== undefined) {
    const named = entries.find((e) => e.id === paymentId && e.kind === "payment");
    if (!named) return { path: "payment_id", message: "is not a payment of this booking" };
    if (named.status !== "succeeded") return { path: "payment_id", message: `is ${named.status}: only a succeeded payment can be refunded` };
    const left = refundableOf(named, entries);
    if (amount > left) return { path: "amount", message: `is more than that payment has left to refund` };
    return named;
  }
  const candidates = entries.filter((e) => succeeded(e, "payment") && refundableOf(e, entries) >= amount);
  if (!candidates.length) {
    return { path: "amount", message: entries.some((e) => succeeded(e, "payment")) ? "is more than any one payment has left to refund" : "nothing has been paid on this booking" };
  }
  // the ledger is oldest first; the latest wins (created_at, then id, both ordered)
  return candidates.reduce((a, b) => (b.created_at > a.created_at || (b.created_at === a.created_at && b.id > a.id) ? b : a));
}

export const isRefusal = (v: LedgerEntry | RefundRefusal): v is RefundRefusal => "path" in v && "message" in v && !("id" in v);

/**
 * An amount in major units (as the API sends it: 120.5) as minor units of a currency with `digits`;
 * null when it has more decimals than the currency has, or is not a finite number.
 */
export function exactMinor(amount: number, digits: number): number | null {
  if (!Number.isFinite(amount)) return null;
  const scaled = amount * 10 ** digits;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 && Number.isSafeInteger(rounded) ? rounded : null;
}
