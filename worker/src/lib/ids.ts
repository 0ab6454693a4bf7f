/**
 * Ids of the rows this service creates: UUIDs of version 7 (RFC 9562), whose first 48 bits are the
 * creation time in milliseconds and the other 74 random. Rows made one after the other then sit
 * side by side in every index keyed by their id (a cart's, its holds', its booking's, a person's),
 * so a write appends to the end of each index instead of touching a page anywhere in it: the
 * pages a write dirties, and the pages a busy database must keep in memory, stay few however many
 * rows there are. 74 random bits are still far beyond guessing (a cart id opens the cart to the
 * widget's door); the time they tell is the row's created_at, which the row shows anyway.
 */
export function newId(now = Date.now()): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  // 48-bit big-endian milliseconds.
  const high = Math.floor(now / 2 ** 32);
  const low = now >>> 0;
  b[0] = (high >>> 8) & 0xff;
  b[1] = high & 0xff;
  b[2] = (low >>> 24) & 0xff;
  b[3] = (low >>> 16) & 0xff;
  b[4] = (low >>> 8) & 0xff;
  b[5] = low & 0xff;
  b[6] = (b[6] & 0x0f) | 0x70; // version 7
  b[8] = (b[8] & 0x3f) | 0x80; // variant 10
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
