import { v7 } from "uuid";

/**
 * Ids of the rows this service creates: UUIDs of version 7 (RFC 9562, made by the `uuid` package),
 * whose first 48 bits are the creation time in milliseconds and the rest random. Rows made one
 * after the other then sit side by side in every index keyed by their id (a cart's, its holds',
 * its booking's, a person's), so a write appends to the end of each index instead of touching a
 * page anywhere in it: the pages a write dirties, and the pages a busy database must keep in
 * memory, stay few however many rows there are. The random bits are still far beyond guessing (a
 * cart id opens the cart to the widget's door); the time they tell is the row's created_at, which
 * the row shows anyway.
 */
export function newId(now = Date.now()): string {
  return v7({ msecs: now });
}
