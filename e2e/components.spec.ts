/**
 * Component logic tests: the parts of the steps with rules of their own, run in Node on the
 * widget's own modules (no browser needed), plus the calendar's keyboard grid in the browser.
 */
import { classify } from "../widget/src/api/client";
import type { PackageItem, PackageRoot } from "../widget/src/api/client";
import { ageOn, formatCountdown, formatPrice } from "../widget/src/format";
import { addToCartBody, itemsPayload, monthGrid, partyGenders, resizeGuests, validateGuests, wholeItemDates, type Selection } from "../widget/src/selection";
import { de } from "../widget/src/strings/de";
import { en } from "../widget/src/strings/en";
import { es } from "../widget/src/strings/es";
import { expect, heading, test } from "./fixtures";
import { w } from "./journey";

const sel = (over: Partial<Selection> = {}): Selection => ({
  productId: 101, startDate: "2026-12-05", duration: 7, males: 1, females: 0, couples: 0, accommodationId: 201, srs: false, items: {}, ...over,
});
const item = (over: Partial<PackageItem>): PackageItem => ({
  package_item_id: 1, role: "option", product: { id: 1, type: "activity", title: "x", is_on_timeslots: false }, qty: { min: 0, max: 1, default: 0 },
  price: { value: 1, currency: "EUR" }, is_configurable_dates: false, dates: [], ...over,
});

test.describe("party and guests", () => {
  test("a party stands for men, women and each couple as a man and a woman", () => {
    expect(partyGenders({ males: 1, females: 2, couples: 1 }).map((g) => g.gender)).toEqual(["m", "f", "f", "m", "f"]);
  });
  test("resizing the party keeps what was typed for the guests that remain", () => {
    const one = resizeGuests([], { males: 1, females: 0, couples: 0 });
    one[0].first_name = "Ana";
    const two = resizeGuests(one, { males: 1, females: 1, couples: 0 });
    expect(two.map((g) => [g.first_name, g.gender])).toEqual([["Ana", "m"], ["", "f"]]);
  });
  test("guest checks: required names, birthday when required, minimum age on the check-in day (birthday that day counts)", () => {
    const msg = { required: "req", tooYoung: "young", invalidEmail: "mail" };
    const g = resizeGuests([], { males: 2, females: 0, couples: 0 });
    Object.assign(g[0], { first_name: "A", last_name: "B", birth_date: "2014-12-05", email: "a@b" });
    Object.assign(g[1], { first_name: "C", last_name: "D", birth_date: "2014-12-06" });
    const errors = validateGuests(g, { birthdayRequired: true, minimumAge: 12, startDate: "2026-12-05" }, msg);
    expect(errors).toEqual({ "guests.0.email": "mail", "guests.1.birth_date": "young" });
    expect(ageOn("2000-02-29", "2026-02-28")).toBe(25);
    expect(ageOn("2000-02-29", "2026-03-01")).toBe(26);
  });
});

test.describe("extras and the cart payload", () => {
  const yoga = item({
    package_item_id: 1002, is_configurable_dates: true, product: { id: 302, type: "activity", title: "Yoga", is_on_timeslots: true },
    dates: [
      { date: "2026-12-05", available: null, capacity: null, timeslots: [{ time: "08:00", available: 0, capacity: 12 }, { time: "18:00", available: 3, capacity: 12 }] },
      { date: "2026-12-06", available: null, capacity: null, timeslots: [{ time: "08:00", available: 0, capacity: 12 }, { time: "18:00", available: 0, capacity: 12 }] },
    ],
  });
  const pkg: PackageRoot = { start_date: "2026-12-05", end_date: "2026-12-12", single_items: [yoga, item({ package_item_id: 1001, role: "default" })], groups: [] };

  test("a timeslot item taken as a whole books the first free time of each day that has one", () => {
    expect(wholeItemDates(yoga)).toEqual(["2026-12-05 18:00:00"]);
  });
  test("the payload carries options only (never default items), sorted, and end_date from the duration", () => {
    const body = addToCartBody(sel({ items: { 1002: ["2026-12-07 18:00:00", "2026-12-05 18:00:00"], 1001: ["2026-12-05"], 9: ["2026-12-05"] } }), pkg, resizeGuests([], sel()).map((g) => ({ ...g, first_name: " Ana ", last_name: "B" })), "EUR", "en");
    expect(body.guests[0]).toMatchObject({ first_name: "Ana", gender: "m", package: { id: 101, start_date: "2026-12-05", end_date: "2026-12-12", accommodation_id: 201 } });
    expect(body.guests[0].package.items).toEqual([{ package_item_id: 1002, dates: ["2026-12-05 18:00:00", "2026-12-07 18:00:00"] }]);
    expect(itemsPayload(sel(), pkg)).toEqual([]);
  });
});

