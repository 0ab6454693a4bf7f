/**
 * Webhook signing per the Standard Webhooks convention, and the rules for target URLs.
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

const LOOPBACK_NAMES = /^(localhost|.*\.localhost)$/i;

/** True for an IPv4 address in a private, loopback, link-local, CGNAT or otherwise non-public range. */
function nonPublicIpv4(host: string): boolean | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.test(host) || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
}

/**
 * Where a webhook may point: https on a public host. Names that are local by definition
 * (localhost, .local, .internal, single labels) and private, loopback and link-local addresses
 * are refused. With `allowLoopback` (local development) http and https on loopback are allowed.
 * (A public name that resolves to a private address cannot be checked here: Workers have no DNS
 * API; Cloudflare's network does not route such fetches to private networks.)
 */
export function checkWebhookUrl(raw: string, allowLoopback: boolean): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "must be an absolute URL" };
  }
  if (url.username || url.password) return { ok: false, message: "must not carry credentials" };
  const host = url.hostname.toLowerCase();
  if (allowLoopback && isLoopback(host) && (url.protocol === "http:" || url.protocol === "https:")) return { ok: true, url: url.toString() };
  if (url.protocol !== "https:") return { ok: false, message: "must use https" };
  if (isLoopback(host)) return { ok: false, message: "must not point to a loopback address" };
  if (host.startsWith("[")) {
    const v6 = host.slice(1, -1);
    if (v6 === "::" || /^(fc|fd|fe8|fe9|fea|feb)/.test(v6) || v6.startsWith("::ffff:") || v6 === "::1") {
      return { ok: false, message: "must not point to a private, loopback or link-local address" };
    }
    return { ok: true, url: url.toString() };
  }
  const v4 = nonPublicIpv4(host);
  if (v4 === true) return { ok: false, message: "must not point to a private, loopback or link-local address" };
  if (v4 === null && (!host.includes(".") || /\.(local|internal|lan|home|corp|localdomain)$/.test(host))) {
    return { ok: false, message: "must be a public host name" };
  }
  return { ok: true, url: url.toString() };
}
