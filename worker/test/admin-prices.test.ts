/**
 * The back office's Prices, Seasons and Inventory screens (issue 20, phase 2), as a manager uses
 * them: seasons made through the form, prices set in the grid and read back as a guest is quoted
 * them by the public API; a bad cell shown at the cell with nothing saved; the front desk refused
 * (403) with nothing changed; a booking keeps its price; timeslots and a blocked date change the
 * public availability; a capacity below what is booked is a 409 listing the date.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signedIn, createStaff, type Browser } from "./admin-fixtures";
import { customer, guest } from "./carts-fixtures";
import { callJson } from "./helpers";
import { adminBusiness, footprint, weekdayAfter, type AdminBusiness } from "./manage-fixtures";

const Y = new Date().getUTCFullYear() + 1;
const LOW = { start: `${Y}-01-01`, end: `${Y}-05-31` };
const HIGH = { start: `${Y}-06-01`, end: `${Y}-09-30` };
const sat = (from: string) => weekdayAfter(6, 0, from); // the first Saturday on or after `from`

let b: AdminBusiness;
let manager: Browser;
let desk: Browser;
const ids: Record<string, number> = {};
let page: string;

const created = async (path: string, body: unknown) => {
  const res = await b.admin(path, { body });
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(201);
  return res.body.data.id as number;
};
const ratesOf = async (id: number) => (await b.admin(`/catalog/products/${id}`)).body.data.rates;
const quote = async (id: number, start: string, duration = 7) => (await b.pub(`/products/${id}/prices?start_date=${start}&pax=1&duration=${duration}`)).body.total_price;
const seasonId = async (title: string) => ((await b.admin("/catalog/seasons?archived=all")).body.data as { id: number; title: string }[]).find((s) => s.title === title)!.id;
/** A booking of the surf week for one guest from `start` (a Saturday) for seven nights, through the public API. */
async function bookWeek(start: string) {
  const cart = await callJson("/api/pub/v2/bookings/add", { key: b.publicKey, body: { currency: "EUR", guests: [guest(ids.week, start, weekdayAfter(6, 7, start))] } });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const booking = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key: b.publicKey, body: { terms_accepted: true, customer: customer() } });
  expect(booking.status, JSON.stringify(booking.body)).toBe(200);
  return booking;
}
/** The grid's cells as the page draws them, with the manager's edits on top. */
async function gridForm(edits: Record<string, string>): Promise<Record<string, string>> {
  const html = await (await manager.get(`/admin/${b.slug}/prices`)).text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input id="(rate_\d+_\w+)" name="\1" type="text"[^>]*?value="([^"]*)"/g)) fields[m[1]] = m[2];
  for (const m of html.matchAll(/<select id="(charge_\d+)"[\s\S]*?<option value="([^"]+)" selected=""/g)) fields[m[1]] = m[2];
  return { ...fields, ...edits };
}

beforeAll(async () => {
  b = await adminBusiness();
  ids.week = await created("/catalog/products", {
    type: "package",
    title: "Surf week",
    duration: { default: 7, min: 1, is_flexible: true },
    capacity: 6,
    rates: [
      { amount: 50, per: "night" },
      { amount: 42, per: "night", min_qty: 10 },
    ],
  });
  ids.yoga = await created("/catalog/products", { type: "activity", title: "Sunrise yoga", duration: { unit: "hour", default: 1 }, capacity: 10, rates: [{ amount: 12 }] });
  manager = await signedIn(b.slug, (await createStaff(b.businessId, "manager")).email, "198.51.100.21");
  desk = await signedIn(b.slug, (await createStaff(b.businessId, "front_desk")).email, "198.51.100.22");
});

/**
 * What the first Seasons test and the first Inventory test make through the forms, made once by
 * whichever test needs it first: each test runs alone (`-t`) as well as after the others.
 */
let seasons: Promise<void> | undefined;
const seasonsMade = () =>
  (seasons ??= (async () => {
    const low = await manager.post(`/admin/${b.slug}/seasons`, { title: "Low season", priority: "0", seg_start_0: LOW.start, seg_end_0: LOW.end, seg_start_1: "", seg_end_1: "" });
    expect(low.status, await low.clone().text()).toBe(303);
    expect((await manager.post(`/admin/${b.slug}/seasons`, { title: "High season", priority: "1", seg_start_0: HIGH.start, seg_end_0: HIGH.end })).status).toBe(303);
  })());
