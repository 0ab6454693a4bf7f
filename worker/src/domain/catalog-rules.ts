/**
 * The rules an administered catalog keeps, pure. Each takes the catalog as it would be after the
 * change (so a file may refer to entries it creates itself) and answers field errors; callers name
 * the fields their own way (the API by id fields, the catalog file by refs).
 */
import { readConfig } from "../contract/config";
import type { FieldError } from "../lib/errors";
import type { CatalogState, Lookup, LookupKind, ProductEntity, Season, SettingsEntity } from "./catalog-write";

/** The catalog by id, as it would be after a change. */
export interface CatalogIndex {
  settings: SettingsEntity;
  lookups: Record<LookupKind, Map<number, Lookup>>;
  seasons: Map<number, Season>;
  products: Map<number, ProductEntity>;
}

export function indexOf(state: Pick<CatalogState, "settings" | "lookups" | "seasons" | "products">): CatalogIndex {
  return {
    settings: state.settings,
    lookups: Object.fromEntries(Object.entries(state.lookups).map(([k, list]) => [k, new Map(list.map((l) => [l.id, l]))])) as CatalogIndex["lookups"],
    seasons: new Map(state.seasons.map((s) => [s.id, s])),
    products: new Map(state.products.map((p) => [p.id, p])),
  };
}

/** How a caller names a product's fields: the internal name ("location_id", "rates.0.season_id", ...) to its own path. */
export type FieldNamer = (field: string) => string;

const live = <T extends { archived_at: string | null }>(x: T | undefined): x is T => x !== undefined && x.archived_at === null;

const titleOf = (p: ProductEntity) => `${p.title} (${p.id})`;

/** Everything wrong with one product of the catalog. */
export function productProblems(idx: CatalogIndex, p: ProductEntity, name: FieldNamer = (f) => f): FieldError[] {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ path: name(field), message });
  const languages = readConfig(JSON.stringify(idx.settings.config)).config.languages;

  for (const lang of Object.keys(p.translations)) {
    if (!languages.includes(lang)) err(`translations.${lang}`, `${lang} is not one of the business's languages (${languages.join(", ")})`);
  }
  if (p.pax_min > p.pax_max) err("pax", "min must not be above max");
  const d = p.duration;
  if (d.variants.length === 0 && d.default < d.min) err("duration.default", "must not be below min");
  if (d.max !== null && (d.max < d.min || d.max < d.default)) err("duration.max", "must not be below min or default");
  for (const v of d.variants) {
    if (v < d.min || (d.max !== null && v > d.max)) err("duration.variants", `${v} is outside min..max`);
  }
  const seen = new Set<string>();
  p.timeslots.forEach((t, i) => {
    for (const day of t.days ?? ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]) {
      const key = `${t.time}|${day}`;
      if (seen.has(key)) err(`timeslots.${i}`, `${t.time} on ${day} is scheduled twice`);
      seen.add(key);
    }
  });

  if (p.type === "accommodation") {
    if (!p.accommodation) err("accommodation", "an accommodation needs rooms, beds_per_room and is_private");
    else if (p.accommodation.is_private && p.accommodation.srs) err("accommodation.srs", "a private room type has no single room supplement (it is booked whole anyway)");
  } else if (p.accommodation) err("accommodation", `only accommodations have rooms and beds; this is a ${p.type}`);
  if (p.type !== "package" && p.package) err("package", `only packages have contents; this is a ${p.type}`);

  if (p.archived_at === null) {
    const ref = (field: string, kind: LookupKind, id: number | null, what: string, check?: (l: Lookup) => string | null) => {
      if (id === null) return;
      const l = idx.lookups[kind].get(id);
      if (!l) return err(field, `no ${what} ${id} in this business`);
      if (l.archived_at !== null) return err(field, `${what} ${id} (${l.title}) is archived`);
      const problem = check?.(l);
      if (problem) err(field, problem);
    };
    ref("location_id", "location", p.location_id, "location");
    ref("accommodation_type_id", "accommodation_type", p.accommodation_type_id, "accommodation type");
    ref("backoffice_category_id", "category", p.backoffice_category_id, "category", (l) => (l.kind !== "backoffice" ? `category ${l.id} (${l.title}) is a front-office category` : null));
    ref("frontoffice_category_id", "category", p.frontoffice_category_id, "category", (l) => (l.kind !== "frontoffice" ? `category ${l.id} (${l.title}) is a back-office category` : null));
  }

  const tiers = new Set<string>();
  p.rates.forEach((r, i) => {
    if (r.season_id !== null && !idx.seasons.has(r.season_id)) err(`rates.${i}.season_id`, `no season ${r.season_id} in this business`);
    const key = `${r.season_id}|${r.min_qty}`;
    if (tiers.has(key)) err(`rates.${i}`, `a second rate for the same season and min_qty (${r.season_id === null ? "base" : `season ${r.season_id}`}, from ${r.min_qty})`);
    tiers.add(key);
  });

  if (p.package) {
    const groups = new Set<string>();
    p.package.groups.forEach((g, i) => {
      if (groups.has(g.name)) err(`package.groups.${i}.name`, `the group ${g.name} is named twice`);
      groups.add(g.name);
    });
    const accs = new Set<number>();
    p.package.accommodation_ids.forEach((id, i) => {
      const a = idx.products.get(id);
      if (accs.has(id)) err(`package.accommodation_ids.${i}`, `${id} is listed twice`);
      accs.add(id);
      if (!a) err(`package.accommodation_ids.${i}`, `no product ${id} in this business`);
      else if (a.type !== "accommodation") err(`package.accommodation_ids.${i}`, `${titleOf(a)} is a ${a.type}, not an accommodation`);
      else if (p.archived_at === null && a.archived_at !== null) err(`package.accommodation_ids.${i}`, `${titleOf(a)} is archived`);
    });
    p.package.items.forEach((it, i) => {
      const q = idx.products.get(it.product_id);
      if (!q) err(`package.items.${i}.product_id`, `no product ${it.product_id} in this business`);
      else if (q.type === "package") err(`package.items.${i}.product_id`, `${titleOf(q)} is a package; a package's items are other products`);
      else if (p.archived_at === null && q.archived_at !== null) err(`package.items.${i}.product_id`, `${titleOf(q)} is archived`);
      if (it.group !== null && !groups.has(it.group)) err(`package.items.${i}.group`, `no group named ${it.group} in this package's groups`);
      if (it.role === "alternative" && it.group === null) err(`package.items.${i}.group`, "an alternative belongs to a group (the alternatives of one another)");
      if (it.qty_min > it.qty_max) err(`package.items.${i}.qty`, "min must not be above max");
      else if (it.qty_default < it.qty_min || it.qty_default > it.qty_max) err(`package.items.${i}.qty`, "default must be within min..max");
    });
  }
  return errors;
}

