import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueKey } from "../src/lib/keys";
import { BASE, createBusiness, createKey, fetchWorker } from "./helpers";
import { validRequests, type ValidRequests } from "./valid-requests";
import { defaultAuth, loadDocument, prepareFixture, WIDGET_ORIGIN, type Fixture } from "./fuzz-harness";
import { widgetRoutes } from "../src/routes/widget";
import { listOperations, urlFor, widgetOperations, type FuzzRequest, type Operation } from "./fuzz-requests";

// Authentication and isolation over every documented route, as docs/design.md states them:
// 401 (with WWW-Authenticate: Bearer) for a missing, malformed, forged, unknown or revoked key;
// 403 for the wrong scope; another business's object is a 404 exactly like a missing one, and a
// foreign key's lists never show the demo business's data.
const doc = await loadDocument();
const operations = listOperations(doc).filter((op) => op.door !== "open");
// The document lists the keyed doors only; the widget door comes from the proxy itself (below).
let fx: Fixture;
let valid: ValidRequests;
const keys: Record<string, string> = {};
const DEMO_MARKERS = ["Blue Wave", "Surf & Yoga Week", "Ocean Dorm", "fixture."];

beforeAll(async () => {
  fx = await prepareFixture(doc);
  valid = await validRequests(doc, fx);
  // Another business on the demo's shard (0): row ids are per shard, so the demo's object ids are
  // ids this business could name, and must get 404 for. And one on the other shard (1), which the
  // door must never send to the demo's database (docs/design.md "Shards").
  const foreign = await createBusiness("authz-foreign", {}, 0);
  keys.foreignPublic = await createKey("public", foreign);
  keys.foreignPrivate = await createKey("private", foreign);
  const foreignOnShard1 = await createBusiness("authz-foreign-shard-1", {}, 1);
  keys.shard1Public = await createKey("public", foreignOnShard1);
  keys.shard1Private = await createKey("private", foreignOnShard1);
  for (const scope of ["public", "private"] as const) {
    const name = `authz-revoked-${scope}`;
    keys[`revoked_${scope}`] = await createKey(scope, undefined, name);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = ?").bind(new Date().toISOString(), name).run();
    // Signed with the server's secret, but no record: unknown.
    keys[`unknown_${scope}`] = (await issueKey(env.KEY_SIGNING_SECRET, 1, scope)).token;
    // A well-formed key signed with another secret: forged.
    keys[`forged_${scope}`] = (await issueKey("not-the-server-secret-0123456789abcdef", 1, scope)).token;
  }
});

async function fetchAs(op: Operation, req: FuzzRequest, headers: Record<string, string>, origin = BASE) {
  const h = { ...headers };
  if (req.body !== undefined) h["Content-Type"] = "application/json";
  const res = await fetchWorker(`${origin}${urlFor(op, req)}`, { method: op.method, headers: h, body: op.method === "GET" ? undefined : req.body });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* asserted below */
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** No answer to anyone but the owner, error or not, carries the demo business's data. */
function expectNoLeak(res: Awaited<ReturnType<typeof fetchAs>>) {
  for (const marker of DEMO_MARKERS) expect(res.text, `${res.status} leaks "${marker}"`).not.toContain(marker);
}

function expectProblem(res: Awaited<ReturnType<typeof fetchAs>>, status: number, code?: string) {
  const where = `${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, where).toBe(status);
  expect(res.headers.get("Content-Type"), where).toMatch(/^application\/problem\+json/);
  expect(res.body.status, where).toBe(status);
  if (code) expect(res.body.code, where).toBe(code);
}

const keyed = operations.filter((op) => op.door === "public" || op.door === "private");

describe.each(keyed.map((op) => [op.id, op] as const))("auth matrix %s", (_id, op) => {
  const scope = op.door as "public" | "private";
  const other = scope === "public" ? "private" : "public";

  it.each([
    ["no Authorization header", () => ({})],
    ["a Basic credential", () => ({ Authorization: "Basic dXNlcjpwYXNz" })],
    ["a malformed bearer token", () => ({ Authorization: "Bearer not-a-jwt" })],
    ["an empty bearer token", () => ({ Authorization: "Bearer " })],
    ["a forged signature", () => ({ Authorization: `Bearer ${keys[`forged_${scope}`]}` })],
    ["a validly signed key with no record", () => ({ Authorization: `Bearer ${keys[`unknown_${scope}`]}` })],
    ["a revoked key", () => ({ Authorization: `Bearer ${keys[`revoked_${scope}`]}` })],
  ])("answers 401 with WWW-Authenticate to %s", async (_name, headers) => {
    const res = await fetchAs(op, valid.ownerRequest(op), headers());
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });

  it(`answers 403 to a ${other} key (wrong scope)`, async () => {
    const key = other === "public" ? fx.publicKey : fx.privateKey;
    expectProblem(await fetchAs(op, valid.ownerRequest(op), { Authorization: `Bearer ${key}` }), 403, "forbidden");
  });

  it("refuses plain HTTP on a public host before anything else", async () => {
    const res = await fetchAs(op, valid.ownerRequest(op), defaultAuth(op, fx), "http://api.example.com");
    expectProblem(res, 403, "https_required");
  });

  const hasPathObject = op.params.some((p) => p.in === "path");
  it(
    hasPathObject
      ? "answers 404 to another business's key for the demo business's object, which its owner reads or changes"
      : "never shows the demo business's data to another business's key, and serves its owner",
    async () => {
      const req = await valid.ownerRequestFor(op, "keyed");
      const key = scope === "public" ? keys.foreignPublic : keys.foreignPrivate;
      const res = await fetchAs(op, req, { Authorization: `Bearer ${key}` });
      expectNoLeak(res);
      if (hasPathObject) expectProblem(res, 404, "not_found");
      else expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      // The very request, from its owner, succeeds: the 404 above is the object's, not the request's.
      const owner = await fetchAs(op, req, defaultAuth(op, fx));
      expect(owner.status, `owner: ${owner.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(owner.status, `owner: ${owner.text.slice(0, 300)}`).toBeLessThan(300);
    },
  );

  it("never shows the demo business's data to a business on the other shard", async () => {
    const req = await valid.ownerRequestFor(op, "keyed");
    const res = await fetchAs(op, req, { Authorization: `Bearer ${scope === "public" ? keys.shard1Public : keys.shard1Private}` });
    expectNoLeak(res);
    expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
  });
});

