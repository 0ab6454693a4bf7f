import { emptyLedger, ledgerKey, type Ledger } from "../domain/availability";
import { toCurrencies, type Currency } from "../domain/money";
import type { Rate, SeasonSegment } from "../domain/pricing";
import { businessById, type Business } from "./businesses";
import { productsStatement, toProduct, type ProductRow } from "./products";

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

/** The business with its currencies (default first), diets and levels: one round trip. */
export async function loadBusinessCatalog(db: D1Database, businessId: number) {
  const [currencies, diets, levels] = await db.batch([
    db.prepare("SELECT id, iso_code, title, symbol, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id").bind(businessId),
    db.prepare("SELECT id, title, description, abbreviation FROM diets WHERE business_id = ? ORDER BY id").bind(businessId),
    db.prepare("SELECT id, title, description, abbreviation FROM levels WHERE business_id = ? ORDER BY id").bind(businessId),
  ]);
  const business = (await businessById(db, businessId)) as Business;
  return {
    business,
    currencies: currencies.results as unknown as CurrencyRow[],
    diets: diets.results as unknown as TitledRow[],
    levels: levels.results as unknown as TitledRow[],
  };
}
export type BusinessCatalog = Awaited<ReturnType<typeof loadBusinessCatalog>>;

// ---- Catalog reads for the public catalog routes and the package quote ----


const currenciesStatement = (db: D1Database, businessId: number) =>
  db.prepare("SELECT iso_code, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id").bind(businessId);
const toCurrencyList = (r: D1Result) => toCurrencies(r.results as { iso_code: string; exchange_rate: number; is_default: number }[]);

/** The business's currencies, default first. */
export async function currenciesOf(db: D1Database, businessId: number): Promise<Currency[]> {
  return toCurrencyList(await currenciesStatement(db, businessId).all());
}

/** The business's default language and its languages. */
export async function languagesOf(db: D1Database, businessId: number): Promise<{ default_language: string; languages: string[] }> {
  const business = await businessById(db, businessId);
  return business ? business.config : { default_language: "en", languages: ["en"] };
}

export interface PricingData {
  rates: Map<number, Rate[]>;
  segments: SeasonSegment[];
}

