/**
 * The catalog as the domain sees it: a business's whole catalog as one snapshot (read by
 * db/catalog-snapshot.ts, kept per process, db/tenant-read.ts) and the reads of it that answers
 * are built from. No I/O here.
 */
import type { BusinessConfig } from "../contract/config";
import type { Currency } from "./money";
import type { Rate, SeasonSegment } from "./pricing";
import type { Product } from "./product";

/** A business as stored (its config as text). */
export interface BusinessRow {
  id: number;
  slug: string;
  title: string;
  company_name: string;
  frontoffice_domain: string;
  config: string;
}

export interface Business extends Omit<BusinessRow, "config"> {
  config: BusinessConfig;
  /** Its Stripe key is set: it can take payments online (docs/payments.md). */
  stripe_connected?: boolean;
  /** It has a webhook subscription neither deleted nor disabled (its events have somewhere to go). */
  live_webhooks?: boolean;
}

/**
 * Whether the business takes payment online at checkout now: its payment policy says so and Stripe
 * is connected. The checkout acts on it and the widget's wording says it, from the same snapshot.
 */
export const paysOnline = (business: Business): boolean => business.config.payment_policy.online_payment && Boolean(business.stripe_connected);

export interface CurrencyRow {
  id: number;
  iso_code: string;
  title: string;
  symbol: string;
  exchange_rate: number;
  is_default: number;
}
export interface TitledRow {
  id: number;
  title: string;
  description: string;
  abbreviation: string | null;
}

export interface PricingData {
  rates: Map<number, Rate[]>;
  segments: SeasonSegment[];
}

export interface PackageItemRow {
  id: number;
  product_id: number;
  group_id: number | null;
  role: "default" | "alternative" | "option" | "upgrade";
  qty_min: number;
  qty_max: number;
  qty_default: number;
  is_configurable_dates: number;
  sort: number;
}
export interface PackageStructure {
  items: PackageItemRow[];
  groups: { id: number; is_configurable_dates: number }[];
  accommodationIds: number[];
  /**
   * The package_item_ids of the price lines that are not package items (migration 0170): the
   * package's own price, and per accommodation its line and its single room supplement's.
   */
  chargeIds: { package: number | null; accommodation: Map<number, number | null>; srs: Map<number, number | null> };
}

/** The ids of a product's own price lines when it is sold on its own (migration 0420). */
export interface OwnCharges {
  package: number | null;
  accommodation: number | null;
  srs: number | null;
}

export const emptyStructure = (): PackageStructure => ({ items: [], groups: [], accommodationIds: [], chargeIds: { package: null, accommodation: new Map(), srs: new Map() } });

export interface SeasonWithSegments {
  id: number;
  title: string;
  segments: { id: number; start_date: string; end_date: string }[];
}

export interface CatalogLookups {
  categories: Map<number, string>;
  locations: Map<number, string>;
  accommodationTypes: Map<number, string>;
}

export interface ProductFilter {
  ids?: number[];
  type?: string;
  location_id?: number;
  backoffice_category_id?: number;
  /** Only products in a front-office category or promoted (the public list). */
  listed?: boolean;
}

/**
 * A business's whole catalog, read in one round trip and kept in memory by the process: the
 * business, currencies, diets, levels, lookups, products, rates, seasons and package structures.
 * Never inventory or allocations (those are read live). `version` is the business's
 * `catalog_version` when the snapshot was read; triggers change it on every catalog write
 * (migration 0070), and the request's guard read compares it (db/tenant-read.ts).
 */
export interface CatalogSnapshot {
  businessId: number;
  version: number;
  business: Business;
  currencyRows: CurrencyRow[];
  currencies: Currency[];
  diets: TitledRow[];
  levels: TitledRow[];
  lookups: CatalogLookups;
  /** Every product of the business, in id order. */
  products: Map<number, Product>;
  rates: Map<number, Rate[]>;
  segments: SeasonSegment[];
  structures: Map<number, PackageStructure>;
  /** Products that are not packages: the ids of their own price lines, for selling them on their own. */
  ownCharges: Map<number, OwnCharges>;
  seasons: SeasonWithSegments[];
}

