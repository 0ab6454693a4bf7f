import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

let key: string;
beforeAll(async () => {
  key = await createKey("private");
});

const post = (body: unknown) => callJson("/private/persons", { key, method: "POST", body });
const put = (id: string, body: unknown) => callJson(`/private/persons/${id}`, { key, method: "PUT", body });

describe("POST /private/persons", () => {
  it("creates a person (201) with every field, and a known e-mail updates it (200)", async () => {
    const email = uniqueEmail("ana");
    const seq = await lastOutboxSeq();
    const created = await post({
      email: `  ${email.toUpperCase()} `,
      first_name: "Ana",
      last_name: "López",
      gender: "female",
      birth_date: "1990-02-28",
      language_code: "ES",
      nationality_id: "es",
      phone_country_id: "pt",
      phone: "912 345 678",
      country_id: "PT",
      city: "Ericeira",
      address_line_1: "Rua do Mar 1",
      diet_id: 2,
      custom_fields: { surf_level: "beginner" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("Location")).toBe(`/private/persons/${created.body.data.id}`);
    const p = created.body.data;
    expect(p).toMatchObject({
      email: email.toUpperCase(),
      first_name: "Ana",
      last_name: "López",
      initials: "AL",
      gender: "female",
      birth_date: "1990-02-28",
      language_code: "es",
      nationality_code: "ES",
      phone_country_code: "PT",
      phone_country_calling_code: "351",
      phone: "912345678",
      country_code: "PT",
      city: "Ericeira",
      diet_id: 2,
      custom_fields: { surf_level: "beginner" },
      is_guest: false,
      is_booker: false,
      deleted_at: null,
      totals: { last_booking: null, booking_count: 0, total_as_guest: 0, total_as_booker: 0, total_paid_as_booker: 0, booking_inquiry_count: 0 },
    });
    expect(p.diet).toMatchObject({ id: 2 });
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);

    const again = await post({ email, first_name: "Anita", custom_fields: { shoe: 38 } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: p.id, first_name: "Anita", last_name: "López", custom_fields: { surf_level: "beginner", shoe: 38 } });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM persons WHERE email_norm = ?").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(1);
    const events = await outboxEvents(DEMO_BUSINESS_ID, seq);
    expect(events.map((e) => [e.event, e.data.person_id])).toEqual([
      ["PersonCreated", p.id],
      ["PersonUpdated", p.id],
    ]);
  });

  it("requires a valid e-mail and enforces max lengths", async () => {
    expect((await post({ first_name: "No" })).status).toBe(422);
    expect((await post({ email: "not-an-email" })).status).toBe(422);
    const long = await post({ email: uniqueEmail(), first_name: "x".repeat(256) });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].path).toBe("first_name");
    expect((await post({ email: `${"a".repeat(250)}@example.com` })).status).toBe(422);
    expect((await post({ email: uniqueEmail(), last_name: "y".repeat(255) })).status).toBe(201);
    expect((await post({ email: uniqueEmail(), diet_id: 999 })).status).toBe(422);
  });

  it("ignores read-only fields (mass assignment)", async () => {
    const forgedId = crypto.randomUUID();
    const res = await post({
      email: uniqueEmail("mass"),
      id: forgedId,
      totals: { booking_count: 99 },
      is_guest: true,
      is_booker: true,
      created_at: "2000-01-01T00:00:00Z",
      deleted_at: "2000-01-01T00:00:00Z",
      business_id: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.id).not.toBe(forgedId);
    expect(res.body.data).toMatchObject({ is_guest: false, is_booker: false, deleted_at: null, totals: { booking_count: 0 } });
    expect(res.body.data.created_at).not.toBe("2000-01-01T00:00:00Z");
    const row = await env.DB.prepare("SELECT business_id, deleted_at FROM persons WHERE id = ?").bind(res.body.data.id).first<any>();
    expect(row).toEqual({ business_id: DEMO_BUSINESS_ID, deleted_at: null });
  });
});

