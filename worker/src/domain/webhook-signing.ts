/**
 * Webhook signing per the Standard Webhooks convention (target URLs: webhook-urls.ts).
 *
 * Secret: `whsec_` followed by the base64 of 32 random bytes; the signing key is those bytes.
 * Headers of every delivery: `webhook-id` (the event id, the same on every retry),
 * `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`.
 */

export const SECRET_PREFIX = "whsec_";

/** Seconds to wait after failed attempt n (1-based) before attempt n + 1; 10 attempts in all. */
export const RETRY_BACKOFF_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_SECONDS.length + 1;

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const s = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function generateSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** `v1,<base64 signature>` of one delivery attempt. */
export async function signPayload(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const keyBytes = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
