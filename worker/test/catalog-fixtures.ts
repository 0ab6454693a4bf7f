/**
 * Dates for the catalog tests, derived from the year after the current one so the tests keep
 * working as time passes (the demo seeds seasons and Christmas blocks from last year to two
 * years ahead).
 */
import { env } from "cloudflare:test";
import { addDays, daysBetween, weekday } from "../src/lib/time";
import { dbOf } from "./helpers";

export const Y = new Date().getUTCFullYear() + 1;

/** The first Saturday on or after a date. */
export function saturdayFrom(date: string): string {
  let d = date;
  while (weekday(d) !== "sat") d = addDays(d, 1);
  return d;
}

/** A Saturday in May: base rates only (no season covers May). */
export const MAY_SAT = saturdayFrom(`${Y}-05-01`);
/** A Saturday whose 14-night stay always crosses into high season (from June 15th, inclusive). */
export const JUNE_SAT = saturdayFrom(`${Y}-06-02`);
/** Nights of that fortnight before high season starts (7 to 13). */
export const JUNE_BASE_NIGHTS = daysBetween(JUNE_SAT, `${Y}-06-15`);
/** A Saturday whose week would include the Christmas closure (Dec 24–25 are blocked). */
export const DEC_SAT = saturdayFrom(`${Y}-12-18`);

/** Insert a live allocation straight in D1, as a cart hold (expires_at) or a booking would. */
export async function allocate(a: { product: number; date: string; qty: number; slot?: string; expiresAt?: string; booking?: string; released?: boolean; business?: number }) {
  await (await dbOf(a.business ?? 1)).prepare(
    `INSERT INTO allocations (business_id, product_id, date, slot, qty, cart_id, booking_id, expires_at, released_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      a.business ?? 1, a.product, a.date, a.slot ?? "", a.qty,
      a.booking ? null : `test-cart-${crypto.randomUUID()}`, a.booking ?? null, a.booking ? null : (a.expiresAt ?? "2999-01-01T00:00:00.000Z"),
      a.released ? "2020-01-01T00:00:00.000Z" : null, "2020-01-01T00:00:00.000Z",
    )
    .run();
}
