/**
 * An undocumented method on a documented path is a 405 with `Allow` naming the path's methods
 * (HTTP; the `method_not_allowed` code of the description), for every path of /openapi.json;
 * a path nobody documented stays a 404 (issue 29).
 */
import { describe, expect, it } from "vitest";
import { call, callJson, createKey } from "./helpers";

const METHODS = ["get", "post", "put", "patch", "delete"];

describe("methods a documented path does not have", () => {
  it("answer 405 with Allow on every path of the description, and an unknown path 404", async () => {
    const doc = (await callJson("/openapi.json")).body;
    const keys = { public: await createKey("public"), private: await createKey("private") };
    let checked = 0;
    const paths = Object.entries<Record<string, unknown>>(doc.paths);
    const pattern = (p: string) => new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    // a literal path another path's parameter also matches (GET /packages/prices is /packages/{id}) is that one's
    const servedElsewhere = (url: string, method: string, own: string) => paths.some(([p, ops]) => p !== own && method in ops && pattern(p).test(url));
    for (const [path, ops] of paths) {
      const has = Object.keys(ops).filter((m) => METHODS.includes(m));
      const url = path.replace(/\{[^}]+\}/g, "1");
      const missing = METHODS.find((m) => !has.includes(m) && !servedElsewhere(url, m, path));
      if (!missing) continue;
      const key = url.startsWith("/private") ? keys.private : keys.public;
      const res = await call(url, { key, method: missing.toUpperCase(), ...(missing === "get" || missing === "delete" ? {} : { body: {} }) });
      expect(res.status, `${missing.toUpperCase()} ${path}`).toBe(405);
      const allow = res.headers.get("allow")!.split(", ");
      for (const m of has) expect(allow, path).toContain(m.toUpperCase());
      expect((await res.json()) as { code: string }).toMatchObject({ code: "method_not_allowed" });
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
    const none = await call("/api/pub/v2/no-such-thing", { key: keys.public });
    expect(none.status).toBe(404);
    // The private API is mounted on its first request (routes/lazy.ts): a path it does not serve
    // gets the app's own answers, as a path of the public API does.
    const nonePrivate = await call("/private/no-such-thing", { key: keys.private });
    expect(nonePrivate.status).toBe(404);
    expect(nonePrivate.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await nonePrivate.json()) as { code: string }).toMatchObject({ code: "not_found" });
  });

  it("names the methods in Allow, HEAD with GET", async () => {
    const key = await createKey("public");
    const res = await call("/api/pub/v2/products/101", { key, method: "PUT", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
