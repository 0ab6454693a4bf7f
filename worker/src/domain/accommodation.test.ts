import { describe, expect, it } from "vitest";
import { genderAllowed, policyRefusal, srsAvailable, srsChargePerNight, srsUnits, unitsForParty } from "./accommodation";

const menDorm = { is_private: false, gender: "male", beds_per_room: 4, srs: null };
const womenDorm = { is_private: false, gender: "female", beds_per_room: 4, srs: null };
const twin = { is_private: false, gender: "mixed", beds_per_room: 2, srs: { charge_minor: 2000, fixed: true } };
const mixedDorm = { is_private: false, gender: "mixed", beds_per_room: 6, srs: { charge_minor: 1500, fixed: false } };
const double = { is_private: true, gender: null, beds_per_room: 2, srs: null };
const party = (males: number, females: number, couples = 0) => ({ males, females, couples });

describe("gender and couples", () => {
  it("male-only rooms take only males, female-only only females", () => {
    expect(unitsForParty(menDorm, party(3, 0))).toBe(3);
    expect(unitsForParty(menDorm, party(1, 1))).toBeNull();
    expect(unitsForParty(womenDorm, party(0, 2))).toBe(2);
    expect(unitsForParty(womenDorm, party(1, 0))).toBeNull();
    expect(genderAllowed(menDorm, "f")).toBe(false);
    expect(genderAllowed(womenDorm, "f")).toBe(true);
    expect(genderAllowed(double, "m")).toBe(true);
  });

  it("couples need a private room or a whole room of a mixed type", () => {
    expect(unitsForParty(menDorm, party(0, 0, 1))).toBeNull();
    expect(unitsForParty(womenDorm, party(0, 0, 1))).toBeNull();
    expect(unitsForParty(twin, party(0, 0, 1))).toBe(2); // all beds of one twin room
    expect(unitsForParty(mixedDorm, party(1, 0, 1))).toBe(7); // a whole six-bed room and one bed
    expect(unitsForParty(double, party(0, 0, 1))).toBe(1);
    expect(unitsForParty({ ...twin, beds_per_room: 1 }, party(0, 0, 1))).toBeNull();
  });

  it("private types sell whole rooms to anyone", () => {
    expect(unitsForParty(double, party(1, 0))).toBe(1);
    expect(unitsForParty(double, party(1, 1))).toBe(1);
    expect(unitsForParty(double, party(2, 1, 1))).toBe(3);
    expect(policyRefusal(double, party(0, 0))).toMatch(/empty/);
  });
});

describe("single room supplement", () => {
  it("is offered by shared types with an srs rate to a party that fits one room", () => {
    expect(srsAvailable(twin, party(1, 0))).toBe(true);
    expect(srsAvailable(twin, party(0, 0, 1))).toBe(true);
    expect(srsAvailable(twin, party(2, 1))).toBe(false); // three do not fit a twin room
    expect(srsAvailable(menDorm, party(1, 0))).toBe(false); // no srs rate
    expect(srsAvailable(double, party(1, 0))).toBe(false); // private already
  });

  it("fixed charges the whole room, otherwise each unbooked bed", () => {
    expect(srsChargePerNight(twin, 1)).toBe(2000);
    expect(srsChargePerNight(twin, 2)).toBe(2000);
    expect(srsChargePerNight(mixedDorm, 1)).toBe(5 * 1500);
    expect(srsChargePerNight(mixedDorm, 4)).toBe(2 * 1500);
    expect(srsChargePerNight(mixedDorm, 6)).toBe(0);
  });

  it("holds all beds of the room", () => {
    expect(srsUnits(twin)).toBe(2);
    expect(srsUnits(mixedDorm)).toBe(6);
  });
});
