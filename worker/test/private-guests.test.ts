import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";

let key: string;
beforeAll(async () => {
  key = await createKey("private");
});

describe("guests of a booking", () => {
  it("POST adds a guest (201), writes the entered data to a new Person: GuestCreated + PersonCreated", async () => {
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("bk") } });
    const email = uniqueEmail("new");
    const seq = await lastOutboxSeq();
    const res = await callJson(`/private/bookings/${bookingId}/guests`, {
      key,
      method: "POST",
      body: {
        person: { email, first_name: "Nia", last_name: "New", gender: "nonbinary", phone_country_code: "ES", phone: "600111222", diet_id: 1 },
        booking_related_data: { arrival_date: "2026-12-05", arrival_time: "14:30", arrival_location_id: 2, arrival_flight: "TP123", check_in_at: "2026-12-05T16:00:00+01:00", level_id: 1 },
        id: crypto.randomUUID(),
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("Location")).toBe(`/private/bookings/${bookingId}/guests/${res.body.id}`);
    expect(res.body.person).toMatchObject({ email, first_name: "Nia", gender: "nonbinary", phone_country_calling_code: "34", is_guest: true, is_booker: false, diet: { id: 1 } });
    expect(res.body.booking_related_data).toMatchObject({ booking_id: bookingId, arrival_date: "2026-12-05", arrival_time: "14:30", arrival_location_id: 2, check_in_at: "2026-12-05T15:00:00Z", checked_in_at: null });
    const person = await callJson(`/private/persons/${res.body.person.id}`, { key });
    expect(person.body.data).toMatchObject({ first_name: "Nia", phone: "600111222", totals: { total_as_guest: 1, booking_count: 1 } });
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => [e.event, e.data])).toEqual([
      ["GuestCreated", { person_id: res.body.person.id, booking_id: bookingId }],
      ["PersonCreated", { person_id: res.body.person.id }],
    ]);
  });

  it("a known e-mail reuses the Person and gives it the latest data: GuestCreated + PersonUpdated", async () => {
    const email = uniqueEmail("known");
    const p = await callJson("/private/persons", { key, method: "POST", body: { email, first_name: "Old", city: "Faro" } });
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("bk") } });
    const seq = await lastOutboxSeq();
    const res = await callJson(`/private/bookings/${bookingId}/guests`, { key, method: "POST", body: { person: { email: email.toUpperCase(), first_name: "New" } } });
    expect(res.status).toBe(201);
    expect(res.body.person.id).toBe(p.body.data.id);
    expect(res.body.person).toMatchObject({ first_name: "New", city: "Faro" });
    expect((await callJson(`/private/persons/${p.body.data.id}`, { key })).body.data.first_name).toBe("New");
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => e.event)).toEqual(["GuestCreated", "PersonUpdated"]);
  });

  it("GET one (with expand), PUT updates guest and Person (GuestUpdated + PersonUpdated), DELETE keeps the Person", async () => {
    const email = uniqueEmail("cycle");
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ email, first_name: "Cy", last_name: "Cle" }] });
    const gid = guestIds[0];
    const got = await callJson(`/private/bookings/${bookingId}/guests/${gid}?expand[]=arrival_location&expand[]=waivers`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: gid, person: { email, first_name: "Cy" }, waivers: [], arrival_location: null });
    const seq = await lastOutboxSeq();
    const put = await callJson(`/private/bookings/${bookingId}/guests/${gid}`, {
      key,
      method: "PUT",
      body: { person: { last_name: "Updated", totals: { booking_count: 7 } }, booking_related_data: { checked_in_at: "2026-12-05T17:00:00Z", arrival_location_id: 1 } },
    });
    expect(put.status).toBe(200);
    expect(put.body.person).toMatchObject({ first_name: "Cy", last_name: "Updated" });
    expect(put.body.person.totals.booking_count).toBe(1);
    expect(put.body.booking_related_data).toMatchObject({ checked_in_at: "2026-12-05T17:00:00Z", arrival_location_id: 1 });
    const personId = put.body.person.id;
    expect((await callJson(`/private/persons/${personId}`, { key })).body.data.last_name).toBe("Updated");
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => [e.event, e.data])).toEqual([
      ["GuestUpdated", { person_id: personId, booking_id: bookingId }],
      ["PersonUpdated", { person_id: personId }],
    ]);
    const loc = await callJson(`/private/bookings/${bookingId}/guests/${gid}?expand=arrival_location,guest_group`, { key });
    expect(loc.body.arrival_location).toMatchObject({ id: 1, title: "Ericeira, Portugal" });

    const seq2 = await lastOutboxSeq();
    const del = await callJson(`/private/bookings/${bookingId}/guests/${gid}`, { key, method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await callJson(`/private/bookings/${bookingId}/guests/${gid}`, { key })).status).toBe(404);
    expect((await callJson(`/private/bookings/${bookingId}/guests/${gid}`, { key, method: "DELETE" })).status).toBe(404);
    expect((await callJson(`/private/persons/${personId}`, { key })).status).toBe(200);
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq2)).map((e) => [e.event, e.data])).toEqual([["GuestDeleted", { person_id: personId, booking_id: bookingId }]]);
  });

  it("a guest update naming another Person's e-mail moves the guest to that Person", async () => {
    const otherEmail = uniqueEmail("other");
    const other = await callJson("/private/persons", { key, method: "POST", body: { email: otherEmail } });
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ email: uniqueEmail("g"), first_name: "Mover" }] });
    const put = await callJson(`/private/bookings/${bookingId}/guests/${guestIds[0]}`, { key, method: "PUT", body: { person: { email: otherEmail } } });
    expect(put.status).toBe(200);
    expect(put.body.person.id).toBe(other.body.data.id);
    expect((await callJson(`/private/persons/${other.body.data.id}`, { key })).body.data).toMatchObject({ first_name: null, is_guest: true });
  });

  it("statuses: 400 for non-UUID ids, 404 for unknown booking or guest, 409 on a cancelled booking, 422 for bad fields", async () => {
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ first_name: "S" }] });
    expect((await callJson(`/private/bookings/nope/guests/${guestIds[0]}`, { key, method: "DELETE" })).status).toBe(400);
    expect((await callJson(`/private/bookings/${bookingId}/guests/123`, { key, method: "DELETE" })).status).toBe(400);
    expect((await callJson(`/private/bookings/${bookingId}/guests/123`, { key })).status).toBe(400);
    expect((await callJson(`/private/bookings/${crypto.randomUUID()}/guests/${guestIds[0]}`, { key })).status).toBe(404);
    expect((await callJson(`/private/bookings/${crypto.randomUUID()}/guests`, { key, method: "POST", body: { person: {} } })).status).toBe(404);
    expect((await callJson(`/private/bookings/${bookingId}/guests/${crypto.randomUUID()}`, { key, method: "PUT", body: {} })).status).toBe(404);
    for (const body of [{}, { person: { email: "bad" } }, { person: {}, booking_related_data: { arrival_date: "2026-02-30" } }, { person: {}, booking_related_data: { arrival_location_id: 99 } }, { person: { first_name: "x".repeat(256) } }]) {
      expect((await callJson(`/private/bookings/${bookingId}/guests`, { key, method: "POST", body })).status, JSON.stringify(body)).toBe(422);
    }
    const cancelled = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, status: "cancelled" });
    expect((await callJson(`/private/bookings/${cancelled.bookingId}/guests`, { key, method: "POST", body: { person: {} } })).status).toBe(409);
  });

  it("isolation: another business's key gets 404; public key 403; no key 401", async () => {
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ first_name: "Iso" }] });
    const otherKey = await createKey("private", await createBusiness(`g-iso-${crypto.randomUUID().slice(0, 6)}`));
    const path = `/private/bookings/${bookingId}/guests/${guestIds[0]}`;
    expect((await callJson(path, { key: otherKey })).status).toBe(404);
    expect((await callJson(path, { key: otherKey, method: "PUT", body: { person: { first_name: "X" } } })).status).toBe(404);
    expect((await callJson(path, { key: otherKey, method: "DELETE" })).status).toBe(404);
    expect((await callJson(`/private/bookings/${bookingId}/guests`, { key: otherKey, method: "POST", body: { person: {} } })).status).toBe(404);
    expect((await callJson(`/private/guests?booking_id=${bookingId}`, { key: otherKey })).body).toEqual([]);
    expect((await callJson(path, { key: await createKey("public") })).status).toBe(403);
    expect((await callJson(path)).status).toBe(401);
    expect((await callJson(path, { key })).body.person.first_name).toBe("Iso");
  });
});

