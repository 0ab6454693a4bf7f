/**
 * The catalog file (contract/catalog-file.ts): export a business's settings and whole catalog as
 * one document, and apply one. Applying plans the catalog the file describes against what is
 * stored and writes the difference through commit(), as the API's operations do: entries are
 * matched by ref (then by id), entries the file leaves out are archived (never deleted), and a
 * file applied twice changes nothing the second time.
 */
import { configFields, isWriteOnly, readConfig } from "../../contract/config";
import type { CatalogFile, FileProduct } from "../../contract/catalog-file";
import {
  applyProductInput,
  defaultCurrency,
  ID_TABLES,
  IdAllocator,
  LOOKUP_TABLE,
  productDefaults,
  productView,
  refOf,
  type CatalogState,
  type IdTable,
  type Lookup,
  type LookupKind,
  type ProductEntity,
  type Season,
  type SettingsEntity,
} from "../../domain/catalog-write";
import { emptyPlan, planEntity, planInventory, rowRanges, type Change, type InventoryRow } from "../../domain/catalog-plan";
import { duplicateRefs, indexOf, productProblems, seasonClashes, seasonProblems, settingsProblems } from "../../domain/catalog-rules";
import { catalogStateFrom, catalogStateStatements, existingIdsStatement, inventoryRowsFrom, inventoryRowsStatement, usageFrom, usageStatement } from "../../db/catalog-write";
import { ApiError, type FieldError } from "../../lib/errors";
import { dateRange, daysBetween, isoDate, isoDateTime } from "../../lib/time";
import { commit, type Actor, type Store } from "../core";
import { settingsCurrencies } from "../settings";
import { senderSettingProblem, sendingDomains } from "../../domain/email/sender";
import type { D1 } from "../../db/d1";

const LOOKUP_LISTS: [LookupKind, "locations" | "categories" | "accommodation_types" | "diets" | "levels"][] = [
  ["location", "locations"],
  ["category", "categories"],
  ["accommodation_type", "accommodation_types"],
  ["diet", "diets"],
  ["level", "levels"],
];

// ---- Export ----

/** The business's catalog file; `problems`: stored settings that do not parse (exported as their defaults). */
export async function exportCatalog(db: D1, businessId: number): Promise<{ file: CatalogFile; problems: { field: string; message: string }[] }> {
  const head = catalogStateStatements(db, businessId);
  const results = await db.batch([...head, inventoryRowsStatement(db, businessId, "all")]);
  const state = catalogStateFrom(results.slice(0, head.length));
  if (!state) throw new ApiError(404, "not_found", "The business does not exist.");
  const inventory = inventoryRowsFrom(results[head.length]);
  const { config: { turnstile_secret: _writeOnly, ...config }, problems } = readConfig(JSON.stringify(state.settings.config));
  const refs = refMaps(state);
  const currency = defaultCurrency(state.settings).iso_code;
  const file: CatalogFile = {
    version: 1,
    settings: {
      title: state.settings.title,
      company_name: state.settings.company_name,
      frontoffice_domain: state.settings.frontoffice_domain,
      currencies: state.settings.currencies.map((c) => ({ iso_code: c.iso_code, title: c.title, symbol: c.symbol, exchange_rate: c.exchange_rate, default: c.is_default })),
      ...config,
    },
    locations: state.lookups.location.map((l) => ({ id: l.id, ref: refOf("location", l), title: l.title, archived: l.archived_at !== null })),
    categories: state.lookups.category.map((l) => ({ id: l.id, ref: refOf("category", l), kind: l.kind ?? "backoffice", title: l.title, archived: l.archived_at !== null })),
    accommodation_types: state.lookups.accommodation_type.map((l) => ({ id: l.id, ref: refOf("accommodation_type", l), title: l.title, archived: l.archived_at !== null })),
    diets: state.lookups.diet.map((l) => ({ id: l.id, ref: refOf("diet", l), title: l.title, description: l.description ?? "", abbreviation: l.abbreviation ?? null, archived: l.archived_at !== null })),
    levels: state.lookups.level.map((l) => ({ id: l.id, ref: refOf("level", l), title: l.title, description: l.description ?? "", abbreviation: l.abbreviation ?? null, archived: l.archived_at !== null })),
    seasons: state.seasons.map((s) => ({ id: s.id, ref: refOf("season", s), title: s.title, priority: s.priority, segments: s.segments.map((g) => ({ id: g.id, start_date: g.start_date, end_date: g.end_date })), archived: s.archived_at !== null })),
    products: state.products.map((p): FileProduct => {
      const rows = inventory.get(p.id) ?? [];
      const r = (kind: LookupKind, id: number | null) => (id === null ? null : (refs[kind].get(id) ?? null));
      // The product as the API shows it (productView lists its fields once), with every id that
      // points at another entry replaced by that entry's ref, and what only the API shows left out.
      const view = productView(p, currency);
      const {
        location_id, backoffice_category_id, frontoffice_category_id, accommodation_type_id,
        listed: _listed, archived: _archived, archived_at: _archivedAt, capacity, rates, package: pkg, payment_policy, ...same
      } = view;
      return {
        ...same,
        // a product's own payment policy only where it has one (a file of a business without any stays as it was)
        ...(payment_policy ? { payment_policy } : {}),
        location: r("location", location_id),
        backoffice_category: r("category", backoffice_category_id),
        frontoffice_category: r("category", frontoffice_category_id),
        accommodation_type: r("accommodation_type", accommodation_type_id),
        ...(p.type === "accommodation" ? {} : { capacity }),
        rates: rates.map(({ season_id, ...rate }) => ({ season: season_id === null ? null : (refs.season.get(season_id) ?? null), ...rate })),
        package: pkg && {
          accommodations: pkg.accommodation_ids.map((id) => refs.product.get(id)!).filter(Boolean),
          groups: pkg.groups,
          items: pkg.items.map(({ product_id, ...item }) => ({ ...item, product: refs.product.get(product_id)! })),
        },
        inventory: rowRanges(rows.filter((x) => x.override)).map(({ from, to, slot, capacity }) => ({ from, to, ...(slot ? { slot } : {}), capacity })),
        blocked: rowRanges(rows.filter((x) => x.blocked).map((x) => ({ ...x, capacity: 0, override: false }))).map(({ from, to, slot }) => ({ from, to, ...(slot ? { slot } : {}) })),
        archived: p.archived_at !== null,
      };
    }),
  };
  return { file, problems };
}

