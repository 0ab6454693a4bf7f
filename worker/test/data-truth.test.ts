import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

// Data the service shows must not say something untrue.

describe("totals of a Person", () => {
  it("total_paid_as_booker is what was paid (nothing, as no payment was recorded), never the booking's price", async () => {
    const { businessId, key } = await cartBusiness();
    const privateKey = await createKey("private", businessId);
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(2);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const buyer = customer();
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key, now: t(30), body: { terms_accepted: true, customer: buyer } });
    expect(booked.status).toBe(200);
    expect(booked.body.total).toBe(200);
    const person = (await callJson(`/private/persons?email=${encodeURIComponent(buyer.email)}`, { key: privateKey })).body.data[0];
    expect(person.totals).toMatchObject({ booking_count: 1, total_as_booker: 1, total_paid_as_booker: 0 });
  });
});

describe("the demo's yoga class", () => {
  const yoga = async () => (await callJson("/api/pub/v2/products/302", { key: await createKey("public") })).body;

  it("lasts what its description says: one hour", async () => {
    const p = await yoga();
    expect(p.duration).toMatchObject({ min: 1, default: 1, unit: "hour" });
    expect(p.description).toMatch(/^An hour\b/);
    expect(p.description).not.toMatch(/ninety|90/i);
  });

  it("is corrected by migration 0171 in a database seeded before", async () => {
    await env.DB.prepare(
      `UPDATE products SET duration = '{"is_flexible":false,"min":90,"default":90,"unit":"hour","variants":[]}',
         description = 'Ninety minutes of vinyasa flow on the deck.', translations = json_set(translations, '$.de.description', 'Neunzig Minuten Vinyasa Flow auf dem Deck.')
       WHERE id = 302`,
    ).run();
    expect((await yoga()).duration.default).toBe(90);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0171_"))!;
    for (const sql of migration.queries) await env.DB.prepare(sql).run();
    const p = await yoga();
    expect(p.duration).toMatchObject({ min: 1, default: 1, unit: "hour" });
    expect(p.description).toBe("An hour of vinyasa flow on the deck.");
    const de = (await callJson("/api/pub/v2/products/302?language=de", { key: await createKey("public") })).body;
    expect(de.description).toBe("Eine Stunde Vinyasa Flow auf dem Deck.");
  });
});

describe("country and language codes name real countries and languages", () => {
  const email = () => `codes.${crypto.randomUUID().slice(0, 8)}@example.com`;

  it.each([
    ["country_code", "QQ"],
    ["country_code", "ZZ"],
    ["nationality_code", "QQ"],
    ["phone_country_code", "ZZ"],
    ["language_code", "qq"],
    ["language_code", "zz"],
  ])("a Person's %s %s is a 422 and nothing is stored", async (field, code) => {
    const key = await createKey("private");
    const address = email();
    const res = await callJson("/private/persons", { key, body: { email: address, [field]: code } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual([field]);
    expect((await callJson(`/private/persons?email=${encodeURIComponent(address)}`, { key })).body.data).toEqual([]);
  });

  it("real codes, in either case, are taken", async () => {
    const key = await createKey("private");
    const res = await callJson("/private/persons", { key, body: { email: email(), country_code: "pt", nationality_code: "BR", phone_country_code: "es", language_code: "PT" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ country_code: "PT", nationality_code: "BR", phone_country_code: "ES", phone_country_calling_code: "34", language_code: "pt" });
  });

  it("PUT /persons checks them too, naming each field", async () => {
    const key = await createKey("private");
    const persons = await callJson("/private/persons", { key, body: { email: email() } });
    const res = await callJson(`/private/persons/${persons.body.data.id}`, { key, method: "PUT", body: { nationality_code: "ZZ", language_code: "qq" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(["language_code", "nationality_code"]);
  });

  it("a cart guest's language_code qq is a 422, en is taken", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const { start, end } = stay(2);
    const t = clock();
    const bad = await addToCart(key, { guests: [guest(pkg, start, end, { language_code: "qq" })] }, t(0));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(["guests.0.language_code"]);
    expect((await addToCart(key, { guests: [guest(pkg, start, end, { language_code: "en" })] }, t(0))).status).toBe(201);
    const checkout = await callJson(`/api/pub/v2/carts/${(await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1))).body.cart_id}/checkout`, {
      key,
      now: t(2),
      body: { terms_accepted: true, customer: customer({ language_code: "zz" }) },
    });
    expect(checkout.status).toBe(422);
    expect(checkout.body.errors.map((e: any) => e.path)).toEqual(["customer.language_code"]);
  });
});

describe("a Person is a guest of a booking once", () => {
  it("adding the same Person again (by e-mail, any case) is a 409 and adds nothing", async () => {
    const key = await createKey("private");
    const email = uniqueEmail("twice");
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("bk") } });
    const first = await callJson(`/private/bookings/${bookingId}/guests`, { key, body: { person: { email, first_name: "Tia" } } });
    expect(first.status).toBe(201);
    const again = await callJson(`/private/bookings/${bookingId}/guests`, { key, body: { person: { email: ` ${email.toUpperCase()} `, first_name: "Tia" } } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
    expect(again.body.detail).toContain("already a guest of this booking");
    const guests = await callJson(`/private/guests?booking_id=${bookingId}`, { key });
    expect(guests.body.map((g: any) => g.person.email)).toEqual([email]);
  });

  it("two requests racing to add the same Person: one guest", async () => {
    const key = await createKey("private");
    const email = uniqueEmail("race");
    const person = await callJson("/private/persons", { key, body: { email } });
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("bk") } });
    const answers = await Promise.all(Array.from({ length: 4 }, () => callJson(`/private/bookings/${bookingId}/guests`, { key, body: { person: { email } } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM guests WHERE booking_id = ? AND person_id = ?").bind(bookingId, person.body.data.id).first("n");
    expect(n).toBe(1);
  });

  it("moving a guest to a Person who is already another guest of the booking is a 409; to one of another booking is fine", async () => {
    const key = await createKey("private");
    const a = uniqueEmail("a");
    const b = uniqueEmail("b");
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ email: a, first_name: "A" }, { email: b, first_name: "B" }] });
    const clash = await callJson(`/private/bookings/${bookingId}/guests/${guestIds[1]}`, { key, method: "PUT", body: { person: { email: a } } });
    expect(clash.status).toBe(409);
    expect((await callJson(`/private/bookings/${bookingId}/guests/${guestIds[1]}`, { key })).body.person.email).toBe(b);
    const elsewhere = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ email: uniqueEmail("c"), first_name: "C" }] });
    const moved = await callJson(`/private/bookings/${elsewhere.bookingId}/guests/${elsewhere.guestIds[0]}`, { key, method: "PUT", body: { person: { email: a } } });
    expect(moved.status).toBe(200);
  });
});
