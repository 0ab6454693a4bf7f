/**
 * Every shape a business lists sells (issue 27), through the public API, on the second demo
 * business (worker/seed/dive.catalog.json): a boat dive on timeslots, a three-day course that
 * starts on Mondays, a wetsuit rental by the day, a lodge's double room, and a dive weekend sold
 * as a package without a room. Each booking is read back through the private API.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { diveCatalog } from "../seed/demo";
import { callJson as api, createKey, nextWeekday } from "./helpers";

let businessId: number;
let key: string;
let privateKey: string;
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  const row = await env.DB.prepare("INSERT INTO businesses (slug, title, created_at) VALUES (?, 'Atlantic Dive Centre', ?) RETURNING id")
    .bind(`dive-${Date.now().toString(36)}`, new Date().toISOString())
    .first<{ id: number }>();
  businessId = row!.id;
  const file = CatalogFile.parse(diveCatalog);
  // the crowd of one test file shares one key: no throttling between its requests
  file.settings.rate_limit_per_minute = 100_000;
  // no e-mail: the tests' send_email binding sends only from the senders it knows
  file.settings.email_from = null;
  file.settings.notification_emails = [];
  await applyCatalog({ DB: env.DB }, { kind: "cli", id: "test", name: "cli" }, businessId, file, new Date());
  key = await createKey("public", businessId);
  privateKey = await createKey("private", businessId);
  const list = await api("/api/pub/v2/products", { key });
  for (const p of list.body) ids[p.title] = p.id;
});

/** A date 7+ days ahead on `weekday` (0 = Sunday) outside the summer season (so the base rates apply). */
function offSeason(weekday: number): string {
  let from = new Date();
  for (;;) {
    const d = nextWeekday(weekday, from);
    const md = d.slice(5);
    if (md < "06-15" || md > "09-15") return d;
    from = new Date(`${d.slice(0, 4)}-09-16T00:00:00Z`);
  }
}
const plusDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function diver(packageId: number, start: string, end: string, extra: Record<string, unknown> = {}) {
  const n = ++seq;
  return { first_name: `Diver${n}`, last_name: "Costa", email: `diver${n}@example.com`, package: { id: packageId, start_date: start, end_date: end }, ...extra };
}
const customer = () => ({ first_name: "Rita", last_name: "Costa", email: `rita${++seq}@example.com`, phone_countrycode: 351, phone: "912345678" });

async function slots(productId: number, date: string): Promise<Record<string, number>> {
  const res = await api(`/api/pub/v2/products/${productId}/availabilities?start_date=${date}&end_date=${date}`, { key });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body[date].timeslots.map((t: { time: string; available: number }) => [t.time, t.available]));
}

async function book(guests: unknown[]) {
  const added = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests } });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const done = await api(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const detail = await api(`/private/bookings/${done.body.id ?? done.body.booking_id}`, { key: privateKey });
  expect(detail.status).toBe(200);
  return { cart: added.body, booking: detail.body.data };
}