function refMaps(state: Pick<CatalogState, "lookups" | "seasons" | "products">) {
  const of = <T extends { id: number; ref: string | null }>(kind: string, list: T[]) => new Map(list.map((e) => [e.id, refOf(kind, e)]));
  return {
    ...(Object.fromEntries(LOOKUP_LISTS.map(([kind]) => [kind, of(kind, state.lookups[kind])])) as Record<LookupKind, Map<number, string>>),
    season: of("season", state.seasons),
    product: of("product", state.products),
  };
}

// ---- Apply ----

export interface ApplyResult {
  changes: Change[];
  applied: boolean;
}

/** A file field's name for an internal product field (the file names references by ref). */
function fileField(field: string): string {
  return field
    .replace(/^location_id/, "location")
    .replace(/^backoffice_category_id/, "backoffice_category")
    .replace(/^frontoffice_category_id/, "frontoffice_category")
    .replace(/^accommodation_type_id/, "accommodation_type")
    .replace(/^rates\.(\d+)\.season_id/, "rates.$1.season")
    .replace(/^package\.accommodation_ids/, "package.accommodations")
    .replace(/^package\.items\.(\d+)\.product_id/, "package.items.$1.product");
}

/** Apply a (parsed) catalog file to the business; `dryRun` plans and checks without writing. */
export async function applyCatalog(store: Store, actor: Actor, businessId: number, file: CatalogFile, now: Date, options: { dryRun?: boolean } = {}): Promise<ApplyResult> {
  const db = store.DB;
  const { plan } = await commit(
    store,
    actor,
    businessId,
    now,
    (state, reads) => {
      const used = Object.fromEntries(ID_TABLES.map((t, i) => [t, new Set((reads[i].results as { id: number }[]).map((r) => r.id))])) as Record<IdTable, Set<number>>;
      const current = inventoryRowsFrom(reads[ID_TABLES.length]);
      const usage = usageFrom(reads[ID_TABLES.length + 1]);
      const desired = desiredState(state, file, new IdAllocator(state.maxIds, used), now, sendingDomains(store.EMAIL_SENDING_DOMAINS));
      const plan = emptyPlan();
      planEntity(plan, state, "settings", state.settings, desired.settings);
      for (const [kind] of LOOKUP_LISTS) {
        for (const after of desired.lookups[kind]) planEntity(plan, state, kind, state.lookups[kind].find((l) => l.id === after.id) ?? null, after);
      }
      for (const after of desired.seasons) planEntity(plan, state, "season", state.seasons.find((s) => s.id === after.id) ?? null, after);
      for (const after of desired.products) planEntity(plan, state, "product", state.products.find((p) => p.id === after.id) ?? null, after);
      for (const [id, rows] of desired.inventory) planInventory(plan, desired.products.find((p) => p.id === id)!, current.get(id) ?? [], rows);
      return { plan, result: null, capacity: { inventory: current, usage } };
    },
    {
      ...options,
      // In the state's round trip: which of the file's ids are taken, the business's inventory, and what is held and booked from today on.
      reads: (db) => {
        const wanted = fileIds(file);
        return [...ID_TABLES.map((t) => existingIdsStatement(db, t, wanted[t])), inventoryRowsStatement(db, businessId, "all"), usageStatement(db, businessId, "all", isoDate(new Date(now.getTime() - 86_400_000)), "9999-12-31", now)];
      },
    },
  );
  return { changes: plan.changes, applied: !options.dryRun && plan.changes.length > 0 };
}

