import { describe, expect, it } from "vitest";
import { call, callJson, createKey } from "./helpers";

// Names a client sends are looked up in tables of allowed names; inherited keys such as
// __proto__ or constructor must read as unknown, not as Object.prototype (which answered 500).
describe("query names that are Object.prototype's keys", () => {
  it.each(["__proto__", "constructor", "toString"])("sort_by=%s on GET /private/persons is a 422 naming sort_by", async (name) => {
    const key = await createKey("private");
    const res = await callJson(`/private/persons?sort_by=${name}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain("sort_by");
  });

  it("sort_by=__proto__ on GET /private/guests is a 422 too", async () => {
    const key = await createKey("private");
    const res = await callJson("/private/guests?sort_by=__proto__", { key });
    expect(res.status).toBe(422);
  });

  it("a deep link to /book/demo with __proto__ and constructor parameters still opens the page", async () => {
    const res = await call("/book/demo?__proto__=x&constructor=y&product=101");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('product="101"');
  });
});