// The widget's door, over what the widget proxy itself routes (its Hono route list): its own reads
// and every public API operation behind its catch-all. No key: the business comes from the path
// and the page's Origin is what the business allowed, or not.
const widgetRouteList = widgetRoutes().routes;
const publicOps = operations.filter((op) => op.door === "public");
const widget = widgetOperations(operations, widgetRouteList);
describe.each(widget.map((op) => [op.id, op] as const))("widget door %s", (_id, op) => {
  it("answers 403 origin_not_allowed to an origin the business did not allow, and serves the one it did", async () => {
    const req = await valid.widgetRequest(op);
    const res = await fetchAs(op, req, { Origin: "https://evil.example" });
    expectProblem(res, 403, "origin_not_allowed");
    expectNoLeak(res);
    // The very request from the allowed origin succeeds: the 403 above is the origin's doing.
    const allowed = await fetchAs(op, req, { Origin: WIDGET_ORIGIN });
    expect(allowed.status, `allowed origin: ${allowed.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
    expect(allowed.status, `allowed origin: ${allowed.text.slice(0, 300)}`).toBeLessThan(300);
  });
  it("answers 404 for a business that does not exist, from any origin", async () => {
    // No object needed: the business is looked up before anything else.
    const req = valid.ownerRequest(op);
    req.path.business = "no-such-business";
    for (const origin of [WIDGET_ORIGIN, "https://evil.example"]) {
      const res = await fetchAs(op, req, { Origin: origin });
      expectProblem(res, 404, "not_found");
      expectNoLeak(res);
    }
  });
});

describe("the matrix itself", () => {
  it("covers every keyed operation of the document", () => {
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.length).toBe(operations.length);
  });
  it("covers every operation of the widget proxy: its own reads and every public operation behind its catch-all", () => {
    // A route of its own on the path of a public operation is a check in front of that operation
    // (the human check before a checkout), which then runs behind the catch-all like the others.
    const behind = new Set(publicOps.map((op) => op.id.replace("/api/pub/v2", "/widget/v1/{business}")));
    const routeId = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`;
    const checks = widgetRouteList.filter((r) => r.method !== "ALL" && behind.has(routeId(r)));
    expect(checks.map(routeId)).toEqual(["POST /widget/v1/{business}/carts/{cart_id}/checkout"]);
    const ownReads = widgetRouteList.filter((r) => r.method !== "ALL" && !checks.includes(r));
    expect(ownReads.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["GET /widget/v1/:business/bootstrap", "GET /widget/v1/:business/calendar"]);
    expect(publicOps.length).toBeGreaterThan(0);
    expect(widget.length).toBe(ownReads.length + publicOps.length);
    const ids = widget.map((w) => w.id);
    for (const op of publicOps) expect(ids).toContain(op.id.replace("/api/pub/v2", "/widget/v1/{business}"));
    // Every own read has a request its test builds on purpose (a product to show).
    for (const r of ownReads) expect(valid.widgetOwnReads).toContain(`${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
  });
});
