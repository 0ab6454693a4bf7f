import { describe, expect, test } from "vitest";
import type { PackageItem, PackageRoot, Product } from "./api/client";
import { dayTakesParty, durationChoices, endDate, monthGrid, partySize, roomTakes, soldOutTypes, wholeItemDates, type Selection } from "./selection";
import { addToCartBody, itemsPayload, partyGenders, rebuildBody, resizeGuests, validateGuests } from "./booking-body";

const sel = (over: Partial<Selection> = {}): Selection => ({
  productId: 101, startDate: "2026-12-05", duration: 7, males: 1, females: 0, couples: 0, accommodationId: 201, srs: false, items: {}, ...over,
});
const item = (over: Partial<PackageItem>): PackageItem => ({
  package_item_id: 1, role: "option", product: { id: 1, type: "activity", title: "x", is_on_timeslots: false }, qty: { min: 0, max: 1, default: 0 },
  price: { value: 1, currency: "EUR" }, is_configurable_dates: false, dates: [], ...over,
});

describe("party and guests", () => {
  test("a party stands for men, women and each couple as a man and a woman", () => {
    expect(partyGenders({ males: 1, females: 2, couples: 1 }).map((g) => g.gender)).toEqual(["m", "f", "f", "m", "f"]);
    expect(partySize({ males: 1, females: 2, couples: 1 })).toBe(5);
  });
  test("resizing the party keeps what was typed for the guests that remain", () => {
    const one = resizeGuests([], { males: 1, females: 0, couples: 0 });
    one[0].first_name = "Ana";
    const two = resizeGuests(one, { males: 1, females: 1, couples: 0 });
    expect(two.map((g) => [g.first_name, g.gender])).toEqual([["Ana", "m"], ["", "f"]]);
    expect(resizeGuests(two, { males: 0, females: 0, couples: 0 })).toEqual([]);
  });
  test("a couple's members may say their gender; it survives a resize", () => {
    const couple = resizeGuests([], { males: 0, females: 0, couples: 1 });
    expect(couple.map((g) => g.genderEditable)).toEqual([true, true]);
    couple[0].gender = "f";
    expect(resizeGuests(couple, { males: 0, females: 0, couples: 1 })[0].gender).toBe("f");
  });
  test("guest checks: required names, birthday when required, minimum age on the check-in day (birthday that day counts)", () => {
    const msg = { required: "req", tooYoung: "young", invalidEmail: "mail" };
    const g = resizeGuests([], { males: 2, females: 0, couples: 0 });
    Object.assign(g[0], { first_name: "A", last_name: "B", birth_date: "2014-12-05", email: "a@b" });
    Object.assign(g[1], { first_name: "C", last_name: "D", birth_date: "2014-12-06" });
    expect(validateGuests(g, { birthdayRequired: true, minimumAge: 12, startDate: "2026-12-05" }, msg)).toEqual({ "guests.0.email": "mail", "guests.1.birth_date": "young" });
    Object.assign(g[1], { first_name: " ", birth_date: "" });
    expect(validateGuests(g, { birthdayRequired: true, minimumAge: 0, startDate: "2026-12-05" }, msg)).toEqual({
      "guests.0.email": "mail", "guests.1.first_name": "req", "guests.1.birth_date": "req",
    });
    expect(validateGuests(g, { birthdayRequired: false, minimumAge: 0, startDate: "2026-12-05" }, msg)).not.toHaveProperty("guests.1.birth_date");
  });
});

describe("stay", () => {
  test("the stay ends `duration` nights after check-in, across a month and a leap day", () => {
    expect(endDate(sel({ startDate: "2028-02-26", duration: 7 }))).toBe("2028-03-04");
    expect(endDate(sel({ startDate: "2026-12-26", duration: 7 }))).toBe("2027-01-02");
    expect(endDate(sel({ startDate: null }))).toBeNull();
  });
  test("durations offered: the variants (unique, sorted, none below the minimum), else the default", () => {
    const product = (duration: Product["duration"]) => ({ duration }) as Product;
    expect(durationChoices(product({ is_flexible: false, min: 7, default: 7, unit: "day", variants: [14, 7, 3, 14] }))).toEqual([7, 14]);
    expect(durationChoices(product({ is_flexible: false, min: 1, default: 5, unit: "day", variants: [] }))).toEqual([5]);
  });
});

