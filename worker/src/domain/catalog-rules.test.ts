import { describe, expect, it } from "vitest";
import type { Lookup, ProductEntity, Season, SettingsEntity } from "./catalog-write";
import { duplicateRefs, indexOf, lookupReferrers, productProblems, productReferrers, seasonProblems, settingsProblems } from "./catalog-rules";

// The rules an administered catalog keeps, as an owner meets them: each refusal names the field
// that is wrong, and a catalog that keeps them all has none.
const settings = (config: Record<string, unknown> = {}, currencies = [{ id: 1, iso_code: "EUR", title: "Euro", symbol: "€", exchange_rate: 1, is_default: true }]): SettingsEntity => ({
  title: "Camp", company_name: "Camp Lda", frontoffice_domain: "camp.example", config: { languages: ["en", "de"], default_language: "en", ...config }, currencies,
});
const lookup = (id: number, extra: Partial<Lookup> = {}): Lookup => ({ id, ref: null, title: `L${id}`, archived_at: null, ...extra });

function product(id: number, extra: Partial<ProductEntity> = {}): ProductEntity {
  return {
    id, ref: null, archived_at: null, type: "activity", title: `P${id}`, backoffice_title: "", description: "", extended_description: "", translations: {},
    image: { small: "", medium: "", large: "" }, location_id: null, backoffice_category_id: null, frontoffice_category_id: null, is_promoted: false,
    accommodation_type_id: null, duration: { unit: "day", default: 1, min: 1, max: null, variants: [], is_flexible: false } as ProductEntity["duration"],
    pax_min: 1, pax_max: 4, allowed_checkin_days: {} as ProductEntity["allowed_checkin_days"], default_start_time: null, capacity: 10, timeslots: [],
    accommodation: null, rates: [], package: null, payment_policy: null, ...extra,
  };
}
const room = (id: number, extra: Partial<ProductEntity> = {}) =>
  product(id, { type: "accommodation", accommodation: { rooms: 2, beds_per_room: 2, is_private: false, gender: "mixed", srs: null }, ...extra });
const item = (id: number, product_id: number, extra: Partial<NonNullable<ProductEntity["package"]>["items"][number]> = {}) => ({
  id, product_id, group: null, role: "default" as const, qty_min: 1, qty_max: 1, qty_default: 1, is_configurable_dates: false, sort: 0, ...extra,
});
const season = (id: number, segments: [string, string][] = [["2027-06-01", "2027-09-30"]]): Season => ({
  id, ref: null, title: `S${id}`, priority: 0, archived_at: null, segments: segments.map(([start_date, end_date], i) => ({ id: i + 1, start_date, end_date })),
});

function catalog(products: ProductEntity[], extra: { lookups?: Partial<Record<string, Lookup[]>>; seasons?: Season[] } = {}) {
  const lookups = { location: [lookup(1), lookup(2, { archived_at: "2026-01-01T00:00:00Z" })], category: [lookup(11, { kind: "backoffice" }), lookup(12, { kind: "frontoffice" })], accommodation_type: [], diet: [], level: [], ...extra.lookups };
  return indexOf({ settings: settings(), lookups: lookups as any, seasons: extra.seasons ?? [season(1)], products });
}
const paths = (errors: { path: string }[]) => errors.map((e) => e.path);