describe("a dive centre sells everything it lists", () => {
  it("lists every product, with a package's price including its default items", async () => {
    const list = await api("/api/pub/v2/products", { key });
    const byTitle = Object.fromEntries(list.body.map((p: any) => [p.title, p]));
    expect(Object.keys(byTitle).sort()).toEqual(["Boat Dive", "Dive Weekend", "Open Water Course", "Sea Lodge Double", "Snorkel Tour", "Wetsuit Rental"]);
    expect(byTitle["Open Water Course"].price_from).toEqual([{ value: 420, currency: "EUR" }]);
    // the weekend's own 20.00 and a boat dive (55.00) on each of its two days
    expect(byTitle["Dive Weekend"].price_from).toEqual([{ value: 130, currency: "EUR" }]);
    const day = offSeason(6);
    const price = await api(`/api/pub/v2/products/${ids["Dive Weekend"]}/prices?start_date=${day}&pax=2&duration=2`, { key });
    expect(price.body.total_price).toBe(260);
  });

  it("books two divers on the 14:00 boat: 14:00 has two places fewer, 09:00 none fewer", async () => {
    const dive = ids["Boat Dive"];
    const day = offSeason(3);
    const root = await api(`/api/pub/v2/packages/${dive}?start_date=${day}&duration=1`, { key });
    expect(root.status).toBe(200);
    const item = root.body.single_items[0];
    expect(item.product.id).toBe(dive);
    expect(item.dates[0].timeslots).toEqual([
      { time: "09:00", available: 10, capacity: 10 },
      { time: "14:00", available: 10, capacity: 10 },
    ]);
    const at = { package_item_id: item.package_item_id, dates: [`${day} 14:00:00`] };
    const end = plusDays(day, 1);
    const { cart, booking } = await book([diver(dive, day, end, { package: { id: dive, start_date: day, end_date: end, items: [at] } }), diver(dive, day, end, { package: { id: dive, start_date: day, end_date: end, items: [at] } })]);
    expect(await slots(dive, day)).toEqual({ "09:00": 10, "14:00": 8 });
    expect(cart.guests.map((g: any) => g.gender)).toEqual([null, null]);
    expect(cart.total).toBe(110);
    const lines = booking.lines.filter((l: any) => l.product_id === dive);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatchObject({ dates: [`${day} 14:00:00`], qty: 1, price: 55 });
  });

  it("refuses a dive without a time, at a time that is not a slot, or for more divers than the boat takes, holding nothing", async () => {
    const dive = ids["Boat Dive"];
    const day = offSeason(4);
    const end = plusDays(day, 1);
    const itemId = (await api(`/api/pub/v2/packages/${dive}?start_date=${day}&duration=1`, { key })).body.single_items[0].package_item_id;
    const noTime = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(dive, day, end)] } });
    expect(noTime.status).toBe(422);
    expect(noTime.body.errors.map((e: any) => e.path)).toEqual(["guests.0.package.items"]);
    expect(noTime.body.errors[0].message).toContain("09:00, 14:00");
    const wrong = { id: dive, start_date: day, end_date: end, items: [{ package_item_id: itemId, dates: [`${day} 10:00:00`] }] };
    const badTime = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(dive, day, end, { package: wrong })] } });
    expect(badTime.status).toBe(422);
    expect(badTime.body.errors[0]).toMatchObject({ path: "guests.0.package.items.0.dates.0" });
    const at = { id: dive, start_date: day, end_date: end, items: [{ package_item_id: itemId, dates: [`${day} 09:00:00`] }] };
    const crowd = Array.from({ length: 11 }, () => diver(dive, day, end, { package: at }));
    const tooMany = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: crowd } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0]).toMatchObject({ path: "guests", message: expect.stringContaining("at most 10") });
    expect(await slots(dive, day)).toEqual({ "09:00": 10, "14:00": 10 });
  });

  it("refuses a time with too few places left, naming the item's field, holding nothing", async () => {
    const dive = ids["Boat Dive"];
    const day = offSeason(5);
    const end = plusDays(day, 1);
    const itemId = (await api(`/api/pub/v2/packages/${dive}?start_date=${day}&duration=1`, { key })).body.single_items[0].package_item_id;
    const at = { id: dive, start_date: day, end_date: end, items: [{ package_item_id: itemId, dates: [`${day} 14:00:00`] }] };
    await book(Array.from({ length: 9 }, () => diver(dive, day, end, { package: at })));
    const two = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(dive, day, end, { package: at }), diver(dive, day, end, { package: at })] } });
    expect(two.status).toBe(409);
    expect(two.body.code).toBe("sold_out");
    expect(two.body.errors).toEqual([
      { path: "guests.0.package.items.0.dates", message: "Boat Dive on " + day + " at 14:00: 1 left, 2 wanted" },
      { path: "guests.1.package.items.0.dates", message: "Boat Dive on " + day + " at 14:00: 1 left, 2 wanted" },
    ]);
    expect(await slots(dive, day)).toEqual({ "09:00": 10, "14:00": 1 });
  });

  it("books the course for two starting on a Monday, over its three days; another start day is refused", async () => {
    const course = ids["Open Water Course"];
    const monday = offSeason(1);
    const tuesday = plusDays(monday, 1);
    const refused = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(course, tuesday, plusDays(tuesday, 3))] } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ path: "guests.0.package.start_date", message: expect.stringContaining("mon") });
    const twoDays = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(course, monday, plusDays(monday, 2))] } });
    expect(twoDays.status).toBe(422);
    expect(twoDays.body.errors[0].path).toBe("guests.0.package.end_date");
    const { booking } = await book([diver(course, monday, plusDays(monday, 3)), diver(course, monday, plusDays(monday, 3))]);
    const lines = booking.lines.filter((l: any) => l.product_id === course);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatchObject({ dates: [monday, tuesday, plusDays(monday, 2)], price: 420 });
    const left = await api(`/api/pub/v2/products/${course}/availabilities?start_date=${monday}&end_date=${plusDays(monday, 2)}`, { key });
    expect(Object.values(left.body).map((d: any) => d.available)).toEqual([4, 4, 4]);
  });

  it("rents a wetsuit for three days, and refuses a rental longer than it is offered", async () => {
    const suit = ids["Wetsuit Rental"];
    const day = offSeason(2);
    const { booking } = await book([diver(suit, day, plusDays(day, 3))]);
    expect(booking.lines.find((l: any) => l.product_id === suit)).toMatchObject({ dates: [day, plusDays(day, 1), plusDays(day, 2)], price: 24 });
    const long = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(suit, day, plusDays(day, 15))] } });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].path).toBe("guests.0.package.end_date");
  });

  it("books the lodge's double room for two nights for two (one room), and wants the guests' gender for it", async () => {
    const lodge = ids["Sea Lodge Double"];
    const day = offSeason(5);
    const end = plusDays(day, 2);
    const noGender = await api("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", guests: [diver(lodge, day, end)] } });
    expect(noGender.status).toBe(422);
    expect(noGender.body.errors[0].path).toBe("guests.0.gender");
    const { cart, booking } = await book([diver(lodge, day, end, { gender: "f" }), diver(lodge, day, end, { gender: "m" })]);
    expect(cart.total).toBe(160);
    const room = booking.lines.filter((l: any) => l.product_id === lodge);
    expect(room).toHaveLength(1);
    expect(room[0]).toMatchObject({ dates: [day, plusDays(day, 1)], price: 160 });
    const left = await api(`/api/pub/v2/products/${lodge}/availabilities?start_date=${day}&end_date=${day}`, { key });
    expect(left.body[day].available).toBe(3);
  });

  it("books the dive weekend (a package without a room) with a boat chosen for each day", async () => {
    const weekend = ids["Dive Weekend"];
    const dive = ids["Boat Dive"];
    const saturday = offSeason(6);
    const sunday = plusDays(saturday, 1);
    const root = await api(`/api/pub/v2/packages/${weekend}?start_date=${saturday}&duration=2`, { key });
    const item = root.body.single_items.find((i: any) => i.product.id === dive);
    expect(item.role).toBe("default");
    const pkg = { id: weekend, start_date: saturday, end_date: plusDays(saturday, 2), items: [{ package_item_id: item.package_item_id, dates: [`${saturday} 14:00:00`, `${sunday} 09:00:00`] }] };
    const { cart, booking } = await book([diver(weekend, saturday, pkg.end_date, { package: pkg })]);
    expect(cart.total).toBe(130);
    expect(booking.lines.find((l: any) => l.product_id === dive)).toMatchObject({ dates: [`${saturday} 14:00:00`, `${sunday} 09:00:00`], price: 110 });
    expect(await slots(dive, saturday)).toEqual({ "09:00": 10, "14:00": 9 });
    expect(await slots(dive, sunday)).toEqual({ "09:00": 9, "14:00": 10 });
  });
});