describe("extras and the cart payload", () => {
  const yoga = item({
    package_item_id: 1002, is_configurable_dates: true, product: { id: 302, type: "activity", title: "Yoga", is_on_timeslots: true },
    dates: [
      { date: "2026-12-05", available: null, capacity: null, timeslots: [{ time: "08:00", available: 0, capacity: 12 }, { time: "18:00", available: 3, capacity: 12 }] },
      { date: "2026-12-06", available: null, capacity: null, timeslots: [{ time: "08:00", available: 0, capacity: 12 }, { time: "18:00", available: 0, capacity: 12 }] },
    ],
  });
  const transfer = item({ package_item_id: 1003, dates: [{ date: "2026-12-05", available: 0, capacity: 4, timeslots: null }, { date: "2026-12-06", available: "unlimited", capacity: null, timeslots: null }] });
  const pkg: PackageRoot = { start_date: "2026-12-05", end_date: "2026-12-12", single_items: [yoga, item({ package_item_id: 1001, role: "default" })], groups: [] };

  test("a timeslot item taken as a whole books the first free time of each day that has one", () => {
    expect(wholeItemDates(yoga)).toEqual(["2026-12-05 18:00:00"]);
    expect(wholeItemDates(yoga, "18:00")).toEqual(["2026-12-05 18:00:00"]);
  });
  test("a day item taken as a whole books every day with room (unlimited counts as room)", () => {
    expect(wholeItemDates(transfer)).toEqual(["2026-12-06"]);
  });
  test("the payload carries options only (never default items), sorted, and end_date from the duration", () => {
    const body = addToCartBody(sel({ items: { 1002: ["2026-12-07 18:00:00", "2026-12-05 18:00:00"], 1001: ["2026-12-05"], 9: ["2026-12-05"] } }), pkg, resizeGuests([], sel()).map((g) => ({ ...g, first_name: " Ana ", last_name: "B" })), "EUR", "en");
    expect(body.guests[0]).toMatchObject({ first_name: "Ana", gender: "m", package: { id: 101, start_date: "2026-12-05", end_date: "2026-12-12", accommodation_id: 201 } });
    expect(body.guests[0].package.items).toEqual([{ package_item_id: 1002, dates: ["2026-12-05 18:00:00", "2026-12-07 18:00:00"] }]);
    expect(body.guests[0]).not.toHaveProperty("email");
    expect(itemsPayload(sel(), pkg)).toEqual([]);
  });
  test("an expired cart is held again with the same guests, stay, room and chosen extras (never the package's own lines)", () => {
    const body = rebuildBody({
      currency: "EUR",
      guests: [{
        first_name: "Eve", last_name: "X", email: null, gender: "f", language_code: "en", birth_date: "1990-01-01",
        package: { id: 101, title: "Week", start_date: "2026-12-05", end_date: "2026-12-12", accommodation_id: 202, srs: true },
        items: [
          { id: 1, package_item_id: null, product_id: 101, product_type: "package", title: "Week", role: "package", dates: [], qty: 1, price: 1, is_fixed: false },
          { id: 2, package_item_id: 1001, product_id: 301, product_type: "activity", title: "Surf", role: "default", dates: ["2026-12-06"], qty: 1, price: 0, is_fixed: true },
          { id: 3, package_item_id: 1002, product_id: 302, product_type: "activity", title: "Yoga", role: "option", dates: ["2026-12-06 18:00:00"], qty: 1, price: 12, is_fixed: true },
        ],
        id: "x", total: 1,
      }],
    } as never);
    expect(body.guests[0]).toEqual({
      first_name: "Eve", last_name: "X", gender: "f", language_code: "en", birth_date: "1990-01-01",
      package: { id: 101, start_date: "2026-12-05", end_date: "2026-12-12", accommodation_id: 202, srs: true, items: [{ package_item_id: 1002, dates: ["2026-12-06 18:00:00"] }] },
    });
  });
});

