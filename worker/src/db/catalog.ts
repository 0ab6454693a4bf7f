import { emptyLedger, ledgerKey, type Ledger } from "../domain/availability";
import type { Rate, SeasonSegment } from "../domain/pricing";

// Shapes of the catalog as db/catalog-snapshot.ts reads it, and the one live catalog read:
// inventory with its allocations.

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

/**
 * Inventory rows and live allocations of some products over [from, to], in ONE grouped query
 * whatever the window's length: live = booked (their kept total, booked_units: one row per date
 * however many bookings), or held with expires_at after `now` and not released. A date may have
 * two entries of allocated units (bookings, holds); toLedgers adds them. Products absent from
 * the answer get an empty ledger.
 */
export function ledgerStatement(db: D1Database, businessId: number, productIds: number[], from: string, to: string, now: Date): D1PreparedStatement {
  // The holds by their own index (named: without statistics the planner would take the
  // booking_id index for "booking_id IS NULL", which also holds every released hold ever made).
  // One row holding every entry as a JSON array: a year of inventory for every product is
  // thousands of rows, and handing them over one object each costs more than the query.
  return db
    .prepare(
      `SELECT json_group_array(json_array(product_id, date, slot, capacity, blocked, allocated)) AS ledger FROM (
         SELECT product_id, date, slot, capacity, blocked, NULL AS allocated FROM inventory
          WHERE business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4
         UNION ALL
         SELECT product_id, date, slot, NULL AS capacity, 0 AS blocked, qty AS allocated FROM booked_units
          WHERE business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4 AND qty <> 0
         UNION ALL
         SELECT product_id, date, slot, NULL AS capacity, 0 AS blocked, SUM(qty) AS allocated FROM allocations INDEXED BY allocations_holds
          WHERE business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4
            AND released_at IS NULL AND booking_id IS NULL AND expires_at > ?5
          GROUP BY product_id, date, slot)`,
    )
    .bind(businessId, JSON.stringify([...new Set(productIds)]), from, to, now.toISOString());
}

type LedgerEntry = [productId: number, date: string, slot: string, capacity: number | null, blocked: number, allocated: number | null];

/** ledgerStatement()'s answer as D1 returned it: one JSON text ("" when there is no row). */
export const ledgerText = (result: D1Result): string => (result.results[0] as { ledger?: string } | undefined)?.ledger ?? "";

/** The ledgers of ledgerStatement()'s result, one per product asked for. */
export function toLedgers(productIds: number[], result: D1Result): Map<number, Ledger> {
  const out = new Map<number, Ledger>();
  for (const id of productIds) out.set(id, emptyLedger());
  for (const [productId, date, slot, capacity, blocked, allocated] of JSON.parse(ledgerText(result) || "[]") as LedgerEntry[]) {
    const ledger = out.get(productId) ?? emptyLedger();
    out.set(productId, ledger);
    const key = ledgerKey(date, slot);
    if (allocated === null) ledger.inventory.set(key, { capacity: capacity ?? 0, blocked: blocked === 1 });
    else ledger.allocated.set(key, (ledger.allocated.get(key) ?? 0) + Number(allocated));
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