let timeslots: Promise<void> | undefined;
const timeslotsMade = () =>
  (timeslots ??= (async () => {
    const inv = `/admin/${b.slug}/catalog/products/${ids.yoga}/inventory`;
    const res = await manager.post(`${inv}/timeslots`, {
      ts_rows: "3",
      ts_time_0: "18:00",
      ts_capacity_0: "",
      ts_time_1: "07:30",
      ts_capacity_1: "4",
      ts_days_1: "sat",
      ts_time_2: "",
    });
    expect(res.status, await res.clone().text()).toBe(303);
  })());

describe("Seasons", () => {
  it("are made through the form, with their date ranges and priority, as the public API then lists them", async () => {
    await seasonsMade();
    const list = await (await manager.get(`/admin/${b.slug}/seasons?done=created`)).text();
    expect(list).toContain("Season created.");
    expect(list).toContain(`${HIGH.start} – ${HIGH.end}`);
    const seasons = (await b.pub("/seasons")).body;
    expect(seasons.map((s: any) => [s.title, s.segments.map((g: any) => [g.start_date, g.end_date])])).toEqual([
      ["Low season", [[LOW.start, LOW.end]]],
      ["High season", [[HIGH.start, HIGH.end]]],
    ]);
  });

  it("shows a bad range at its field with the entered values kept, and changes nothing", async () => {
    await seasonsMade();
    const id = await seasonId("High season");
    const before = await footprint(b.businessId);
    const bad = await manager.post(`/admin/${b.slug}/seasons/${id}`, { title: "High season", priority: "one", seg_start_0: HIGH.start, seg_end_0: HIGH.end, seg_start_1: `${Y}-12-31`, seg_end_1: "" });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(/id="edit-priority"[^>]*value="one"[^>]*aria-invalid="true"/);
    expect(html).toContain("A whole number, e.g. 0 or 2.");
    expect(html).toMatch(/id="edit-end-1-error" class="error">Enter both dates, or neither\./);
    const reversed = await manager.post(`/admin/${b.slug}/seasons/${id}`, { title: "High season", priority: "1", seg_start_0: HIGH.end, seg_end_0: HIGH.start });
    expect(reversed.status).toBe(422);
    expect(await reversed.text()).toMatch(/id="edit-end-0-error" class="error">start_date must not be after end_date/);
    expect(await footprint(b.businessId)).toEqual(before);
  });

  it("refuses, at the form's fields, a second season of the same name and one sharing a date with a season of its priority; nothing changed", async () => {
    await seasonsMade();
    const before = await footprint(b.businessId);
    const twin = await manager.post(`/admin/${b.slug}/seasons`, { title: "High Season", priority: "3", seg_start_0: "", seg_end_0: "" });
    expect(twin.status).toBe(422);
    expect(await twin.text()).toMatch(/id="[^"]*title-error" class="error">another season is named &quot;High season&quot;: give each season its own name/);
    const tie = await manager.post(`/admin/${b.slug}/seasons`, { title: "Surf week festival", priority: "1", seg_start_0: `${Y}-09-28`, seg_end_0: `${Y}-10-03` });
    expect(tie.status).toBe(422);
    const html = await tie.text();
    expect(html).toContain(`&quot;Surf week festival&quot; and &quot;High season&quot; both have priority 1 and share ${Y}-09-28`);
    expect(html).toMatch(/value="Surf week festival"/);
    expect(await footprint(b.businessId)).toEqual(before);
  });

  it("are edited, archived and restored", async () => {
    await seasonsMade();
    const id = await seasonId("High season");
    const edit = await (await manager.get(`/admin/${b.slug}/seasons/${id}`)).text();
    const segmentId = /name="seg_id_0" value="(\d+)"/.exec(edit)![1];
    const saved = await manager.post(`/admin/${b.slug}/seasons/${id}`, { title: "High season", priority: "1", seg_id_0: segmentId, seg_start_0: HIGH.start, seg_end_0: HIGH.end, seg_start_1: `${Y}-12-20`, seg_end_1: `${Y}-12-31` });
    expect(saved.status).toBe(303);
    const season = (await b.admin(`/catalog/seasons/${id}`)).body.data;
    expect(season.segments).toEqual([
      { id: Number(segmentId), start_date: HIGH.start, end_date: HIGH.end },
      { id: expect.any(Number), start_date: `${Y}-12-20`, end_date: `${Y}-12-31` },
    ]);
    expect((await manager.post(`/admin/${b.slug}/seasons/${id}/archive`, { archived: "true" })).status).toBe(303);
    expect((await b.pub("/seasons")).body.map((s: any) => s.title)).toEqual(["Low season"]);
    expect((await manager.post(`/admin/${b.slug}/seasons/${id}/archive`, { archived: "false" })).status).toBe(303);
    expect((await b.pub("/seasons")).body.map((s: any) => s.title)).toEqual(["Low season", "High season"]);
  });
});