describe("calendar", () => {
  test("the month grid is always six Monday-first weeks", () => {
    const grid = monthGrid("2026-02-01");
    expect(grid).toHaveLength(6);
    expect(grid[0][0].date).toBe("2026-01-26");
    expect(grid.flat().filter((c) => c.inMonth)).toHaveLength(28);
    // a month starting on a Monday starts its first row
    expect(monthGrid("2026-06-01")[0][0]).toEqual({ date: "2026-06-01", inMonth: true });
  });
});

describe("rooms for the party", () => {
  const types = [
    { id: 201, title: "Ocean Dorm (men)", is_private: false, gender: "male", beds_per_room: 6 },
    { id: 202, title: "Sunset Dorm (women)", is_private: false, gender: "female", beds_per_room: 6 },
    { id: 205, title: "Sea View Double", is_private: true, gender: null, beds_per_room: 2 },
  ];
  const day = (rooms: Record<number, number | null>) => ({ available_for_checkin: true, price: 1, rooms });
  const party = (males: number, females: number, couples: number) => ({ males, females, couples });

  test("a day is offered when some room type can take the whole party for the whole stay", () => {
    const onlyMensBeds = day({ 201: 3, 202: 0, 205: 0 });
    expect(dayTakesParty(onlyMensBeds, types, party(2, 0, 0))).toBe(true);
    expect(dayTakesParty(onlyMensBeds, types, party(4, 0, 0))).toBe(false); // 3 beds left
    expect(dayTakesParty(onlyMensBeds, types, party(0, 1, 0))).toBe(false); // a woman: no women's bed, no private room
    expect(dayTakesParty(onlyMensBeds, types, party(0, 0, 1))).toBe(false); // a couple needs a private room
    expect(dayTakesParty(day({ 201: 0, 202: 0, 205: 1 }), types, party(0, 0, 1))).toBe(true);
    // private rooms are whole rooms: three guests take two doubles
    expect(dayTakesParty(day({ 201: 0, 202: 0, 205: 1 }), types, party(2, 1, 0))).toBe(false);
    expect(dayTakesParty(day({ 201: 0, 202: 0, 205: 2 }), types, party(2, 1, 0))).toBe(true);
  });
  test("before the party is known, a day with one free bed or room for anyone is offered; none at all is not", () => {
    expect(dayTakesParty(day({ 201: 0, 202: 1, 205: 0 }), types, party(0, 0, 0))).toBe(true);
    expect(dayTakesParty(day({ 201: 0, 202: 0, 205: 0 }), types, party(0, 0, 0))).toBe(false);
  });
  test("unlimited counts as room; a day that says nothing of rooms is not judged", () => {
    expect(dayTakesParty(day({ 201: null, 202: 0, 205: 0 }), types, party(5, 0, 0))).toBe(true);
    expect(dayTakesParty({ available_for_checkin: true, price: 1 }, types, party(0, 0, 3))).toBe(true);
    expect(roomTakes(types[0], undefined, party(1, 0, 0))).toBe(false);
  });
  test("sold out: the types the party may take by their rules but not on this day", () => {
    const d = day({ 201: 0, 202: 6, 205: 4 });
    expect(soldOutTypes(d, types, party(1, 0, 0)).map((t) => t.id)).toEqual([201]);
    expect(soldOutTypes(d, types, party(0, 2, 0))).toEqual([]);
    expect(soldOutTypes(d, types, party(0, 0, 0))).toEqual([]);
  });
});