/** Live products that refer to a lookup (archiving it would break them). */
export function lookupReferrers(idx: CatalogIndex, kind: LookupKind, id: number): ProductEntity[] {
  const field = { location: ["location_id"], category: ["backoffice_category_id", "frontoffice_category_id"], accommodation_type: ["accommodation_type_id"], diet: [], level: [] }[kind] as (keyof ProductEntity)[];
  return [...idx.products.values()].filter((p) => live(p) && field.some((f) => p[f] === id));
}

/** Live packages that include a product (as an item or a room type). */
export function productReferrers(idx: CatalogIndex, id: number): ProductEntity[] {
  return [...idx.products.values()].filter((p) => live(p) && p.package && (p.package.accommodation_ids.includes(id) || p.package.items.some((i) => i.product_id === id)));
}

/** Refs used twice among entities of one kind. */
export function duplicateRefs<T extends { id: number; ref: string | null }>(list: T[]): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const e of list) if (e.ref !== null) by.set(e.ref, [...(by.get(e.ref) ?? []), e]);
  return new Map([...by].filter(([, v]) => v.length > 1));
}

export function seasonProblems(s: Season, name: FieldNamer = (f) => f): FieldError[] {
  const errors: FieldError[] = [];
  s.segments.forEach((g, i) => {
    if (g.start_date > g.end_date) errors.push({ path: name(`segments.${i}`), message: "start_date must not be after end_date" });
  });
  return errors;
}

/** A season's name as two names are compared: case and spacing do not make another name. */
const seasonName = (title: string) => title.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * What a season may not share with the business's other seasons (archived ones aside, which set
 * no price): its name (the Prices grid and the widget show seasons by name), and a date with a
 * season of the same priority, where neither would win and one price would be silently ignored.
 */
