import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { addressKey } from "../src/domain/ip-address";
import { BASE, createBusiness } from "./helpers";

// A widget visitor's budgets (rate limit, open carts, held units) are keyed by who the visitor is:
// CF-Connecting-IP only where the platform sets it, and an IPv6 visitor by its /64.

let seq = 0;
async function tinyBudget() {
  const slug = `visitor-${Date.now().toString(36)}-${++seq}`;
  await createBusiness(slug, { widget_allow_loopback: true, rate_limit_per_minute: 2 });
  return slug;
}

async function get(slug: string, headers: Record<string, string>, trust: "true" | "false") {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/widget/v1/${slug}/settings`, { headers: { Origin: "http://localhost:5173", ...headers } }),
    { ...env, TRUST_CF_CONNECTING_IP: trust },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  await res.arrayBuffer();
  return res.status;
}

/** A /64 no other test uses. */
const prefix = () => `2001:db8:${(++seq).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

describe("where the platform does not set CF-Connecting-IP (a local wrangler dev)", () => {
  it("a client-set CF-Connecting-IP does not reset the budget", async () => {
    const slug = await tinyBudget();
    const statuses = [];
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) statuses.push(await get(slug, { "CF-Connecting-IP": ip }, "false"));
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe("where it does (deployed)", () => {
  it("each IPv4 address has its own budget, and X-Real-IP chooses none", async () => {
    const slug = await tinyBudget();
    const a = `203.0.113.${100 + (seq % 100)}`;
    expect([await get(slug, { "CF-Connecting-IP": a }, "true"), await get(slug, { "CF-Connecting-IP": a }, "true"), await get(slug, { "CF-Connecting-IP": a }, "true")]).toEqual([200, 200, 429]);
    expect(await get(slug, { "CF-Connecting-IP": `198.18.0.${seq % 200}` }, "true")).toBe(200);
    const slug2 = await tinyBudget();
    const real = [];
    const visitor = `192.0.2.${10 + (seq % 200)}`;
    for (const ip of ["192.0.2.250", "192.0.2.251", "192.0.2.252"]) real.push(await get(slug2, { "X-Real-IP": ip, "CF-Connecting-IP": visitor }, "true"));
    expect(real).toEqual([200, 200, 429]);
  });

  it("every address of one IPv6 /64 shares one budget; another /64 has its own", async () => {
    const slug = await tinyBudget();
    const p = prefix();
    const statuses = [];
    for (const ip of [`${p}::1`, `${p}:ffff:ffff:ffff:ffff`, `${p}:abcd::9`]) statuses.push(await get(slug, { "CF-Connecting-IP": ip }, "true"));
    expect(statuses).toEqual([200, 200, 429]);
    expect(await get(slug, { "CF-Connecting-IP": `${prefix()}::1` }, "true")).toBe(200);
  });
});

describe("addressKey", () => {
  it("keys IPv4 by address, IPv6 by /64, IPv4-mapped IPv6 as IPv4, and refuses what is no address", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:DB8:0001:0002:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("[2001:db8::1]")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
    for (const bad of ["", "local", "999.1.1.1", "1.2.3", "2001:db8::1::2", "garbage"]) expect([bad, addressKey(bad)]).toEqual([bad, null]);
  });
});
