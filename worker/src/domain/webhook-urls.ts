/**
 * Where a webhook may point: the rules for target URLs (docs/security.md lists what is refused).
 *
 * The host is normalised before any rule looks at it: the URL parser has already decoded
 * percent-escapes (localhost%2e), turned IDN names into punycode and every IPv4 spelling
 * (2130706433, 0x7f.1, 127.1) into a dotted quad, and compressed IPv6; here trailing dots go
 * (localhost. is localhost) and case is folded. Then:
 * - https only (http and https on loopback when `allowLoopback`, for local development);
 * - no credentials in the URL;
 * - no name that is local by definition: single labels, localhost and *.localhost, special-use
 *   and private-use suffixes (.local, .internal, .test, .home.arpa, ...);
 * - no name that spells a non-public IPv4 address for a wildcard DNS service (127.0.0.1.nip.io,
 *   10-0-0-1.sslip.io, app.7f000001.nip.io), and none of those services at all;
 * - no IPv4 address in a non-public range (private, loopback, link-local, CGNAT, benchmarking,
 *   documentation, multicast, reserved);
 * - no IPv6 address outside global unicast (2000::/3), which refuses loopback, unspecified,
 *   IPv4-mapped and IPv4-compatible forms, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard-only,
 *   unique-local, site-local, link-local and multicast; and within it none of the IETF protocol
 *   block (2001::/23, Teredo included), documentation (2001:db8::/32, 3fff::/20) or 6to4
 *   (2002::/16, which can name any IPv4 address).
 * A public name that resolves to a private address cannot be checked here (Workers have no DNS
 * API); Cloudflare's network does not route a Worker's fetch to private networks.
 */

import { ipv4Octets, ipv6Groups } from "./ip-address";

export { ipv6Groups };

type Check = { ok: true; url: string } | { ok: false; message: string };

const NON_GLOBAL = "must not point to a private, loopback, link-local or otherwise non-public address";

/** Suffixes that never name a public host (RFC 6761, RFC 6762, RFC 8375, private use in practice). */
const LOCAL_SUFFIXES = [
  "localhost", "local", "internal", "intranet", "private", "lan", "home", "corp", "localdomain", "test", "invalid", "example",
  "onion", "alt", "home.arpa", "arpa",
];

/** Wildcard DNS services whose names resolve to the address they spell (127.0.0.1.nip.io). */
const ADDRESS_ECHO_DOMAINS = ["nip.io", "sslip.io", "xip.io", "traefik.me", "localtest.me", "lvh.me", "vcap.me", "lacolhost.com"];

/** True for an IPv4 address in a non-public range (IANA's special-purpose registry). */
export function nonPublicIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 192 && b === 88 && c === 99) ||
    (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) || a >= 224
  );
}

/** True unless the IPv6 address is global unicast outside the special-purpose blocks. */
export function nonGlobalIpv6(g: number[]): boolean {
  if ((g[0] & 0xe000) !== 0x2000) return true; // outside 2000::/3: ::1, ::, ::ffff:0:0/96, ::/96, 64:ff9b::/96, 100::/64, fc00::/7, fe80::/10, fec0::/10, ff00::/8
  if (g[0] === 0x2001 && g[1] < 0x0200) return true; // 2001::/23 IETF protocol assignments (Teredo 2001::/32, ORCHID, benchmarking)
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // 2001:db8::/32 documentation
  if (g[0] === 0x2002) return true; // 2002::/16 6to4: names any IPv4 address
  if ((g[0] & 0xfff0) === 0x3ff0) return true; // 3fff::/20 documentation
  return false;
}

/** A non-public IPv4 address spelled inside a host name (dotted, dashed, or as 8 hex digits in one label). */
function spellsNonPublicIpv4(host: string): boolean {
  const labels = host.split(".");
  for (let i = 0; i + 4 <= labels.length; i++) {
    const o = ipv4Octets(labels.slice(i, i + 4).join("."));
    if (o && nonPublicIpv4(o)) return true;
  }
  for (const label of labels) {
    for (const m of label.matchAll(/(?:^|[^0-9])(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(?![0-9])/g)) {
      const o = ipv4Octets(m.slice(1, 5).join("."));
      if (o && nonPublicIpv4(o)) return true;
    }
    for (const m of label.matchAll(/(?:^|-)([0-9a-f]{8})(?:$|-)/g)) {
      const n = parseInt(m[1], 16);
      if (nonPublicIpv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])) return true;
    }
  }
  return false;
}

const endsWithDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

function isLoopbackHost(host: string): boolean {
  if (endsWithDomain(host, "localhost")) return true;
  const v4 = ipv4Octets(host);
  if (v4) return v4[0] === 127;
  if (host.startsWith("[")) {
    const g = ipv6Groups(host.slice(1, -1));
    return !!g && g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
  }
  return false;
}

/** Why the (normalised) host may not receive webhooks, or null when it may. */
function hostRefusal(host: string): string | null {
  if (host.startsWith("[")) {
    const g = ipv6Groups(host.slice(1, -1));
    if (!g) return "must be a public host name";
    return nonGlobalIpv6(g) ? NON_GLOBAL : null;
  }
  const v4 = ipv4Octets(host);
  if (v4) return nonPublicIpv4(v4) ? NON_GLOBAL : null;
  if (host === "" || !host.includes(".")) return "must be a public host name";
  if (LOCAL_SUFFIXES.some((s) => endsWithDomain(host, s))) return "must be a public host name";
  if (ADDRESS_ECHO_DOMAINS.some((d) => endsWithDomain(host, d)) || spellsNonPublicIpv4(host)) {
    return "must not be a name that stands for an address (wildcard DNS such as nip.io); use the receiver's own public name";
  }
  return null;
}

/** Whether `raw` may be a webhook's target (see the module comment), and the URL as stored. */
export function checkWebhookUrl(raw: string, allowLoopback: boolean): Check {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "must be an absolute URL" };
  }
  if (url.username || url.password) return { ok: false, message: "must not carry credentials" };
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  const loopback = isLoopbackHost(host);
  if (allowLoopback && loopback && (url.protocol === "http:" || url.protocol === "https:")) return { ok: true, url: url.toString() };
  if (url.protocol !== "https:") return { ok: false, message: "must use https" };
  if (loopback) return { ok: false, message: "must not point to a loopback address" };
  const refusal = hostRefusal(host);
  return refusal ? { ok: false, message: refusal } : { ok: true, url: url.toString() };
}
