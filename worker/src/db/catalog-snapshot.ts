import { toCurrencies, type Currency } from "../domain/money";
import type { Rate, SeasonSegment } from "../domain/pricing";
import type { Product } from "../domain/product";
import { parseConfig } from "../contract/config";
import type { Business, BusinessRow } from "./businesses";
import type { CatalogLookups, CurrencyRow, PackageStructure, PricingData, SeasonWithSegments, TitledRow } from "./catalog";
import { toProduct, type ProductFilter, type ProductRow } from "./products";

/**
 * A business's whole catalog, read in one round trip and kept in memory by the process: the
 * business, currencies, diets, levels, lookups, products, rates, seasons and package structures.
 * Never inventory or allocations (those are read live). `version` is the business's
 * `catalog_version` when the snapshot was read; triggers change it on every catalog write
 * (migration 0070), and the request's guard read compares it (lib/tenant-read.ts).
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
  seasons: SeasonWithSegments[];
}

/** The statements of a snapshot, in the order snapshotFrom() reads their results. */
export function snapshotStatements(db: D1Database, businessId: number): D1PreparedStatement[] {
  const q = (sql: string) => db.prepare(sql).bind(businessId);
  return [
    q("SELECT * FROM businesses WHERE id = ?"),
    q("SELECT id, iso_code, title, symbol, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id"),
    q("SELECT id, title, description, abbreviation FROM diets WHERE business_id = ? ORDER BY id"),
    q("SELECT id, title, description, abbreviation FROM levels WHERE business_id = ? ORDER BY id"),
    q("SELECT id, title FROM categories WHERE business_id = ?"),
    q("SELECT id, title FROM locations WHERE business_id = ?"),
    q("SELECT id, title FROM accommodation_types WHERE business_id = ?"),
    q("SELECT * FROM products WHERE business_id = ? ORDER BY id"),
    q("SELECT product_id, season_id, amount_minor, unit, per, min_qty FROM rates WHERE business_id = ? ORDER BY id"),
    q(
      `SELECT s.id AS season_id, s.priority, g.start_date, g.end_date FROM season_segments g
         JOIN seasons s ON s.id = g.season_id WHERE s.business_id = ? ORDER BY g.start_date`,
    ),
    q(
      `SELECT s.id, s.title, g.id AS segment_id, g.start_date, g.end_date FROM seasons s
         LEFT JOIN season_segments g ON g.season_id = s.id WHERE s.business_id = ? ORDER BY s.id, g.start_date, g.id`,
    ),
    q(
      `SELECT i.id, i.package_id, i.product_id, i.group_id, i.role, i.qty_min, i.qty_max, i.qty_default, i.is_configurable_dates, i.sort
         FROM package_items i JOIN products p ON p.id = i.product_id AND p.business_id = i.business_id
        WHERE i.business_id = ? ORDER BY i.sort, i.id`,
    ),
    q(
      `SELECT g.id, g.package_id, g.is_configurable_dates FROM package_groups g JOIN products p ON p.id = g.package_id
        WHERE p.business_id = ? ORDER BY g.id`,
    ),
    q(
      `SELECT a.package_id, a.accommodation_id FROM products k
         JOIN package_accommodations a ON a.package_id = k.id
         JOIN products p ON p.id = a.accommodation_id AND p.type = 'accommodation' AND p.business_id = k.business_id
        WHERE k.business_id = ? AND k.type = 'package' ORDER BY a.accommodation_id`,
    ),
  ];
}

export const SNAPSHOT_STATEMENTS = 14;

const rowsOf = <T>(r: D1Result) => r.results as unknown as T[];
const titles = (r: D1Result) => new Map(rowsOf<{ id: number; title: string }>(r).map((x) => [x.id, x.title]));

/** Build a snapshot from the results of snapshotStatements(); null when the business is gone. */
export function snapshotFrom(results: D1Result[]): CatalogSnapshot | null {
  const [business, currencies, diets, levels, categories, locations, types, products, rates, segments, seasons, items, groups, accommodations] = results;
  const row = rowsOf<BusinessRow & { catalog_version: number }>(business)[0];
  if (!row) return null;
  const { catalog_version, created_at: _, ...fields } = row as BusinessRow & { catalog_version: number; created_at?: string };
  const productMap = new Map(rowsOf<ProductRow>(products).map((r) => [r.id, toProduct(r)]));
  const rateMap = new Map<number, Rate[]>();
  for (const r of rowsOf<Rate & { product_id: number }>(rates)) {
    const { product_id, ...rate } = r;
    const list = rateMap.get(product_id) ?? [];
    list.push(rate);
    rateMap.set(product_id, list);
  }
  const structures = new Map<number, PackageStructure>();
  const structure = (id: number) => {
    let s = structures.get(id);
    if (!s) structures.set(id, (s = { items: [], groups: [], accommodationIds: [] }));
    return s;
  };
  for (const p of productMap.values()) if (p.type === "package") structure(p.id);
  for (const r of rowsOf<PackageStructure["items"][number] & { package_id: number }>(items)) structure(r.package_id).items.push(r);
  for (const r of rowsOf<{ id: number; package_id: number; is_configurable_dates: number }>(groups)) {
    structure(r.package_id).groups.push({ id: r.id, is_configurable_dates: r.is_configurable_dates });
  }
  for (const r of rowsOf<{ package_id: number; accommodation_id: number }>(accommodations)) structure(r.package_id).accommodationIds.push(r.accommodation_id);
  const seasonMap = new Map<number, SeasonWithSegments>();
  for (const r of rowsOf<{ id: number; title: string; segment_id: number | null; start_date: string | null; end_date: string | null }>(seasons)) {
    const season = seasonMap.get(r.id) ?? { id: r.id, title: r.title, segments: [] };
    seasonMap.set(r.id, season);
    if (r.segment_id !== null) season.segments.push({ id: r.segment_id, start_date: r.start_date!, end_date: r.end_date! });
  }
  const currencyRows = rowsOf<CurrencyRow>(currencies);
  return {
    businessId: row.id,
    version: catalog_version,
    business: { ...(fields as BusinessRow), config: parseConfig(row.config) },
    currencyRows,
    currencies: toCurrencies(currencyRows),
    diets: rowsOf<TitledRow>(diets),
    levels: rowsOf<TitledRow>(levels),
    lookups: { categories: titles(categories), locations: titles(locations), accommodationTypes: titles(types) },
    products: productMap,
    rates: rateMap,
    segments: rowsOf<SeasonSegment>(segments),
    structures,
    seasons: [...seasonMap.values()],
  };
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
  return new Map(packageIds.map((id) => [id, snap.structures.get(id) ?? { items: [], groups: [], accommodationIds: [] }]));
}

/** The business's diets by id (as people and guests show them). */
export function dietsIn(snap: CatalogSnapshot): Map<number, { id: number; title: string; abbreviation: string | null }> {
  return new Map(snap.diets.map((d) => [d.id, { id: d.id, title: d.title, abbreviation: d.abbreviation }]));
}

/** The business's locations by id. */
export function locationsIn(snap: CatalogSnapshot): Map<number, { id: number; title: string }> {
  return new Map([...snap.lookups.locations].map(([id, title]) => [id, { id, title }]));
}
