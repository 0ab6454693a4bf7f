/**
 * How many octets text takes in UTF-8, counted from its code points (what TextEncoder would write,
 * a lone surrogate as U+FFFD's three), without making an encoder and a buffer for it.
 */

/** The octets of one code point. */
export const utf8Octets = (codePoint: number): number => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/** The octets of `text` (a lone surrogate is its own code point, which utf8Octets counts as three). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) n += utf8Octets(ch.codePointAt(0)!);
  return n;
}