describe("GET /private/guests", () => {
  let a: Awaited<ReturnType<typeof createBookingFixture>>;
  let b: Awaited<ReturnType<typeof createBookingFixture>>;
  const list = (qs: string) => callJson(`/private/guests?${qs}`, { key });
  const scope = () => `booking_id[]=${a.bookingId}&booking_id[]=${b.bookingId}`;
  const firstNames = (res: any) => res.body.map((g: any) => g.person.first_name);

  beforeAll(async () => {
    a = await createBookingFixture({
      booker: { email: uniqueEmail("bk") },
      guests: [
        { first_name: "Ann", gender: "female", diet_id: 1, custom_fields: { surf_level: "beginner" } },
        { first_name: "Bob", gender: "male", diet_id: 2, custom_fields: { surf_level: "advanced" } },
      ],
      start: "2026-12-05",
      end: "2026-12-12",
      createdAt: "2026-11-01T10:00:00Z",
      lines: [{ product_id: 101, product_type: "package", dates: ["2026-12-05"], price_minor: 50000 }],
    });
    b = await createBookingFixture({
      booker: { email: uniqueEmail("bk") },
      guests: [{ first_name: "Cy", gender: "male" }],
      start: "2026-12-19",
      end: "2026-12-26",
      createdAt: "2026-11-10T10:00:00Z",
      status: "cancelled",
      lines: [{ product_id: 301, product_type: "activity", dates: ["2026-12-19"], price_minor: 0 }],
    });
    const [ann, bob] = a.guestIds;
    const upd = async (bookingId: string, id: string, related: Record<string, unknown>) =>
      expect((await callJson(`/private/bookings/${bookingId}/guests/${id}`, { key, method: "PUT", body: { booking_related_data: related } })).status).toBe(200);
    await upd(a.bookingId, ann, { checked_in_at: "2026-12-05T15:00:00Z", check_in_at: "2026-12-05T14:00:00Z", arrival_location_id: 1, arrival_date: "2026-12-05", departure_date: "2026-12-12" });
    await upd(a.bookingId, bob, { odd_arrival_date: "2026-12-07", arrival_date: "2026-12-05", checked_out_at: "2026-12-10T09:00:00Z", departure_location_id: 2 });
  });

  it("answers a JSON array with X-Total-Count and Link; booking_id as list in every syntax", async () => {
    const res = await list(`${scope()}&sort_by=person.gender,desc`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.headers.get("X-Total-Count")).toBe("3");
    expect(res.headers.get("Link")).toContain('rel="last"');
    expect((await list(`booking_id=${a.bookingId},${b.bookingId}`)).body).toHaveLength(3);
    expect((await list(`booking_id=${a.bookingId}&booking_id=${b.bookingId}`)).body).toHaveLength(3);
    expect((await list(`booking_id=${b.bookingId}`)).body).toHaveLength(1);
  });

  it("filters", async () => {
    const cases: [string, string[]][] = [
      ["booking_status=cancelled", ["Cy"]],
      ["booking_status[]=confirmed", ["Ann", "Bob"]],
      ["checked_in_at=notnull", ["Ann"]],
      ["checked_in_at=null", ["Bob", "Cy"]],
      ["checked_in_at=2026-12-05", ["Ann"]],
      ["checked_in_at=2026-12-05T15:00:00Z..", ["Ann"]],
      ["checked_in_at=..2026-12-05T14:59:59Z", []],
      ["checked_out_at=notnull", ["Bob"]],
      ["check_in_at=2026-12-01..2026-12-31", ["Ann"]],
      ["arrives_at=2026-12-07", ["Bob"]],
      ["arrives_at=2026-12-05", ["Ann"]],
      ["arrives_at=2026-12-15..", ["Cy"]],
      ["departs_at=..2026-12-12", ["Ann", "Bob"]],
      ["is_odd_arrival=true", ["Bob"]],
      ["is_odd_arrival=false", ["Ann", "Cy"]],
      ["is_odd_departure=true", []],
      ["arrival_location_id=1", ["Ann"]],
      ["departure_location_id=1,2", ["Bob"]],
      ["booking_start_date=2026-12-19", ["Cy"]],
      ["booking_end_date=..2026-12-20", ["Ann", "Bob"]],
      ["booking_created_at=2026-11-05T00:00:00Z..", ["Cy"]],
      ["booking_created_at=2026-11-01", ["Ann", "Bob"]],
      ["booking_product_id=101", ["Ann", "Bob"]],
      ["booking_product_type=activity", ["Cy"]],
      ["booking_location_id=1", ["Ann", "Bob", "Cy"]],
      ["booking_location_id=2", []],
      ["diet_id=2", ["Bob"]],
      [`custom_fields=${encodeURIComponent('{"surf_level":"beginner"}')}`, ["Ann"]],
      ["on_site_at=2026-12-06T12:00:00Z", ["Ann"]],
      ["on_site_at=2026-12-08T12:00:00Z", ["Ann", "Bob"]],
      ["on_site_at=2026-12-10T10:00:00Z..2026-12-20", ["Ann"]],
      ["on_site_at=2026-12-11T12:00:00Z", ["Ann"]],
      ["on_site_at=2026-12-20T12:00:00Z", []],
      ["transfer_dates=2026-12-07", ["Bob"]],
      ["transfer_dates=2026-12-12..2026-12-12", ["Ann", "Bob"]],
      [`agreement_id=${crypto.randomUUID()}`, []],
      ["booking_product_variant_id=1", []],
    ];
    for (const [qs, expected] of cases) {
      const res = await list(`${scope()}&${qs}&sort_by=booking_related_data.arrival_date`);
      expect(res.status, qs).toBe(200);
      expect(firstNames(res).sort(), qs).toEqual(expected);
    }
    const ref = await env.DB.prepare("SELECT reference_number, reference_year FROM bookings WHERE id = ?").bind(b.bookingId).first<any>();
    expect(firstNames(await list(`booking_reference_number=${ref.reference_number}&booking_reference_year=${ref.reference_year}`))).toEqual(["Cy"]);
  });

  it("sorts with ,asc and ,desc; pages with limit and page", async () => {
    expect(firstNames(await list(`${scope()}&sort_by=person.gender,asc`))[0]).toBe("Ann");
    expect(firstNames(await list(`${scope()}&sort_by=booking_related_data.checked_in_at,desc`))[0]).toBe("Ann");
    const page = await list(`${scope()}&limit=2&page=2&sort_by=booking_related_data.arrival_date`);
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(page.headers.get("Link")).toContain('rel="prev"');
    expect((await list(`${scope()}&limit=2`)).body).toHaveLength(2);
    expect((await list(scope())).body).toHaveLength(3);
  });

  it("expands booking_related_data objects", async () => {
    const res = await list(`booking_id=${a.bookingId}&expand[]=booking_related_data.booking&expand[]=booking_related_data.arrival_location&expand=booking_related_data.waivers`);
    const ann = res.body.find((g: any) => g.person.first_name === "Ann");
    expect(ann.booking_related_data.booking).toEqual([expect.objectContaining({ id: a.bookingId, status: "confirmed", total: 0 })]);
    expect(ann.booking_related_data.arrival_location).toEqual({ id: 1, title: "Ericeira, Portugal" });
    expect(ann.booking_related_data.waivers).toEqual([]);
    expect(ann.booking_related_data.agreements).toBeUndefined();
  });

  it("refuses out-of-range and malformed values with 422 (no clamp)", async () => {
    for (const bad of [
      "limit=0", "limit=101", "limit=ten", "page=0", "page=-1",
      "booking_id=nope", "arrival_location_id=abc", "booking_status=lost", "checked_in_at=sometime",
      "arrives_at=2026-12-10..2026-12-01", "arrives_at=..", "custom_fields=notjson", "custom_fields=[1]",
      "expand=person", "sort_by=person.first_name", "sort_by=booking_related_data.arrival_date,sideways",
      "is_odd_arrival=maybe", "booking_product_type=spaceship", "on_site_at=2026-13-01",
    ]) {
      const res = await list(bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.code, bad).toBe("validation_failed");
    }
  });
});

