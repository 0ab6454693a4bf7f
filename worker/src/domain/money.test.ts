import { describe, expect, it } from "vitest";
import { chooseCurrency, convertMinor, displayPrice, minorDigits, roundHalfUp, toCurrencies, toMajor } from "./money";

const currencies = toCurrencies([
  { iso_code: "EUR", exchange_rate: 1, is_default: 1 },
  { iso_code: "USD", exchange_rate: 1.085, is_default: 0 },
  { iso_code: "JPY", exchange_rate: 162.35, is_default: 0 },
]);

describe("money", () => {
  it("knows the minor units of currencies", () => {
    expect(minorDigits("EUR")).toBe(2);
    expect(minorDigits("USD")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(minorDigits("BHD")).toBe(3);
  });

  it("rounds half-up, even where floating point lands just below the half", () => {
    expect(100 * 1.005).toBeLessThan(100.5); // the binary noise this guards against
    expect(roundHalfUp(100 * 1.005)).toBe(101);
    expect(roundHalfUp(5500 * 1.085)).toBe(5968);
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(-2.5)).toBe(-3);
  });

  it("converts from the default currency, then rounds to the target's minor unit", () => {
    const usd = chooseCurrency(currencies, "USD");
    expect(convertMinor(5500, usd)).toBe(5968); // 55.00 EUR -> 59.675 USD -> 59.68
    expect(displayPrice(5500, usd)).toBe(59.68);
    expect(convertMinor(1, usd)).toBe(1); // 0.01085 -> 0.01
    const odd = chooseCurrency(toCurrencies([{ iso_code: "EUR", exchange_rate: 1, is_default: 1 }, { iso_code: "CHF", exchange_rate: 1.005, is_default: 0 }]), "CHF");
    expect(convertMinor(100, odd)).toBe(101); // 1.005 CHF is exactly half a cent: up
    const jpy = chooseCurrency(currencies, "JPY");
    expect(convertMinor(5500, jpy)).toBe(8929); // 55 EUR * 162.35 = 8929.25 -> 8929 yen
    expect(convertMinor(1000, jpy)).toBe(1624); // 10 EUR -> 1623.5 -> 1624 (half up)
    expect(displayPrice(1000, jpy)).toBe(1624);
  });

  it("shows minor units as major numbers", () => {
    expect(toMajor(5968, 2)).toBe(59.68);
    expect(toMajor(5, 2)).toBe(0.05);
    expect(toMajor(1624, 0)).toBe(1624);
  });

  it("defaults to the default currency and refuses an unknown one with 422", () => {
    expect(chooseCurrency(currencies, undefined).target.iso_code).toBe("EUR");
    expect(convertMinor(5500, chooseCurrency(currencies, "EUR"))).toBe(5500);
    expect(() => chooseCurrency(currencies, "GBP")).toThrowError(/unknown currency "GBP"/);
    try {
      chooseCurrency(currencies, "GBP", "currency_id");
    } catch (e: any) {
      expect(e.status).toBe(422);
      expect(e.extra.errors[0].path).toBe("currency_id");
    }
  });
});