test.describe("calendar, formatting, errors and strings", () => {
  test("the month grid is always six Monday-first weeks", () => {
    const grid = monthGrid("2026-02-01");
    expect(grid).toHaveLength(6);
    expect(grid[0][0].date).toBe("2026-01-26");
    expect(grid.flat().filter((c) => c.inMonth)).toHaveLength(28);
  });
  test("prices follow the guest's language with Intl, and the countdown reads m:ss", () => {
    expect(formatPrice(1154, "EUR", "en")).toBe("€1,154.00");
    expect(formatPrice(1154, "EUR", "de")).toBe("1.154,00\u00a0€");
    expect(formatPrice(12.5, "USD", "es")).toBe("12,50\u00a0US$");
    expect(formatCountdown(599)).toBe("9:59");
    expect(formatCountdown(-3)).toBe("0:00");
  });
  test("each problem+json maps to the kind the guest gets a message for", () => {
    expect(classify(429, { code: "rate_limited" }, "7")).toMatchObject({ kind: "rate_limited", retryAfter: 7 });
    expect(classify(409, { code: "sold_out" }, null).kind).toBe("sold_out");
    expect(classify(410, { code: "cart_expired" }, null).kind).toBe("cart_expired");
    expect(classify(409, { code: "cart_not_open" }, null).kind).toBe("cart_not_open");
    expect(classify(403, { code: "origin_not_allowed" }, null).kind).toBe("origin");
    expect(classify(422, { code: "validation_failed", errors: [{ path: "guests.0.email", message: "bad" }] }, null)).toMatchObject({ kind: "validation", fieldErrors: [{ path: "guests.0.email" }] });
    expect(classify(500, null, null).kind).toBe("server");
  });
  test("the German and Spanish tables have every key of the English one, each translated", () => {
    const keys = (o: object, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [p + k] : keys(v, `${p}${k}.`)));
    expect(keys(de)).toEqual(keys(en));
    expect(keys(es)).toEqual(keys(en));
    const get = (o: any, k: string) => k.split(".").reduce((x, y) => x[y], o);
    // placeholders survive translation
    for (const k of keys(en)) {
      const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join();
      expect(ph(get(de, k)), k).toBe(ph(get(en, k)));
      expect(ph(get(es, k)), k).toBe(ph(get(en, k)));
    }
  });
});

test("the calendar is one tab stop; arrows move by day and week, disabled days say why", async ({ page, server }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await expect(w(page, 'button.day[tabindex="0"]')).toHaveCount(1);
  const first = w(page, "button.day.open").first();
  await first.focus();
  await page.keyboard.press("ArrowRight"); // the day after a Saturday check-in: a Sunday
  const focused = w(page, 'button.day[tabindex="0"]');
  await expect(focused).toBeFocused();
  await expect(focused).toHaveAttribute("aria-disabled", "true");
  await expect(focused).toHaveAttribute("aria-label", /no check-in on this weekday/);
  await page.keyboard.press("Enter");
  await expect(focused).toHaveAttribute("aria-pressed", "false");
});