describe("PUT /private/persons/{id}", () => {
  it("updates fields, sets the calling code from phone_country_code, leaves snapshots untouched", async () => {
    const email = uniqueEmail("snap");
    const booking = await createBookingFixture({ booker: { email, first_name: "Sam", last_name: "Snap", city: "Faro" }, guests: [{ email, first_name: "Sam", last_name: "Snap" }] });
    const person = await env.DB.prepare("SELECT id FROM persons WHERE email_norm = ?").bind(email).first<{ id: string }>();
    const seq = await lastOutboxSeq();
    const res = await put(person!.id, { city: "Lagos", phone_country_code: "de", phone: "1701234567", id_type: "passport", id_number: "X123", custom_fields: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ city: "Lagos", phone_country_code: "DE", phone_country_calling_code: "49", id_type: "passport", is_guest: true, is_booker: true });
    expect(res.body.data.totals).toMatchObject({ booking_count: 1, total_as_guest: 1, total_as_booker: 1, last_booking: "2026-11-01T10:00:00Z" });
    const booker = await env.DB.prepare("SELECT person_snapshot FROM bookers WHERE booking_id = ?").bind(booking.bookingId).first<any>();
    expect(JSON.parse(booker.person_snapshot).city).toBe("Faro");
    const guest = await env.DB.prepare("SELECT person_snapshot FROM guests WHERE booking_id = ?").bind(booking.bookingId).first<any>();
    expect(JSON.parse(guest.person_snapshot).phone_country_code ?? null).toBeNull();
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => e.event)).toEqual(["PersonUpdated"]);
  });

  it("answers 409 when the e-mail belongs to another person, and changes nothing", async () => {
    const a = await post({ email: uniqueEmail("a") });
    const bEmail = uniqueEmail("b");
    await post({ email: bEmail });
    const seq = await lastOutboxSeq();
    const res = await put(a.body.data.id, { email: ` ${bEmail.toUpperCase()}`, first_name: "Clash" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("email_taken");
    expect((await callJson(`/private/persons/${a.body.data.id}`, { key })).body.data.first_name).toBeNull();
    expect(await outboxEvents(DEMO_BUSINESS_ID, seq)).toEqual([]);
  });

  it("ignores read-only fields and 404s a missing person; a non-UUID id is 400", async () => {
    const a = await post({ email: uniqueEmail("ro") });
    const res = await put(a.body.data.id, { id: crypto.randomUUID(), is_guest: true, totals: { booking_count: 5 }, created_at: "2001-01-01T00:00:00Z", last_name: "Kept" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: a.body.data.id, is_guest: false, last_name: "Kept", created_at: a.body.data.created_at });
    expect((await put(crypto.randomUUID(), { first_name: "x" })).status).toBe(404);
    const bad = await put("not-a-uuid", { first_name: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_id");
    expect((await callJson("/private/persons/1234", { key })).status).toBe(400);
  });
});

describe("DELETE /private/persons/{id}", () => {
  it("soft-deletes: 204, then 404 on the persons endpoints, snapshots kept, PersonDeleted sent, e-mail free again", async () => {
    const email = uniqueEmail("del");
    const booking = await createBookingFixture({ booker: { email, first_name: "Del", last_name: "Eted" } });
    const id = (await env.DB.prepare("SELECT id FROM persons WHERE email_norm = ?").bind(email).first<{ id: string }>())!.id;
    const seq = await lastOutboxSeq();
    const res = await callJson(`/private/persons/${id}`, { key, method: "DELETE" });
    expect(res.status).toBe(204);
    expect((await callJson(`/private/persons/${id}`, { key })).status).toBe(404);
    expect((await put(id, { first_name: "x" })).status).toBe(404);
    expect((await callJson(`/private/persons/${id}`, { key, method: "DELETE" })).status).toBe(404);
    const list = await callJson(`/private/persons?email=${encodeURIComponent(email)}`, { key });
    expect(list.body.data).toEqual([]);
    const booker = await callJson(`/private/bookings/${booking.bookingId}/booker`, { key });
    // The booking keeps who booked it: the booker's snapshot outlives the person.
    expect(booker.status, JSON.stringify(booker.body).slice(0, 300)).toBe(200);
    expect(booker.body.data.person.first_name).toBe("Del");
    const events = await outboxEvents(DEMO_BUSINESS_ID, seq);
    expect(events).toEqual([expect.objectContaining({ event: "PersonDeleted", data: { person_id: id, booking_id: booking.bookingId, booking_ids: [booking.bookingId] } })]);
    const again = await post({ email });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(id);
  });
});

describe("GET /private/persons", () => {
  const tag = crypto.randomUUID().slice(0, 6);
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const people = [
      { key: "zoe", email: `zoe.${tag}@surf.example`, first_name: "Zoë", last_name: `Müller${tag}`, gender: "female", birth_date: "1985-05-01", country_code: "DE", language_code: "de", nationality_code: "DE", phone_country_code: "DE", phone: "1701112223", city: "Hamburg", company_name: `Wave GmbH ${tag}` },
      { key: "abe", email: `abe.${tag}@surf.example`, first_name: "Abe", last_name: `Zimmer${tag}`, gender: "male", birth_date: "1999-12-31", country_code: "PT", language_code: "pt", nationality_code: "PT", phone_country_code: "PT", phone: "912000111", city: "Porto" },
      { key: "mia", email: `mia.${tag}@other.example`, first_name: "Mia", last_name: `Anders${tag}`, gender: "female", country_code: "ES", city: "Cádiz" },
    ];
    for (const { key: k, ...body } of people) ids[k] = (await post(body)).body.data.id;
    await createBookingFixture({ booker: { email: `abe.${tag}@surf.example` }, guests: [{ email: `zoe.${tag}@surf.example` }] });
  });
  const list = (qs: string) => callJson(`/private/persons?${qs}`, { key });
  const names = (res: any) => res.body.data.map((p: any) => p.first_name);

  it("full-text query over names, e-mail, phone, city and company (contains, any case)", async () => {
    expect(names(await list(`query=${tag}`)).sort()).toEqual(["Abe", "Mia", "Zoë"]);
    expect(names(await list(`query=müller${tag}`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${encodeURIComponent(`wave gmbh ${tag}`)}`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${encodeURIComponent(`HAMBURG ${tag}`)}`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${encodeURIComponent(`+351912000 ${tag}`)}`))).toEqual(["Abe"]);
    expect(names(await list(`query=${encodeURIComponent(`other.example ${tag}`)}`))).toEqual(["Mia"]);
    expect(names(await list(`query=${encodeURIComponent(`zo ${tag}`)}`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${encodeURIComponent(`"${tag}`)}`)).length).toBe(0);
  });

  it("control characters in a query separate words like spaces (a NUL once broke the index's query: 500)", async () => {
    const res = await list(`query=${encodeURIComponent(`hamburg\u0000${tag}`)}`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Zoë"]);
    expect(names(await list(`query=${encodeURIComponent(`\u0000\u0007${tag}\u001f`)}`)).sort()).toEqual(["Abe", "Mia", "Zoë"]);
    expect((await list(`query=${encodeURIComponent("\u0000")}`)).status).toBe(200);
    expect((await list(`first_name=${encodeURIComponent("Zo\u0000")}`)).status).toBe(200);
  });

  it("contains-match filters, code filters, is_guest / is_booker, birth_date", async () => {
    expect(names(await list(`last_name=ller${tag}`))).toEqual(["Zoë"]);
    expect(names(await list(`email=${encodeURIComponent(`.${tag}@SURF`)}&sort_by=first_name`))).toEqual(["Abe", "Zoë"]);
    expect(names(await list(`first_name=mi&last_name=${tag}`))).toEqual(["Mia"]);
    expect(names(await list(`query=${tag}&gender=female&sort_by=first_name`))).toEqual(["Mia", "Zoë"]);
    expect(names(await list(`query=${tag}&country_code=pt`))).toEqual(["Abe"]);
    expect(names(await list(`query=${tag}&language_code=de`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${tag}&nationality_code=PT`))).toEqual(["Abe"]);
    expect(names(await list(`query=${tag}&phone_country_code=DE`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${tag}&is_guest=true`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${tag}&is_booker=true`))).toEqual(["Abe"]);
    expect(names(await list(`query=${tag}&is_booker=false&is_guest=false`))).toEqual(["Mia"]);
    expect(names(await list(`query=${tag}&birth_date=1985-05-01`))).toEqual(["Zoë"]);
    expect(names(await list(`query=${tag}&birth_date=1990-01-01..`))).toEqual(["Abe"]);
    expect(names(await list(`query=${tag}&birth_date=..1990-01-01`))).toEqual(["Zoë"]);
  });

  it("sorts by first_name, last_name, full_name, country, birth_date with ,asc/,desc", async () => {
    expect(names(await list(`query=${tag}&sort_by=first_name`))).toEqual(["Abe", "Mia", "Zoë"]);
    expect(names(await list(`query=${tag}&sort_by=first_name,desc`))).toEqual(["Zoë", "Mia", "Abe"]);
    expect(names(await list(`query=${tag}&sort_by=last_name`))).toEqual(["Mia", "Zoë", "Abe"]);
    expect(names(await list(`query=${tag}&sort_by=full_name,asc`))).toEqual(["Abe", "Mia", "Zoë"]);
    expect(names(await list(`query=${tag}&sort_by=country`))).toEqual(["Zoë", "Mia", "Abe"]);
    expect(names(await list(`query=${tag}&sort_by=birth_date,desc`))).toEqual(["Abe", "Zoë", "Mia"]);
  });

  it("paginates with meta, X-Total-Count and Link; out-of-range paging is a 422", async () => {
    const page2 = await list(`query=${tag}&sort_by=first_name&limit=2&page=2`);
    expect(page2.status).toBe(200);
    expect(names(page2)).toEqual(["Zoë"]);
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    expect(page2.headers.get("X-Total-Count")).toBe("3");
    const link = page2.headers.get("Link")!;
    expect(link).toContain('rel="first"');
    expect(link).toContain('rel="prev"');
    expect(link).not.toContain('rel="next"');
    expect(link).toMatch(/limit=2&page=1>; rel="prev"/);
    for (const bad of ["limit=0", "limit=101", "page=0", "page=x", "sort_by=email", "is_guest=maybe", "birth_date=1990-02-30", "gender=robot"]) {
      const res = await list(bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});

describe("isolation and authentication", () => {
  it("another business's key sees none of this business's persons; public key 403; no key 401", async () => {
    const mine = await post({ email: uniqueEmail("iso"), first_name: "Isolated" });
    const other = await createBusiness(`iso-${crypto.randomUUID().slice(0, 6)}`);
    const otherKey = await createKey("private", other);
    const id = mine.body.data.id;
    expect((await callJson(`/private/persons/${id}`, { key: otherKey })).status).toBe(404);
    expect((await callJson(`/private/persons/${id}`, { key: otherKey, method: "PUT", body: { first_name: "Hacked" } })).status).toBe(404);
    expect((await callJson(`/private/persons/${id}`, { key: otherKey, method: "DELETE" })).status).toBe(404);
    const otherList = await callJson(`/private/persons?query=Isolated`, { key: otherKey });
    expect(otherList.body.data).toEqual([]);
    // The same e-mail in another business is another person.
    const same = await callJson("/private/persons", { key: otherKey, method: "POST", body: { email: mine.body.data.email } });
    expect(same.status).toBe(201);
    expect(same.body.data.id).not.toBe(id);
    expect((await callJson(`/private/persons/${id}`, { key })).body.data.first_name).toBe("Isolated");
    expect((await callJson(`/private/persons/${id}`, { key: await createKey("public") })).status).toBe(403);
    expect((await callJson(`/private/persons/${id}`)).status).toBe(401);
  });
});

describe("GET /private/persons: the total of the unfiltered list", () => {
  it("follows every create and delete, through the API and straight in D1, and agrees with a filtered count", async () => {
    const biz = await createBusiness(`persons-total-${Date.now().toString(36)}`);
    const k = await createKey("private", biz);
    const total = async (query = "") => Number((await callJson(`/private/persons${query}`, { key: k })).headers.get("X-Total-Count"));
    const counted = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM persons WHERE business_id = ? AND deleted_at IS NULL").bind(biz).first<{ n: number }>())!.n;
    expect(await total()).toBe(0);
    const ids: string[] = [];
    for (const name of ["Ana", "Rui", "Eva"]) {
      const res = await callJson("/private/persons", { key: k, method: "POST", body: { email: uniqueEmail(name), first_name: name, last_name: "Total" } });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    expect(await total()).toBe(3);
    expect((await callJson(`/private/persons/${ids[1]}`, { key: k, method: "DELETE" })).status).toBe(204);
    expect(await total()).toBe(2);
    // A seeder or a console writing straight to D1 is counted too.
    await env.DB.prepare("INSERT INTO persons (id, business_id, first_name, last_name, created_at, updated_at) VALUES (?, ?, 'Direct', 'Total', ?, ?)")
      .bind(crypto.randomUUID(), biz, new Date().toISOString(), new Date().toISOString())
      .run();
    await env.DB.prepare("DELETE FROM persons WHERE id = ?").bind(ids[0]).run();
    expect(await total()).toBe(await counted());
    expect(await total()).toBe(2);
    expect(await total("?last_name=Total")).toBe(2); // a filtered list still counts its rows
  });
});