// The arrives_at / departs_at / transfer_dates filters read guests.arrives_on / departs_on, which
// triggers derive from the guest's (odd) dates and its booking's (migration 0060). These dates
// (2031) are this block's own, so the filters run unscoped, through their indexes.
describe("a guest's effective stay dates follow every change", () => {
  const names = async (qs: string) => {
    const res = await callJson(`/private/guests?${qs}&limit=100`, { key });
    expect(res.status, qs).toBe(200);
    return res.body.map((g: any) => g.person.first_name).sort();
  };
  const put = async (bookingId: string, id: string, related: Record<string, unknown>) =>
    expect((await callJson(`/private/bookings/${bookingId}/guests/${id}`, { key, method: "PUT", body: { booking_related_data: related } })).status).toBe(200);
  const mismatches = async () =>
    (await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM guests g JOIN bookings b ON b.id = g.booking_id
        WHERE g.arrives_on IS NOT COALESCE(g.odd_arrival_date, g.arrival_date, b.start_date)
           OR g.departs_on IS NOT COALESCE(g.odd_departure_date, g.departure_date, b.end_date)`,
    ).first<{ n: number }>())!.n;

  it("arrives_at follows a change of the odd arrival date through the API (and back)", async () => {
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ first_name: "Oda" }], start: "2031-02-01", end: "2031-02-08" });
    const [oda] = guestIds;
    expect(await names("arrives_at=2031-02-01")).toEqual(["Oda"]); // the booking's start
    await put(bookingId, oda, { odd_arrival_date: "2031-02-03" });
    expect(await names("arrives_at=2031-02-01")).toEqual([]);
    expect(await names("arrives_at=2031-02-03")).toEqual(["Oda"]);
    expect(await names("transfer_dates=2031-02-03")).toEqual(["Oda"]);
    await put(bookingId, oda, { arrival_date: "2031-02-02" }); // the odd date still wins
    expect(await names("arrives_at=2031-02-02..2031-02-03")).toEqual(["Oda"]);
    expect(await names("arrives_at=2031-02-02")).toEqual([]);
    await put(bookingId, oda, { odd_arrival_date: null });
    expect(await names("arrives_at=2031-02-03")).toEqual([]);
    expect(await names("arrives_at=2031-02-02")).toEqual(["Oda"]);
    await put(bookingId, oda, { arrival_date: null });
    expect(await names("arrives_at=2031-02-01")).toEqual(["Oda"]);
    expect(await names("transfer_dates=2031-02-03")).toEqual([]);
  });

  it("departs_at follows the odd departure date; a guest added with its own dates is found at once", async () => {
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ first_name: "Dev" }], start: "2031-03-01", end: "2031-03-08" });
    expect(await names("departs_at=2031-03-08")).toEqual(["Dev"]);
    await put(bookingId, guestIds[0], { odd_departure_date: "2031-03-10" });
    expect(await names("departs_at=2031-03-08")).toEqual([]);
    expect(await names("departs_at=2031-03-09..")).toEqual(["Dev"]);
    const added = await callJson(`/private/bookings/${bookingId}/guests`, {
      key,
      method: "POST",
      body: { person: { first_name: "Ned" }, booking_related_data: { odd_arrival_date: "2031-03-02", departure_date: "2031-03-07" } },
    });
    expect(added.status).toBe(201);
    expect(await names("arrives_at=2031-03-02")).toEqual(["Ned"]);
    expect(await names("departs_at=2031-03-07")).toEqual(["Ned"]);
    expect(await names("arrives_at=2031-03-01")).toEqual(["Dev"]);
  });

  it("holds for every guest; a booking's new dates move its guests; a disagreeing direct write is refused", async () => {
    const { bookingId, guestIds } = await createBookingFixture({ booker: { email: uniqueEmail("bk") }, guests: [{ first_name: "Mo" }, { first_name: "Ola" }], start: "2031-04-05", end: "2031-04-12" });
    await put(bookingId, guestIds[1], { odd_arrival_date: "2031-04-06" });
    expect(await mismatches()).toBe(0);
    // No route moves a booking yet; whatever does will keep the guests in step.
    await env.DB.prepare("UPDATE bookings SET start_date = '2031-04-19', end_date = '2031-04-26' WHERE id = ?").bind(bookingId).run();
    expect(await names("arrives_at=2031-04-05")).toEqual([]);
    expect(await names("arrives_at=2031-04-19")).toEqual(["Mo"]);
    expect(await names("arrives_at=2031-04-06")).toEqual(["Ola"]);
    expect(await names("departs_at=2031-04-26")).toEqual(["Mo", "Ola"]);
    await expect(env.DB.prepare("UPDATE guests SET arrives_on = '2031-01-01' WHERE id = ?").bind(guestIds[0]).run()).rejects.toThrow(/guest_stay_dates_are_derived/);
    await expect(env.DB.prepare("UPDATE guests SET odd_departure_date = '2031-04-20', departs_on = '2031-04-21' WHERE id = ?").bind(guestIds[0]).run()).rejects.toThrow(/guest_stay_dates_are_derived/);
    // An INSERT cannot plant a value either: the trigger derives it.
    const planted = crypto.randomUUID();
    // (the booker's Person: a Person already a guest of the booking cannot be added again, migration 0172)
    const personId = (await env.DB.prepare("SELECT person_id FROM bookers WHERE booking_id = ?").bind(bookingId).first<{ person_id: string }>())!.person_id;
    await env.DB.prepare(
      "INSERT INTO guests (id, business_id, booking_id, person_id, person_snapshot, arrives_on, departs_on, created_at, updated_at) VALUES (?, ?, ?, ?, '{\"first_name\":\"Pia\"}', '1999-01-01', '1999-01-02', ?, ?)",
    ).bind(planted, DEMO_BUSINESS_ID, bookingId, personId, "2026-11-01T10:00:00Z", "2026-11-01T10:00:00Z").run();
    expect(await env.DB.prepare("SELECT arrives_on, departs_on FROM guests WHERE id = ?").bind(planted).first()).toEqual({ arrives_on: "2031-04-19", departs_on: "2031-04-26" });
    expect(await mismatches()).toBe(0);
  });
});
