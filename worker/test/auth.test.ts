import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, dbOf, fetchWorker } from "./helpers";

describe("API keys", () => {
  it("lets a public key read its business's settings", async () => {
    const key = await createKey("public");
    const res = await callJson("/api/pub/v2/settings", { key });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Blue Wave Surf & Yoga Camp");
    expect(res.body.currencies.map((c: any) => c.iso_code)).toEqual(["EUR", "USD"]);
    expect(res.body.languages).toEqual(["en", "de", "es"]);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
  });

  it.each([
    ["no header", undefined],
    ["not bearer", "Basic abc"],
    ["malformed token", "Bearer not-a-jwt"],
    ["forged signature", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiJ4IiwiYmlkIjoxLCJzY29wZSI6InB1YmxpYyJ9.c2lnbmF0dXJl"],
  ])("answers 401 problem+json with WWW-Authenticate for %s", async (_name, header) => {
    const res = await callJson("/api/pub/v2/settings", { headers: header ? { Authorization: header } : {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("stops a revoked key at once", async () => {
    const key = await createKey("public", undefined, "to-revoke");
    expect((await callJson("/api/pub/v2/settings", { key })).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = 'to-revoke'").bind(new Date().toISOString()).run();
    const res = await callJson("/api/pub/v2/settings", { key });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it("refuses a key whose record was deleted (unknown key)", async () => {
    const key = await createKey("public", undefined, "to-delete");
    await env.DB.prepare("DELETE FROM api_keys WHERE name = 'to-delete'").run();
    expect((await callJson("/api/pub/v2/settings", { key })).status).toBe(401);
  });

  it("answers 403 to a private key on a public route", async () => {
    const key = await createKey("private");
    const res = await callJson("/api/pub/v2/settings", { key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });

  it("gives another business's key that business's settings only", async () => {
    const other = await createBusiness("other-camp");
    const key = await createKey("public", other);
    const res = await callJson("/api/pub/v2/settings", { key });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(other);
    expect(res.body.title).toBe("Business other-camp");
  });
});

describe("HTTPS rule", () => {
  it("refuses plain HTTP on a public host with problem+json", async () => {
    const key = await createKey("public");
    const res = await fetchWorker("http://api.example.com/api/pub/v2/settings", { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(403);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(((await res.json()) as any).code).toBe("https_required");
  });

  it("serves HTTPS on a public host", async () => {
    const key = await createKey("public");
    const res = await fetchWorker("https://api.example.com/api/pub/v2/settings", { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});

describe("rate limit", () => {
  it("a stored limit that is no valid limit, or settings that are not JSON at all, count as the default (600): the key is served, not refused or failed", async () => {
    const now = "2026-11-21T10:00:30Z";
    for (const [slug, config] of [["limit-text", JSON.stringify({ rate_limit_per_minute: "many" })], ["limit-broken", "{not json"]] as const) {
      const biz = await createBusiness(slug, { rate_limit_per_minute: 3 });
      const key = await createKey("public", biz);
      await (await dbOf(biz)).prepare("UPDATE businesses SET config = ? WHERE id = ?").bind(config, biz).run();
      for (let i = 0; i < 5; i++) {
        const res = await callJson("/api/pub/v2/settings", { key, now });
        expect(res.status).toBe(200);
        expect(res.headers.get("RateLimit-Limit")).toBe("600");
      }
    }
  });

  it("answers 429 with Retry-After past the business's limit", async () => {
    const biz = await createBusiness("tiny-limit", { rate_limit_per_minute: 3 });
    const key = await createKey("public", biz);
    const now = "2026-11-21T10:00:30Z";
    for (let i = 0; i < 3; i++) expect((await callJson("/api/pub/v2/settings", { key, now })).status).toBe(200);
    const res = await callJson("/api/pub/v2/settings", { key, now });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(Number(res.headers.get("Retry-After"))).toBe(30);
    // The next window admits the key again.
    expect((await callJson("/api/pub/v2/settings", { key, now: "2026-11-21T10:01:00Z" })).status).toBe(200);
  });
});
