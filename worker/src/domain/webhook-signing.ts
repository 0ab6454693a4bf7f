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

/** The retry schedule, shared with the e-mails' delivery (domain/backoff.ts). */
export { MAX_ATTEMPTS, RETRY_BACKOFF_SECONDS } from "./backoff";

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
