import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../src/lib/errors";
import { applyCatalog, exportCatalog } from "../src/manage/catalog/file";
import { updateProducts } from "../src/manage/catalog/products";
import { addDays, adminBusiness, footprint, NOW, weekdayAfter, type AdminBusiness } from "./manage-fixtures";

// An owner builds a surf camp through the private API alone, and the public API sells it.
let b: AdminBusiness;
const ids: Record<string, number> = {};
const LOW = "2027-01-01";
const HIGH = "2027-06-01";
const sat = (from: string) => weekdayAfter(6, 0, from); // the first Saturday on or after `from`

const post = async (path: string, body: unknown) => {
  const res = await b.admin(path, { body, now: NOW });
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(201);
  return res.body.data;
};

beforeAll(async () => {
  b = await adminBusiness();
  const settings = await b.admin("/settings", {
    method: "PATCH",
    now: NOW,
    body: { languages: ["en", "de"], terms: "Pay on arrival.", terms_translations: { de: "Zahlung bei Ankunft." }, widget_origins: ["https://surfcamp.example"], currencies: [{ iso_code: "EUR", default: true }, { iso_code: "USD", exchange_rate: 1.1 }] },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  ids.location = (await post("/catalog/locations", { title: "Ericeira" })).id;
  ids.front = (await post("/catalog/categories", { title: "Surf camps", kind: "frontoffice" })).id;
  ids.back = (await post("/catalog/categories", { title: "Packages", kind: "backoffice" })).id;
  ids.dormType = (await post("/catalog/accommodation-types", { title: "Dorm" })).id;
  ids.low = (await post("/catalog/seasons", { title: "Low season", priority: 0, segments: [{ start_date: LOW, end_date: "2027-05-31" }] })).id;
  ids.high = (await post("/catalog/seasons", { title: "High season", priority: 1, segments: [{ start_date: HIGH, end_date: "2027-09-30" }] })).id;
  ids.surf = (await post("/catalog/products", { type: "activity", title: "Surf lessons", capacity: 20, location_id: ids.location, rates: [{ amount: 30, unit: "person", per: "day" }] })).id;
  ids.yoga = (
    await post("/catalog/products", {
      type: "activity",
      title: "Yoga",
      duration: { unit: "hour", default: 1 },
      capacity: 8,
      timeslots: [
        { time: "07:30", capacity: 4, days: ["sat", "sun"] },
        { time: "18:00", days: ["mon", "tue", "wed", "thu", "fri"] },
      ],
      rates: [{ amount: 12.5 }],
    })
  ).id;
  ids.dorm = (
    await post("/catalog/products", {
      type: "accommodation",
      title: "Women's dorm",
      accommodation_type_id: ids.dormType,
      accommodation: { rooms: 2, beds_per_room: 4, is_private: false, gender: "female", srs: { charge: 15, fixed: false } },
      duration: { default: 7, min: 1, is_flexible: true },
      rates: [{ amount: 20, per: "night" }],
    })
  ).id;
  ids.room = (
    await post("/catalog/products", {
      type: "accommodation",
      title: "Double room",
      accommodation: { rooms: 3, beds_per_room: 2, is_private: true },
      duration: { default: 7, min: 1, is_flexible: true },
      rates: [{ amount: 80, unit: "room", per: "night" }],
    })
  ).id;
  ids.week = (
    await post("/catalog/products", {
      type: "package",
      title: "Surf week",
      translations: { de: { title: "Surfwoche" } },
      location_id: ids.location,
      frontoffice_category_id: ids.front,
      backoffice_category_id: ids.back,
      duration: { default: 7, min: 7, max: 7 },
      allowed_checkin_days: { mon: false, tue: false, wed: false, thu: false, fri: false, sat: true, sun: false },
      capacity: 10,
      rates: [
        { season_id: ids.low, amount: 40, per: "night" },
        { season_id: ids.high, amount: 60, per: "night" },
      ],
      package: {
        accommodation_ids: [ids.dorm, ids.room],
        items: [
          { product_id: ids.surf, role: "default", qty: { min: 1, max: 1, default: 1 } },
          { product_id: ids.yoga, role: "option", qty: { min: 0, max: 1, default: 0 }, is_configurable_dates: true },
        ],
      },
    })
  ).id;
});

describe("an owner builds a business through the API, and the public API sells it", () => {
  it("makes the ids and refs itself, in order, and answers each entity as stored", async () => {
    expect(ids.week).toBeGreaterThan(ids.surf);
    const got = await b.admin(`/catalog/products/${ids.week}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: ids.week, ref: "surf-week", type: "package", listed: true, capacity: 10, archived: false });
    expect(got.body.data.package.items.map((i: any) => [i.product_id, i.role])).toEqual([[ids.surf, "default"], [ids.yoga, "option"]]);
    const dorm = (await b.admin(`/catalog/products/${ids.dorm}`)).body.data;
    expect(dorm.capacity).toBe(8); // 2 rooms x 4 beds: a shared room type sells beds
    expect(dorm.accommodation).toEqual({ rooms: 2, beds_per_room: 4, is_private: false, gender: "female", srs: { charge: 15, fixed: false } });
  });

  it("lists a product on the front office by the documented rule: a front-office category or promoted", async () => {
    const list = await b.pub("/products");
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.id)).toEqual([ids.week]);
    // Any product not archived is fetched by id, listed or not.
    expect((await b.pub(`/products/${ids.surf}`)).status).toBe(200);
    await b.admin(`/catalog/products/${ids.surf}`, { method: "PATCH", body: { is_promoted: true } });
    expect((await b.pub("/products")).body.map((p: any) => p.id)).toEqual([ids.surf, ids.week]);
    await b.admin(`/catalog/products/${ids.surf}`, { method: "PATCH", body: { is_promoted: false } });
  });

  it("shows settings, translations, seasons and terms per language", async () => {
    const settings = await b.pub("/settings?language=de");
    expect(settings.body).toMatchObject({ languages: ["en", "de"], terms: "Zahlung bei Ankunft." });
    expect(settings.body.currencies.map((c: any) => c.iso_code)).toEqual(["EUR", "USD"]);
    expect((await b.pub("/settings")).body.terms).toBe("Pay on arrival.");
    expect((await b.pub(`/products/${ids.week}?language=de`)).body.title).toBe("Surfwoche");
    const seasons = (await b.pub("/seasons")).body;
    expect(seasons.map((s: any) => [s.title, s.segments.map((g: any) => [g.start_date, g.end_date])])).toEqual([
      ["Low season", [[LOW, "2027-05-31"]]],
      ["High season", [[HIGH, "2027-09-30"]]],
    ]);
  });

  it("prices by season, and converts to another currency by its rate", async () => {
    const low = sat(LOW);
    const high = sat(HIGH);
    const price = (start: string, currency = "EUR") => b.pub(`/products/${ids.week}/prices?start_date=${start}&pax=1&duration=7&currency=${currency}`);
    // the week's own 7 nights, and its included surf lessons (30.00 a day, every day of the week)
    expect((await price(low)).body.total_price).toBe(280 + 210);
    expect((await price(high)).body.total_price).toBe(420 + 210);
    expect((await price(high, "USD")).body.total_price).toBe(693);
  });

  it("offers the rooms by their gender rule, couples in private rooms, srs on the shared one", async () => {
    const start = sat(LOW);
    const rooms = (party: string) => b.pub(`/packages/${ids.week}/accommodations?start_date=${start}&duration=7&${party}`);
    const women = (await rooms("males=0&females=2&couples=0")).body;
    expect(women.map((o: any) => o.product.id).sort()).toEqual([ids.dorm, ids.room].sort());
    const couple = (await rooms("males=0&females=0&couples=1")).body;
    expect(couple.map((o: any) => o.product.id)).toEqual([ids.room]);
    const man = (await rooms("males=1&females=0&couples=0")).body;
    expect(man.map((o: any) => o.product.id)).toEqual([ids.room]);
    const alone = (await rooms("males=0&females=1&couples=0")).body.find((o: any) => o.product.id === ids.dorm);
    expect(alone.product.srs).toEqual({ charge: 105, fixed: false }); // 15 per night for the stay of 7, per unbooked bed (fixed: false)
  });

  it("sells the yoga class on its weekly timeslots, each slot with its own capacity", async () => {
    const saturday = sat(LOW);
    const monday = addDays(saturday, 2);
    const cal = (await b.pub(`/products/${ids.yoga}/availabilities?start_date=${saturday}&end_date=${monday}`)).body;
    expect(cal[saturday].timeslots).toEqual([{ time: "07:30", available: 4, capacity: 4 }]);
    expect(cal[monday].timeslots).toEqual([{ time: "18:00", available: 8, capacity: 8 }]);
    const items = (await b.pub(`/packages/${ids.week}?start_date=${saturday}&duration=7`)).body;
    const yoga = items.single_items.find((i: any) => i.product.id === ids.yoga);
    expect(yoga.dates[0].timeslots).toEqual([{ time: "07:30", available: 4, capacity: 4 }]);
    expect(yoga.dates[2].timeslots).toEqual([{ time: "18:00", available: 8, capacity: 8 }]);
  });

  it("blocks a date: no check-in across it, and the inventory says why", async () => {
    const saturday = sat("2027-02-01");
    const blocked = addDays(saturday, 3);
    const res = await b.admin(`/catalog/products/${ids.week}/inventory`, { method: "PATCH", now: NOW, body: { from: blocked, to: blocked, blocked: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.days).toEqual([{ date: blocked, slot: "", capacity: 0, source: "blocked", blocked: true, booked: 0, held: 0, available: 0 }]);
    const cal = (await b.pub(`/products/${ids.week}/availabilities?start_date=${saturday}&end_date=${blocked}`)).body;
    expect(cal[saturday].available_for_checkin).toBe(false);
    expect(cal[blocked]).toMatchObject({ blocked: true, available: 0 });
    const next = addDays(saturday, 7);
    expect((await b.pub(`/products/${ids.week}/availabilities?start_date=${next}&end_date=${next}`)).body[next].available_for_checkin).toBe(true);
  });
});

describe("references and bad input", () => {
  it("changes several products in one batch, all or none: one bad product leaves the others as they were", async () => {
    const rates = async (id: number) => (await b.admin(`/catalog/products/${id}`)).body.data.rates;
    const before = { surf: await rates(ids.surf), yoga: await rates(ids.yoga), footprint: await footprint(b.businessId) };
    const actor = { kind: "cli" as const, id: "test", name: "catalog test" };
    const refused = await updateProducts(env, actor, b.businessId, [
      { id: ids.surf, patch: { rates: [{ amount: 31, unit: "person", per: "day" }] } },
      { id: ids.yoga, patch: { rates: [{ amount: -1 }] } },
    ], new Date(NOW)).catch((err) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.status).toBe(422);
    expect(refused.extra.errors.map((e: { path: string }) => e.path)).toEqual([`${ids.yoga}.rates.0.amount`]);
    expect({ surf: await rates(ids.surf), yoga: await rates(ids.yoga), footprint: await footprint(b.businessId) }).toEqual(before);

    const saved = await updateProducts(env, actor, b.businessId, [
      { id: ids.surf, patch: { rates: [{ amount: 31, unit: "person", per: "day" }] } },
      { id: ids.yoga, patch: { rates: before.yoga.map((r: object) => r) } },
    ], new Date(NOW));
    expect(saved.map((p) => p.id)).toEqual([ids.surf, ids.yoga]);
    expect((await rates(ids.surf)).map((r: { amount: number }) => r.amount)).toEqual([31]);
    expect(await rates(ids.yoga)).toEqual(before.yoga);
    // Put back what the later tests quote.
    await updateProducts(env, actor, b.businessId, [{ id: ids.surf, patch: { rates: before.surf } }], new Date(NOW));
  });

  it("names each missing or wrong reference in one 422, and changes nothing", async () => {
    const before = await footprint(b.businessId);
    const res = await b.admin("/catalog/products", {
      body: {
        type: "package",
        title: "Broken week",
        location_id: 999_999,
        frontoffice_category_id: ids.back,
        rates: [{ season_id: 888_888, amount: 10 }],
        package: { accommodation_ids: [ids.surf], items: [{ product_id: 777_777, role: "option" }, { product_id: ids.week, role: "option" }] },
      },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe("validation_failed");
    const paths = res.body.errors.map((e: any) => e.path).sort();
    expect(paths).toEqual(["frontoffice_category_id", "location_id", "package.accommodation_ids.0", "package.items.0.product_id", "package.items.1.product_id", "rates.0.season_id"]);
    expect(res.body.errors.find((e: any) => e.path === "location_id").message).toMatch(/no location 999999/);
    expect(await footprint(b.businessId)).toEqual(before);
  });

  it("refuses ids chosen by the client, unknown fields, a type change and an accommodation without rooms", async () => {
    const before = await footprint(b.businessId);
    const withId = await b.admin("/catalog/products", { body: { id: 5, type: "item", title: "Towel" } });
    expect(withId.status).toBe(422);
    expect(withId.body.errors).toEqual([{ path: "id", message: "is not a field of this object" }]);
    const retype = await b.admin(`/catalog/products/${ids.surf}`, { method: "PATCH", body: { type: "rental" } });
    expect(retype.status).toBe(422);
    expect(retype.body.errors[0].path).toBe("type");
    const noRooms = await b.admin("/catalog/products", { body: { type: "accommodation", title: "Tent" } });
    expect(noRooms.status).toBe(422);
    expect(noRooms.body.errors[0].path).toBe("accommodation");
    const other = await b.admin("/catalog/products/101", { method: "PATCH", body: { title: "Mine now" } });
    expect(other.status).toBe(404); // the demo business's product: another business's is not found
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await env.DB.prepare("SELECT title FROM products WHERE id = 101").first<{ title: string }>())!.title).toBe("Surf & Yoga Week");
  });

  it("refuses a season that shares a date with another of the same priority, or another's name, naming both and the date; changes nothing", async () => {
    const before = await footprint(b.businessId);
    // High season (priority 1) runs 2027-06-01 .. 2027-09-30: a second priority-1 season on 2027-09-20 .. 10-10 would tie on 09-20.
    const tie = await b.admin("/catalog/seasons", { body: { title: "Autumn swell", priority: 1, segments: [{ start_date: "2027-11-01", end_date: "2027-11-05" }, { start_date: "2027-09-20", end_date: "2027-10-10" }] } });
    expect(tie.status).toBe(422);
    expect(tie.body.errors).toEqual([{ path: "segments.0", message: expect.stringMatching(/"Autumn swell" and "High season" both have priority 1 and share 2027-09-20/) }]);
    const twin = await b.admin("/catalog/seasons", { body: { title: "  high SEASON ", priority: 5, segments: [] } });
    expect(twin.status).toBe(422);
    expect(twin.body.errors).toEqual([{ path: "title", message: 'another season is named "High season": give each season its own name' }]);
    // An update is held to the same rules (Low season moved onto High season's priority and dates).
    const moved = await b.admin(`/catalog/seasons/${ids.low}`, { method: "PATCH", body: { priority: 1, segments: [{ start_date: "2027-05-01", end_date: "2027-06-01" }] } });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0].message).toMatch(/"Low season" and "High season" both have priority 1 and share 2027-06-01/);
    const renamed = await b.admin(`/catalog/seasons/${ids.low}`, { method: "PATCH", body: { title: "High Season" } });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors[0].path).toBe("title");
    expect(await footprint(b.businessId)).toEqual(before);
    // Another priority decides which price wins: that overlap is the point of priorities, and is accepted.
    const over = await b.admin("/catalog/seasons", { body: { title: "Surf festival", priority: 2, segments: [{ start_date: "2027-09-20", end_date: "2027-09-22" }] } });
    expect(over.status).toBe(201);
    await b.admin(`/catalog/seasons/${over.body.data.id}`, { method: "PATCH", body: { archived: true } });
    // The catalog file (the catalog CLI's door) is held to the same rules.
    const { file } = await exportCatalog(env.DB, b.businessId);
    file.seasons.push({ ref: "high-2", title: "High season", priority: 1, archived: false, segments: [{ start_date: "2027-07-01", end_date: "2027-07-02" }] } as never);
    const refused = await applyCatalog(env, { kind: "cli", id: "test", name: "cli" }, b.businessId, file, new Date(NOW), { dryRun: true }).catch((err) => err);
    expect(refused).toBeInstanceOf(ApiError);
    const at = file.seasons.length - 1;
    expect((refused as ApiError).extra.errors).toEqual(
      expect.arrayContaining([
        { path: `seasons.${at}.title`, message: expect.stringMatching(/another season is named "High season"/) },
        { path: `seasons.${at}.segments.0`, message: expect.stringMatching(/"High season" and "High season" both have priority 1 and share 2027-07-01/) },
      ]),
    );
  });

  it("answers the catalog file's JSON Schema, generated from its zod shapes", async () => {
    const res = await b.admin("/../schemas/catalog.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/schema\+json/);
    expect(res.body.properties.products.items.required).toEqual(expect.arrayContaining(["ref", "type", "title"]));
    expect(res.body.properties.settings.properties.widget_origins.type).toBe("array");
  });
});
