/**
 * The catalog as its administration sees it, pure: every entity of a business as stored (archived
 * ones too), how an owner's input becomes an entity, and how an entity is shown. The planner
 * (catalog-plan.ts) compares two such states; db/catalog-write.ts reads and writes them.
 */
import type { AdminLookup, AdminProduct, AdminSeason, LookupKind, PackageInput, ProductCreate, ProductPatch } from "../contract/catalog-write";
import type { ProductPaymentPolicy } from "../contract/payment-policy";
import type { FieldError } from "../lib/errors";
import type { Weekday } from "../lib/time";
import { minorDigits, toMajor } from "./money";
import type { RatePer, RateUnit } from "./pricing";
import type { ProductType, Weekdays } from "./product";

export type { LookupKind };

export interface Lookup {
  id: number;
  ref: string | null;
  title: string;
  archived_at: string | null;
  /** Categories: backoffice or frontoffice. */
  kind?: "backoffice" | "frontoffice";
  /** Diets and levels. */
  description?: string;
  abbreviation?: string | null;
}

export interface Segment {
  id: number;
  start_date: string;
  end_date: string;
}
export interface Season {
  id: number;
  ref: string | null;
  title: string;
  priority: number;
  archived_at: string | null;
  segments: Segment[];
}

export interface RateEntity {
  season_id: number | null;
  amount_minor: number;
  unit: RateUnit;
  per: RatePer;
  min_qty: number;
}
export interface GroupEntity {
  id: number;
  name: string;
  is_configurable_dates: boolean;
}
export interface ItemEntity {
  id: number;
  product_id: number;
  group: string | null;
  role: "default" | "option" | "alternative" | "upgrade";
  qty_min: number;
  qty_max: number;
  qty_default: number;
  is_configurable_dates: boolean;
  sort: number;
}
export interface PackageEntity {
  groups: GroupEntity[];
  items: ItemEntity[];
  accommodation_ids: number[];
}
export interface TimeslotEntity {
  time: string;
  capacity: number | null;
  days: Weekday[] | null;
}
export interface AccommodationEntity {
  rooms: number;
  beds_per_room: number;
  is_private: boolean;
  gender: "male" | "female" | "mixed" | null;
  srs: { charge_minor: number; fixed: boolean } | null;
}
export interface DurationEntity {
  unit: "day" | "hour";
  default: number;
  min: number;
  max: number | null;
  is_flexible: boolean;
  variants: number[];
}

export interface ProductEntity {
  id: number;
  ref: string | null;
  archived_at: string | null;
  type: ProductType;
  title: string;
  backoffice_title: string;
  description: string;
  extended_description: string;
  translations: Record<string, Partial<Record<"title" | "description" | "extended_description", string>>>;
  image: { small: string; medium: string; large: string };
  location_id: number | null;
  backoffice_category_id: number | null;
  frontoffice_category_id: number | null;
  is_promoted: boolean;
  accommodation_type_id: number | null;
  duration: DurationEntity;
  pax_min: number;
  pax_max: number;
  allowed_checkin_days: Weekdays;
  default_start_time: string | null;
  /** default_capacity: for accommodations, rooms (private) or rooms x beds (shared). */
  capacity: number | null;
  timeslots: TimeslotEntity[];
  accommodation: AccommodationEntity | null;
  rates: RateEntity[];
  package: PackageEntity | null;
  /** Its own deposit and balance due days (issue 31); null: as the business's payment policy. */
  payment_policy: ProductPaymentPolicy | null;
}

export interface CurrencyEntity {
  id: number;
  iso_code: string;
  title: string;
  symbol: string;
  exchange_rate: number;
  is_default: boolean;
}
export interface SettingsEntity {
  title: string;
  company_name: string;
  frontoffice_domain: string;
  /** The configuration as stored (a JSON object), valid or not. */
  config: Record<string, unknown>;
  currencies: CurrencyEntity[];
}

/** Tables whose ids the service hands out (INTEGER PRIMARY KEYs shared by every business). */
export const ID_TABLES = ["products", "locations", "categories", "accommodation_types", "diets", "levels", "seasons", "season_segments", "package_items", "package_groups", "currencies"] as const;
export type IdTable = (typeof ID_TABLES)[number];

export const LOOKUP_TABLE: Record<LookupKind, IdTable> = {
  location: "locations",
  category: "categories",
  accommodation_type: "accommodation_types",
  diet: "diets",
  level: "levels",
};

