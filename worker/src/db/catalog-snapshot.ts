import { toCurrencies } from "../domain/money";
import type { Rate, SeasonSegment } from "../domain/pricing";
import { businessConfig } from "./businesses";
import { toProduct, type ProductRow } from "./products";
import { emptyStructure, type BusinessRow, type CatalogSnapshot, type CurrencyRow, type OwnCharges, type PackageStructure, type SeasonWithSegments, type TitledRow } from "../domain/catalog";
import type { D1 } from "./d1";

/**
 * The statements of a snapshot, in the order snapshotFrom() reads their results. Archived
 * entities (migration 0200) are not in it: the public API, the widget and new carts do not see
 * them; bookings and carts made before keep their own copies of what they need.
 */
export function snapshotStatements(db: D1, businessId: number): D1PreparedStatement[] {
  const q = (sql: string) => db.prepare(sql).bind(businessId);
  return [
    // with whether its Stripe key is set: it can take payments online (a change of it changes the version, migration 0530),
    // and whether it has a live webhook subscription (migration 0550)
    q(
      `SELECT b.*, EXISTS (SELECT 1 FROM stripe_accounts s WHERE s.business_id = b.id AND s.secret_key_sealed IS NOT NULL) AS stripe_connected,
              EXISTS (SELECT 1 FROM webhooks w WHERE w.business_id = b.id AND w.deleted_at IS NULL AND w.disabled_at IS NULL) AS live_webhooks
         FROM businesses b WHERE b.id = ?`,
    ),
    q("SELECT id, iso_code, title, symbol, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id"),
    q("SELECT id, title, description, abbreviation FROM diets WHERE business_id = ? AND archived_at IS NULL ORDER BY id"),
    q("SELECT id, title, description, abbreviation FROM levels WHERE business_id = ? AND archived_at IS NULL ORDER BY id"),
    q("SELECT id, title FROM categories WHERE business_id = ? AND archived_at IS NULL"),
    q("SELECT id, title FROM locations WHERE business_id = ? AND archived_at IS NULL"),
    q("SELECT id, title FROM accommodation_types WHERE business_id = ? AND archived_at IS NULL"),
    q("SELECT * FROM products WHERE business_id = ? AND archived_at IS NULL ORDER BY id"),
    q("SELECT product_id, season_id, amount_minor, unit, per, min_qty FROM rates WHERE business_id = ? ORDER BY id"),
    q(
      `SELECT s.id AS season_id, s.priority, g.start_date, g.end_date FROM season_segments g
         JOIN seasons s ON s.id = g.season_id WHERE s.business_id = ? AND s.archived_at IS NULL ORDER BY g.start_date`,
    ),
    q(
      `SELECT s.id, s.title, g.id AS segment_id, g.start_date, g.end_date FROM seasons s
         LEFT JOIN season_segments g ON g.season_id = s.id WHERE s.business_id = ? AND s.archived_at IS NULL ORDER BY s.id, g.start_date, g.id`,
    ),
    q(
      `SELECT i.id, i.package_id, i.product_id, i.group_id, i.role, i.qty_min, i.qty_max, i.qty_default, i.is_configurable_dates, i.sort
         FROM package_items i JOIN products p ON p.id = i.product_id AND p.business_id = i.business_id AND p.archived_at IS NULL
        WHERE i.business_id = ? ORDER BY i.sort, i.id`,
    ),
    q(
      `SELECT g.id, g.package_id, g.is_configurable_dates FROM package_groups g JOIN products p ON p.id = g.package_id
        WHERE p.business_id = ? ORDER BY g.id`,
    ),
    // The package's accommodations with the ids of their price lines (package_charges), and every
    // product's own lines (accommodation_id null, the kind in the last column): a package's own
    // price, and a product sold on its own (migration 0420).
    q(
      `SELECT a.package_id, a.accommodation_id, ca.id AS charge_id, cs.id AS srs_charge_id FROM products k
         JOIN package_accommodations a ON a.package_id = k.id
         JOIN products p ON p.id = a.accommodation_id AND p.type = 'accommodation' AND p.business_id = k.business_id AND p.archived_at IS NULL
         LEFT JOIN package_charges ca ON ca.package_id = a.package_id AND ca.product_id = a.accommodation_id AND ca.kind = 'accommodation'
         LEFT JOIN package_charges cs ON cs.package_id = a.package_id AND cs.product_id = a.accommodation_id AND cs.kind = 'srs'
        WHERE k.business_id = ?1 AND k.type = 'package'
       UNION ALL
       SELECT c.package_id, NULL, c.id, c.kind FROM package_charges c WHERE c.business_id = ?1 AND c.package_id = c.product_id
       ORDER BY 2`,
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
  const { catalog_version, created_at: _, stripe_connected, live_webhooks, ...fields } = row as BusinessRow & { catalog_version: number; created_at?: string; stripe_connected?: number; live_webhooks?: number };
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
    if (!s) structures.set(id, (s = emptyStructure()));
    return s;
  };
  for (const p of productMap.values()) if (p.type === "package") structure(p.id);
  for (const r of rowsOf<PackageStructure["items"][number] & { package_id: number }>(items)) structure(r.package_id).items.push(r);
  for (const r of rowsOf<{ id: number; package_id: number; is_configurable_dates: number }>(groups)) {
    structure(r.package_id).groups.push({ id: r.id, is_configurable_dates: r.is_configurable_dates });
  }
  const ownCharges = new Map<number, OwnCharges>();
  for (const r of rowsOf<{ package_id: number; accommodation_id: number | null; charge_id: number | null; srs_charge_id: number | string | null }>(accommodations)) {
    const s = structures.get(r.package_id);
    if (r.accommodation_id === null) {
      const kind = r.srs_charge_id as "package" | "accommodation" | "srs";
      if (s) {
        if (kind === "package") s.chargeIds.package = r.charge_id;
        continue;
      }
      const own = ownCharges.get(r.package_id) ?? { package: null, accommodation: null, srs: null };
      own[kind] = r.charge_id;
      ownCharges.set(r.package_id, own);
      continue;
    }
    const st = structure(r.package_id);
    st.accommodationIds.push(r.accommodation_id);
    st.chargeIds.accommodation.set(r.accommodation_id, r.charge_id);
    st.chargeIds.srs.set(r.accommodation_id, r.srs_charge_id as number | null);
  }
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
    business: { ...(fields as BusinessRow), config: businessConfig(row.id, row.config), stripe_connected: Boolean(stripe_connected), live_webhooks: Boolean(live_webhooks) },
    currencyRows,
    currencies: toCurrencies(currencyRows),
    diets: rowsOf<TitledRow>(diets),
    levels: rowsOf<TitledRow>(levels),
    lookups: { categories: titles(categories), locations: titles(locations), accommodationTypes: titles(types) },
    products: productMap,
    rates: rateMap,
    segments: rowsOf<SeasonSegment>(segments),
    structures,
    ownCharges,
    seasons: [...seasonMap.values()],
  };
}