describe("Prices", () => {
  it("is a grid of seasons by products, saved at once, and quoted to guests as set", async () => {
    await seasonsMade();
    const [low, high] = [await seasonId("Low season"), await seasonId("High season")];
    page = await (await manager.get(`/admin/${b.slug}/prices`)).text();
    expect(page).toMatch(/<th scope="col" class="num">High season<small class="hint">priority 1<\/small><\/th><th scope="col" class="num">Low season/);
    expect(page).toContain(`<label class="visually-hidden" for="rate_${ids.week}_${high}">Surf week, High season</label>`);
    expect(page).toMatch(new RegExp(`id="rate_${ids.week}_base"[^>]*value="50.00"`));
    expect(page).toContain("from 10: 42.00 (All seasons)");

    const res = await manager.post(`/admin/${b.slug}/prices`, await gridForm({ [`rate_${ids.week}_${low}`]: "40", [`rate_${ids.week}_${high}`]: "60,50", [`rate_${ids.yoga}_${high}`]: "15" }));
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("Location")).toBe(`/admin/${b.slug}/prices?n=2&done=saved`);
    expect(await (await manager.get(res.headers.get("Location")!)).text()).toContain("Prices saved for 2 products.");

    // What a guest is quoted: each season's nights at its price, the base outside them.
    expect(await quote(ids.week, sat(LOW.start))).toBe(280); // 7 x 40
    expect(await quote(ids.week, sat(HIGH.start))).toBe(423.5); // 7 x 60.50
    expect(await quote(ids.week, sat(`${Y}-10-01`))).toBe(350); // 7 x 50, no season
    expect(await quote(ids.yoga, sat(HIGH.start), 1)).toBe(15);
    // The rates the grid does not show (the quantity tier) are kept.
    expect(await ratesOf(ids.week)).toEqual([
      { season_id: null, amount: 50, unit: "person", per: "night", min_qty: 1 },
      { season_id: null, amount: 42, unit: "person", per: "night", min_qty: 10 },
      { season_id: low, amount: 40, unit: "person", per: "night", min_qty: 1 },
      { season_id: high, amount: 60.5, unit: "person", per: "night", min_qty: 1 },
    ]);
    // Through the private API's own function: its audit entry names the manager.
    const audit = (await b.admin(`/audit?entity=product&entity_id=${ids.week}`)).body.data[0];
    expect(audit).toMatchObject({ action: "updated", actor: { kind: "staff" } });
  });

  it("empties a cell to drop its price, and changes how a row is charged", async () => {
    await seasonsMade();
    const high = await seasonId("High season");
    const res = await manager.post(`/admin/${b.slug}/prices`, await gridForm({ [`rate_${ids.yoga}_${high}`]: "", [`charge_${ids.yoga}`]: "unit/hour" }));
    expect(res.status).toBe(303);
    expect(await ratesOf(ids.yoga)).toEqual([{ season_id: null, amount: 12, unit: "unit", per: "hour", min_qty: 1 }]);
    expect(await quote(ids.yoga, sat(HIGH.start), 1)).toBe(12);
  });

  it("shows a bad cell at the cell with its message and the entered values, 422, and saves nothing", async () => {
    await seasonsMade();
    const low = await seasonId("Low season");
    const before = { footprint: await footprint(b.businessId), week: await ratesOf(ids.week), yoga: await ratesOf(ids.yoga) };
    const res = await manager.post(`/admin/${b.slug}/prices`, await gridForm({ [`rate_${ids.week}_${low}`]: "-5", [`rate_${ids.yoga}_base`]: "twelve", [`rate_${ids.week}_base`]: "51" }));
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Please correct the fields marked below.");
    expect(html).toMatch(new RegExp(`id="rate_${ids.week}_${low}"[^>]*value="-5"[^>]*aria-invalid="true"[^>]*aria-describedby="rate_${ids.week}_${low}-error"`));
    expect(html).toContain(`<small id="rate_${ids.week}_${low}-error" class="error">A price cannot be negative.</small>`);
    expect(html).toContain(`<small id="rate_${ids.yoga}_base-error" class="error">Enter an amount such as 45 or 45.50, or leave the cell empty.</small>`);
    expect(html).toMatch(new RegExp(`id="rate_${ids.week}_base"[^>]*value="51"`));
    const tooFine = await manager.post(`/admin/${b.slug}/prices`, await gridForm({ [`rate_${ids.week}_base`]: "50.555" }));
    expect(tooFine.status).toBe(422);
    expect(await tooFine.text()).toContain("At most 2 decimals.");
    expect({ footprint: await footprint(b.businessId), week: await ratesOf(ids.week), yoga: await ratesOf(ids.yoga) }).toEqual(before);
  });

  it("refuses the front desk (403) for the page and the save, and nothing changes", async () => {
    const before = { footprint: await footprint(b.businessId), week: await ratesOf(ids.week) };
    const get = await desk.get(`/admin/${b.slug}/prices`);
    expect(get.status).toBe(403);
    expect(await get.text()).toContain("Your role does not allow this. Nothing was changed.");
    const post = await desk.post(`/admin/${b.slug}/prices`, { [`rate_${ids.week}_base`]: "1" });
    expect(post.status).toBe(403);
    expect((await desk.post(`/admin/${b.slug}/seasons`, { title: "Desk season" })).status).toBe(403);
    expect((await desk.get(`/admin/${b.slug}/seasons`)).status).toBe(403);
    expect((await desk.get(`/admin/${b.slug}/catalog/products/${ids.yoga}/inventory`)).status).toBe(403);
    expect((await desk.post(`/admin/${b.slug}/catalog/products/${ids.yoga}/inventory/blocks`, { from: `${Y}-03-03`, to: `${Y}-03-03` })).status).toBe(403);
    expect({ footprint: await footprint(b.businessId), week: await ratesOf(ids.week) }).toEqual(before);
    // Nor is Prices in the front desk's navigation.
    expect(await (await desk.get(`/admin/${b.slug}/today`)).text()).not.toContain(`href="/admin/${b.slug}/prices"`);
  });

  it("never changes a booking made before a price change", async () => {
    const start = sat(`${Y}-10-03`);
    const booking = await bookWeek(start);
    const totalOf = async () => (await b.admin(`/bookings/${booking.body.id}`)).body.data.total;
    expect(await totalOf()).toBe(350);
    expect((await manager.post(`/admin/${b.slug}/prices`, await gridForm({ [`rate_${ids.week}_base`]: "99" }))).status).toBe(303);
    expect(await quote(ids.week, start)).toBe(693);
    expect(await totalOf()).toBe(350);
  });
});

