import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createKey } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

// D1 has limits SQLite's defaults do not: a LIKE pattern of at most 50 bytes, at most 100 bound
// parameters per statement, a shallow expression tree. Valid input a client may send must be
// served, or bounded where the request is validated with a 422 that says the bound; never a 500.

let key: string;
let bookingId: string;
const email = uniqueEmail("limits.long.named.person");
beforeAll(async () => {
  key = await createKey("private");
  const persons = await callJson("/private/persons", { key, body: { email, first_name: "Maximiliana".repeat(6), last_name: "Longname" } });
  expect(persons.status).toBe(201);
  bookingId = (await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ email: uniqueEmail("g"), first_name: "Gina" }] })).bookingId;
});

const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());

describe("GET /private/persons: long contains-match values", () => {
  it.each(["first_name", "last_name", "email"])("serves %s values of 49 bytes and more", async (field) => {
    for (const value of ["x".repeat(49), "y".repeat(120), "é".repeat(100), "%_\\".repeat(40), "x".repeat(255)]) {
      const res = await callJson(`/private/persons?${field}=${encodeURIComponent(value)}`, { key });
      expect([field, value.length, res.status]).toEqual([field, value.length, 200]);
      expect(res.body.data).toEqual([]);
    }
  });

  it("still finds a long value that is there, case-insensitively, and treats % and _ literally", async () => {
    const res = await callJson(`/private/persons?first_name=${"MAXIMILIANA".repeat(5)}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => p.email)).toEqual([email]);
    expect((await callJson(`/private/persons?first_name=${encodeURIComponent("Maxi%ana")}`, { key })).body.data).toEqual([]);
    expect((await callJson(`/private/persons?email=${encodeURIComponent(email.slice(0, 60))}`, { key })).body.data).toHaveLength(1);
  });

  it("says the bound of a value over it with a 422", async () => {
    const res = await callJson(`/private/persons?first_name=${"x".repeat(256)}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "first_name", message: "must be at most 255 characters" }]);
  });
});

describe("GET /private/guests: long lists and many custom_fields keys", () => {
  it.each([
    ["booking_id", () => uuids(99)],
    ["booking_id", () => uuids(100)],
    ["diet_id", () => Array.from({ length: 100 }, (_, i) => i + 1)],
    ["arrival_location_id", () => Array.from({ length: 100 }, (_, i) => i + 1)],
    ["booking_product_id", () => Array.from({ length: 100 }, (_, i) => i + 1)],
  ] as const)("serves %s with a long list", async (name, values) => {
    const list = values();
    for (const query of [`${name}=${list.join(",")}`, list.map((v) => `${name}[]=${v}`).join("&")]) {
      const res = await callJson(`/private/guests?${query}`, { key });
      expect([name, res.status]).toEqual([name, 200]);
    }
  });

  it("serves several long lists together, and still finds what they name", async () => {
    const res = await callJson(`/private/guests?booking_id=${[bookingId, ...uuids(99)].join(",")}&diet_id=${Array.from({ length: 100 }, (_, i) => i + 1).join(",")}&booking_status=confirmed,confirmed,confirmed`, { key });
    expect(res.status).toBe(200);
    const all = await callJson(`/private/guests?booking_id=${[bookingId, ...uuids(99)].join(",")}`, { key });
    expect(all.body.map((g: any) => g.person.first_name)).toEqual(["Gina"]);
  });

  it("says the bound of a list over 100 values with a 422", async () => {
    const res = await callJson(`/private/guests?booking_id=${uuids(101).join(",")}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "booking_id", message: "at most 100 values" }]);
  });

  it("serves 50 custom_fields keys, and says the bound beyond", async () => {
    const fields = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, i % 2 ? "x" : i])));
    const fifty = await callJson(`/private/guests?custom_fields=${encodeURIComponent(fields(50))}`, { key });
    expect(fifty.status).toBe(200);
    expect(fifty.body).toEqual([]);
    const over = await callJson(`/private/guests?custom_fields=${encodeURIComponent(fields(51))}`, { key });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([{ path: "custom_fields", message: "at most 50 keys" }]);
  });

  it("a status list repeated many times is served", async () => {
    const res = await callJson(`/private/bookings?status=${Array(150).fill("confirmed").join(",")}`, { key });
    expect(res.status).toBe(200);
  });
});
