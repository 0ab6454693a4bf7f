import { describe, expect, test } from "vitest";
import { addDays, ageOn, formatCountdown, formatDate, formatPrice, formatShortPrice, formatWeekdayList, languageName, weekdayNames } from "./format";

describe("formatting in the guest's language", () => {
  test("prices follow the language with Intl; calendar cells drop cents only when there are none", () => {
    expect(formatPrice(1154, "EUR", "en")).toBe("€1,154.00");
    expect(formatPrice(1154, "EUR", "de")).toBe("1.154,00\u00a0€");
    expect(formatPrice(12.5, "USD", "es")).toBe("12,50\u00a0US$");
    expect(formatShortPrice(385, "EUR", "en")).toBe("€385");
    expect(formatShortPrice(385.5, "EUR", "en")).toBe("€385.50");
  });
  test("a currency Intl does not know is still shown, with its code", () => {
    expect(formatPrice(10, "not-a-currency", "en")).toBe("10.00 not-a-currency");
  });
  test("dates are calendar days, whatever the device's time zone", () => {
    expect(formatDate("2026-12-05", "en", "long")).toBe("Saturday, December 5, 2026");
    expect(formatDate("2026-12-05", "de", "short")).toBe("Sa., 5. Dez.");
    expect(weekdayNames("en")).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
    expect(formatWeekdayList(["sat", "sun"], "en")).toBe("Saturday and Sunday");
  });
  test("the countdown reads m:ss and never goes below zero", () => {
    expect(formatCountdown(599)).toBe("9:59");
    expect(formatCountdown(60)).toBe("1:00");
    expect(formatCountdown(-3)).toBe("0:00");
  });
  test("day arithmetic crosses months, years and leap days; age counts the birthday itself", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(ageOn("2000-02-29", "2026-02-28")).toBe(25);
    expect(ageOn("2000-02-29", "2026-03-01")).toBe(26);
    expect(ageOn("2014-12-05", "2026-12-05")).toBe(12);
  });
  test("languages are named in their own words; an unknown code stays a code", () => {
    expect(languageName("de")).toBe("Deutsch");
    expect(languageName("es")).toBe("Español");
    expect(languageName("pt")).toBe("Português");
    expect(languageName("not a language")).toBe("not a language");
  });
});