describe("Inventory", () => {
  const inv = () => `/admin/${b.slug}/catalog/products/${ids.yoga}/inventory`;

  it("sets weekly timeslots through the form, and the public availability sells them", async () => {
    const saturday = sat(`${Y}-02-01`);
    const monday = weekdayAfter(1, 0, saturday);
    await timeslotsMade();
    const cal = (await b.pub(`/products/${ids.yoga}/availabilities?start_date=${saturday}&end_date=${monday}`)).body;
    expect(cal[saturday].timeslots).toEqual([
      { time: "07:30", available: 4, capacity: 4 },
      { time: "18:00", available: 10, capacity: 10 },
    ]);
    expect(cal[monday].timeslots).toEqual([{ time: "18:00", available: 10, capacity: 10 }]);
    const html = await (await manager.get(`${inv()}?from=${saturday}&to=${monday}`)).text();
    expect(html).toMatch(/data-date="[^"]+" data-slot="07:30"><th scope="row">[^<]+<\/th><td>07:30<\/td><td class="num">4<\/td>/);
    // A slot scheduled twice is shown at its row.
    const twice = await manager.post(`${inv()}/timeslots`, { ts_rows: "2", ts_time_0: "09:00", ts_time_1: "09:00" });
    expect(twice.status).toBe(422);
    expect(await twice.text()).toMatch(/id="ts-time-1-error" class="error">09:00 on mon is scheduled twice/);
  });

  it("blocks a date through the form, and the public availability shows it blocked", async () => {
    await timeslotsMade(); // its two timeslots
    const day = sat(`${Y}-03-01`);
    expect((await b.pub(`/products/${ids.yoga}/availabilities?start_date=${day}&end_date=${day}`)).body[day].timeslots).toHaveLength(2);
    const res = await manager.post(`${inv()}/blocks?from=${day}&to=${day}`, { from: day, to: day, action: "block" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("done=blocked");
    const cal = (await b.pub(`/products/${ids.yoga}/availabilities?start_date=${day}&end_date=${day}`)).body;
    expect(cal[day]).toMatchObject({ blocked: true, timeslots: [] });
    const html = await (await manager.get(res.headers.get("Location")!)).text();
    expect(html).toContain("Dates blocked.");
    expect(html).toMatch(new RegExp(`<tr class="blocked" data-date="${day}" data-slot="">`));
    expect((await manager.post(`${inv()}/blocks`, { from: day, to: day, action: "unblock" })).status).toBe(303);
    expect((await b.pub(`/products/${ids.yoga}/availabilities?start_date=${day}&end_date=${day}`)).body[day].blocked).toBe(false);
  });

  it("refuses a capacity below what is booked (409), listing the dates and counts, and changes nothing", async () => {
    // A week of its own, booked here: one guest on each of its nights.
    const start = sat(`${Y}-11-07`);
    await bookWeek(start);
    const before = await footprint(b.businessId);
    const url = `/admin/${b.slug}/catalog/products/${ids.week}/inventory`;
    const res = await manager.post(`${url}/capacity`, { from: start, to: weekdayAfter(1, 0, start), capacity: "0" });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("These dates have more held or booked than the new capacity allows:");
    expect(html).toContain(`<li>${start}: capacity 0 &lt; 1 booked + 0 held</li>`);
    expect(html).toMatch(/id="capacity-value"[^>]*value="0"/);
    const blocked = await manager.post(`${url}/blocks`, { from: start, to: start, action: "block" });
    expect(blocked.status).toBe(409);
    expect(await footprint(b.businessId)).toEqual(before);
    // A capacity that fits is saved, and the page shows it as set for those dates.
    const ok = await manager.post(`${url}/capacity?from=${start}&to=${start}`, { from: start, to: start, capacity: "3" });
    expect(ok.status).toBe(303);
    const page = await (await manager.get(ok.headers.get("Location")!)).text();
    expect(page).toMatch(new RegExp(`data-date="${start}" data-slot=""><th scope="row">${start}</th><td>whole day</td><td class="num">3</td><td>set for the date</td><td class="num">1</td><td class="num">0</td><td class="num">2</td>`));
  });

  it("answers a bad product id with a 404 page, and a bad capacity at its field", async () => {
    expect((await manager.get(`/admin/${b.slug}/catalog/products/abc/inventory`)).status).toBe(404);
    expect((await manager.get(`/admin/${b.slug}/catalog/products/999999/inventory`)).status).toBe(404);
    const bad = await manager.post(`${inv()}/capacity`, { from: `${Y}-04-01`, to: `${Y}-03-01`, capacity: "-1" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="capacity-value-error" class="error">A whole number, e.g. 0 or 2.');
    const reversed = await manager.post(`${inv()}/capacity`, { from: `${Y}-04-01`, to: `${Y}-03-01`, capacity: "2" });
    expect(reversed.status).toBe(422);
    expect(await reversed.text()).toContain('id="capacity-to-error" class="error">must not be before from');
  });
});