// ---- Reads of a snapshot, the in-memory twins of the D1 reads in catalog.ts and products.ts ----

/** The snapshot's products among `ids`, by id (ids it does not have are left out). */
export function productsIn(snap: CatalogSnapshot, ids: number[]): Map<number, Product> {
  const out = new Map<number, Product>();
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const p = snap.products.get(id);
    if (p) out.set(id, p);
  }
  return out;
}

/** The products matching every given filter, by id (as findProducts() in products.ts). */
export function filterProducts(snap: CatalogSnapshot, f: ProductFilter): Product[] {
  const ids = f.ids ? new Set(f.ids) : null;
  return [...snap.products.values()].filter(
    (p) =>
      (!ids || ids.has(p.id)) &&
      (f.type === undefined || p.type === f.type) &&
      (f.location_id === undefined || p.location_id === f.location_id) &&
      (f.backoffice_category_id === undefined || p.backoffice_category_id === f.backoffice_category_id) &&
      (!f.listed || p.frontoffice_category_id !== null || p.is_promoted),
  );
}

/** The rates of some products and every season segment (as pricingOf() in catalog.ts). */
export function pricingIn(snap: CatalogSnapshot, ids: number[]): PricingData {
  const rates = new Map<number, Rate[]>();
  for (const id of ids) {
    const list = snap.rates.get(id);
    if (list) rates.set(id, list);
  }
  return { rates, segments: snap.segments };
}

/** The structure of some packages (empty for an id that is not a package of the business). */
export function structuresIn(snap: CatalogSnapshot, packageIds: number[]): Map<number, PackageStructure> {
  return new Map(packageIds.map((id) => [id, snap.structures.get(id) ?? emptyStructure()]));
}

/** Whether the public list shows the product: in a front-office category, or promoted. */
export const isListed = (p: Pick<Product, "frontoffice_category_id" | "is_promoted">) => p.frontoffice_category_id !== null || p.is_promoted;

/**
 * How a product is sold, as a package: a package by its own structure; a product listed on its
 * own (an activity, a course, a rental, a room) as its own one-item package (issue 27). A room
 * is that package's one accommodation (booked with nights, as a package's room is); any other
 * product is its one default item, taken on every day it covers, whose time a guest chooses by
 * sending that item with `YYYY-MM-DD HH:mm:ss` dates. Its lines carry the product's own charge
 * ids (migration 0420). Null: the business does not sell this product on its own.
 */
export function sellableStructure(snap: CatalogSnapshot, id: number): (PackageStructure & { standalone: boolean }) | null {
  const p = snap.products.get(id);
  if (!p) return null;
  if (p.type === "package") return { ...(snap.structures.get(id) ?? emptyStructure()), standalone: false };
  const own = snap.ownCharges.get(id);
  if (!isListed(p) || !own || own.package === null) return null;
  if (p.type === "accommodation") {
    return {
      items: [],
      groups: [],
      accommodationIds: [id],
      chargeIds: { package: null, accommodation: new Map([[id, own.accommodation]]), srs: new Map([[id, own.srs]]) },
      standalone: true,
    };
  }
  const item: PackageItemRow = { id: own.package, product_id: id, group_id: null, role: "default", qty_min: 1, qty_max: 1, qty_default: 1, is_configurable_dates: 0, sort: 0 };
  return { items: [item], groups: [], accommodationIds: [], chargeIds: { package: null, accommodation: new Map(), srs: new Map() }, standalone: true };
}

/** The business's diets by id (as people and guests show them). */
export function dietsIn(snap: CatalogSnapshot): Map<number, { id: number; title: string; abbreviation: string | null }> {
  return new Map(snap.diets.map((d) => [d.id, { id: d.id, title: d.title, abbreviation: d.abbreviation }]));
}

/** The business's locations by id. */
export function locationsIn(snap: CatalogSnapshot): Map<number, { id: number; title: string }> {
  return new Map([...snap.lookups.locations].map(([id, title]) => [id, { id, title }]));
}
