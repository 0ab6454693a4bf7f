/**
 * The amounts the Bookings screens show, in one place: the booking's total as stored, each line's
 * price, and how an amount is written. When money has one owner in domain/ (issue 26: subtotals,
 * adjustments, total, total in the default currency), this file is where the screens take it
 * from; nothing else in the area computes or formats an amount.
 */
import { minorDigits, toMajor } from "../../../domain/money";
import { paymentTotals, type LedgerEntry } from "../../../domain/payments";

/** An amount in its currency's minor units as a number with the currency's decimals: `1234.50`, `-20.05` (a CSV's amount). */
export const formatAmount = (minor: number, currency: string) => toMajor(minor, minorDigits(currency)).toFixed(minorDigits(currency));

/** An amount in its currency's minor units, written as the back office shows it: `1234.50 EUR`. */
export const formatMoney = (minor: number, currency: string) => `${formatAmount(minor, currency)} ${currency}`;

/** A booking's total, as the list and the booking's page show it. */
export const bookingTotal = (b: { total_minor: number; currency: string }) => formatMoney(b.total_minor, b.currency);

/** A line's price, in its booking's currency. */
export const linePrice = (line: { price_minor: number }, currency: string) => formatMoney(line.price_minor, currency);

/** A booking's payments from its ledger (domain/payments.ts), in minor units of its currency. */
export const bookingPayments = (b: { total_minor: number }, ledger: readonly LedgerEntry[]) => paymentTotals(b.total_minor, ledger);
