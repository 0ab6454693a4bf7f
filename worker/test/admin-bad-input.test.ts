import { describe, expect, it } from "vitest";
import { footprint } from "./admin-fixtures";
import { BASE, createKey, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { loadDocument } from "./fuzz-harness";
import { listOperations } from "./fuzz-requests";

// Every write of the administration, from /openapi.json (a new one is covered once documented):
// bad input is a problem+json 4xx that names what is wrong, and changes nothing at all.
const doc = await loadDocument();
const writes = listOperations(doc).filter((op) => /^\/private\/(settings|catalog)/.test(op.path) && op.method !== "GET");
const key = await createKey("private");

const BAD: [string, { body?: string; contentType?: string; id?: string }, number[]][] = [
  ["malformed JSON", { body: '{"title": "x",' }, [400]],
  ["a body that is not an object", { body: "[1, 2]" }, [422]],
  ["an unknown field", { body: '{"zzz": 1}' }, [422]],
  ["a wrong type", { body: '{"title": 42, "capacity": "many", "languages": "en", "from": 7}' }, [422]],
  ["text instead of JSON", { body: "title=x", contentType: "text/plain" }, [400, 415, 422]],
  ["an id that is no number", { body: "{}", id: "abc" }, [400, 404, 422]],
  ["an id of no such entry", { body: '{"title": "x"}', id: "999999" }, [404, 422]],
];

describe("bad input to the administration's writes", () => {
  it("covers the documented writes", () => {
    expect(writes.map((op) => op.id)).toEqual(expect.arrayContaining(["PATCH /private/settings", "POST /private/catalog/products", "PATCH /private/catalog/products/{id}/inventory", "PATCH /private/catalog/seasons/{id}"]));
  });

  describe.each(writes.map((op) => [op.id, op] as const))("%s", (_id, op) => {
    it.each(BAD)("answers %s with a problem+json 4xx, and changes nothing", async (_name, bad, statuses) => {
      if (bad.id !== undefined && !op.path.includes("{id}")) return;
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
