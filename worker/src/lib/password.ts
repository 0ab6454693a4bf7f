/**
 * Staff passwords: PBKDF2-HMAC-SHA256 through WebCrypto, a 16-byte random salt per user, 100,000
 * iterations, 32-byte hash, stored as "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>".
 *
 * Why 100,000: it is the most workerd (and Cloudflare Workers) will run: deriveBits refuses a
 * higher count (cloudflare/workerd#1346), since the runtime cannot interrupt BoringSSL while it
 * hashes. OWASP asks 600,000 for PBKDF2-SHA256; what makes up for it here is that sign-in is
 * rate limited per account and per address (manage/staff.ts), so the hash matters only for a
 * stolen database. It costs about 30-60 ms of CPU per sign-in: fine on the Workers Paid plan (30 s
 * of CPU per request by default), too much for the Free plan's 10 ms. The count is stored with each
 * hash, so a later runtime that allows more can raise it and rehash at the next sign-in.
 */
import { COMMON_PASSWORDS } from "./common-passwords";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

let common: Set<string> | undefined;

/**
 * What is wrong with a new password, or null (NIST SP 800-63B 3.1.1.2): at least PASSWORD_MIN
 * characters, any characters allowed and no composition rule, but not one of the most common
 * passwords (lib/common-passwords.ts), not one character or a few repeated ("aaaaaaaaaa",
 * "abcabcabca", ten spaces), not a run of consecutive characters ("1234567890", "abcdefghij"),
 * and not the user's own e-mail address or the business's name with a few characters added.
 * `context`: those words (an address counts with its part before the @).
 */
export function passwordProblem(password: string, context: (string | null | undefined)[] = []): string | null {
  const chars = [...password];
  if (chars.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (chars.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  const lower = password.toLowerCase();
  if (new Set(chars).size < 4) return "repeats too few characters: choose a longer phrase";
  const steps = chars.slice(1).map((ch, i) => ch.codePointAt(0)! - chars[i].codePointAt(0)!);
  if (steps.every((s) => s === 1) || steps.every((s) => s === -1)) return "is a run of consecutive characters";
  common ??= new Set(COMMON_PASSWORDS.split("\n"));
  if (common.has(lower)) return "is one of the most common passwords";
  const words = context.flatMap((w) => (w ? [w.toLowerCase(), w.toLowerCase().split("@")[0]] : [])).filter((w) => w.length >= 4);
  for (const word of words) {
    if (lower.includes(word) && lower.length - word.length < 6) return "is too close to your e-mail address or the business's name";
  }
  return null;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

/** A new hash of `password` with a fresh salt. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `pbkdf2-sha256$${iterations}$${b64(salt)}$${b64(await derive(password, salt, iterations))}`;
}

/** Equal bytes, in a time that does not depend on where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Does `password` match `stored`? A missing or malformed hash is checked against a dummy one, so
 * that a wrong e-mail costs the same time as a wrong password (one answer for both).
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const m = /^pbkdf2-sha256\$(\d{1,7})\$([A-Za-z0-9+/=]{4,64})\$([A-Za-z0-9+/=]{4,128})$/.exec(stored ?? "");
  const iterations = m ? Number(m[1]) : PBKDF2_ITERATIONS;
  const usable = m !== null && iterations >= 1_000 && iterations <= PBKDF2_ITERATIONS;
  const salt = usable ? unb64(m[2]) : new Uint8Array(SALT_BYTES);
  const expected = usable ? unb64(m[3]) : new Uint8Array(HASH_BITS / 8);
  const actual = await derive(password, salt, usable ? iterations : PBKDF2_ITERATIONS);
  return usable && sameBytes(actual, expected);
}

/** A hash made with fewer iterations than today's: rehash it at the next successful sign-in. */
export const needsRehash = (stored: string) => !stored.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`);

/** A random token (cookies, links), 32 bytes as base64url. */
export function randomToken(): string {
  return b64(crypto.getRandomValues(new Uint8Array(32))).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
