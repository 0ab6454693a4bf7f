/**
 * What a business's payment policy asks of one booking (issue 31): the deposit and its date, the
 * balance due date, what an online payment at booking takes, and the refund the cancellation terms
 * suggest. Pure: the policy comes from settings (contract/payment-policy.ts), the booking's parts
 * from its lines. Amounts are integer minor units of the booking's currency.
 *
 * The rules:
 * - A booking's parts are its products as booked: each with its guests and its part of the total.
 *   A part follows its product's own deposit and balance due days where the product sets them,
 *   else the business's.
 * - The deposit is the sum of the parts' deposits (percent of the part, rounded half-up; or the
 *   per-person amount, converted at the booking's rate, times its guests), never more than the
 *   total. A policy without any deposit has none: `deposit_due` is null.
 * - The deposit is due on the day the booking is made.
 * - The balance is due `balance_due_days` before the start (the longest of the parts' days, so the
 *   earliest date). A booking made on or after that date owes everything at once: its deposit is
 *   the total, and its balance due date the day it was made.
 * - Paid online at booking: the deposit when there is one, else the whole total.
 * - A cancellation refunds, of what was paid net, the percent of the first rule (most days first)
 *   whose `days_before` the cancellation is still ahead of the start by; later than every rule,
 *   nothing. No rules: no suggestion (null).
 */
import type { CancellationRule, DepositRule, PaymentPolicy, ProductPaymentPolicy } from "../contract/payment-policy";
import { addDays, daysBetween } from "../lib/time";
import { roundHalfUp } from "./money";

/** One product of a booking as booked. */
export interface BookedPart {
  product_id: number;
  /** Guests booked on it (a per-person deposit counts them). */
  guests: number;
  /** Its part of the booking's total, minor units of the booking's currency. */
  amount_minor: number;
}

export interface BookingForPolicy {
  total_minor: number;
  /** The booking's first day (YYYY-MM-DD). */
  start_date: string;
  /** The day it was booked, in the business's time zone (YYYY-MM-DD). */
  booked_on: string;
  parts: readonly BookedPart[];
}

export interface Dues {
  /** null: the policy asks no deposit. */
  deposit_due: number | null;
  deposit_due_date: string | null;
  balance_due_date: string;
  /** What an online payment at booking takes: the deposit, else the total. */
  due_at_booking: number;
  /** Whether the booking was made inside the balance window (so it owes everything at once). */
  in_full_now: boolean;
}

/** A product's own rules over the business's. */
export function ruleFor(policy: PaymentPolicy, own: ProductPaymentPolicy | null | undefined): { deposit: DepositRule; balance_due_days: number } {
  return { deposit: own?.deposit ?? policy.deposit, balance_due_days: own?.balance_due_days ?? policy.balance_due_days };
}

function partDeposit(rule: DepositRule, part: BookedPart, perPersonMinor: (amount: number) => number): number | null {
  switch (rule.type) {
    case "none":
      return null;
    case "percent":
      return roundHalfUp((part.amount_minor * rule.percent) / 100);
    case "per_person":
      return perPersonMinor(rule.amount) * part.guests;
  }
}

/**
 * The dues of a booking under `policy`. `productPolicy` gives a product's own rules (null: none);
 * `perPersonMinor` converts a per-person amount (major units of the default currency) to minor
 * units of the booking's currency.
 */
export function duesOf(
  policy: PaymentPolicy,
  booking: BookingForPolicy,
  productPolicy: (productId: number) => ProductPaymentPolicy | null | undefined,
  perPersonMinor: (amount: number) => number,
): Dues {
  let deposit: number | null = null;
  let days = policy.balance_due_days;
  const parts = booking.parts.length ? booking.parts : [];
  for (const part of parts) {
    const rule = ruleFor(policy, productPolicy(part.product_id));
    days = Math.max(days, rule.balance_due_days);
    const d = partDeposit(rule.deposit, part, perPersonMinor);
    if (d !== null) deposit = (deposit ?? 0) + d;
  }
  if (!parts.length) {
    const d = partDeposit(policy.deposit, { product_id: 0, guests: 0, amount_minor: booking.total_minor }, perPersonMinor);
    if (d !== null) deposit = d;
  }
  const dueDate = addDays(booking.start_date, -days);
  const inFullNow = booking.booked_on >= dueDate;
  if (inFullNow) {
    return { deposit_due: deposit === null ? null : booking.total_minor, deposit_due_date: deposit === null ? null : booking.booked_on, balance_due_date: booking.booked_on, due_at_booking: booking.total_minor, in_full_now: true };
  }
  const capped = deposit === null ? null : Math.min(deposit, booking.total_minor);
  return { deposit_due: capped, deposit_due_date: capped === null ? null : booking.booked_on, balance_due_date: dueDate, due_at_booking: capped ?? booking.total_minor, in_full_now: false };
}

/** The percent the terms refund when cancelling on `on` a booking starting `start`; null without terms. */
export function refundPercent(rules: readonly CancellationRule[], start: string, on: string): number | null {
  if (!rules.length) return null;
  const ahead = daysBetween(on, start);
  const rule = [...rules].sort((a, b) => b.days_before - a.days_before).find((r) => ahead >= r.days_before);
  return rule ? rule.refund_percent : 0;
}

/** The refund the terms suggest of `netPaid` (minor units) when cancelling on `on`; null without terms. */
export function suggestedRefund(rules: readonly CancellationRule[], start: string, on: string, netPaid: number): number | null {
  const percent = refundPercent(rules, start, on);
  return percent === null ? null : Math.min(netPaid, roundHalfUp((Math.max(0, netPaid) * percent) / 100));
}
