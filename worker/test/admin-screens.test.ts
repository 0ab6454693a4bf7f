/**
 * The back office's screens change things through the private API's own functions (manage/):
 * the same rules, the same webhook events, and an audit entry naming the staff user. Bad input is
 * an inline field error with nothing changed, never a 500.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { DEMO_BUSINESS_ID, callJson, createBusiness, createKey } from "./helpers";
import { browser, createStaff, PASSWORD, signedIn, type Browser } from "./admin-fixtures";
import { createBookingFixture, outboxEvents, lastOutboxSeq, uniqueEmail } from "./private-fixtures";

let ownerBrowser: Browser | undefined;
async function owner(): Promise<Browser> {
  ownerBrowser ??= await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
  return ownerBrowser;
}

const first = <T>(sql: string, ...params: unknown[]) => env.DB.prepare(sql).bind(...params).first<T>();

describe("Today", () => {
  it("counts arrivals, departures, who is in house and new bookings, on the business's date in its time zone", async () => {
    const slug = `tz-${crypto.randomUUID().slice(0, 8)}`;
    const businessId = await createBusiness(slug, { time_zone: "Pacific/Kiritimati" });
    // 23:30 UTC on 2031-05-01 is already 2031-05-02 in Kiritimati (UTC+14). The session is made at that time too.
    const now = "2031-05-01T23:30:00Z";
    const b = browser();
    expect((await b.post(`/admin/${slug}/sign-in`, { email: (await createStaff(businessId, "front_desk")).email, password: PASSWORD }, { "X-Test-Now": now })).status).toBe(303);
    await createBookingFixture({ businessId, booker: { email: uniqueEmail("tz") }, guests: [{ email: uniqueEmail("arr"), first_name: "Ari", last_name: "Val" }], start: "2031-05-02", end: "2031-05-09", createdAt: "2031-05-01T10:00:00Z" });
    const staying = await createBookingFixture({ businessId, booker: { email: uniqueEmail("tz") }, guests: [{ email: uniqueEmail("dep"), first_name: "Dee", last_name: "Part" }], start: "2031-04-25", end: "2031-05-02", createdAt: "2031-04-01T10:00:00Z" });
    await env.DB.prepare("UPDATE guests SET checked_in_at = '2031-04-25T15:00:00Z' WHERE id = ?").bind(staying.guestIds[0]).run();
    const res = await b.get(`/admin/${slug}/today`, { "X-Test-Now": now });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Today · 2031-05-02");
    const count = (id: string) => Number(new RegExp(`href="#${id}" data-count="${id}"><span class="count">(\\d+)<`).exec(html)?.[1]);
    expect({ arrivals: count("arrivals"), departures: count("departures"), inHouse: count("in-house"), newBookings: count("new-bookings") }).toEqual({ arrivals: 1, departures: 1, inHouse: 1, newBookings: 1 });
    expect(html).toContain("Ari Val");
    expect(html).toContain("Dee Part");
  });
});

describe("the pages' stylesheet and script", () => {
  it("are linked under their fingerprint and kept a year there; a page from before a deployment gets today's text, revalidated", async () => {
    const html = await (await browser().get("/admin/demo/sign-in")).text();
    const css = /<link rel="stylesheet" href="(\/admin\/assets\/admin\.css\?v=[0-9a-f]{8})"/.exec(html)?.[1];
    expect(css, "the sign-in page links the fingerprinted stylesheet").toBeDefined();
    const current = await browser().get(css!);
    expect(current.status).toBe(200);
    expect(current.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const text = await current.text();
    expect(text).toContain(":root");
    for (const old of ["/admin/assets/admin.css", "/admin/assets/admin.css?v=00000000"]) {
      const res = await browser().get(old);
      expect(res.headers.get("Cache-Control"), old).toBe("no-cache");
      expect(await res.text(), old).toBe(text);
    }
    const signedInPage = await (await (await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email)).get("/admin/demo/today")).text();
    const js = /<script type="module" src="(\/admin\/assets\/admin\.js\?v=[0-9a-f]{8})"/.exec(signedInPage)?.[1];
    expect(js, "a signed-in page loads the fingerprinted script").toBeDefined();
    expect((await browser().get(js!)).headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("Bookings", () => {
  it("finds a booking by its booker's name, shows it, and checks a guest in and out as the private API would", async () => {
    const b = await owner();
    const last = `Quintero${crypto.randomUUID().slice(0, 6)}`;
    const today = new Date().toISOString().slice(0, 10);
    const { bookingId, guestIds } = await createBookingFixture({
      booker: { email: uniqueEmail("booker"), first_name: "Olga", last_name: last },
      guests: [{ email: uniqueEmail("guest"), first_name: "Pia", last_name: "Paddle" }],
      start: today,
      end: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    });
    const list = await b.get(`/admin/demo/bookings?search=${encodeURIComponent(`olga ${last}`)}&status=`);
    const html = await list.text();
    expect(list.status).toBe(200);
    expect(html).toContain(`/admin/demo/bookings/${bookingId}`);
    expect(html).toContain(`Olga ${last}`);
    // one booking number everywhere: as the widget and the e-mails write it (2026-00042)
    const ref = await first<{ reference_year: string; reference_number: number }>("SELECT reference_year, reference_number FROM bookings WHERE id = ?", bookingId);
    const padded = `${ref!.reference_year}-${String(ref!.reference_number).padStart(5, "0")}`;
    expect(html).toContain(`>${padded}</a>`);
    expect(await (await b.get(`/admin/demo/bookings/${bookingId}`)).text()).toContain(`Booking ${padded}`);

    // A guest who arrives later is not checked in before that day (issue 29): nothing changes.
    const later = await createBookingFixture({ booker: { email: uniqueEmail("later") }, guests: [{ email: uniqueEmail("later-guest"), first_name: "Lou", last_name: "Later" }], start: "2031-06-01", end: "2031-06-08" });
    const laterPage = await (await b.get(`/admin/demo/bookings/${later.bookingId}`)).text();
    expect(laterPage).toContain("Check-in opens on 2031-06-01, the arrival day");
    expect(laterPage).not.toContain("Check in: Lou Later");
    const early = await b.post(`/admin/demo/bookings/${later.bookingId}/guests/${later.guestIds[0]}/check-in`, {});
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("arrives on 2031-06-01: check-in opens that day");
    expect((await first<{ checked_in_at: string | null }>("SELECT checked_in_at FROM guests WHERE id = ?", later.guestIds[0]))!.checked_in_at).toBeNull();

    const seq = await lastOutboxSeq();
    const checkIn = await b.post(`/admin/demo/bookings/${bookingId}/guests/${guestIds[0]}/check-in`, {});
    expect(checkIn.status).toBe(303);
    const guest = await first<{ checked_in_at: string | null }>("SELECT checked_in_at FROM guests WHERE id = ?", guestIds[0]);
    expect(guest!.checked_in_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await outboxEvents(DEMO_BUSINESS_ID, seq)).map((e) => e.event)).toContain("GuestUpdated");
    // The private API sees the same check-in.
    const key = await createKey("private");
    const viaApi = await callJson(`/private/bookings/${bookingId}/guests/${guestIds[0]}`, { key });
    expect(viaApi.body.booking_related_data.checked_in_at).toBe(guest!.checked_in_at);
    // Twice is a conflict, not a second check-in.
    expect((await b.post(`/admin/demo/bookings/${bookingId}/guests/${guestIds[0]}/check-in`, {})).status).toBe(409);
    expect((await b.post(`/admin/demo/bookings/${bookingId}/guests/${guestIds[0]}/check-out`, {})).status).toBe(303);
    const audit = await env.DB.prepare("SELECT action, actor_kind FROM audit_log WHERE entity = 'guest' AND entity_id = ? ORDER BY id").bind(guestIds[0]).all();
    expect(audit.results).toEqual([
      { action: "checked_in", actor_kind: "staff" },
      { action: "checked_out", actor_kind: "staff" },
    ]);
  });

  it("changes the booker by the three e-mail flows, saying which ran", async () => {
    const b = await owner();
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("flow"), first_name: "Fay" } });
    const changed = uniqueEmail("changed");
    const one = await b.post(`/admin/demo/bookings/${bookingId}/booker`, { email: changed, first_name: "Fay" });
    expect(one.headers.get("Location")).toContain("done=booker-change_email");
    const taken = uniqueEmail("taken");
    await createBookingFixture({ booker: { email: taken, first_name: "Other" } });
    const three = await b.post(`/admin/demo/bookings/${bookingId}/booker`, { email: taken, first_name: "Fay" });
    expect(three.headers.get("Location")).toContain("done=booker-merge_existing");
    const two = await b.post(`/admin/demo/bookings/${bookingId}/booker`, { email: uniqueEmail("fresh"), first_name: "Fay", create_new: "true" });
    expect(two.headers.get("Location")).toContain("done=booker-create_new");
    const page = await b.get(two.headers.get("Location")!);
    expect(await page.text()).toContain("Booker saved and attached to a new person.");
    const bad = await b.post(`/admin/demo/bookings/${bookingId}/booker`, { email: "not an e-mail" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('aria-invalid="true"');
  });

  it("adds notes, refuses an empty one at the field, and cancels releasing the units", async () => {
    const b = await owner();
    const { bookingId } = await createBookingFixture({
      booker: { email: uniqueEmail("note"), first_name: "Nia" },
      lines: [{ product_id: 202, product_type: "accommodation", dates: ["2026-12-05"], price_minor: 1000 }],
    });
    await env.DB.prepare("INSERT INTO allocations (business_id, product_id, date, qty, booking_id, created_at) VALUES (?, 202, '2031-01-04', 1, ?, ?)")
      .bind(DEMO_BUSINESS_ID, bookingId, new Date().toISOString())
      .run();
    expect((await b.post(`/admin/demo/bookings/${bookingId}/notes`, { note: "Arrives late, keys at the bar." })).status).toBe(303);
    const empty = await b.post(`/admin/demo/bookings/${bookingId}/notes`, { note: "   " });
    expect(empty.status).toBe(422);
    expect((await first<{ n: number }>("SELECT COUNT(*) AS n FROM booking_notes WHERE booking_id = ?", bookingId))!.n).toBe(1);
    const detail = await (await b.get(`/admin/demo/bookings/${bookingId}`)).text();
    expect(detail).toContain("Arrives late, keys at the bar.");
    // Cancelling needs the confirmation box.
    expect((await b.post(`/admin/demo/bookings/${bookingId}/cancel`, {})).status).toBe(422);
    expect((await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" })).status).toBe(303);
    const alloc = await first<{ released_at: string | null }>("SELECT released_at FROM allocations WHERE booking_id = ?", bookingId);
    expect(alloc!.released_at).not.toBeNull();
    expect((await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" })).status).toBe(409);
  });

  it("answers a malformed or unknown booking id with a 400 or 404 page", async () => {
    const b = await owner();
    expect((await b.get("/admin/demo/bookings/not-a-uuid")).status).toBe(400);
    expect((await b.get(`/admin/demo/bookings/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("Guests", () => {
  it("lists with the private API's filters and downloads the same guests as CSV", async () => {
    const b = await owner();
    const tag = crypto.randomUUID().slice(0, 8);
    const { guestIds } = await createBookingFixture({
      booker: { email: uniqueEmail("csv") },
      guests: [
        { email: `in.${tag}@example.com`, first_name: "=Eve", last_name: "In, Side" },
        { email: `out.${tag}@example.com`, first_name: "Otto", last_name: "Out" },
      ],
      start: "2031-02-01",
      end: "2031-02-08",
    });
    await env.DB.prepare("UPDATE guests SET checked_in_at = '2031-02-01T15:00:00Z' WHERE id = ?").bind(guestIds[0]).run();
    const query = "arrives_at=2031-02-01&checked_in_at=notnull&booking_status=";
    const page = await (await b.get(`/admin/demo/guests?${query}`)).text();
    expect(page).toContain(`in.${tag}@example.com`);
    expect(page).not.toContain(`out.${tag}@example.com`);
    const csv = await b.get(`/admin/demo/guests.csv?${query}`);
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("Content-Disposition")).toMatch(/attachment; filename="guests-demo-/);
    const text = await csv.text();
    const lines = text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("guest_id,booking_id,booking_reference,booking_status,first_name,last_name,email,phone,gender,birth_date,nationality_code,arrival_date,departure_date,checked_in_at,checked_out_at");
    const row = lines.find((l) => l.startsWith(guestIds[0]))!;
    // A leading "=" cannot run as a formula; a comma is quoted.
    expect(row).toContain(`'=Eve,"In, Side",in.${tag}@example.com`);
    expect(row).toContain("2031-02-01,2031-02-08,2031-02-01T15:00:00Z,");
    expect(text).not.toContain(`out.${tag}@example.com`);
  });

  it("shows a bad filter at its field, not a 500", async () => {
    const res = await (await owner()).get("/admin/demo/guests?arrives_at=2031-02-30");
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('id="f-arrives_at-error"');
    expect(html).toContain("not a real date");
  });
});

describe("Calendar", () => {
  it("shows capacity, booked and held, and blocks and unblocks a range (a held date refuses new holds while blocked)", async () => {
    const b = await owner();
    const page = await (await b.get("/admin/demo/calendar?from=2031-03-01&days=7")).text();
    expect(page).toContain('data-product="202" data-date="2031-03-01"');
    const blocked = await b.post("/admin/demo/calendar/blocks?from=2031-03-01&days=7", { product_id: "202", from: "2031-03-02", to: "2031-03-03", action: "block" });
    expect(blocked.status).toBe(303);
    const rows = await env.DB.prepare("SELECT date, blocked FROM inventory WHERE product_id = 202 AND date BETWEEN '2031-03-01' AND '2031-03-04' ORDER BY date").all();
    expect(rows.results).toEqual([
      { date: "2031-03-02", blocked: 1 },
      { date: "2031-03-03", blocked: 1 },
    ]);
    const shown = await (await b.get(blocked.headers.get("Location")!)).text();
    expect(shown).toContain("Blocked 2 date(s).");
    expect(shown).toMatch(/class="blocked" data-product="202" data-date="2031-03-02"/);
    // The database refuses a hold on a blocked date.
    const hold = env.DB.prepare("INSERT INTO allocations (business_id, product_id, date, qty, cart_id, expires_at, created_at) VALUES (1, 202, '2031-03-02', 1, 'c', '2099-01-01T00:00:00Z', ?)").bind(new Date().toISOString());
    await expect(hold.run()).rejects.toThrow(/sold_out/);
    const unblocked = await b.post("/admin/demo/calendar/blocks", { product_id: "202", from: "2031-03-02", to: "2031-03-03", action: "unblock" });
    expect(unblocked.status).toBe(303);
    // Unblocked: the dates are as they were (no row overrides the product's capacity).
    expect((await first<{ n: number }>("SELECT COUNT(*) AS n FROM inventory WHERE product_id = 202 AND date BETWEEN '2031-03-02' AND '2031-03-03'"))!.n).toBe(0);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'inventory' AND entity_id = '202' ORDER BY id DESC LIMIT 2").all();
    expect(audit.results.map((r) => r.action)).toEqual(["unblocked", "blocked"]);
  });

  it("refuses a range that ends before it starts at the field, and changes nothing", async () => {
    const res = await (await owner()).post("/admin/demo/calendar/blocks", { product_id: "202", from: "2031-04-05", to: "2031-04-01", action: "block" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("must not be before from");
    expect((await first<{ n: number }>("SELECT COUNT(*) AS n FROM inventory WHERE product_id = 202 AND date BETWEEN '2031-04-01' AND '2031-04-05'"))!.n).toBe(0);
  });
});

describe("Developers", () => {
  it("creates a key shown once that works at once, and revokes it so it stops at once", async () => {
    const b = await owner();
    const name = `office-${crypto.randomUUID().slice(0, 8)}`;
    const made = await b.post("/admin/demo/developers/keys", { name, scope: "private" });
    expect(made.status).toBe(201);
    const token = /<code id="new-key"[^>]*>([^<]+)</.exec(await made.text())![1];
    expect((await callJson("/private/bookings", { key: token })).status).toBe(200);
    const again = await (await b.get("/admin/demo/developers")).text();
    expect(again).not.toContain(token);
    const { id } = (await first<{ id: string }>("SELECT id FROM api_keys WHERE name = ?", name))!;
    expect((await b.post(`/admin/demo/developers/keys/${id}/revoke`, {})).status).toBe(303);
    expect((await callJson("/private/bookings", { key: token })).status).toBe(401);
    const dup = await b.post("/admin/demo/developers/keys", { name: "bad name!", scope: "private" });
    expect(dup.status).toBe(422);
  });

  it("subscribes a webhook (secret shown once), refuses a bad URL at the field, and deletes", async () => {
    const b = await owner();
    const bad = await b.post("/admin/demo/developers/webhooks", { url: "ftp://example.com/x", events: "BookingCreated" });
    expect(bad.status).toBe(422);
    const made = await b.post("/admin/demo/developers/webhooks", { url: "https://hooks.example.com/bw", events: "BookingCancelled" });
    expect(made.status).toBe(201);
    expect(await made.text()).toMatch(/<code id="new-secret"[^>]*>whsec_/);
    const hook = await first<{ id: string; events: string }>("SELECT id, events FROM webhooks WHERE url = 'https://hooks.example.com/bw' AND deleted_at IS NULL");
    expect(JSON.parse(hook!.events)).toEqual(["BookingCancelled"]);
    expect((await b.get(`/admin/demo/developers/webhooks/${hook!.id}`)).status).toBe(200);
    expect((await b.post(`/admin/demo/developers/webhooks/${hook!.id}/delete`, {})).status).toBe(303);
    expect(await first("SELECT id FROM webhooks WHERE id = ? AND deleted_at IS NULL", hook!.id)).toBeNull();
  });
});

describe("Developers: deliveries", () => {
  it("delivers an event again from the log: a new series of attempts, audited", async () => {
    const b = await owner();
    const url = `http://127.0.0.1:${inject("webhookReceiverPort")}/hooks/office-${crypto.randomUUID().slice(0, 6)}`;
    expect((await b.post("/admin/demo/developers/webhooks", { url, events: "BookingCancelled" })).status).toBe(201);
    const hook = (await first<{ id: string }>("SELECT id FROM webhooks WHERE url = ?", url))!;
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("hook") } });
    expect((await b.post(`/admin/demo/bookings/${bookingId}/cancel`, { confirm: "yes" })).status).toBe(303);
    const event = (await first<{ id: string }>("SELECT id FROM outbox WHERE event = 'BookingCancelled' AND json_extract(data, '$.booking_id') = ?", bookingId))!;
    const res = await b.post(`/admin/demo/developers/webhooks/${hook.id}/redeliver`, { event_id: event.id });
    expect(res.status).toBe(303);
    const series = await env.DB.prepare("SELECT MAX(series) AS s FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?").bind(hook.id, event.id).first<{ s: number }>();
    expect(series!.s).toBeGreaterThanOrEqual(1);
    expect(await first("SELECT action FROM audit_log WHERE entity = 'webhook' AND entity_id = ? AND action = 'redelivered'", hook.id)).toEqual({ action: "redelivered" });
    const unknown = await b.post(`/admin/demo/developers/webhooks/${hook.id}/redeliver`, { event_id: "evt_nope" });
    expect(unknown.status).toBe(404);
  });
});

describe("the private API", () => {
  it("writes the same audit entry, naming the key", async () => {
    const name = `audit-key-${crypto.randomUUID().slice(0, 6)}`;
    const key = await createKey("private", DEMO_BUSINESS_ID, name);
    const { bookingId } = await createBookingFixture({ booker: { email: uniqueEmail("api") } });
    expect((await callJson(`/private/bookings/${bookingId}/cancel`, { key, method: "POST" })).status).toBe(200);
    const audit = await first("SELECT actor_kind, actor_name, action FROM audit_log WHERE entity = 'booking' AND entity_id = ?", bookingId);
    expect(audit).toEqual({ actor_kind: "key", actor_name: name, action: "cancelled" });
    // ... which the owner's Audit log shows.
    expect(await (await (await owner()).get("/admin/demo/audit?entity=booking")).text()).toContain(name);
  });
});
