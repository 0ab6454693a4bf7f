/**
 * Allocations: units of one product-date-slot held by a cart (expires_at set) or booked
 * (booking_id set). The `allocations_capacity` trigger refuses an INSERT beyond capacity, so the
 * statements here never check capacity in JavaScript: they put the check inside the batch.
 *
 * Every datetime written or compared here is `Date.toISOString()` (UTC, milliseconds): the
 * trigger (`expires_at > created_at`), the guards below, carts.expires_at and the availability
 * reads all compare these strings as text, so they must share one format.
 */
import { insertRowsStatements } from "./insert-rows";
import type { D1 } from "./d1";

/** The one text format of instants that allocations and carts compare. */
export const stamp = (d: Date): string => d.toISOString();

/** Units of one product on one date (and timeslot, '' when not on timeslots). */
export interface Hold {
  product_id: number;
  date: string;
  slot: string;
  qty: number;
}

/**
 * The INSERT of a cart's holds (expires_at), one row per product-date-slot, as ONE statement (a
 * request's holds are many: a week's package holds each night of each item). The trigger refuses
 * any row beyond capacity with 'sold_out', aborting the whole batch: every night and every item,
 * or nothing. The writer's `now` goes into created_at: the trigger counts only holds live at that
 * time. No statement when nothing is held.
 */
export function holdStatements(
  db: D1,
  businessId: number,
  cartId: string,
  holds: Hold[],
  now: Date,
  expiresAt: Date,
): D1PreparedStatement[] {
  return insertRowsStatements(
    db,
    "allocations",
    { business_id: businessId, cart_id: cartId, expires_at: stamp(expiresAt), created_at: stamp(now) },
    ["product_id", "date", "slot", "qty"],
    mergeHolds(holds).map((h) => [h.product_id, h.date, h.slot, h.qty]),
  );
}

/** One hold per product-date-slot: several guests on one night count together. */
export function mergeHolds(holds: Hold[]): Hold[] {
  const merged = new Map<string, Hold>();
  for (const h of holds) {
    if (h.qty <= 0) continue;
    const key = `${h.product_id}|${h.date}|${h.slot ?? ""}`;
    const seen = merged.get(key);
    if (seen) seen.qty += h.qty;
    else merged.set(key, { product_id: h.product_id, date: h.date, slot: h.slot ?? "", qty: h.qty });
  }
  return [...merged.values()];
}

/** UPDATE that releases a booking's allocations (a cancelled booking frees its units at once). */
export function releaseBookingStatement(db: D1, businessId: number, bookingId: string, now: Date): D1PreparedStatement {
  return db
    .prepare("UPDATE allocations SET released_at = ? WHERE business_id = ? AND booking_id = ? AND released_at IS NULL")
    .bind(stamp(now), businessId, bookingId);
}

/**
 * UPDATE that releases the holds of a cart once it is abandoned (put it after the UPDATE that
 * abandons the cart, in the same batch). Idempotent, and harmless for a cart still open.
 */
export function releaseCartHoldsStatement(db: D1, businessId: number, cartId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE allocations SET released_at = ?1 WHERE business_id = ?2 AND cart_id = ?3 AND booking_id IS NULL AND released_at IS NULL
          AND EXISTS (SELECT 1 FROM carts c WHERE c.id = ?3 AND c.business_id = ?2 AND c.status = 'abandoned')`,
    )
    .bind(stamp(now), businessId, cartId);
}

/** UPDATE that moves a cart's live holds to a new expiry (extend). */
export function extendCartHoldsStatement(db: D1, businessId: number, cartId: string, expiresAt: Date): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE allocations SET expires_at = ? WHERE business_id = ? AND cart_id = ? AND booking_id IS NULL AND released_at IS NULL",
    )
    .bind(stamp(expiresAt), businessId, cartId);
}

/** UPDATE that turns a cart's live holds into booking allocations (booking_id set, no expiry). */
export function convertHoldsStatement(db: D1, businessId: number, cartId: string, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE allocations SET booking_id = ?, expires_at = NULL
        WHERE business_id = ? AND cart_id = ? AND booking_id IS NULL AND released_at IS NULL`,
    )
    .bind(bookingId, businessId, cartId);
}

export interface Shortage extends Hold {
  title: string;
  available: number;
}

/**
 * Units taken of product `p.id` on date ?2, slot ?3 at instant ?4: its bookings' kept total plus
 * its unexpired holds — the sum the allocations_capacity trigger subtracts (migration 0090).
 */
const USED_UNITS_SQL = `(COALESCE((SELECT b.qty FROM booked_units b WHERE b.product_id = p.id AND b.date = ?2 AND b.slot = ?3), 0)
   + (SELECT COALESCE(SUM(a.qty), 0) FROM allocations a
       WHERE a.product_id = p.id AND a.date = ?2 AND a.slot = ?3 AND a.released_at IS NULL AND a.booking_id IS NULL AND a.expires_at > ?4))`;

/**
 * Which of `holds` cannot be met at `now` (capacity minus live allocations, computed exactly as
 * the trigger does). Used after a 'sold_out' abort to tell the buyer what is sold out; the
 * answer is an explanation, the trigger remains the only judge.
 */
export async function findShortages(db: D1, businessId: number, holds: Hold[], now: Date): Promise<Shortage[]> {
  const wanted = mergeHolds(holds);
  if (wanted.length === 0) return [];
  const at = stamp(now);
  const rows = await db.batch<{ title: string; capacity: number; used: number }>(
    wanted.map((h) =>
      db
        .prepare(
          `SELECT p.title AS title,
             COALESCE((SELECT CASE WHEN i.blocked = 1 THEN 0 ELSE i.capacity END FROM inventory i
                        WHERE i.product_id = p.id AND i.date = ?2 AND i.slot = ?3),
                      COALESCE(p.default_capacity, 1000000000)) AS capacity,
             ${USED_UNITS_SQL} AS used
           FROM products p WHERE p.id = ?1 AND p.business_id = ?5`,
        )
        .bind(h.product_id, h.date, h.slot, at, businessId),
    ),
  );
  const out: Shortage[] = [];
  wanted.forEach((h, i) => {
    const row = rows[i].results[0];
    const available = row ? Math.max(0, row.capacity - row.used) : 0;
    if (available < h.qty) out.push({ ...h, title: row?.title ?? `product ${h.product_id}`, available });
  });
  return out;
}
