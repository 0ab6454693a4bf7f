import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { footprint } from "./manage-fixtures";
import { BASE, createBusiness, createKey, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { loadDocument } from "./fuzz-harness";
import { listOperations } from "./fuzz-requests";

// Every write of the administration, from /openapi.json (a new one is covered once documented):
// bad input is a problem+json 4xx that names what is wrong, and changes nothing at all.
const doc = await loadDocument();
const writes = listOperations(doc).filter((op) => /^\/private\/(settings|catalog)/.test(op.path) && op.method !== "GET");
const key = await createKey("private");
const publicKey = await createKey("public");
const revokedKey = await createKey("private", DEMO_BUSINESS_ID, "admin-revoked");
await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = 'admin-revoked'").bind(new Date().toISOString()).run();
const foreignKey = await createKey("private", await createBusiness("admin-foreign"));

/** A body each write would accept from the owner (so only the key decides). */
const GOOD: Record<string, string> = {
  "PATCH /private/settings": '{"terms": "Taken over."}',
  "POST /private/catalog/products": '{"type": "item", "title": "Planted"}',
  "PATCH /private/catalog/products/{id}": '{"title": "Taken over", "archived": true}',
  "PATCH /private/catalog/products/{id}/inventory": '{"from": "2027-03-01", "to": "2027-03-05", "blocked": true}',
  "PATCH /private/catalog/seasons/{id}": '{"archived": true}',
  "PUT /private/settings/stripe": '{"webhook_secret": null}',
};
const goodBody = (id: string) => GOOD[id] ?? (id.startsWith("POST /private/catalog/categories") ? '{"title": "Planted", "kind": "frontoffice"}' : id.startsWith("POST") ? '{"title": "Planted"}' : '{"title": "Taken over", "archived": true}');
const demoIds: Record<string, string> = { products: "101", locations: "1", categories: "11", "accommodation-types": "1", diets: "1", levels: "1", seasons: "1" };

const BAD: [string, { body?: string; contentType?: string; id?: string }, number[]][] = [
  ["malformed JSON", { body: '{"title": "x",' }, [400]],
  ["a body that is not an object", { body: "[1, 2]" }, [422]],
  ["an unknown field", { body: '{"zzz": 1}' }, [422]],
  ["a wrong type", { body: '{"title": 42, "capacity": "many", "languages": "en", "from": 7}' }, [422]],
  ["text instead of JSON", { body: "title=x", contentType: "text/plain" }, [400, 415, 422]],
  ["an id that is no number", { body: "{}", id: "abc" }, [400, 404, 422]],
  ["an id of no such entry", { body: '{"title": "x"}', id: "999999" }, [404, 422]],
];

describe("keys that may not change the demo business change nothing of it", () => {
  describe.each(writes.map((op) => [op.id, op] as const))("%s", (id, op) => {
    it.each([
      ["a public key", () => publicKey, 403],
      ["a revoked key", () => revokedKey, 401],
      ["another business's key", () => foreignKey, op.path.includes("{id}") ? 404 : 2],
    ] as const)("with %s", async (_name, keyOf, expected) => {
      const before = await footprint(DEMO_BUSINESS_ID);
      const kind = /\/catalog\/([a-z-]+)/.exec(op.path)?.[1] ?? "";
      const path = op.path.replace("{id}", demoIds[kind] ?? "1");
      const res = await fetchWorker(`${BASE}${path}`, { method: op.method, headers: { Authorization: `Bearer ${keyOf()}`, "Content-Type": "application/json" }, body: goodBody(id) });
      const text = await res.text();
      // Another business's key may change its own business (a 2xx there); never the demo's.
      if (expected === 2) expect(res.status, text.slice(0, 300)).toBeLessThan(300);
      else expect(res.status, text.slice(0, 300)).toBe(expected);
      expect(await footprint(DEMO_BUSINESS_ID)).toEqual(before);
    });
  });
});

describe("bad input to the administration's writes", () => {
  it("covers the documented writes", () => {
    expect(writes.map((op) => op.id)).toEqual(expect.arrayContaining(["PATCH /private/settings", "POST /private/catalog/products", "PATCH /private/catalog/products/{id}/inventory", "PATCH /private/catalog/seasons/{id}"]));
  });

  describe.each(writes.map((op) => [op.id, op] as const))("%s", (_id, op) => {
    // A bad id only where the path has one: every case listed here asserts.
    const cases = BAD.filter(([, bad]) => bad.id === undefined || op.path.includes("{id}"));
    it.each(cases)("answers %s with a problem+json 4xx, and changes nothing", async (_name, bad, statuses) => {
      const before = await footprint(DEMO_BUSINESS_ID);
      const path = op.path.replace("{id}", bad.id ?? "101");
      const res = await fetchWorker(`${BASE}${path}`, {
        method: op.method,
        headers: { Authorization: `Bearer ${key}`, "Content-Type": bad.contentType ?? "application/json" },
        body: bad.body,
      });
      const text = await res.text();
      expect(statuses, `${res.status} ${text.slice(0, 300)}`).toContain(res.status);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
      const problem = JSON.parse(text);
      expect(problem.status).toBe(res.status);
      expect(problem.detail.length).toBeGreaterThan(10);
      if (res.status === 422) expect(problem.errors.length).toBeGreaterThan(0);
      expect(await footprint(DEMO_BUSINESS_ID)).toEqual(before);
    });
  });
});
