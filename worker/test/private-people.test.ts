import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bookingPeopleStatements } from "../src/db/booking-people";
import { DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";

describe("bookingPeopleStatements (checkout's booker and guests)", () => {
  it("creates Persons, Booker and Guests with their events in one batch", async () => {
    const seq = await lastOutboxSeq();
    const bookerEmail = uniqueEmail("booker");
    const guestEmail = uniqueEmail("guest");
    const booking = await createBookingFixture({
      booker: { email: bookerEmail, first_name: "Bea", last_name: "Booker", phone_country_code: "PT", phone: "912345678", company_name: "Bea Lda", tax_number: "PT123" },
      guests: [
        { email: bookerEmail.toUpperCase(), first_name: "Bea", last_name: "Booker", gender: "female" },
        { email: guestEmail, first_name: "Gil", last_name: "Guest", gender: "male" },
        { first_name: "No", last_name: "Mail" },
      ],
    });
    const persons = await env.DB.prepare(
      "SELECT p.* FROM persons p WHERE p.id IN (SELECT person_id FROM guests WHERE booking_id = ?1 UNION SELECT person_id FROM bookers WHERE booking_id = ?1)",
    )
      .bind(booking.bookingId)
      .all<any>();
    // The booker is also the first guest (same e-mail, other case): one Person for both.
    expect(persons.results).toHaveLength(3);
    const bea = persons.results.find((p) => p.email_norm === bookerEmail)!;
    expect(bea).toMatchObject({ gender: "female", phone_country_calling_code: "351", company_name: "Bea Lda", tax_number: "PT123" });
    const guests = await env.DB.prepare("SELECT * FROM guests WHERE booking_id = ?").bind(booking.bookingId).all<any>();
    expect(guests.results.map((g) => g.id).sort()).toEqual([...booking.guestIds].sort());
    const booker = await env.DB.prepare("SELECT * FROM bookers WHERE booking_id = ?").bind(booking.bookingId).first<any>();
    expect(booker).toMatchObject({ id: booking.bookerId, person_id: bea.id, company_name: "Bea Lda", tax_number: "PT123" });

    const events = await outboxEvents(DEMO_BUSINESS_ID, seq);
    expect(events.map((e) => e.event)).toEqual(["BookerCreated", "GuestCreated", "GuestCreated", "GuestCreated", "PersonCreated", "PersonCreated", "PersonCreated"]);
    expect(events[0].data).toEqual({ person_id: bea.id, booking_id: booking.bookingId });
    expect(new Set(events.filter((e) => e.event === "PersonCreated").map((e) => e.data.person_id))).toEqual(new Set(persons.results.map((p) => p.id)));
  });

  it("reuses a known Person by e-mail, fills only its empty fields (a public checkout never rewrites it), and sends PersonUpdated for that", async () => {
    const email = uniqueEmail("repeat");
    const first = await createBookingFixture({ booker: { email, first_name: "Rui", last_name: "Repeat", city: "Lisboa" } });
    const seq = await lastOutboxSeq();
    const second = await createBookingFixture({ booker: { email: ` ${email.toUpperCase()} `, first_name: "Rui", last_name: "Repeat", city: "Porto", zip_code: "4000-001" } });
    const persons = await env.DB.prepare("SELECT * FROM persons WHERE email_norm = ?").bind(email).all<any>();
    expect(persons.results).toHaveLength(1);
    expect(persons.results[0]).toMatchObject({ city: "Lisboa", zip_code: "4000-001" });
    // Each booking's booker keeps what was entered for it.
    const snapshot = async (bookingId: string) =>
      JSON.parse((await env.DB.prepare("SELECT person_snapshot FROM bookers WHERE booking_id = ?").bind(bookingId).first<any>()).person_snapshot);
    expect((await snapshot(first.bookingId)).city).toBe("Lisboa");
    expect((await snapshot(second.bookingId)).city).toBe("Porto");
    const events = await outboxEvents(DEMO_BUSINESS_ID, seq);
    expect(events.map((e) => [e.event, e.data.person_id])).toEqual([
      ["BookerCreated", persons.results[0].id],
      ["PersonUpdated", persons.results[0].id],
    ]);
    expect(events[0].data.booking_id).toBe(second.bookingId);
  });

  it("a concurrent creation of the same e-mail fails the batch at the unique index (caller retries)", async () => {
    const email = uniqueEmail("race");
    const bookingA = crypto.randomUUID();
    const now = new Date("2026-11-01T00:00:00Z");
    const a = await bookingPeopleStatements(env.DB, DEMO_BUSINESS_ID, bookingA, { booker: { email }, guests: [] }, now);
    const b = await bookingPeopleStatements(env.DB, DEMO_BUSINESS_ID, bookingA, { booker: { email }, guests: [] }, now);
    const seq = await lastOutboxSeq();
    // The Person and the events (one outbox statement) only, since the booker row needs a booking:
    // the first commits, the second fails whole.
    await env.DB.batch([a.statements[0], ...a.statements.slice(-1)]);
    await expect(env.DB.batch([b.statements[0], ...b.statements.slice(-1)])).rejects.toThrow(/UNIQUE/);
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).length).toBe(2);
  });
});
