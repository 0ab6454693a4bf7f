import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID, nextWeekday } from "./helpers";

// Catalog answers come from a snapshot each process keeps in memory, checked against the
// business's catalog_version in the same D1 round trip as the API key (db/tenant-read.ts).
// What a client must never notice: a stale catalog, a revoked key that still reads, or a rate
// limit that lets more through than it says.

const revoke = (name: string) => env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = ?").bind(new Date().toISOString(), name).run();

describe("catalog snapshot: a change to the catalog shows on the next request", () => {
  it("sees a product renamed, a rate changed and a language added straight in D1", async () => {
    const biz = await createBusiness("snapshot-camp");
    const product = (await env.DB.prepare(
      `INSERT INTO products (business_id, type, title, backoffice_title, is_promoted, duration, created_at)
       VALUES (?, 'activity', 'Surf lesson', 'Surf lesson', 1, '{"is_flexible":false,"min":1,"default":1,"unit":"day","variants":[]}', ?) RETURNING id`,
    )
      .bind(biz, new Date().toISOString())
      .first<{ id: number }>())!;
    await env.DB.prepare("INSERT INTO rates (business_id, product_id, amount_minor) VALUES (?, ?, 5000)").bind(biz, product.id).run();
    const key = await createKey("public", biz);
    const date = nextWeekday(3);

    const first = await callJson(`/api/pub/v2/products/${product.id}`, { key });
    expect(first.status).toBe(200);
    expect(first.body.title).toBe("Surf lesson");
    const price1 = await callJson(`/api/pub/v2/products/${product.id}/prices?start_date=${date}&pax=1`, { key });
    expect(price1.body.total_price).toBe(50);

    await env.DB.prepare("UPDATE products SET title = 'Surf class' WHERE id = ?").bind(product.id).run();
    await env.DB.prepare("UPDATE rates SET amount_minor = 6500 WHERE product_id = ?").bind(product.id).run();
    expect((await callJson(`/api/pub/v2/products/${product.id}`, { key })).body.title).toBe("Surf class");
    expect((await callJson(`/api/pub/v2/products/${product.id}/prices?start_date=${date}&pax=1`, { key })).body.total_price).toBe(65);

    // German is not offered yet: the default language's texts come back, then German's once added.
    expect((await callJson(`/api/pub/v2/products?language=de`, { key })).headers.get("Content-Language")).toBe("en");
    await env.DB.prepare("UPDATE businesses SET config = json_set(config, '$.languages', json('[\"en\",\"de\"]')) WHERE id = ?").bind(biz).run();
    expect((await callJson(`/api/pub/v2/products?language=de`, { key })).headers.get("Content-Language")).toBe("de");

    await env.DB.prepare("DELETE FROM rates WHERE product_id = ?").bind(product.id).run();
    await env.DB.prepare("DELETE FROM products WHERE id = ?").bind(product.id).run();
    expect((await callJson(`/api/pub/v2/products/${product.id}`, { key })).status).toBe(404);
  });

  it("changes the version on every kind of catalog write, and not on inventory", async () => {
    const version = async () =>
      (await env.DB.prepare("SELECT catalog_version AS v FROM businesses WHERE id = ?").bind(DEMO_BUSINESS_ID).first<{ v: number }>())!.v;
    const writes = [
      "UPDATE currencies SET title = title WHERE business_id = 1",
      "UPDATE diets SET title = title WHERE business_id = 1",
      "UPDATE levels SET title = title WHERE business_id = 1",
      "UPDATE products SET title = title WHERE id = 101",
      "UPDATE rates SET amount_minor = amount_minor WHERE product_id = 101",
      "UPDATE seasons SET title = title WHERE business_id = 1",
      "UPDATE season_segments SET end_date = end_date WHERE season_id IN (SELECT id FROM seasons WHERE business_id = 1)",
      "UPDATE package_items SET sort = sort WHERE package_id = 101",
      "UPDATE package_groups SET is_configurable_dates = is_configurable_dates WHERE package_id = 101",
      "UPDATE businesses SET title = title WHERE id = 1",
    ];
    for (const sql of writes) {
      const before = await version();
      await env.DB.prepare(sql).run();
      expect(await version(), sql).not.toBe(before);
    }
    const before = await version();
    await env.DB.prepare("UPDATE inventory SET capacity = capacity WHERE business_id = 1").run();
    expect(await version()).toBe(before);
  });
});

describe("reads carry the key check: a revoked key stops at once", () => {
  it("refuses every catalog read, and the package price quote, the moment the key is revoked", async () => {
    const name = `snapshot-revoke-${Date.now()}`;
    const key = await createKey("public", DEMO_BUSINESS_ID, name);
    const sat = MAY_SAT; // a Saturday of the demo seasons
    const reads = [
      "/api/pub/v2/settings",
      "/api/pub/v2/products",
      "/api/pub/v2/products/101",
      "/api/pub/v2/seasons",
      `/api/pub/v2/products/101/availabilities?start_date=${sat}`,
      "/api/pub/v2/products/availabilities",
      `/api/pub/v2/packages/101?start_date=${sat}&duration=7`,
      `/api/pub/v2/packages/101/accommodations?start_date=${sat}&duration=7&males=1&females=0&couples=0`,
      `/api/pub/v2/products/101/prices?start_date=${sat}&pax=2`,
      "/api/pub/v2/products/101/deeplink",
    ];
    for (const path of reads) expect((await callJson(path, { key })).status, path).toBe(200);
    await revoke(name);
    for (const path of reads) {
      const res = await callJson(path, { key });
      expect(res.status, path).toBe(401);
      expect(res.body.detail).toMatch(/revoked/);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    }
    const quote = await callJson("/api/pub/v2/packages/prices", {
      key,
      body: { currency: "EUR", guests: [{ unique_id: "a", gender: "m", package: { id: 101, start_date: sat, end_date: sat, accommodation_id: 201 } }] },
    });
    expect(quote.status).toBe(401);
  });

  it("answers 401 rather than what the request got wrong or what is missing", async () => {
    const name = `snapshot-precedence-${Date.now()}`;
    const key = await createKey("public", DEMO_BUSINESS_ID, name);
    await revoke(name);
    expect((await callJson("/api/pub/v2/products/101/availabilities?start_date=not-a-date", { key })).status).toBe(401);
    expect((await callJson("/api/pub/v2/products/999999", { key })).status).toBe(401);
    expect((await callJson("/api/pub/v2/no-such-route", { key })).status).toBe(401);
  });

  it("answers 403 for a private key on a catalog read, with nothing of the catalog in it", async () => {
    const key = await createKey("private");
    const res = await callJson("/api/pub/v2/products/101", { key });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain("backoffice_title");
  });
});

describe("rate limit: requests taken in leases never exceed the limit", () => {
  it("lets exactly the limit through when many requests of one key arrive at once", async () => {
    const biz = await createBusiness("lease-camp", { rate_limit_per_minute: 250 });
    const key = await createKey("public", biz);
    const now = "2031-03-05T10:00:10.000Z"; // one rate window for every request below
    const answers = await Promise.all(Array.from({ length: 300 }, () => callJson("/api/pub/v2/settings", { key, now })));
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toBe(250);
    expect(limited).toHaveLength(50);
    expect(limited.every((a) => Number(a.headers.get("Retry-After")) >= 1 && a.body.code === "rate_limited")).toBe(true);
    // the next window starts afresh
    expect((await callJson("/api/pub/v2/settings", { key, now: "2031-03-05T10:01:10.000Z" })).status).toBe(200);
  });
});
