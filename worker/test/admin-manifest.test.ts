/**
 * The front desk's manifest of a timeslot activity's day, and moving a guest to another slot or
 * day from the booking's page (issue 27), through the back office's HTTP surface, on a business
 * made from the dive centre's catalog file (worker/seed/dive.catalog.json: a boat dive at 09:00
 * and 14:00, 10 places each). Bookings are made through the public API as a guest makes them.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { diveCatalog } from "../seed/demo";
import { createStaff, signedIn, type Browser } from "./admin-fixtures";
import { callJson as api, createKey, nextWeekday } from "./helpers";

let businessId: number;
let slug: string;
let key: string;
let privateKey: string;
let dive: number;
let desk: Browser;
let seq = 0;

beforeAll(async () => {
  slug = `dive-m-${Date.now().toString(36)}`;
  const row = await env.DB.prepare("INSERT INTO businesses (slug, title, created_at) VALUES (?, 'Atlantic Dive Centre', ?) RETURNING id").bind(slug, new Date().toISOString()).first<{ id: number }>();
  businessId = row!.id;
  const file = CatalogFile.parse(diveCatalog);
  file.settings.rate_limit_per_minute = 100_000;
  file.settings.email_from = null;
  file.settings.notification_emails = [];
  file.settings.custom_fields = [{ key: "certification", title: "Diving certification", type: "select", options: ["PADI Open Water", "SSI Open Water"], required: false, applies_to: "guest", translations: {} }];
  await applyCatalog({ DB: env.DB }, { kind: "cli", id: "test", name: "cli" }, businessId, file, new Date());
  key = await createKey("public", businessId);
  privateKey = await createKey("private", businessId);
  const list = await api("/api/pub/v2/products", { key });
  dive = list.body.find((p: { title: string }) => p.title === "Boat Dive").id;
  desk = await signedIn(slug, (await createStaff(businessId, "front_desk")).email);
});

const plusDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** `n` divers on the boat dive at `time` on `day`, booked through the public API: the booking as the private API shows it. */
async function bookDive(day: string, time: string, n: number) {
  const root = await api(`/api/pub/v2/packages/${dive}?start_date=${day}&duration=1`, { key });
  const item = root.body.single_items[0].package_item_id;
  const pkg = { id: dive, start_date: day, end_date: plusDays(day, 1), items: [{ package_item_id: item, dates: [`${day} ${time}:00`] }] };
  const guests = Array.from({ length: n }, () => ({ first_name: `Diver${++seq}`, last_name: "Costa", email: `diver${seq}@example.com`, package: pkg }));
  const added = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests } });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const customer = { first_name: "Rita", last_name: `Booker${++seq}`, email: `rita${seq}@example.com`, phone_countrycode: 351, phone: "912345678" };
  const done = await api(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return bookingOf(done.body.id ?? done.body.booking_id);
}

async function bookingOf(id: string) {
  const detail = await api(`/private/bookings/${id}`, { key: privateKey });
  expect(detail.status).toBe(200);
  return detail.body.data;
}

/** Places left per slot, as the public API tells a guest. */
async function available(day: string): Promise<Record<string, number>> {
  const res = await api(`/api/pub/v2/products/${dive}/availabilities?start_date=${day}&end_date=${day}`, { key });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body[day].timeslots.map((t: { time: string; available: number }) => [t.time, t.available]));
}

