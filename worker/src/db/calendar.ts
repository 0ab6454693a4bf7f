import type { D1 } from "./d1";
/** The back office's calendar: per product and date, capacity, blocked, held and booked units (slots summed). */

export interface CalendarProduct {
  id: number;
  title: string;
  type: string;
  default_capacity: number | null;
  timeslots: string;
  is_on_timeslots: number;
}

export interface CalendarCell {
  product_id: number;
  date: string;
  /** Units of the date (summed over its slots) from inventory rows; null: the product's default. */
  capacity: number | null;
  /** Slots of the date that are blocked, of those with an inventory row. */
  blocked: number;
  booked: number;
  held: number;
}

/** Products of the business, and the cells of [from, to] that have inventory, bookings or holds: ONE round trip. */
export async function calendarRows(db: D1, businessId: number, from: string, to: string, now: Date): Promise<{ products: CalendarProduct[]; cells: CalendarCell[] }> {
  const window = "business_id = ?1 AND date BETWEEN ?2 AND ?3";
  const [products, cells] = await db.batch([
    db.prepare("SELECT id, backoffice_title AS title, type, default_capacity, timeslots, is_on_timeslots FROM products WHERE business_id = ? ORDER BY type = 'package' DESC, type, id").bind(businessId),
    db
      .prepare(
        `SELECT product_id, date, SUM(capacity) AS capacity, SUM(blocked) AS blocked, SUM(booked) AS booked, SUM(held) AS held FROM (
           SELECT product_id, date, CASE WHEN blocked = 1 THEN 0 ELSE capacity END AS capacity, blocked, 0 AS booked, 0 AS held FROM inventory WHERE ${window}
           UNION ALL
           SELECT product_id, date, NULL, 0, qty, 0 FROM booked_units WHERE ${window} AND qty <> 0
           UNION ALL
           SELECT product_id, date, NULL, 0, 0, qty FROM allocations INDEXED BY allocations_holds
            WHERE ${window} AND released_at IS NULL AND booking_id IS NULL AND expires_at > ?4
         ) GROUP BY product_id, date`,
      )
      .bind(businessId, from, to, now.toISOString()),
  ]);
  return { products: products.results as unknown as CalendarProduct[], cells: cells.results as unknown as CalendarCell[] };
}

/** Capacity that stands for "no limit" in an inventory row (the allocation trigger's own stand-in). */
export const UNLIMITED = 1_000_000_000;