describe("productProblems", () => {
  it("finds nothing wrong with a product that keeps every rule", () => {
    const surf = product(1, { location_id: 1, backoffice_category_id: 11, frontoffice_category_id: 12, rates: [{ season_id: null, amount_minor: 5000, unit: "day", per: "person", min_qty: 1 } as any] });
    expect(productProblems(catalog([surf]), surf)).toEqual([]);
  });

  it("refuses min above max, a default below min, and durations outside min..max, each at its field", () => {
    const p = product(1, { pax_min: 5, pax_max: 2, duration: { unit: "day", default: 1, min: 3, max: 2, variants: [], is_flexible: false } as any });
    expect(paths(productProblems(catalog([p]), p))).toEqual(["pax", "duration.default", "duration.max"]);
    const v = product(2, { duration: { unit: "day", default: 7, min: 7, max: 14, variants: [7, 21], is_flexible: false } as any });
    expect(productProblems(catalog([v]), v)).toEqual([{ path: "duration.variants", message: "21 is outside min..max" }]);
  });

  it("refuses a timeslot scheduled twice on one day, and languages the business does not offer", () => {
    const p = product(1, { timeslots: [{ time: "09:00", capacity: null, days: null }, { time: "09:00", capacity: 4, days: ["sat"] }], translations: { fr: { title: "Surf" } } });
    expect(productProblems(catalog([p]), p)).toEqual([
      { path: "translations.fr", message: "fr is not one of the business's languages (en, de)" },
      { path: "timeslots.1", message: "09:00 on sat is scheduled twice" },
    ]);
  });

  it("refuses references to lookups that are archived, missing, or of the wrong kind; an archived product may keep them", () => {
    const p = product(1, { location_id: 2, backoffice_category_id: 12, frontoffice_category_id: 11, accommodation_type_id: 99 });
    expect(paths(productProblems(catalog([p]), p))).toEqual(["location_id", "accommodation_type_id", "backoffice_category_id", "frontoffice_category_id"]);
    const archived = { ...p, archived_at: "2026-01-01T00:00:00Z" };
    expect(productProblems(catalog([archived]), archived)).toEqual([]);
  });

  it("refuses two rates for one season and quantity, and a season that does not exist", () => {
    const rate = (season_id: number | null, min_qty = 1) => ({ season_id, amount_minor: 100, unit: "day", per: "person", min_qty }) as any;
    const p = product(1, { rates: [rate(null), rate(null, 10), rate(null), rate(7)] });
    expect(paths(productProblems(catalog([p]), p))).toEqual(["rates.2", "rates.3.season_id"]);
  });

  it("keeps rooms to accommodations, contents to packages, and no single room supplement on a private room", () => {
    const notRoom = product(1, { accommodation: { rooms: 1, beds_per_room: 1, is_private: true, gender: null, srs: null }, package: { groups: [], items: [], accommodation_ids: [] } });
    expect(paths(productProblems(catalog([notRoom]), notRoom))).toEqual(["accommodation", "package"]);
    const bare = room(2, { accommodation: null });
    expect(paths(productProblems(catalog([bare]), bare))).toEqual(["accommodation"]);
    const privateSrs = room(3, { accommodation: { rooms: 1, beds_per_room: 2, is_private: true, gender: null, srs: { charge_minor: 100, fixed: true } } });
    expect(paths(productProblems(catalog([privateSrs]), privateSrs))).toEqual(["accommodation.srs"]);
  });

  it("checks a package's rooms and items against the catalog as it would be", () => {
    const dorm = room(2);
    const oldRoom = room(3, { archived_at: "2026-01-01T00:00:00Z" });
    const lesson = product(4);
    const other = product(5, { type: "package", package: { groups: [], items: [], accommodation_ids: [] } });
    const week = product(1, {
      type: "package",
      package: {
        groups: [{ id: 1, name: "board", is_configurable_dates: false }, { id: 2, name: "board", is_configurable_dates: false }],
        accommodation_ids: [2, 2, 4, 3, 99],
        items: [item(1, 4), item(2, 5), item(3, 4, { role: "alternative" }), item(4, 4, { group: "meals" }), item(5, 4, { qty_min: 2, qty_max: 1 }), item(6, 4, { qty_default: 3, qty_max: 2 }), item(7, 98)],
      },
    });
    const idx = catalog([week, dorm, oldRoom, lesson, other]);
    expect(paths(productProblems(idx, week))).toEqual([
      "package.groups.1.name",
      "package.accommodation_ids.1",
      "package.accommodation_ids.2",
      "package.accommodation_ids.3",
      "package.accommodation_ids.4",
      "package.items.1.product_id",
      "package.items.2.group",
      "package.items.3.group",
      "package.items.4.qty",
      "package.items.5.qty",
      "package.items.6.product_id",
    ]);
  });

  it("names fields the caller's way", () => {
    const p = product(1, { pax_min: 3, pax_max: 1 });
    expect(paths(productProblems(catalog([p]), p, (f) => `products[ref=x].${f}`))).toEqual(["products[ref=x].pax"]);
  });
});