/** A business's whole administered catalog, archived entities included (not inventory). */
export interface CatalogState {
  businessId: number;
  slug: string;
  /** catalog_version as text (exact): a change is written only if it is still this. */
  version: string;
  settings: SettingsEntity;
  lookups: Record<LookupKind, Lookup[]>;
  seasons: Season[];
  products: ProductEntity[];
  /** The highest id of each table, in every business (new ids follow it). */
  maxIds: Record<IdTable, number>;
}

/**
 * Hands out ids of new rows: after the highest in the database (`take`), or one asked for (a
 * catalog file's entry carries the id it had where it was exported) when no row anywhere has it
 * (`claim`; `used` lists which of the asked-for ids exist). A batch whose id was taken meanwhile
 * by someone else fails on the primary key and is planned again.
 */
export class IdAllocator {
  private readonly next: Record<string, number>;
  private readonly handed = new Map<string, Set<number>>();
  constructor(
    maxIds: Record<IdTable, number>,
    private readonly used: Partial<Record<IdTable, Set<number>>> = {},
  ) {
    this.next = Object.fromEntries(ID_TABLES.map((t) => [t, (maxIds[t] ?? 0) + 1]));
    for (const t of ID_TABLES) this.handed.set(t, new Set());
  }
  take(table: IdTable): number {
    const handed = this.handed.get(table)!;
    let id = this.next[table];
    while (handed.has(id)) id++;
    this.next[table] = id + 1;
    handed.add(id);
    return id;
  }
  claim(table: IdTable, wanted: number | undefined): number {
    const handed = this.handed.get(table)!;
    if (wanted !== undefined && !handed.has(wanted) && !(this.used[table]?.has(wanted) ?? true)) {
      handed.add(wanted);
      return wanted;
    }
    return this.take(table);
  }
}

// ---- Money ----

/** Major units to minor units of the currency; null when the amount has more decimals than it allows. */
export function toMinor(amount: number, iso: string): number | null {
  const digits = minorDigits(iso);
  const scaled = amount * 10 ** digits;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : null;
}

export const defaultCurrency = (s: SettingsEntity): CurrencyEntity => s.currencies.find((c) => c.is_default) ?? s.currencies[0];

// ---- Refs ----

/** A ref made from a title: lower case, hyphens, at most 63 characters; unique among `taken`. */
export function refFromTitle(title: string, taken: Set<string>, fallback: string): string {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 55)
      .replace(/-+$/, "") || fallback;
  let ref = base;
  for (let n = 2; taken.has(ref); n++) ref = `${base}-${n}`;
  return ref;
}

/** The ref an entity is known by: its own, or `<kind>-<id>` for rows made before refs existed. */
export const refOf = (kind: string, e: { id: number; ref: string | null }) => e.ref ?? `${kind.replace("_", "-")}-${e.id}`;

// ---- Products: defaults, input, views ----

export const ALL_DAYS: Weekdays = { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true };

/** A new product's values where its creation leaves a field out. */
export function productDefaults(id: number, type: ProductType, title: string): ProductEntity {
  return {
    id,
    ref: null,
    archived_at: null,
    type,
    title,
    backoffice_title: title,
    description: "",
    extended_description: "",
    translations: {},
    image: { small: "", medium: "", large: "" },
    location_id: null,
    backoffice_category_id: null,
    frontoffice_category_id: null,
    is_promoted: false,
    accommodation_type_id: null,
    duration: { unit: "day", default: 1, min: 1, max: null, is_flexible: false, variants: [] },
    pax_min: 1,
    pax_max: 1,
    allowed_checkin_days: { ...ALL_DAYS },
    default_start_time: null,
    capacity: null,
    timeslots: [],
    accommodation: null,
    rates: [],
    package: type === "package" ? { groups: [], items: [], accommodation_ids: [] } : null,
    payment_policy: null,
  };
}

/** An accommodation's capacity per night: whole rooms (private) or beds (shared). */
export const accommodationCapacity = (a: AccommodationEntity) => (a.is_private ? a.rooms : a.rooms * a.beds_per_room);

type DurationInput = NonNullable<ProductCreate["duration"]>;
export function durationEntity(d: DurationInput): DurationEntity {
  return {
    unit: d.unit ?? "day",
    default: d.default ?? 1,
    min: d.min ?? Math.min(d.default ?? 1, ...(d.variants?.length ? d.variants : [d.default ?? 1])),
    max: d.max ?? null,
    is_flexible: d.is_flexible ?? false,
    variants: [...new Set(d.variants ?? [])].sort((a, b) => a - b),
  };
}

