/**
 * Money: integer minor units inside, major units (rounded half-up to the currency's minor unit)
 * in the API. Prices are stored in the business's default currency; another currency converts
 * from it by its exchange rate, then rounds. What a cart or a booking adds up to is totals.ts's.
 */
import { ApiError } from "../lib/errors";

/** A currency of a business as the pricing rules need it. */
export interface Currency {
  iso_code: string;
  /** Units of this currency for one unit of the default currency (1 for the default). */
  exchange_rate: number;
  is_default: boolean;
  /** Digits of the minor unit: EUR/USD 2, JPY 0, BHD 3. */
  digits: number;
}

/** The default currency (where prices are stored) and the one a request asked for. */
export interface CurrencyChoice {
  base: Currency;
  target: Currency;
}

// Intl knows ISO 4217's minor units; this table covers runtimes built without full ICU.
const MINOR_DIGITS: Record<string, number> = { JPY: 0, KRW: 0, ISK: 0, CLP: 0, VND: 0, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3 };

/** What Intl said of each code asked so far: building a NumberFormat costs more than a whole cart view. */
const digitsSeen = new Map<string, number>();

/** Digits of a currency's minor unit (2 when the code is unknown). */
export function minorDigits(iso: string): number {
  if (iso in MINOR_DIGITS) return MINOR_DIGITS[iso];
  let digits = digitsSeen.get(iso);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency: iso }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    if (digitsSeen.size >= 512) digitsSeen.clear();
    digitsSeen.set(iso, digits);
  }
  return digits;
}

/**
 * Round half-up (away from zero for the half). Going through 15 significant digits first
 * absorbs binary noise: 5500 * 1.085 is 5967.499999... in floating point but 5967.5 in decimal.
 */
export function roundHalfUp(x: number): number {
  if (x < 0) return -roundHalfUp(-x);
  return Math.floor(Number(x.toPrecision(15)) + 0.5);
}

/** Minor units to the number the API shows: 5968 with 2 digits is 59.68. */
export function toMajor(minor: number, digits: number): number {
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** Convert an amount in the default currency's minor units to the target's minor units. */
export function convertMinor(baseMinor: number, choice: CurrencyChoice): number {
  const { base, target } = choice;
  if (target.iso_code === base.iso_code) return baseMinor;
  return roundHalfUp(baseMinor * target.exchange_rate * 10 ** (target.digits - base.digits));
}

/**
 * Convert an amount in the target's minor units back to the default currency's (a booking's total
 * in the business's own currency, for its books): divided by the target's rate, rounded half-up
 * once. The same as the amount before convertMinor only up to that rounding: 834.00 EUR priced line
 * by line at 1.085 is 904.90 USD, which is 834.01 EUR back.
 */
export function toDefaultMinor(targetMinor: number, choice: CurrencyChoice): number {
  const { base, target } = choice;
  if (target.iso_code === base.iso_code) return targetMinor;
  return roundHalfUp((targetMinor / target.exchange_rate) * 10 ** (base.digits - target.digits));
}

/** Convert from the default currency and show in major units of the target. */
export function displayPrice(baseMinor: number, choice: CurrencyChoice): number {
  return toMajor(convertMinor(baseMinor, choice), choice.target.digits);
}

/** The currency rows of a business (any shape with these fields) as Currency values. */
export function toCurrencies(rows: { iso_code: string; exchange_rate: number; is_default: number | boolean }[]): Currency[] {
  return rows.map((r) => ({
    iso_code: r.iso_code,
    exchange_rate: Number(r.exchange_rate),
    is_default: Boolean(r.is_default),
    digits: minorDigits(r.iso_code),
  }));
}

/**
 * The business's default currency and the currency a cart was opened in. Never refuses: the cart's
 * prices were fixed when they were priced, and only its total in the default currency needs a
 * rate, so a currency the business removed since converts at 1.
 */
export function currencyOfCart(currencies: Currency[], iso: string): CurrencyChoice {
  const target = currencies.find((c) => c.iso_code === iso) ?? { iso_code: iso, exchange_rate: 1, is_default: false, digits: minorDigits(iso) };
  const base = currencies.find((c) => c.is_default) ?? currencies[0] ?? { ...target, is_default: true };
  return { base, target };
}

/**
 * The business's default currency and the requested one (the default when none is asked).
 * An unknown code is a 422 naming `path`.
 */
export function chooseCurrency(currencies: Currency[], code: string | undefined | null, path = "currency"): CurrencyChoice {
  const base = currencies.find((c) => c.is_default) ?? currencies[0];
  if (!base) throw new ApiError(422, "validation_failed", "The business has no currency configured.");
  if (code === undefined || code === null || code === "") return { base, target: base };
  const target = currencies.find((c) => c.iso_code === code.toUpperCase());
  if (!target) {
    const known = currencies.map((c) => c.iso_code).join(", ");
    const message = `unknown currency ${JSON.stringify(code)}; this business sells in ${known}`;
    throw new ApiError(422, "validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });
  }
  return { base, target };
}