describe("what refers to what", () => {
  it("lists the live products that use a lookup, and the live packages that include a product", () => {
    const lesson = product(4, { location_id: 1, frontoffice_category_id: 12 });
    const gone = product(6, { location_id: 1, archived_at: "2026-01-01T00:00:00Z" });
    const week = product(1, { type: "package", package: { groups: [], items: [item(1, 4)], accommodation_ids: [2] } });
    const idx = catalog([lesson, gone, week, room(2)]);
    expect(lookupReferrers(idx, "location", 1).map((p) => p.id)).toEqual([4]);
    expect(lookupReferrers(idx, "category", 12).map((p) => p.id)).toEqual([4]);
    expect(lookupReferrers(idx, "location", 2)).toEqual([]);
    expect(productReferrers(idx, 4).map((p) => p.id)).toEqual([1]);
    expect(productReferrers(idx, 2).map((p) => p.id)).toEqual([1]);
    expect(productReferrers(idx, 1)).toEqual([]);
  });

  it("finds refs used twice", () => {
    const dup = duplicateRefs([{ id: 1, ref: "a" }, { id: 2, ref: "b" }, { id: 3, ref: "a" }, { id: 4, ref: null }, { id: 5, ref: null }]);
    expect([...dup.entries()].map(([k, v]) => [k, v.map((e) => e.id)])).toEqual([["a", [1, 3]]]);
  });
});

describe("seasonProblems and settingsProblems", () => {
  it("refuses a season segment that ends before it starts (a one-day segment is fine)", () => {
    expect(seasonProblems(season(1, [["2027-06-01", "2027-06-01"], ["2027-07-02", "2027-07-01"]]))).toEqual([{ path: "segments.1", message: "start_date must not be after end_date" }]);
  });

  it("finds nothing wrong with sound settings", () => {
    expect(settingsProblems(settings({ widget_origins: ["https://surfcamp.example", "http://localhost:8080"] }), false, null)).toEqual([]);
  });

  it("refuses a default language not offered, a language twice, and an origin with a path or trailing slash", () => {
    const s = settings({ languages: ["en", "en"], default_language: "pt", widget_origins: ["https://ok.example", "https://camp.example/", "https://camp.example/book"] });
    expect(paths(settingsProblems(s, false, null))).toEqual(["default_language", "languages", "widget_origins.1", "widget_origins.2"]);
  });

  it("wants exactly one default currency at rate 1, and keeps it while products have rates", () => {
    const eur = { id: 1, iso_code: "EUR", title: "Euro", symbol: "€", exchange_rate: 1, is_default: true };
    const usd = { id: 2, iso_code: "USD", title: "Dollar", symbol: "$", exchange_rate: 1, is_default: false };
    expect(paths(settingsProblems(settings({}, [eur, { ...usd, is_default: true }]), false, null))).toEqual(["currencies"]);
    expect(paths(settingsProblems(settings({}, [{ ...eur, exchange_rate: 1.1 }]), false, null))).toEqual(["currencies.0.exchange_rate"]);
    expect(paths(settingsProblems(settings({}, [eur, { ...eur, id: 3 }]), false, null))).toEqual(["currencies.1.iso_code", "currencies"]);
    const switched = settings({}, [{ ...eur, is_default: false, exchange_rate: 0.9 }, { ...usd, is_default: true }]);
    const before = settings();
    expect(settingsProblems(switched, true, before)).toEqual([{ path: "currencies", message: "the default currency stays EUR while products have rates (every rate is an amount in it)" }]);
    expect(settingsProblems(switched, false, before)).toEqual([]);
  });
});