export function timeslotEntities(list: { time: string; capacity?: number | null; days?: Weekday[] | null }[]): TimeslotEntity[] {
  const order = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
  return list
    .map((t) => ({ time: t.time, capacity: t.capacity ?? null, days: t.days ? [...new Set(t.days)].sort((a, b) => order.indexOf(a) - order.indexOf(b)) : null }))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

/**
 * Apply the fields of an API input (a creation or a PATCH) to `base`. References stay ids; money
 * converts to minor units of `currency` (errors for amounts finer than it allows). Package items
 * keep the ids of `base`'s items they name; new items get ids from `ids`.
 */
export function applyProductInput(
  base: ProductEntity,
  input: ProductCreate | ProductPatch,
  currency: string,
  newId: (table: "package_items" | "package_groups") => number,
  options: { newItemIds?: boolean } = {},
): { product: ProductEntity; errors: FieldError[] } {
  const p: ProductEntity = structuredClone(base);
  const errors: FieldError[] = [];
  const money = (path: string, amount: number): number => {
    const minor = toMinor(amount, currency);
    if (minor === null) errors.push({ path, message: `has more decimals than ${currency} allows` });
    return minor ?? 0;
  };
  if (input.ref !== undefined) p.ref = input.ref;
  if (input.title !== undefined) {
    if (base.backoffice_title === base.title && input.backoffice_title === undefined) p.backoffice_title = input.title;
    p.title = input.title;
  }
  if (input.backoffice_title !== undefined) p.backoffice_title = input.backoffice_title || p.title;
  for (const k of ["description", "extended_description", "is_promoted", "location_id", "backoffice_category_id", "frontoffice_category_id", "accommodation_type_id", "default_start_time", "capacity"] as const) {
    if (input[k] !== undefined) (p as any)[k] = input[k];
  }
  if (input.translations !== undefined) p.translations = structuredClone(input.translations);
  if (input.image !== undefined) p.image = { ...input.image };
  if (input.allowed_checkin_days !== undefined) p.allowed_checkin_days = { ...input.allowed_checkin_days };
  if (input.pax !== undefined) {
    p.pax_min = input.pax.min;
    p.pax_max = input.pax.max;
  }
  if (input.duration !== undefined) p.duration = durationEntity(input.duration);
  if (input.timeslots !== undefined) p.timeslots = timeslotEntities(input.timeslots);
  if (input.accommodation !== undefined) {
    const a = input.accommodation;
    p.accommodation = a && {
      rooms: a.rooms,
      beds_per_room: a.beds_per_room,
      is_private: a.is_private,
      gender: a.is_private ? null : (a.gender ?? "mixed"),
      srs: a.srs ? { charge_minor: money("accommodation.srs.charge", a.srs.charge), fixed: a.srs.fixed } : null,
    };
  }
  if (input.rates !== undefined) {
    p.rates = input.rates.map((r, i) => ({
      season_id: r.season_id ?? null,
      amount_minor: money(`rates.${i}.amount`, r.amount),
      unit: r.unit ?? "person",
      per: r.per ?? "stay",
      min_qty: r.min_qty ?? 1,
    }));
  }
  if (input.payment_policy !== undefined) p.payment_policy = ownPaymentPolicy(input.payment_policy);
  if (input.package !== undefined) p.package = input.package === null ? null : packageEntity(base.package, input.package, newId, errors, options.newItemIds ?? false);
  if (p.accommodation && p.type === "accommodation") p.capacity = accommodationCapacity(p.accommodation);
  return { product: p, errors };
}

/** A product's own payment policy as stored: the fields it sets, or null when it sets none (it follows the business). */
export function ownPaymentPolicy(own: ProductPaymentPolicy | null | undefined): ProductPaymentPolicy | null {
  if (!own) return null;
  const out: ProductPaymentPolicy = {};
  if (own.deposit !== undefined) out.deposit = structuredClone(own.deposit);
  if (own.balance_due_days !== undefined) out.balance_due_days = own.balance_due_days;
  return Object.keys(out).length ? out : null;
}

/** `newItemIds`: an item id that is not one of `base`'s is the new item's (the catalog file's caller handed it out). */
function packageEntity(base: PackageEntity | null, input: PackageInput, newId: (table: "package_items" | "package_groups") => number, errors: FieldError[], newItemIds: boolean): PackageEntity {
  const oldItems = new Map((base?.items ?? []).map((i) => [i.id, i]));
  const oldGroups = new Map((base?.groups ?? []).map((g) => [g.name, g]));
  const items = (input.items ?? []).map((it, i): ItemEntity => {
    let id = it.id;
    if (id !== undefined && !oldItems.has(id) && !newItemIds) {
      errors.push({ path: `package.items.${i}.id`, message: `no item ${id} in this package; leave the id out for a new item` });
      id = undefined;
    }
    return {
      id: id ?? newId("package_items"),
      product_id: it.product_id,
      group: it.group ?? null,
      role: it.role,
      qty_min: it.qty?.min ?? 0,
      qty_max: it.qty?.max ?? 1,
      qty_default: it.qty?.default ?? 1,
      is_configurable_dates: it.is_configurable_dates ?? false,
      sort: i + 1,
    };
  });
  const groups = (input.groups ?? []).map((g) => ({ id: oldGroups.get(g.name)?.id ?? newId("package_groups"), name: g.name, is_configurable_dates: g.is_configurable_dates ?? false }));
  return { groups, items, accommodation_ids: [...(input.accommodation_ids ?? [])] };
}

/** Whether GET /products lists the product (spec: in a front-office category or promoted; and not archived). */
export const isListed = (p: Pick<ProductEntity, "archived_at" | "frontoffice_category_id" | "is_promoted">) =>
  p.archived_at === null && (p.frontoffice_category_id !== null || p.is_promoted);

export function productView(p: ProductEntity, currency: string): AdminProduct {
  const digits = minorDigits(currency);
  const major = (minor: number) => toMajor(minor, digits);
  return {
    id: p.id,
    ref: refOf("product", p),
    type: p.type,
    title: p.title,
    backoffice_title: p.backoffice_title,
    description: p.description,
    extended_description: p.extended_description,
    translations: p.translations,
    image: p.image,
    location_id: p.location_id,
    backoffice_category_id: p.backoffice_category_id,
    frontoffice_category_id: p.frontoffice_category_id,
    is_promoted: p.is_promoted,
    listed: isListed(p),
    accommodation_type_id: p.accommodation_type_id,
    duration: { ...p.duration },
    pax: { min: p.pax_min, max: p.pax_max },
    allowed_checkin_days: p.allowed_checkin_days,
    default_start_time: p.default_start_time,
    capacity: p.capacity,
    timeslots: p.timeslots,
    accommodation: p.accommodation && {
      rooms: p.accommodation.rooms,
      beds_per_room: p.accommodation.beds_per_room,
      is_private: p.accommodation.is_private,
      gender: p.accommodation.gender,
      srs: p.accommodation.srs && { charge: major(p.accommodation.srs.charge_minor), fixed: p.accommodation.srs.fixed },
    },
    rates: p.rates.map((r) => ({ season_id: r.season_id, amount: major(r.amount_minor), unit: r.unit, per: r.per, min_qty: r.min_qty })),
    package: p.package && {
      accommodation_ids: p.package.accommodation_ids,
      groups: p.package.groups.map((g) => ({ name: g.name, is_configurable_dates: g.is_configurable_dates })),
      items: p.package.items.map((i) => ({
        id: i.id,
        product_id: i.product_id,
        role: i.role,
        group: i.group,
        qty: { min: i.qty_min, max: i.qty_max, default: i.qty_default },
        is_configurable_dates: i.is_configurable_dates,
      })),
    },
    payment_policy: p.payment_policy,
    archived: p.archived_at !== null,
    archived_at: p.archived_at,
  };
}

export function lookupView(kind: LookupKind, l: Lookup): AdminLookup {
  return {
    id: l.id,
    ref: refOf(kind, l),
    title: l.title,
    ...(kind === "category" ? { kind: l.kind } : {}),
    ...(kind === "diet" || kind === "level" ? { description: l.description ?? "", abbreviation: l.abbreviation ?? null } : {}),
    archived: l.archived_at !== null,
    archived_at: l.archived_at,
  };
}

export function seasonView(s: Season): AdminSeason {
  return { id: s.id, ref: refOf("season", s), title: s.title, priority: s.priority, segments: s.segments, archived: s.archived_at !== null, archived_at: s.archived_at };
}

/** JSON with object keys sorted: two entities are the same when their canonical texts are. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}
export const sameEntity = (a: unknown, b: unknown) => canonical(a) === canonical(b);