/** The manifest's slots as the page shows them: the count in each heading and the guests' rows. */
async function manifest(day: string, b: Browser = desk) {
  const res = await b.get(`/admin/${slug}/manifest?date=${day}&product=${dive}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const slots: Record<string, { count: string; guests: string[]; html: string }> = {};
  for (const m of html.matchAll(/<section class="manifest-slot" data-slot="([^"]+)">(.*?)<\/section>/gs)) {
    const count = /<span data-count="?[^>]*>([^<]*)<\/span>/.exec(m[2])?.[1] ?? "";
    const guests = [...m[2].matchAll(/<tr data-guest="[^"]*" data-line="\d+"><td>([^<]*)<\/td>/g)].map((g) => g[1]);
    slots[m[1]] = { count, guests, html: m[2] };
  }
  return { html, slots };
}

/** The move forms of a booking's page: "lineId|from" of each. */
async function moveForms(bookingId: string) {
  const html = await (await desk.get(`/admin/${slug}/bookings/${bookingId}`)).text();
  return { html, keys: [...html.matchAll(/data-move="([^"]+)"/g)].map((m) => m[1]) };
}

function move(bookingId: string, line: number, from: string, date: string, time: string) {
  return desk.post(`/admin/${slug}/bookings/${bookingId}/move`, { line_id: String(line), from, date, time });
}

describe("the manifest of a timeslot activity's day", () => {
  it("lists the two divers booked on the 14:00 boat under 14:00 (2 / 10), with the booking, the booker's contact and their answers; none under 09:00; not a cancelled booking", async () => {
    const day = nextWeekday(3);
    const booking = await bookDive(day, "14:00", 2);
    const [first] = booking.guests;
    const answered = await api(`/private/bookings/${booking.id}/guests/${first.id}`, { key: privateKey, method: "PUT", body: { person: { custom_fields: { certification: "PADI Open Water" } } } });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const cancelled = await bookDive(day, "14:00", 1);
    expect((await api(`/private/bookings/${cancelled.id}/cancel`, { key: privateKey, method: "POST" })).status).toBe(200);

    const { html, slots } = await manifest(day);
    expect(Object.keys(slots)).toEqual(["09:00", "14:00"]);
    expect(slots["09:00"].count).toBe("0 / 10 booked");
    expect(slots["09:00"].guests).toEqual([]);
    expect(slots["14:00"].count).toBe("2 / 10 booked");
    const names = booking.guests.map((g: { person: { first_name: string; last_name: string } }) => `${g.person.first_name} ${g.person.last_name}`).sort();
    expect(slots["14:00"].guests.sort()).toEqual(names);
    expect(slots["14:00"].html).toContain(`href="/admin/${slug}/bookings/${booking.id}"`);
    expect(slots["14:00"].html).toContain(booking.booker.person.email);
    expect(slots["14:00"].html).toContain("912345678");
    expect(html).toContain("<th scope=\"col\">Diving certification</th>");
    expect(slots["14:00"].html).toContain('<td data-answer="certification">PADI Open Water</td>');
    expect(slots["14:00"].html).not.toContain(cancelled.guests[0].person.first_name);
  });

  it("prints without the navigation, and is on the front desk's menu in German too", async () => {
    const css = await (await desk.get("/admin/assets/admin.css")).text();
    expect(css).toMatch(/@media print \{.*?header\.top[^}]*display: none/s);
    const de = await desk.get(`/admin/${slug}/manifest?lang=de&date=${nextWeekday(3)}&product=${dive}`, { "Accept-Language": "de" });
    const html = await de.text();
    expect(html).toContain(`href="/admin/${slug}/manifest"`);
    expect(html).toContain("Teilnehmerliste");
    expect(html).toContain("0 / 10 gebucht");
  });
});

describe("moving a guest to another slot or day from the booking", () => {
  it("moves one of two divers from 14:00 to 09:00: the manifest shows one on each boat, and 9 and 9 places are left; the price is kept", async () => {
    const day = nextWeekday(4);
    const booking = await bookDive(day, "14:00", 2);
    const { html, keys } = await moveForms(booking.id);
    expect(keys).toHaveLength(2);
    expect(html).toContain("a move does not re-price");
    expect(html).toContain("09:00 (10 left)");
    const [line, from] = keys[0].split("|");
    const res = await move(booking.id, Number(line), from, day, "09:00");
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("Location")).toContain("done=moved");

    const { slots } = await manifest(day);
    expect(slots["09:00"].count).toBe("1 / 10 booked");
    expect(slots["14:00"].count).toBe("1 / 10 booked");
    expect(slots["09:00"].guests).toHaveLength(1);
    expect(slots["09:00"].html).toContain("9 free");
    expect(await available(day)).toEqual({ "09:00": 9, "14:00": 9 });
    const after = await bookingOf(booking.id);
    expect(after.total).toEqual(booking.total);
    expect(after.lines.find((l: { id: number }) => l.id === Number(line)).dates).toEqual([`${day} 09:00:00`]);
  });

  it("refuses a move into a full slot at the field, and changes nothing", async () => {
    const day = nextWeekday(5);
    const booking = await bookDive(day, "14:00", 1);
    await bookDive(day, "09:00", 10);
    expect(await available(day)).toEqual({ "09:00": 0, "14:00": 9 });
    const { html, keys } = await moveForms(booking.id);
    expect(html).not.toContain("09:00 (");
    const [line, from] = keys[0].split("|");
    const res = await move(booking.id, Number(line), from, day, "09:00");
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain("only 0 places left at 09:00 on " + day);
    expect(await available(day)).toEqual({ "09:00": 0, "14:00": 9 });
    const { slots } = await manifest(day);
    expect(slots["09:00"].count).toBe("10 / 10 booked");
    expect(slots["14:00"].count).toBe("1 / 10 booked");
    expect((await bookingOf(booking.id)).lines[0].dates).toEqual([from]);
  });

  it("moves two divers of one booking at the same moment (their places are one allocation): both move, counted once each", async () => {
    const day = nextWeekday(0);
    const booking = await bookDive(day, "14:00", 2);
    const { keys } = await moveForms(booking.id);
    const answers = await Promise.all(keys.map((k) => move(booking.id, Number(k.split("|")[0]), k.split("|")[1], day, "09:00")));
    expect(answers.map((r) => r.status)).toEqual([303, 303]);
    expect(await available(day)).toEqual({ "09:00": 8, "14:00": 10 });
    const { slots } = await manifest(day);
    expect([slots["09:00"].count, slots["14:00"].count]).toEqual(["2 / 10 booked", "0 / 10 booked"]);
  });

  it("refuses a time that is not a slot of that day and a past day, at their fields", async () => {
    const day = nextWeekday(1);
    const booking = await bookDive(day, "14:00", 1);
    const [line, from] = (await moveForms(booking.id)).keys[0].split("|");
    const odd = await move(booking.id, Number(line), from, day, "10:00");
    expect(odd.status).toBe(422);
    expect(await odd.text()).toContain("no timeslot at 10:00 on " + day);
    const past = await move(booking.id, Number(line), from, "2020-01-01", "09:00");
    expect(past.status).toBe(422);
    expect(await past.text()).toContain("is in the past");
    expect(await available(day)).toEqual({ "09:00": 10, "14:00": 9 });
  });

  it("moves a diver to another day: the booking's dates follow, and the first day's place is free again", async () => {
    // a Saturday two weeks ahead and its Sunday: days no other test of this file books
    const day = nextWeekday(6, new Date(), 14);
    const next = plusDays(day, 1);
    const booking = await bookDive(day, "09:00", 1);
    const [line, from] = (await moveForms(booking.id)).keys[0].split("|");
    // "Show times" for the next day: its slots with their places left
    const shown = await (await desk.get(`/admin/${slug}/bookings/${booking.id}?move_line=${line}&move_from=${encodeURIComponent(from)}&move_date=${next}`)).text();
    expect(shown).toContain(`Time (${next})`);
    expect(shown).toContain("09:00 (10 left)");
    expect(shown).toContain('name="date" value="' + next + '"');
    const res = await move(booking.id, Number(line), from, next, "14:00");
    expect(res.status, await res.clone().text()).toBe(303);
    expect(await available(day)).toEqual({ "09:00": 10, "14:00": 10 });
    expect((await available(next))["14:00"]).toBe(9);
    const after = await bookingOf(booking.id);
    expect([after.start_date, after.end_date]).toEqual([next, plusDays(next, 1)]);
    expect((await manifest(next)).slots["14:00"].guests).toHaveLength(1);
    expect((await manifest(day)).slots["09:00"].guests).toEqual([]);
  });
});

describe("the boat's timeslots changed in the back office", () => {
  it("refuses a slot's capacity below its divers (409) with every row as typed kept, the new one too", async () => {
    const manager = await signedIn(slug, (await createStaff(businessId, "manager")).email, "198.51.100.41");
    const day = plusDays(nextWeekday(5), 35); // a day no other test books
    await bookDive(day, "09:00", 3);
    const url = `/admin/${slug}/catalog/products/${dive}/inventory`;
    const res = await manager.post(`${url}/timeslots`, { ts_rows: "3", ts_time_0: "09:00", ts_capacity_0: "2", ts_time_1: "14:00", ts_capacity_1: "10", ts_time_2: "16:30", ts_capacity_2: "6", ts_days_2: "sat" });
    const html = await res.text();
    expect(res.status, html.slice(0, 2000)).toBe(409);
    expect(html).toMatch(/id="ts-time-0"[^>]*value="09:00"/);
    expect(html).toMatch(/id="ts-capacity-0"[^>]*value="2"/);
    expect(html).toMatch(/id="ts-time-2"[^>]*value="16:30"/);
    expect(html).toMatch(/id="ts-capacity-2"[^>]*value="6"/);
    expect(html).toMatch(/name="ts_days_2" value="sat" checked/);
    expect(html).toContain(day);
    expect(await available(day)).toEqual({ "09:00": 7, "14:00": 10 });
    // The 09:00 boat taken off the schedule while divers are booked on it: the same, rows as typed.
    const off = await manager.post(`${url}/timeslots`, { ts_rows: "3", ts_time_0: "", ts_capacity_0: "10", ts_time_1: "14:00", ts_capacity_1: "10", ts_time_2: "16:30", ts_capacity_2: "6", ts_days_2: "sat" });
    const offHtml = await off.text();
    expect(off.status, offHtml.slice(0, 3000)).toBe(409);
    expect(offHtml).toMatch(/id="ts-time-2"[^>]*value="16:30"/);
    expect(offHtml).toMatch(/id="ts-capacity-2"[^>]*value="6"/);
    expect(offHtml).toContain(day);
    // Edited: the 09:00 boat moved to 09:30 while divers are booked at 09:00.
    const moved = await manager.post(`${url}/timeslots`, { ts_rows: "3", ts_time_0: "09:30", ts_capacity_0: "10", ts_time_1: "14:00", ts_capacity_1: "10", ts_time_2: "16:30", ts_capacity_2: "6", ts_days_2: "sat" });
    const movedHtml = await moved.text();
    expect(moved.status, movedHtml.slice(0, 3000)).toBe(409);
    expect(movedHtml).toMatch(/id="ts-time-0"[^>]*value="09:30"/);
    expect(movedHtml).toMatch(/id="ts-time-2"[^>]*value="16:30"/);
  });
});

describe("the boat's timeslots in the Calendar and Inventory", () => {
  it("shows places left per slot in the Calendar (09:00 10 free, 14:00 8 free), and Inventory lists the slots without a whole-day row", async () => {
    const day = plusDays(nextWeekday(4), 21);
    await bookDive(day, "14:00", 2);
    const calendar = await (await desk.get(`/admin/${slug}/calendar?from=${day}&days=1`)).text();
    const cell = new RegExp(`<td[^>]*data-product="${dive}" data-date="${day}">([\\s\\S]*?)</td>`).exec(calendar)?.[1] ?? "";
    expect(cell).toContain('<li data-slot="09:00">09:00 10 free</li>');
    expect(cell).toContain('<li data-slot="14:00">14:00 8 free</li>');
    expect(cell).not.toContain("18 free");
    const manager = await signedIn(slug, (await createStaff(businessId, "manager")).email, "198.51.100.42");
    const inventory = await (await manager.get(`/admin/${slug}/catalog/products/${dive}/inventory?from=${day}&to=${day}`)).text();
    expect(inventory).toMatch(new RegExp(`data-date="${day}" data-slot="09:00"><th scope="row">${day}</th><td>09:00</td><td class="num">10</td>`));
    expect(inventory).toMatch(new RegExp(`data-date="${day}" data-slot="14:00"><th scope="row">${day}</th><td>14:00</td><td class="num">10</td><td>[^<]*</td><td class="num">2</td>`));
    expect(inventory).not.toContain(`data-date="${day}" data-slot=""`);
  });
});
