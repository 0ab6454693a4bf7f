/**
 * What a cart or a booking adds up to: the one place its amounts are summed. The cart view, the
 * checkout (which stores the booking's totals), the private API, the e-mails, the package quote
 * and the back office (which shows the booking's stored totals) all take their figures from here.
 *
 * The one rounding rule (money.ts does the arithmetic):
 * - every amount is an integer of the currency's minor units (cents; yen; fils);
 * - a line is priced in the default currency and converted to the cart's currency once, when it
 *   is priced (convertMinor: half-up to the minor unit), and kept at that price;
 * - subtotals and totals are exact integer sums of those lines: never a conversion of a sum, so a
 *   guest's lines always add up to what the guest is shown and the guests to the total;
 * - the total in the default currency converts the total back by the cart's rate and rounds
 *   half-up once (toDefaultMinor), at checkout, where the booking keeps it: a rate changed later
 *   changes no booking;
 * - major units (the API's numbers) are only ever the minor units shown (toMajor), never summed.
 */
import { currencyOfCart, minorDigits, roundHalfUp, toDefaultMinor, type Currency, type CurrencyChoice } from "./money";

/** A priced line of a cart or a booking: its role in the package and its price in minor units of the cart's currency. */
export interface PricedLine {
  role: string;
  price_minor: number;
}

/**
 * A change to the total that is no product's line (a discount, a fee): minor units of the same
 * currency, negative for a discount. None is made yet; a booking's stored total holds them.
 */
export interface Adjustment {
  reason: string;
  amount_minor: number;
}

/** The lines' sums by what they pay for. */
export interface Subtotals {
  /** The packages' own prices. */
  package: number;
  /** Beds and rooms. */
  accommodation: number;
  /** Single room supplements. */
  single_room: number;
  /** Default items, options, alternatives and upgrades. */
  extras: number;
}

/** Minor units throughout: of `currency` (with `digits`), and of `default_currency` for `total_default`. */
export interface Totals {
  currency: string;
  digits: number;
  subtotals: Subtotals;
  /** The sum of the lines (the sum of the subtotals). */
  lines: number;
  /** The sum of the adjustments. */
  adjustments: number;
  /** lines + adjustments: what is owed. */
  total: number;
  default_currency: string;
  default_digits: number;
  /** The total in the business's default currency. */
  total_default: number;
  // A booking's payments (paid, refunded, balance due, status) are domain/payments.ts's
  // paymentTotals(total, ledger), derived from this `total` and the ledger's exact entries; a
  // deposit (the business's deposit rule applied to `total`) comes with the payment policy.
}

const SUBTOTAL_OF: Record<string, keyof Subtotals> = { package: "package", accommodation: "accommodation", srs: "single_room" };

/** The sum of some lines (a guest's, a cart's), minor units. */
export function linesTotal(lines: readonly PricedLine[]): number {
  let sum = 0;
  for (const l of lines) sum += l.price_minor;
  return sum;
}

function subtotalsOf(lines: readonly PricedLine[]): Subtotals {
  const s: Subtotals = { package: 0, accommodation: 0, single_room: 0, extras: 0 };
  for (const l of lines) s[SUBTOTAL_OF[l.role] ?? "extras"] += l.price_minor;
  return s;
}

/** A cart's totals in its currency (`choice.target`), and in the business's default currency at the cart's rate. */
export function totalsOf(lines: readonly PricedLine[], choice: CurrencyChoice, adjustments: readonly Adjustment[] = []): Totals {
  const linesMinor = linesTotal(lines);
  const adjustmentsMinor = adjustments.reduce((s, a) => s + a.amount_minor, 0);
  const total = linesMinor + adjustmentsMinor;
  return {
    currency: choice.target.iso_code,
    digits: choice.target.digits,
    subtotals: subtotalsOf(lines),
    lines: linesMinor,
    adjustments: adjustmentsMinor,
    total,
    default_currency: choice.base.iso_code,
    default_digits: choice.base.digits,
    total_default: toDefaultMinor(total, choice),
  };
}

/**
 * A booking's totals: its total and its total in the default currency as checkout stored them
 * (totalsOf at the rate of that moment), its subtotals from its lines as booked.
 */
export function bookedTotals(
  booking: { currency: string; total_minor: number; total_default_minor: number },
  currencies: Currency[],
  lines: readonly PricedLine[],
  adjustments: readonly Adjustment[] = [],
): Totals {
  const { base, target } = currencyOfCart(currencies, booking.currency);
  return {
    currency: target.iso_code,
    digits: target.digits,
    subtotals: subtotalsOf(lines),
    lines: linesTotal(lines),
    adjustments: adjustments.reduce((s, a) => s + a.amount_minor, 0),
    total: booking.total_minor,
    default_currency: base.iso_code,
    default_digits: base.digits,
    total_default: booking.total_default_minor,
  };
}

/** A booking as its amounts in the default currency need it: its currency and its totals as checkout stored them. */
export interface BookingRate {
  currency: string;
  total_minor: number;
  total_default_minor: number;
  /** Units of the booking's currency per unit of the default now: used only when the booking has no rate of its own (a total of 0). */
  exchange_rate: number;
}

/**
 * An amount of a booking's currency (minor units) in the business's default currency, at the
 * booking's own rate: the rate its total was converted at when it was booked (its total in the
 * default currency over its total, both as checkout stored them), rounded half-up once, so a rate
 * changed later changes no booking's figures. The booking's own currency is the default: the
 * amount itself. A booking with a total of 0 has no rate of its own and takes its currency's rate now.
 */
export function bookingAmountInDefault(minor: number, booking: BookingRate, defaultCurrency: string): number {
  if (booking.currency === defaultCurrency) return minor;
  if (booking.total_minor > 0) return roundHalfUp((minor * booking.total_default_minor) / booking.total_minor);
  const rate = booking.exchange_rate > 0 ? booking.exchange_rate : 1;
  return toDefaultMinor(minor, {
    base: { iso_code: defaultCurrency, exchange_rate: 1, is_default: true, digits: minorDigits(defaultCurrency) },
    target: { iso_code: booking.currency, exchange_rate: rate, is_default: false, digits: minorDigits(booking.currency) },
  });
}

/**
 * What a person paid net as booker (payments less refunds) over bookings, in the default
 * currency's minor units: each booking's net paid converted at its own rate (bookingAmountInDefault),
 * then added (the Person's `totals.total_paid_as_booker`).
 */
export function netPaidInDefault(bookings: readonly (BookingRate & { net_paid_minor: number })[], defaultCurrency: string): number {
  let sum = 0;
  for (const b of bookings) sum += bookingAmountInDefault(b.net_paid_minor, b, defaultCurrency);
  return sum;
}