function fileIds(file: CatalogFile): Record<IdTable, number[]> {
  const ids = Object.fromEntries(ID_TABLES.map((t) => [t, [] as number[]])) as Record<IdTable, number[]>;
  const add = (t: IdTable, id: number | undefined) => id !== undefined && ids[t].push(id);
  for (const [kind, list] of LOOKUP_LISTS) for (const e of file[list]) add(LOOKUP_TABLE[kind], e.id);
  for (const s of file.seasons) {
    add("seasons", s.id);
    for (const g of s.segments) add("season_segments", g.id);
  }
  for (const p of file.products) {
    add("products", p.id);
    for (const i of p.package?.items ?? []) add("package_items", i.id);
  }
  return ids;
}

interface Desired {
  settings: SettingsEntity;
  lookups: Record<LookupKind, Lookup[]>;
  seasons: Season[];
  products: ProductEntity[];
  /** Inventory rows of the file's products, as they should be. */
  inventory: Map<number, InventoryRow[]>;
}

/**
 * The entities a file entry is matched with: the stored one with its ref; else the stored one of
 * this business with its id; else a new one (with the entry's id when no row anywhere has it).
 */
function matcher<T extends { id: number; ref: string | null }>(kind: string, stored: T[], table: IdTable, ids: IdAllocator) {
  const byRef = new Map(stored.map((e) => [refOf(kind, e), e]));
  const byId = new Map(stored.map((e) => [e.id, e]));
  const matched = new Set<number>();
  return {
    match(entry: { id?: number; ref: string }): { id: number; before: T | null; ref: string | null } {
      let before = byRef.get(entry.ref) ?? null;
      if (before && matched.has(before.id)) before = null;
      if (!before && entry.id !== undefined) {
        const e = byId.get(entry.id);
        if (e && !matched.has(e.id) && !byRef.has(entry.ref)) before = e;
      }
      if (before) matched.add(before.id);
      // A stored entry without a ref is exported as <kind>-<id>: applying that keeps it without one.
      const ref = before && before.ref === null && entry.ref === refOf(kind, before) ? null : entry.ref;
      return { id: before?.id ?? ids.claim(table, entry.id), before, ref };
    },
    /** Stored entries no entry matched: archived. */
    rest: () => stored.filter((e) => !matched.has(e.id)),
  };
}

const archivedAt = (flag: boolean, before: { archived_at: string | null } | null, now: Date) => (flag ? (before?.archived_at ?? isoDateTime(now)) : null);

