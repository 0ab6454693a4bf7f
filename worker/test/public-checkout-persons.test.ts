import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { clock, smallPackage, stay } from "./carts-fixtures";
import { callJson, createBusiness, createKey, dbOf } from "./helpers";
import { outboxEvents } from "./private-fixtures";

// A public checkout (the widget, with no key at all, or an integrator's site) may link its booking
// to the Person of an e-mail it names, but never rewrites that Person: anyone can type anyone's
// e-mail address.

let seq = 0;
async function business() {
  const slug = `persons-guard-${Date.now().toString(36)}-${++seq}`;
  const businessId = await createBusiness(slug, { widget_allow_loopback: true, rate_limit_per_minute: 10_000 });
  const pkg = await smallPackage(businessId, 10, "Guarded Retreat");
  return { slug, businessId, pkg, privateKey: await createKey("private", businessId), publicKey: await createKey("public", businessId) };
}

const stored = {
  email: "vera.victim@example.com",
  first_name: "Vera",
  last_name: "Victim",
  phone: "911111111",
  city: "Lisbon",
  birth_date: "1980-01-01",
  gender: "female",
};

const intruder = {
  first_name: "Mallory",
  last_name: "Intruder",
  email: "Vera.Victim@Example.com",
  phone: "999000999",
  city: "Elsewhere",
  birth_date: "1999-09-09",
  zipcode: "1000-001",
};

describe("a public checkout naming a stored Person's e-mail", () => {
  it.each(["widget", "api"] as const)("through the %s, links the booking to that Person, fills only its empty fields, and keeps what was entered with the booking", async (door) => {
    const b = await business();
    const person = await callJson("/private/persons", { key: b.privateKey, body: stored });
    expect(person.status).toBe(201);
    const personId = person.body.data.id;
    const t = clock();
    const { start, end } = stay(2);
    const guest = { first_name: "Mallory", last_name: "Guest", email: "vera.victim@example.com", gender: "m", birth_date: "1998-02-02", package: { id: b.pkg, start_date: start, end_date: end } };
    const through = (path: string, body: unknown, now: string) =>
      door === "widget"
        ? callJson(`/widget/v1/${b.slug}${path}`, { body, now, headers: { Origin: "http://localhost:5173" } })
        : callJson(`/api/pub/v2${path}`, { key: b.publicKey, body, now });
    const cart = await through("/bookings/add", { currency: "EUR", guests: [guest] }, t(0));
    expect(cart.status).toBe(201);
    const booked = await through(`/carts/${cart.body.cart_id}/checkout`, { terms_accepted: true, customer: intruder }, t(60));
    expect(booked.status).toBe(200);

    // The Person is the one of that e-mail, its data as it was; only the empty zip code was filled.
    const after = await callJson(`/private/persons/${personId}`, { key: b.privateKey });
    expect(after.body.data).toMatchObject({ ...stored, zip_code: "1000-001" });
    expect(await (await dbOf(b.businessId)).prepare("SELECT COUNT(*) AS n FROM persons WHERE business_id = ?").bind(b.businessId).first("n")).toBe(1);
    // The booking's booker and guest hold what was entered, linked to that Person.
    const booker = await callJson(`/private/bookings/${booked.body.id}/booker`, { key: b.privateKey });
    expect(booker.body.data.person).toMatchObject({ id: personId, first_name: "Mallory", last_name: "Intruder", phone: "999000999", city: "Elsewhere", birth_date: "1999-09-09" });
    const guests = await callJson(`/private/guests?booking_id=${booked.body.id}`, { key: b.privateKey });
    expect(guests.body).toHaveLength(1);
    expect(guests.body[0].person).toMatchObject({ id: personId, first_name: "Mallory", last_name: "Guest", gender: "male", birth_date: "1998-02-02" });
    // The Person still shows its own data where the private API reads it.
    expect((await callJson(`/private/persons?email=vera.victim`, { key: b.privateKey })).body.data[0]).toMatchObject({ first_name: "Vera", city: "Lisbon" });
  });

  it("sends no PersonUpdated when it has nothing to fill (the stored Person already has every field entered)", async () => {
    const b = await business();
    const personId = (await callJson("/private/persons", { key: b.privateKey, body: { ...stored, zip_code: "2000-002" } })).body.data.id;
    const t = clock();
    const { start, end } = stay(2);
    const before = (await (await dbOf(b.businessId)).prepare("SELECT MAX(seq) AS n FROM outbox").first<{ n: number }>())!.n;
    const guest = { first_name: "Nobody", last_name: "Else", email: "fresh.guest@example.com", gender: "f", package: { id: b.pkg, start_date: start, end_date: end } };
    const cart = await callJson("/api/pub/v2/bookings/add", { key: b.publicKey, body: { currency: "EUR", guests: [guest] }, now: t(0) });
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key: b.publicKey, body: { terms_accepted: true, customer: intruder }, now: t(30) });
    expect(booked.status).toBe(200);
    const events = (await outboxEvents(b.businessId, before)).map((e) => [e.event, e.data.person_id ?? e.data.id ?? null]);
    expect(events.filter(([e]) => e === "PersonUpdated")).toEqual([]);
    expect(events.map(([e]) => e)).toEqual(expect.arrayContaining(["BookingCreated", "BookerCreated", "GuestCreated", "PersonCreated"]));
    expect((await callJson(`/private/persons/${personId}`, { key: b.privateKey })).body.data).toMatchObject({ ...stored, zip_code: "2000-002" });
  });

  it("still creates a Person with everything entered when the e-mail is new", async () => {
    const b = await business();
    const t = clock();
    const { start, end } = stay(2);
    const guest = { first_name: "Nina", last_name: "New", email: "nina.new@example.com", gender: "f", birth_date: "1990-03-03", package: { id: b.pkg, start_date: start, end_date: end } };
    const cart = await callJson("/api/pub/v2/bookings/add", { key: b.publicKey, body: { currency: "EUR", guests: [guest] }, now: t(0) });
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, {
      key: b.publicKey,
      body: { terms_accepted: true, customer: { first_name: "Carl", last_name: "Customer", email: "carl@example.com", phone: "912000000", city: "Porto" } },
      now: t(30),
    });
    expect(booked.status).toBe(200);
    const list = (await callJson("/private/persons?sort_by=first_name", { key: b.privateKey })).body.data;
    expect(list.map((p: any) => [p.first_name, p.city ?? ""])).toEqual([["Carl", "Porto"], ["Nina", expect.any(String)]]);
    expect(list[1]).toMatchObject({ email: "nina.new@example.com", birth_date: "1990-03-03" });
  });
});
