import { emptyLedger, ledgerKey, type Ledger } from "../domain/availability";
import { Memo } from "../lib/memo";
import type { D1 } from "./d1";

// The one live catalog read: inventory with its allocations.

/**
 * Inventory rows and live allocations of some products over [from, to], in ONE grouped query
 * whatever the window's length: live = booked (their kept total, booked_units: one row per date
 * however many bookings), or held with expires_at after `now` and not released. A date may have
 * two entries of allocated units (bookings, holds); toLedgers adds them. Products absent from
 * the answer get an empty ledger.
 *
 * The answer is one row: the business's ledger version (migration 0100: every inventory or
 * allocation write changes it), the ledger as one JSON text, and the earliest expiry of the holds
 * it counts. Given `knownVersion`, the version of a ledger this process already holds for the
 * same products, dates and time, D1 checks the version and leaves out the ledger when it is
 * still the same.
 */
export function ledgerStatement(db: D1, businessId: number, productIds: number[], from: string, to: string, now: Date, knownVersion: number | null = null): D1PreparedStatement {
  // The holds by their own index (named: without statistics the planner would take the
  // booking_id index for "booking_id IS NULL", which also holds every released hold ever made).
  // One row holding every entry as a JSON array: a year of inventory for every product is
  // thousands of rows, and handing them over one object each costs more than the query.
  const inWindow = "business_id = ?1 AND product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4";
  const holds = `FROM allocations INDEXED BY allocations_holds
          WHERE ${inWindow} AND released_at IS NULL AND booking_id IS NULL AND expires_at > ?5`;
  return db
    .prepare(
      `SELECT v.version,
         CASE WHEN v.version IS ?6 THEN NULL ELSE (SELECT json_group_array(json_array(product_id, date, slot, capacity, blocked, allocated)) FROM (
           SELECT product_id, date, slot, capacity, blocked, NULL AS allocated FROM inventory WHERE ${inWindow}
           UNION ALL
           SELECT product_id, date, slot, NULL AS capacity, 0 AS blocked, qty AS allocated FROM booked_units WHERE ${inWindow} AND qty <> 0
           UNION ALL
           SELECT product_id, date, slot, NULL AS capacity, 0 AS blocked, SUM(qty) AS allocated ${holds}
            GROUP BY product_id, date, slot)) END AS ledger,
         CASE WHEN v.version IS ?6 THEN NULL ELSE (SELECT MIN(expires_at) ${holds}) END AS until
       FROM (SELECT COALESCE((SELECT version FROM ledger_versions WHERE business_id = ?1), 0) AS version) v`,
    )
    .bind(businessId, JSON.stringify([...new Set(productIds)]), from, to, now.toISOString(), knownVersion);
}

/** A ledger this process read: D1's text, the version it was read at, and the request times it holds for. */
interface KnownLedger {
  version: number;
  text: string;
  /** The request time it was read for (ISO, as ledgerStatement compares expiries). */
  readAt: string;
  /** Its earliest hold's expiry: from then on a hold it counts has lapsed. */
  until: string | null;
}

/** Kept ledgers by business, products and dates; a ledger over 64 kB (a year of many products) is not kept. */
const knownLedgers = new Memo<KnownLedger>(128, 4096);
const MAX_KEPT_LEDGER = 64 * 1024;

export interface LedgerRead {
  /** The statement to send with the request's other reads. */
  statement: D1PreparedStatement;
  /** The ledger's JSON text for this request, from the statement's result. */
  text(result: D1Result | undefined): string;
}

/**
 * The live ledger read of a request (availability, a package's items or rooms). When this process
 * already holds the ledger of the same products and dates, read at a version D1 still confirms
 * and still valid at this request's time (no hold it counts has expired since, and the request is
 * not earlier than the read), D1 answers the version alone and the held text is used: the same as
 * reading it again, since any write in between changed the version. Otherwise D1 answers the
 * ledger, which is kept for the next request.
 */
export function ledgerRead(db: D1, businessId: number, productIds: number[], from: string, to: string, now: Date): LedgerRead {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const key = `${businessId}|${ids.join(",")}|${from}|${to}`;
  const at = now.toISOString();
  const known = knownLedgers.peek(key);
  const usable = known && known.readAt <= at && (known.until === null || known.until > at) ? known : undefined;
  return {
    statement: ledgerStatement(db, businessId, ids, from, to, now, usable?.version ?? null),
    text(result) {
      const row = result?.results[0] as { version: number; ledger: string | null; until: string | null } | undefined;
      if (!row) return "";
      if (row.ledger === null) {
        if (!usable) throw new Error("D1 left out a ledger this process does not hold");
        return usable.text;
      }
      if (row.ledger.length <= MAX_KEPT_LEDGER) knownLedgers.set(key, { version: row.version, text: row.ledger, readAt: at, until: row.until });
      return row.ledger;
    },
  };
}

type LedgerEntry = [productId: number, date: string, slot: string, capacity: number | null, blocked: number, allocated: number | null];

/**
 * The ledgers of a ledger text (LedgerRead.text), one per product asked for; `today` (the
 * business's date) closes every date before it (Ledger.closedBefore).
 */
export function toLedgers(productIds: number[], text: string, today?: string): Map<number, Ledger> {
  const out = new Map<number, Ledger>();
  const fresh = (): Ledger => ({ ...emptyLedger(), closedBefore: today });
  for (const id of productIds) out.set(id, fresh());
  for (const [productId, date, slot, capacity, blocked, allocated] of JSON.parse(text || "[]") as LedgerEntry[]) {
    const ledger = out.get(productId) ?? fresh();
    out.set(productId, ledger);
    const key = ledgerKey(date, slot);
    if (allocated === null) ledger.inventory.set(key, { capacity: capacity ?? 0, blocked: blocked === 1 });
    else ledger.allocated.set(key, (ledger.allocated.get(key) ?? 0) + Number(allocated));
  }
  return out;
}

