import { describe, expect, it } from "vitest";
import { chooseCurrency, convertMinor, currencyOfCart, toCurrencies, toDefaultMinor } from "./money";
import { bookedTotals, bookingAmountInDefault, linesTotal, netPaidInDefault, totalsOf, type PricedLine } from "./totals";

const currencies = toCurrencies([
  { iso_code: "EUR", exchange_rate: 1, is_default: 1 },
  { iso_code: "USD", exchange_rate: 1.085, is_default: 0 },
  { iso_code: "JPY", exchange_rate: 162.35, is_default: 0 },
  { iso_code: "GBP", exchange_rate: 0.8, is_default: 0 },
]);
const usd = chooseCurrency(currencies, "USD");

/** A week in a twin room with a single room supplement, yoga twice and a transfer: prices in EUR cents, as the catalog holds them. */
const WEEK_EUR: PricedLine[] = [
  { role: "package", price_minor: 38500 },
  { role: "accommodation", price_minor: 24500 },
  { role: "srs", price_minor: 14000 },
  { role: "default", price_minor: 0 },
  { role: "option", price_minor: 2400 },
  { role: "option", price_minor: 4000 },
];
/** The same lines as a cart in USD holds them: each converted once, when priced. */
const inUsd = (lines: PricedLine[]) => lines.map((l) => ({ ...l, price_minor: convertMinor(l.price_minor, usd) }));

describe("totals", () => {
  it("sum the lines as priced, each rounded half-up once: never a conversion of the sum", () => {
    const lines = inUsd(WEEK_EUR);
    // 385 * 1.085 = 417.725 -> 417.73; 245 -> 265.825 -> 265.83; 140 -> 151.90; 24 -> 26.04; 40 -> 43.40
    expect(lines.map((l) => l.price_minor)).toEqual([41773, 26583, 15190, 0, 2604, 4340]);
    const t = totalsOf(lines, usd);
    expect(t.total).toBe(90490);
    // converting the EUR sum would give a cent less: the guest would see lines that do not add up
    expect(convertMinor(linesTotal(WEEK_EUR), usd)).toBe(90489);
    expect(t).toMatchObject({ currency: "USD", digits: 2, lines: 90490, adjustments: 0, default_currency: "EUR", default_digits: 2 });
  });

  it("group the lines: package, accommodation, single room supplement, extras (defaults, options, alternatives, upgrades, anything else)", () => {
    const t = totalsOf(
      [...WEEK_EUR, { role: "alternative", price_minor: 700 }, { role: "upgrade", price_minor: 300 }, { role: "something-new", price_minor: 5 }],
      chooseCurrency(currencies, "EUR"),
    );
    expect(t.subtotals).toEqual({ package: 38500, accommodation: 24500, single_room: 14000, extras: 2400 + 4000 + 700 + 300 + 5 });
    expect(t.subtotals.package + t.subtotals.accommodation + t.subtotals.single_room + t.subtotals.extras).toBe(t.lines);
  });

  it("give the total in the default currency: the total divided by the cart's rate, rounded half-up once", () => {
    // 904.90 USD / 1.085 = 834.0092 EUR -> 834.01 (not the 834.00 the lines cost in EUR: the rate is applied twice)
    expect(totalsOf(inUsd(WEEK_EUR), usd).total_default).toBe(83401);
    const gbp = chooseCurrency(currencies, "GBP");
    // exactly half a cent: up
    expect(toDefaultMinor(2, gbp)).toBe(3); // 0.02 GBP / 0.8 = 0.025 EUR -> 0.03
    expect(toDefaultMinor(6, gbp)).toBe(8); // 0.075 -> 0.08
    expect(toDefaultMinor(5, gbp)).toBe(6); // 0.0625 EUR: under the half, down to 0.06
    expect(totalsOf([{ role: "package", price_minor: 10 }], gbp).total_default).toBe(13); // 12.5 cents -> 13
    // a currency without minor units: yen back to euro cents
    const jpy = chooseCurrency(currencies, "JPY");
    expect(toDefaultMinor(8929, jpy)).toBe(5500); // 8929 / 162.35 = 54.998 EUR -> 55.00
    expect(totalsOf([{ role: "package", price_minor: 8929 }], jpy)).toMatchObject({ digits: 0, total: 8929, default_digits: 2, total_default: 5500 });
    // the default currency itself: nothing to convert
    expect(totalsOf(WEEK_EUR, chooseCurrency(currencies, "EUR")).total_default).toBe(83400);
  });

  it("add adjustments to the lines (a discount is negative), and convert the adjusted total", () => {
    const t = totalsOf(inUsd(WEEK_EUR), usd, [{ reason: "early bird", amount_minor: -4490 }]);
    expect(t).toMatchObject({ lines: 90490, adjustments: -4490, total: 86000 });
    expect(t.total_default).toBe(79263); // 860.00 / 1.085 = 792.6267 -> 792.63
  });

  it("of a booking keep what checkout stored: a rate changed since changes nothing", () => {
    const lines = inUsd(WEEK_EUR);
    const booked = { currency: "USD", total_minor: 90490, total_default_minor: 83401 };
    const later = toCurrencies([
      { iso_code: "EUR", exchange_rate: 1, is_default: 1 },
      { iso_code: "USD", exchange_rate: 1.2, is_default: 0 },
    ]);
    expect(bookedTotals(booked, later, lines)).toEqual({ ...totalsOf(lines, usd), total: 90490, total_default: 83401 });
  });

  it("of a cart in a currency the business removed since convert at 1, in that currency's own minor unit", () => {
    const eurOnly = toCurrencies([{ iso_code: "EUR", exchange_rate: 1, is_default: 1 }]);
    const choice = currencyOfCart(eurOnly, "USD");
    expect(choice.target).toMatchObject({ iso_code: "USD", digits: 2, exchange_rate: 1 });
    expect(totalsOf([{ role: "package", price_minor: 10850 }], choice)).toMatchObject({ currency: "USD", total: 10850, total_default: 10850 });
    expect(currencyOfCart(currencies, "USD")).toEqual(usd);
  });

  it("of nothing is zero", () => {
    expect(linesTotal([])).toBe(0);
    expect(totalsOf([], usd)).toMatchObject({ lines: 0, total: 0, total_default: 0 });
  });
});