export function seasonClashes(s: Season, others: Season[], name: FieldNamer = (f) => f): FieldError[] {
  if (s.archived_at !== null) return [];
  const errors: FieldError[] = [];
  const live = others.filter((o) => o.id !== s.id && o.archived_at === null);
  const twin = live.find((o) => seasonName(o.title) === seasonName(s.title));
  if (twin) errors.push({ path: name("title"), message: `another season is named "${twin.title}": give each season its own name` });
  s.segments.forEach((g, i) => {
    for (const o of live) {
      if (o.priority !== s.priority) continue;
      const shared = o.segments.find((h) => h.start_date <= g.end_date && g.start_date <= h.end_date);
      if (!shared) continue;
      const date = shared.start_date > g.start_date ? shared.start_date : g.start_date;
      errors.push({
        path: name(`segments.${i}`),
        message: `"${s.title}" and "${o.title}" both have priority ${s.priority} and share ${date}, so neither price would win: give one a higher priority, or change the dates`,
      });
      return;
    }
  });
  return errors;
}

const ORIGIN = /^https?:\/\/[^/?#\s]+$/;

/** Everything wrong with a business's settings as a whole (each field's own shape is zod's). */
export function settingsProblems(s: SettingsEntity, hasRates: boolean, before: SettingsEntity | null, name: FieldNamer = (f) => f): FieldError[] {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ path: name(field), message });
  const { config, problems } = readConfig(JSON.stringify(s.config));
  for (const p of problems) err(p.field, p.message);
  if (!config.languages.includes(config.default_language)) err("default_language", `must be one of languages (${config.languages.join(", ")})`);
  if (new Set(config.languages).size !== config.languages.length) err("languages", "a language is listed twice");
  for (const lang of Object.keys(config.terms_translations)) {
    if (!config.languages.includes(lang)) err(`terms_translations.${lang}`, `${lang} is not one of languages`);
  }
  config.widget_origins.forEach((o, i) => {
    let ok = ORIGIN.test(o);
    try {
      ok &&= new URL(o).origin === o;
    } catch {
      ok = false;
    }
    if (!ok) err(`widget_origins.${i}`, `${JSON.stringify(o)} is not an origin: scheme://host[:port], lower case, no path or trailing slash (e.g. https://surfcamp.example)`);
  });
  if (config.turnstile_site_key && !config.turnstile_secret) err("turnstile_secret", "set the Turnstile secret with the site key: without it no token can be verified, and every widget checkout would be refused");
  const keys = new Set<string>();
  config.custom_fields.forEach((f, i) => {
    if (keys.has(f.key)) err(`custom_fields.${i}.key`, `${f.key} is used twice`);
    keys.add(f.key);
    if (f.type === "select" && f.options.length === 0) err(`custom_fields.${i}.options`, "a select field needs options");
    if (new Set(f.options).size !== f.options.length) err(`custom_fields.${i}.options`, "an option is listed twice");
    for (const [lang, t] of Object.entries(f.translations)) {
      if (!config.languages.includes(lang)) err(`custom_fields.${i}.translations.${lang}`, `${lang} is not one of languages`);
      if (t.options && t.options.length !== f.options.length) {
        err(`custom_fields.${i}.translations.${lang}.options`, `must name as many options as options (${f.options.length}), in the same order`);
      }
    }
  });
  const codes = new Set<string>();
  s.currencies.forEach((c, i) => {
    if (codes.has(c.iso_code)) err(`currencies.${i}.iso_code`, `${c.iso_code} is listed twice`);
    codes.add(c.iso_code);
  });
  const defaults = s.currencies.filter((c) => c.is_default);
  if (defaults.length !== 1) err("currencies", "exactly one currency is the default");
  else if (defaults[0].exchange_rate !== 1) err(`currencies.${s.currencies.indexOf(defaults[0])}.exchange_rate`, "the default currency's exchange rate is 1");
  const was = before?.currencies.find((c) => c.is_default)?.iso_code;
  if (hasRates && was && defaults.length === 1 && defaults[0].iso_code !== was) {
    err("currencies", `the default currency stays ${was} while products have rates (every rate is an amount in it)`);
  }
  return errors;
}
