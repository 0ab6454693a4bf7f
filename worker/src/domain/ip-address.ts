/** IP address text, parsed: what the webhook rules and the widget's visitor identity share. */

/** The four octets of a dotted-quad IPv4 address, or null. */
export function ipv4Octets(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address (without brackets), or null when it is not one. */
export function ipv6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  // An embedded dotted IPv4 (::ffff:127.0.0.1) is two groups.
  const dotted = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (dotted) {
    const o = ipv4Octets(dotted[1]);
    if (!o) return null;
    s = `${s.slice(0, -dotted[1].length)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if ([...head, ...tail].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail].map((g) => parseInt(g, 16));
}


/**
 * The key of a visitor's address for per-visitor budgets: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4), an IPv6 address as its /64 prefix ("2001:db8:1:2::/64"),
 * since one subscriber is routinely given a whole /64 and can send from any address in it.
 * Null when `text` is no IP address.
 */
export function addressKey(text: string): string | null {
  const raw = text.trim();
  const v4 = ipv4Octets(raw);
  if (v4) return v4.join(".");
  const g = ipv6Groups(raw.replace(/^\[|\]$/g, ""));
  if (!g) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".");
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(":")}::/64`;
}