describe("a booking's amounts in the default currency (a person's total paid as booker)", () => {
  // 834.00 EUR priced line by line at 1.085 is 904.90 USD; checkout stored 834.01 EUR as its total in EUR
  const usdBooking = { currency: "USD", total_minor: 90490, total_default_minor: 83401, exchange_rate: 1.085 };
  it("convert at the booking's own rate, rounded half-up once, whatever the rate is now", () => {
    // 300.00 USD * 83401 / 90490 = 276.50... EUR
    expect(bookingAmountInDefault(30000, usdBooking, "EUR")).toBe(27650);
    expect(bookingAmountInDefault(30000, { ...usdBooking, exchange_rate: 2 }, "EUR")).toBe(27650);
    // the whole total paid is the booking's total in EUR, to the cent
    expect(bookingAmountInDefault(90490, usdBooking, "EUR")).toBe(83401);
  });
  it("take the amount itself in the default currency, and the currency's rate now for a booking with no total", () => {
    expect(bookingAmountInDefault(12345, { currency: "EUR", total_minor: 0, total_default_minor: 0, exchange_rate: 1 }, "EUR")).toBe(12345);
    expect(bookingAmountInDefault(1000, { currency: "JPY", total_minor: 0, total_default_minor: 0, exchange_rate: 162.35 }, "EUR")).toBe(616);
  });
  it("add each booking's net paid, converted on its own", () => {
    expect(
      netPaidInDefault(
        [
          { ...usdBooking, net_paid_minor: 30000 },
          { currency: "EUR", total_minor: 50000, total_default_minor: 50000, exchange_rate: 1, net_paid_minor: 15050 },
          { currency: "EUR", total_minor: 50000, total_default_minor: 50000, exchange_rate: 1, net_paid_minor: 0 },
        ],
        "EUR",
      ),
    ).toBe(27650 + 15050);
  });
});