function pricingStatements(db: D1Database, businessId: number, productIds: number[]) {
  return [
    db
      .prepare(
        `SELECT product_id, season_id, amount_minor, unit, per, min_qty FROM rates
          WHERE business_id = ? AND product_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      )
      .bind(businessId, JSON.stringify([...new Set(productIds)])),
    db
      .prepare(
        `SELECT s.id AS season_id, s.priority, g.start_date, g.end_date FROM season_segments g
           JOIN seasons s ON s.id = g.season_id WHERE s.business_id = ? ORDER BY g.start_date`,
      )
      .bind(businessId),
  ] as const;
}

function toPricing(rates: D1Result, segments: D1Result): PricingData {
  const byProduct = new Map<number, Rate[]>();
  for (const r of rates.results as unknown as (Rate & { product_id: number })[]) {
    const { product_id, ...rate } = r;
    const list = byProduct.get(product_id) ?? [];
    list.push(rate);
    byProduct.set(product_id, list);
  }
  return { rates: byProduct, segments: segments.results as unknown as SeasonSegment[] };
}

/** The rates of some products and every season segment of the business: one round trip. */
export async function pricingOf(db: D1Database, businessId: number, productIds: number[]): Promise<PricingData> {
  const [rates, segments] = await db.batch([...pricingStatements(db, businessId, productIds)]);
  return toPricing(rates, segments);
}

/**
 * Inventory rows and live allocations of some products over [from, to], in ONE grouped query
 * whatever the window's length: live = booked, or held with expires_at after `now`, and not
 * released. Products absent from the answer get an empty ledger.
 */
export async function ledgersOf(db: D1Database, businessId: number, productIds: number[], from: string, to: string, now: Date): Promise<Map<number, Ledger>> {
  return toLedgers(productIds, await ledgerStatement(db, businessId, productIds, from, to, now).all());
}

/** The one grouped read of ledgersOf(), to put in a batch; toLedgers() reads its result. */
export function ledgerStatement(db: D1Database, businessId: number, productIds: number[], from: string, to: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT product_id, date, slot, capacity, blocked, 0 AS allocated FROM inventory
        WHERE business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4
       UNION ALL
       SELECT product_id, date, slot, NULL AS capacity, 0 AS blocked, SUM(qty) AS allocated FROM allocations
        WHERE business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4
          AND released_at IS NULL AND (booking_id IS NOT NULL OR expires_at > ?5)
        GROUP BY product_id, date, slot`,
    )
    .bind(businessId, JSON.stringify([...new Set(productIds)]), from, to, now.toISOString());
}

export function toLedgers(productIds: number[], result: D1Result): Map<number, Ledger> {
  const out = new Map<number, Ledger>();
  for (const id of productIds) out.set(id, emptyLedger());
  for (const r of result.results as { product_id: number; date: string; slot: string; capacity: number | null; blocked: number; allocated: number }[]) {
    const ledger = out.get(r.product_id) ?? emptyLedger();
    out.set(r.product_id, ledger);
    const key = ledgerKey(r.date, r.slot);
    if (r.capacity !== null) ledger.inventory.set(key, { capacity: r.capacity, blocked: r.blocked === 1 });
    else ledger.allocated.set(key, (ledger.allocated.get(key) ?? 0) + Number(r.allocated));
  }
  return out;
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
}

function structureStatements(db: D1Database, businessId: number, packageIds: number[]) {
  const ids = JSON.stringify([...new Set(packageIds)]);
  return [
    db
      .prepare(
        `SELECT i.id, i.package_id, i.product_id, i.group_id, i.role, i.qty_min, i.qty_max, i.qty_default, i.is_configurable_dates, i.sort
           FROM package_items i JOIN products p ON p.id = i.product_id AND p.business_id = i.business_id
          WHERE i.business_id = ? AND i.package_id IN (SELECT value FROM json_each(?)) ORDER BY i.sort, i.id`,
      )
      .bind(businessId, ids),
    db
      .prepare(
        `SELECT g.id, g.package_id, g.is_configurable_dates FROM package_groups g JOIN products p ON p.id = g.package_id
          WHERE p.business_id = ? AND g.package_id IN (SELECT value FROM json_each(?)) ORDER BY g.id`,
      )
      .bind(businessId, ids),
    db
      .prepare(
        `SELECT a.package_id, a.accommodation_id FROM package_accommodations a
           JOIN products p ON p.id = a.accommodation_id AND p.business_id = ? AND p.type = 'accommodation'
          WHERE a.package_id IN (SELECT value FROM json_each(?)) ORDER BY a.accommodation_id`,
      )
      .bind(businessId, ids),
  ] as const;
}

function toStructures(packageIds: number[], items: D1Result, groups: D1Result, accommodations: D1Result): Map<number, PackageStructure> {
  const out = new Map<number, PackageStructure>();
  for (const id of packageIds) out.set(id, { items: [], groups: [], accommodationIds: [] });
  for (const r of items.results as unknown as (PackageItemRow & { package_id: number })[]) out.get(r.package_id)?.items.push(r);
  for (const r of groups.results as unknown as { id: number; package_id: number; is_configurable_dates: number }[]) {
    out.get(r.package_id)?.groups.push({ id: r.id, is_configurable_dates: r.is_configurable_dates });
  }
  for (const r of accommodations.results as unknown as { package_id: number; accommodation_id: number }[]) {
    out.get(r.package_id)?.accommodationIds.push(r.accommodation_id);
  }
  return out;
}

/** Items, groups and room types of some packages of the business: one round trip. */
export async function packageStructures(db: D1Database, businessId: number, packageIds: number[]): Promise<Map<number, PackageStructure>> {
  const [items, groups, accommodations] = await db.batch([...structureStatements(db, businessId, packageIds)]);
  return toStructures(packageIds, items, groups, accommodations);
}

/**
 * Everything a package quote reads, in two round trips: currencies and the packages' structure,
 * then the products involved with their rates and the season segments.
 */
export async function quoteCatalog(db: D1Database, businessId: number, packageIds: number[]) {
  const [currencies, items, groups, accommodations] = await db.batch([currenciesStatement(db, businessId), ...structureStatements(db, businessId, packageIds)]);
  const structures = toStructures(packageIds, items, groups, accommodations);
  const productIds = new Set<number>(packageIds);
  for (const st of structures.values()) {
    st.items.forEach((i) => productIds.add(i.product_id));
    st.accommodationIds.forEach((id) => productIds.add(id));
  }
  const ids = [...productIds];
  const [products, rates, segments] = await db.batch([productsStatement(db, businessId, ids), ...pricingStatements(db, businessId, ids)]);
  return {
    currencies: toCurrencyList(currencies),
    structures,
    products: new Map((products.results as unknown as ProductRow[]).map((r) => [r.id, toProduct(r)])),
    pricing: toPricing(rates, segments),
  };
}

export interface SeasonWithSegments {
  id: number;
  title: string;
  segments: { id: number; start_date: string; end_date: string }[];
}

/** The business's seasons, each with its segments in date order. */
export async function seasonsOf(db: D1Database, businessId: number): Promise<SeasonWithSegments[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.title, g.id AS segment_id, g.start_date, g.end_date FROM seasons s
         LEFT JOIN season_segments g ON g.season_id = s.id
        WHERE s.business_id = ? ORDER BY s.id, g.start_date, g.id`,
    )
    .bind(businessId)
    .all<{ id: number; title: string; segment_id: number | null; start_date: string | null; end_date: string | null }>();
  const out = new Map<number, SeasonWithSegments>();
  for (const r of results) {
    const season = out.get(r.id) ?? { id: r.id, title: r.title, segments: [] };
    out.set(r.id, season);
    if (r.segment_id !== null) season.segments.push({ id: r.segment_id, start_date: r.start_date!, end_date: r.end_date! });
  }
  return [...out.values()];
}

export interface CatalogLookups {
  categories: Map<number, string>;
  locations: Map<number, string>;
  accommodationTypes: Map<number, string>;
}

/** Titles of the business's categories, locations and accommodation types: one round trip. */
export async function lookupsOf(db: D1Database, businessId: number): Promise<CatalogLookups> {
  const [categories, locations, types] = await db.batch([
    db.prepare("SELECT id, title FROM categories WHERE business_id = ?").bind(businessId),
    db.prepare("SELECT id, title FROM locations WHERE business_id = ?").bind(businessId),
    db.prepare("SELECT id, title FROM accommodation_types WHERE business_id = ?").bind(businessId),
  ]);
  const map = (r: D1Result) => new Map((r.results as { id: number; title: string }[]).map((x) => [x.id, x.title]));
  return { categories: map(categories), locations: map(locations), accommodationTypes: map(types) };
}

/** Ids of the business's diets and levels, to check what a guest picked. */
export async function dietAndLevelIds(db: D1Database, businessId: number) {
  const [diets, levels] = await db.batch<{ id: number }>([
    db.prepare("SELECT id FROM diets WHERE business_id = ?").bind(businessId),
    db.prepare("SELECT id FROM levels WHERE business_id = ?").bind(businessId),
  ]);
  return { dietIds: new Set(diets.results.map((r) => r.id)), levelIds: new Set(levels.results.map((r) => r.id)) };
}
