/** Where a webhook may point: the rules for target URLs. */

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
