/**
 * Webhook signing per the Standard Webhooks convention (target URLs: webhook-urls.ts).
 *
 * Secret: `whsec_` followed by the base64 of 32 random bytes; the signing key is those bytes.
 * Headers of every delivery: `webhook-id` (the event id, the same on every retry),
 * `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`.
 */

import { Webhook } from "standardwebhooks";

export const SECRET_PREFIX = "whsec_";

/** Seconds to wait after failed attempt n (1-based) before attempt n + 1; 10 attempts in all. */
export const RETRY_BACKOFF_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_SECONDS.length + 1;

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function generateSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** `v1,<base64 signature>` of one delivery attempt (the `standardwebhooks` package signs). */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}
