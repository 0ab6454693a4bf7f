import { describe, expect, it } from "vitest";
import { callingCode } from "../src/contract/calling-codes";
import {
  bookerEmailFlow,
  bookerUpdateEvents,
  changedFields,
  initials,
  mergePersonData,
  normalizeEmail,
  pickPersonData,
  planGuestAdd,
  planGuestUpdate,
  withCallingCode,
} from "../src/domain/persons";

describe("normalizeEmail", () => {
  it("trims and lower-cases", () => {
    expect(normalizeEmail("  Ana.Lopez@Example.COM ")).toBe("ana.lopez@example.com");
  });
  it("treats empty and missing as no e-mail", () => {
    expect(normalizeEmail("   ")).toBeNull();
    expect(normalizeEmail(null)).toBeNull();
    expect(normalizeEmail(undefined)).toBeNull();
  });
});

describe("mergePersonData", () => {
  it("overwrites entered fields, keeps the others, clears explicit nulls", () => {
    const merged = mergePersonData(
      { first_name: "Ana", last_name: "Lopez", city: "Madrid", phone: "123" },
      { first_name: "Anna", city: null, country_code: "PT" },
    );
    expect(merged).toEqual({ first_name: "Anna", last_name: "Lopez", city: null, phone: "123", country_code: "PT" });
  });
  it("merges custom fields by key", () => {
    const merged = mergePersonData({ custom_fields: { surf_level: "beginner", shoe: 42 } }, { custom_fields: { surf_level: "advanced" } });
    expect(merged.custom_fields).toEqual({ surf_level: "advanced", shoe: 42 });
  });
  it("ignores what is not Person data (ids, totals, flags)", () => {
    const picked = pickPersonData({ id: "x", totals: { booking_count: 9 }, is_guest: true, created_at: "2020", first_name: "Ana", email: " A@B.C " });
    expect(picked).toEqual({ first_name: "Ana", email: "A@B.C" });
  });
});

describe("changedFields", () => {
  it("lists changed fields and treats undefined as null", () => {
    expect(changedFields({ first_name: "Ana", city: null }, { first_name: "Ana", city: undefined })).toEqual([]);
    expect(changedFields({ first_name: "Ana" }, { first_name: "Anna", custom_fields: { a: 1 } })).toEqual(["first_name", "custom_fields"]);
  });
});

describe("calling codes", () => {
  it("sets the calling code from the phone country", () => {
    expect(withCallingCode({ phone_country_code: "pt" }, callingCode)).toEqual({ phone_country_code: "PT", phone_country_calling_code: "351" });
    expect(withCallingCode({ phone_country_code: "US" }, callingCode).phone_country_calling_code).toBe("1");
    expect(withCallingCode({ phone_country_code: null }, callingCode).phone_country_calling_code).toBeNull();
    expect(withCallingCode({ phone: "1" }, callingCode)).toEqual({ phone: "1" });
  });
  it("knows the calling codes of many countries", () => {
    expect(callingCode("DE")).toBe("49");
    expect(callingCode("gb")).toBe("44");
    expect(callingCode("AU")).toBe("61");
    expect(callingCode("BR")).toBe("55");
    expect(callingCode("ZZ")).toBeUndefined();
  });
});

describe("planGuestAdd", () => {
  it("creates a Person for an unknown e-mail: GuestCreated with PersonCreated", () => {
    const plan = planGuestAdd({ entered: { email: "a@b.c", first_name: "Ana" }, existing: null, newPersonId: "p1", bookingId: "b1" });
    expect(plan.kind).toBe("create");
    expect(plan.personId).toBe("p1");
    expect(plan.events.map((e) => e.event)).toEqual(["GuestCreated", "PersonCreated"]);
    expect(plan.events[0].data).toEqual({ person_id: "p1", booking_id: "b1" });
  });
  it("updates a known Person with the entered data: GuestCreated and PersonUpdated", () => {
    const plan = planGuestAdd({
      entered: { email: "a@b.c", first_name: "Anna" },
      existing: { id: "p0", data: { email: "a@b.c", first_name: "Ana", city: "Faro" } },
      newPersonId: "p1",
      bookingId: "b1",
    });
    expect(plan.kind).toBe("update");
    expect(plan.personId).toBe("p0");
    expect(plan.data).toMatchObject({ first_name: "Anna", city: "Faro" });
    expect(plan.events.map((e) => e.event)).toEqual(["GuestCreated", "PersonUpdated"]);
  });
  it("sends no PersonUpdated when the entered data changes nothing", () => {
    const plan = planGuestAdd({ entered: { first_name: "Ana" }, existing: { id: "p0", data: { first_name: "Ana" } }, newPersonId: "p1", bookingId: "b1" });
    expect(plan.events.map((e) => e.event)).toEqual(["GuestCreated"]);
  });
  it("GuestUpdated always comes with PersonUpdated", () => {
    expect(planGuestUpdate({ personId: "p", bookingId: "b" }).map((e) => e.event)).toEqual(["GuestUpdated", "PersonUpdated"]);
  });
});

describe("bookerEmailFlow (the spec's three flows)", () => {
  const base = { currentEmail: "old@example.com", otherPersonWithEmail: null };
  it("no e-mail, or the same e-mail in another case: the same Person", () => {
    expect(bookerEmailFlow({ ...base, newEmail: undefined, createNew: true }).kind).toBe("same_person");
    expect(bookerEmailFlow({ ...base, newEmail: " OLD@example.com", createNew: true }).kind).toBe("same_person");
  });
  it("new unused e-mail, create_new missing or null: change the e-mail of booker and Person", () => {
    expect(bookerEmailFlow({ ...base, newEmail: "new@example.com", createNew: undefined })).toEqual({ kind: "change_email", email: "new@example.com" });
    expect(bookerEmailFlow({ ...base, newEmail: "new@example.com", createNew: null }).kind).toBe("change_email");
    expect(bookerEmailFlow({ ...base, newEmail: "new@example.com", createNew: false }).kind).toBe("change_email");
  });
  it("new unused e-mail, create_new true: a new Person", () => {
    expect(bookerEmailFlow({ ...base, newEmail: "new@example.com", createNew: true })).toEqual({ kind: "create_new", email: "new@example.com" });
  });
  it("e-mail of another Person: merge into it whatever create_new says", () => {
    for (const createNew of [true, false, null, undefined]) {
      expect(bookerEmailFlow({ ...base, newEmail: "taken@example.com", createNew, otherPersonWithEmail: { id: "p9" } })).toEqual({
        kind: "merge_existing",
        email: "taken@example.com",
        personId: "p9",
      });
    }
  });
  it("events: BookerUpdated, with PersonCreated for create_new and PersonUpdated when data changed", () => {
    expect(bookerUpdateEvents({ kind: "create_new", email: "x" }, "p2", "b", true).map((e) => e.event)).toEqual(["BookerUpdated", "PersonCreated"]);
    expect(bookerUpdateEvents({ kind: "change_email", email: "x" }, "p", "b", true).map((e) => e.event)).toEqual(["BookerUpdated", "PersonUpdated"]);
    expect(bookerUpdateEvents({ kind: "same_person" }, "p", "b", false).map((e) => e.event)).toEqual(["BookerUpdated"]);
  });
});

describe("initials", () => {
  it("takes the first letters of first and last name", () => {
    expect(initials("ana maría", "López")).toBe("AL");
    expect(initials(null, "Smith")).toBe("S");
    expect(initials(null, null)).toBe("");
  });
});