function desiredState(state: CatalogState, file: CatalogFile, ids: IdAllocator, now: Date, domains: string[]): Desired {
  const errors: FieldError[] = [];
  const err = (path: string, message: string) => errors.push({ path, message });

  // Settings: the file's are the whole settings (a field it leaves out takes its default).
  const { title, company_name, frontoffice_domain, currencies, ...config } = file.settings;
  const settings: SettingsEntity = {
    title,
    company_name,
    frontoffice_domain,
    // A write-only setting is never in the file: the stored one stays.
    config: Object.fromEntries(configFields().map((f) => [f, isWriteOnly(f) ? state.settings.config[f] : (config as Record<string, unknown>)[f]])),
    currencies: settingsCurrencies(state.settings.currencies, currencies, ids, errors, "settings."),
  };

  const lookups = {} as Record<LookupKind, Lookup[]>;
  const refIds = {} as Record<LookupKind | "season" | "product", Map<string, number>>;
  for (const [kind, list] of LOOKUP_LISTS) {
    const m = matcher(kind, state.lookups[kind], LOOKUP_TABLE[kind], ids);
    const entries = file[list] as (CatalogFile["diets"][number] & { kind?: "backoffice" | "frontoffice" })[];
    refIds[kind] = new Map();
    lookups[kind] = entries.map((e, i) => {
      if (refIds[kind].has(e.ref)) err(`${list}.${i}.ref`, `${e.ref} is used by two entries`);
      const { id, before, ref } = m.match(e);
      refIds[kind].set(e.ref, id);
      const l: Lookup = { id, ref, title: e.title, archived_at: archivedAt(e.archived, before, now) };
      if (kind === "category") l.kind = e.kind;
      if (kind === "diet" || kind === "level") Object.assign(l, { description: e.description, abbreviation: e.abbreviation });
      return l;
    });
    lookups[kind].push(...m.rest().map((l) => ({ ...l, archived_at: l.archived_at ?? isoDateTime(now) })));
  }

  const seasonMatch = matcher("season", state.seasons, "seasons", ids);
  refIds.season = new Map();
  const seasons: Season[] = file.seasons.map((s, i) => {
    if (refIds.season.has(s.ref)) err(`seasons.${i}.ref`, `${s.ref} is used by two entries`);
    const { id, before, ref } = seasonMatch.match(s);
    refIds.season.set(s.ref, id);
    const own = new Map((before?.segments ?? []).map((g) => [`${g.start_date}|${g.end_date}`, g.id]));
    const ownIds = new Set((before?.segments ?? []).map((g) => g.id));
    const segments = s.segments
      .map((g) => ({ id: g.id !== undefined && ownIds.has(g.id) ? g.id : (own.get(`${g.start_date}|${g.end_date}`) ?? ids.claim("season_segments", g.id)), start_date: g.start_date, end_date: g.end_date }))
      .sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id));
    const season: Season = { id, ref, title: s.title, priority: s.priority, archived_at: archivedAt(s.archived, before, now), segments };
    errors.push(...seasonProblems(season, (f) => `seasons.${i}.${f}`));
    return season;
  });
  // Each season of the file against those before it: a name or a date of equal priority shared is named once.
  seasons.forEach((season, i) => errors.push(...seasonClashes(season, seasons.slice(0, i), (f) => `seasons.${i}.${f}`)));
  seasons.push(...seasonMatch.rest().map((s) => ({ ...s, archived_at: s.archived_at ?? isoDateTime(now) })));

  // Products: every id first, so packages can name products that come after them in the file.
  const productMatch = matcher("product", state.products, "products", ids);
  refIds.product = new Map();
  const matches = file.products.map((p, i) => {
    if (refIds.product.has(p.ref)) err(`products.${i}.ref`, `${p.ref} is used by two entries`);
    const m = productMatch.match(p);
    refIds.product.set(p.ref, m.id);
    return m;
  });
  const resolve = (path: string, kind: LookupKind | "season" | "product", ref: string | null): number | null => {
    if (ref === null) return null;
    const id = refIds[kind].get(ref);
    if (id === undefined) err(path, `no ${kind.replace("_", " ")} ${JSON.stringify(ref)} in this file`);
    return id ?? null;
  };
  const currency = (settings.currencies.find((c) => c.is_default) ?? settings.currencies[0])?.iso_code ?? "EUR";
  const inventory = new Map<number, InventoryRow[]>();
  const products: ProductEntity[] = file.products.map((p, i) => {
    const at = `products.${i}`;
    const { id, before, ref } = matches[i];
    if (before && before.type !== p.type) err(`${at}.type`, `${p.ref} is a ${before.type}; a product's type cannot change (give the new one another ref)`);
    const base = productDefaults(id, p.type, p.title);
    if (before?.package) base.package = structuredClone(before.package);
    const oldItems = new Map((before?.package?.items ?? []).map((x) => [x.id, x]));
    const pkg = p.package ?? (p.type === "package" ? { accommodations: [], groups: [], items: [] } : null);
    const { product, errors: inputErrors } = applyProductInput(
      base,
      {
        ref: ref ?? undefined,
        title: p.title,
        backoffice_title: p.backoffice_title ?? p.title,
        description: p.description ?? "",
        extended_description: p.extended_description ?? "",
        translations: p.translations ?? {},
        image: p.image ?? { small: "", medium: "", large: "" },
        is_promoted: p.is_promoted ?? false,
        location_id: resolve(`${at}.location`, "location", p.location),
        backoffice_category_id: resolve(`${at}.backoffice_category`, "category", p.backoffice_category),
        frontoffice_category_id: resolve(`${at}.frontoffice_category`, "category", p.frontoffice_category),
        accommodation_type_id: resolve(`${at}.accommodation_type`, "accommodation_type", p.accommodation_type),
        duration: p.duration ?? { unit: "day", default: 1, max: null, is_flexible: false, variants: [] },
        pax: p.pax ?? { min: 1, max: 1 },
        allowed_checkin_days: p.allowed_checkin_days ?? { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true },
        default_start_time: p.default_start_time ?? null,
        ...(p.type === "accommodation" ? {} : { capacity: p.capacity ?? null }),
        timeslots: p.timeslots ?? [],
        accommodation: p.accommodation ?? null,
        payment_policy: p.payment_policy ?? null,
        rates: p.rates.map((r, k) => ({ ...r, season_id: resolve(`${at}.rates.${k}.season`, "season", r.season) })),
        package: pkg && {
          accommodation_ids: pkg.accommodations.map((a, k) => resolve(`${at}.package.accommodations.${k}`, "product", a) ?? 0),
          groups: pkg.groups,
          items: pkg.items.map((item, k) => {
            const productId = resolve(`${at}.package.items.${k}.product`, "product", item.product) ?? 0;
            // An item keeps its id (carts and bookings name it): the one it names, else the package's item of the same product and role.
            const same = item.id !== undefined && oldItems.has(item.id) ? item.id : [...oldItems.values()].find((x) => x.product_id === productId && x.role === item.role)?.id;
            if (same !== undefined) oldItems.delete(same);
            return { ...item, product_id: productId, id: same ?? ids.claim("package_items", item.id) };
          }),
        },
      },
      currency,
      (t) => ids.take(t),
      { newItemIds: true },
    );
    errors.push(...inputErrors.map((e) => ({ ...e, path: `${at}.${fileField(e.path)}` })));
    if (p.type === "accommodation" && p.capacity !== undefined) err(`${at}.capacity`, "an accommodation's capacity is its rooms and beds; leave it out");
    product.archived_at = archivedAt(p.archived, before, now);
    inventory.set(id, inventoryRows(p, `${at}`, err));
    return product;
  });
  products.push(...productMatch.rest().map((p) => ({ ...p, archived_at: p.archived_at ?? isoDateTime(now) })));

  const desired = { settings, lookups, seasons, products, inventory };
  const idx = indexOf(desired);
  errors.push(...settingsProblems(settings, products.some((p) => p.rates.length > 0), state.settings, (f) => `settings.${f}`));
  const sender = senderSettingProblem(settings.config, state.settings.config, domains);
  if (sender) err("settings.email_from", sender);
  products.forEach((p, i) => {
    if (i < file.products.length) errors.push(...productProblems(idx, p, (f) => `products.${i}.${fileField(f)}`));
  });
  for (const [kind, list] of LOOKUP_LISTS) {
    for (const [ref] of duplicateRefs(lookups[kind])) if (!errors.some((e) => e.path.startsWith(list))) err(list, `the ref ${ref} is taken by an entry the file leaves out (archived); give one of them another ref`);
  }
  if (errors.length) {
    const shown = errors.slice(0, 100);
    throw new ApiError(422, "validation_failed", `The catalog file is invalid: ${shown.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors: shown });
  }
  return desired;
}

/** A file product's inventory and blocked ranges as rows (one per date and slot). */
function inventoryRows(p: FileProduct, at: string, err: (path: string, message: string) => void): InventoryRow[] {
  const rows = new Map<string, InventoryRow>();
  const each = <R extends { from: string; to: string; slot?: string }>(list: R[], name: string, fn: (date: string, slot: string, range: R) => void) =>
    list.forEach((r, k) => {
      if (r.to < r.from) return err(`${at}.${name}.${k}.to`, "must not be before from");
      if (daysBetween(r.from, r.to) > 731) return err(`${at}.${name}.${k}.to`, "at most 731 days after from (split longer ranges)");
      for (const date of dateRange(r.from, r.to)) fn(date, r.slot ?? "", r);
    });
  each(p.inventory, "inventory", (date, slot, r) => {
    rows.set(`${date}|${slot}`, { date, slot, capacity: r.capacity, blocked: false, override: true });
  });
  each(p.blocked, "blocked", (date, slot) => {
    const row = rows.get(`${date}|${slot}`);
    rows.set(`${date}|${slot}`, row ? { ...row, blocked: true } : { date, slot, capacity: 0, blocked: true, override: false });
  });
  return [...rows.values()];
}

