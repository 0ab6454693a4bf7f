import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";

let key: string;
beforeAll(async () => {
  key = await createKey("private");
});

const personIdOf = async (email: string) =>
  (await env.DB.prepare("SELECT id FROM persons WHERE email_norm = ? AND deleted_at IS NULL").bind(email.toLowerCase()).first<{ id: string }>())?.id;
const put = (bookingId: string, body: unknown) => callJson(`/private/bookings/${bookingId}/booker`, { key, method: "PUT", body });

describe("GET /private/bookings/{id}/booker", () => {
  it("answers {data: Booker} with the snapshot and booking-related data", async () => {
    const email = uniqueEmail("bk");
    const { bookingId, bookerId } = await createBookingFixture({ booker: { email, first_name: "Bea", company_name: "Bea Lda", tax_number: "PT1" } });
    const res = await callJson(`/private/bookings/${bookingId}/booker`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: bookerId,
        person: expect.objectContaining({ id: await personIdOf(email), email, first_name: "Bea", is_booker: true }),
        booking_related_data: { booking_id: bookingId, company_name: "Bea Lda", tax_number: "PT1" },
      },
    });
    expect((await callJson(`/private/bookings/${crypto.randomUUID()}/booker`, { key })).status).toBe(404);
    expect((await callJson(`/private/bookings/x/booker`, { key })).status).toBe(400);
  });
});

describe("PUT /private/bookings/{id}/booker", () => {
  it("updates the booker and its Person (no e-mail change): BookerUpdated + PersonUpdated", async () => {
    const email = uniqueEmail("upd");
    const { bookingId } = await createBookingFixture({ booker: { email, first_name: "Old", tax_number: "T0" } });
    const seq = await lastOutboxSeq();
    const res = await put(bookingId, { first_name: "New", phone_country_code: "GB", phone: "7700900123", tax_number: "T1", is_booker: false, id: crypto.randomUUID() });
    expect(res.status).toBe(200);
    expect(res.body.data.person).toMatchObject({ first_name: "New", phone_country_calling_code: "44", is_booker: true });
    expect(res.body.data.booking_related_data.tax_number).toBe("T1");
    const personId = await personIdOf(email);
    expect(res.body.data.person.id).toBe(personId);
    expect((await callJson(`/private/persons/${personId}`, { key })).body.data).toMatchObject({ first_name: "New", tax_number: "T1" });
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => [e.event, e.data])).toEqual([
      ["BookerUpdated", { person_id: personId, booking_id: bookingId }],
      ["PersonUpdated", { person_id: personId }],
    ]);
  });

  it("flow 1: a new unused e-mail without create_new changes the e-mail of booker and Person", async () => {
    for (const createNew of [undefined, null]) {
      const email = uniqueEmail("f1");
      const { bookingId } = await createBookingFixture({ booker: { email, first_name: "One" } });
      const personId = await personIdOf(email);
      const next = uniqueEmail("f1new");
      const res = await put(bookingId, createNew === undefined ? { email: next } : { email: next, create_new: createNew });
      expect(res.status).toBe(200);
      expect(res.body.data.person).toMatchObject({ id: personId, email: next });
      expect(await personIdOf(email)).toBeUndefined();
      expect(await personIdOf(next)).toBe(personId);
    }
  });

  it("flow 2: a new unused e-mail with create_new true makes a new Person; the old one keeps its data", async () => {
    const email = uniqueEmail("f2");
    const { bookingId } = await createBookingFixture({ booker: { email, first_name: "Two", city: "Faro" } });
    const oldId = (await personIdOf(email))!;
    const next = uniqueEmail("f2new");
    const seq = await lastOutboxSeq();
    const res = await put(bookingId, { email: next, create_new: true, last_name: "Fresh" });
    expect(res.status).toBe(200);
    const newId = res.body.data.person.id;
    expect(newId).not.toBe(oldId);
    expect(res.body.data.person).toMatchObject({ email: next, first_name: "Two", last_name: "Fresh", city: "Faro", is_booker: true });
    const old = await callJson(`/private/persons/${oldId}`, { key });
    expect(old.body.data).toMatchObject({ email, last_name: null, is_booker: false });
    expect((await callJson(`/private/persons/${newId}`, { key })).body.data.email).toBe(next);
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => [e.event, e.data.person_id])).toEqual([
      ["BookerUpdated", newId],
      ["PersonCreated", newId],
    ]);
  });

  it("flow 3: an e-mail of another Person merges the booker into it, whatever create_new says", async () => {
    for (const createNew of [true, false, undefined]) {
      const taken = uniqueEmail("taken");
      const existing = await callJson("/private/persons", { key, method: "POST", body: { email: taken, first_name: "Existing" } });
      const email = uniqueEmail("f3");
      const { bookingId } = await createBookingFixture({ booker: { email, first_name: "Three" } });
      const oldId = await personIdOf(email);
      const seq = await lastOutboxSeq();
      const res = await put(bookingId, { email: ` ${taken.toUpperCase()} `, create_new: createNew, city: "Porto" });
      expect(res.status).toBe(200);
      expect(res.body.data.person.id).toBe(existing.body.data.id);
      expect((await callJson(`/private/persons/${existing.body.data.id}`, { key })).body.data).toMatchObject({ first_name: "Existing", city: "Porto", is_booker: true });
      expect((await callJson(`/private/persons/${oldId}`, { key })).body.data).toMatchObject({ email, is_booker: false });
      const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM persons WHERE email_norm = ?").bind(taken).first<{ n: number }>();
      expect(count!.n).toBe(1);
      expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => [e.event, e.data.person_id])).toEqual([
        ["BookerUpdated", existing.body.data.id],
        ["PersonUpdated", existing.body.data.id],
      ]);
    }
  });

  it("create_new without an e-mail change has no effect", async () => {
    const email = uniqueEmail("noop");
    const { bookingId } = await createBookingFixture({ booker: { email } });
    const res = await put(bookingId, { create_new: true, first_name: "Same" });
    expect(res.body.data.person.id).toBe(await personIdOf(email));
  });

  it("isolation, auth and bad input", async () => {
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("iso"), first_name: "Iso" } });
    const otherKey = await createKey("private", await createBusiness(`b-iso-${crypto.randomUUID().slice(0, 6)}`));
    expect((await callJson(`/private/bookings/${bookingId}/booker`, { key: otherKey })).status).toBe(404);
    expect((await callJson(`/private/bookings/${bookingId}/booker`, { key: otherKey, method: "PUT", body: { first_name: "X" } })).status).toBe(404);
    expect((await callJson(`/private/bookings/${bookingId}/booker`, { key: await createKey("public") })).status).toBe(403);
    expect((await callJson(`/private/bookings/${bookingId}/booker`)).status).toBe(401);
    expect((await put(bookingId, { gender: "nonbinary" })).status).toBe(422);
    expect((await put(bookingId, { email: "nope" })).status).toBe(422);
    expect((await put(bookingId, { last_name: "z".repeat(256) })).status).toBe(422);
    expect((await callJson(`/private/bookings/${bookingId}/booker`, { key })).body.data.person.first_name).toBe("Iso");
  });
});
