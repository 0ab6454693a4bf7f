import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { issueKey } from "../src/lib/keys";
import { BASE, createBusiness, createKey, fetchWorker } from "./helpers";
import { deref } from "./fuzz-schema";
import { defaultAuth, loadDocument, prepareFixture, WIDGET_ORIGIN, type Fixture } from "./fuzz-harness";
import { arbitraryFor, encodeQuery, listOperations, urlFor, type FuzzRequest, type Operation } from "./fuzz-requests";

// Authentication and isolation over every documented route, as docs/design.md states them:
// 401 (with WWW-Authenticate: Bearer) for a missing, malformed, forged, unknown or revoked key;
// 403 for the wrong scope; another business's object is a 404 exactly like a missing one, and a
// foreign key's lists never show the demo business's data.
const doc = await loadDocument();
const operations = listOperations(doc).filter((op) => op.door !== "open");
let fx: Fixture;
const keys: Record<string, string> = {};
const DEMO_MARKERS = ["Blue Wave", "Surf & Yoga Week", "Ocean Dorm", "fixture."];

beforeAll(async () => {
  fx = await prepareFixture(doc);
  const foreign = await createBusiness("authz-foreign");
  keys.foreignPublic = await createKey("public", foreign);
  keys.foreignPrivate = await createKey("private", foreign);
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

/** One request that the route would accept from its owner: demo objects in the path, valid query and body. */
function ownerRequest(op: Operation): FuzzRequest {
  const path: Record<string, string> = {};
  for (const p of op.params.filter((p) => p.in === "path")) {
    const hinted = fx.hints(op.path, p.name);
    path[p.name] = String(hinted?.[0] ?? fc.sample(arbitraryFor(doc, p.schema, fx.hints, op.path, p.name), { seed: 7, numRuns: 1 })[0]);
  }
  const query: Record<string, unknown> = {};
  for (const p of op.params.filter((p) => p.in === "query" && p.required)) {
    query[p.name] = fx.hints(op.path, p.name)?.[0] ?? fc.sample(arbitraryFor(doc, p.schema, fx.hints, op.path, p.name), { seed: 7, numRuns: 1 })[0];
  }
  const body = op.body ? minimal(op.body.schema, op.path) : undefined;
  return { path, query: encodeQuery(query), body: body === undefined ? undefined : JSON.stringify(body), contentType: body === undefined ? undefined : "application/json" };
}

/** The smallest value the schema allows: required fields only, so the key, not the body, decides. */
function minimal(schema: any, opPath: string, name = ""): unknown {
  const s = deref(doc, schema) as any;
  if (s && typeof s === "object" && (s.type === "object" || s.properties) && !s.anyOf && !s.oneOf) {
    const out: Record<string, unknown> = {};
    for (const k of s.required ?? []) out[k] = minimal(s.properties?.[k] ?? {}, opPath, k);
    return out;
  }
  if (s && s.type === "array") return Array.from({ length: s.minItems ?? 0 }, () => minimal(s.items ?? {}, opPath, name));
  return fx.hints(opPath, name)?.[0] ?? fc.sample(arbitraryFor(doc, s, fx.hints, opPath, name), { seed: 7, numRuns: 1 })[0];
}

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
    const res = await fetchAs(op, ownerRequest(op), headers());
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });

  it(`answers 403 to a ${other} key (wrong scope)`, async () => {
    const key = other === "public" ? fx.publicKey : fx.privateKey;
    expectProblem(await fetchAs(op, ownerRequest(op), { Authorization: `Bearer ${key}` }), 403, "forbidden");
  });

  it("refuses plain HTTP on a public host before anything else", async () => {
    const res = await fetchAs(op, ownerRequest(op), defaultAuth(op, fx), "http://api.example.com");
    expectProblem(res, 403, "https_required");
  });

  const hasPathObject = op.params.some((p) => p.in === "path");
  it(
    hasPathObject
      ? "answers 404 to another business's key for the demo business's object"
      : "never shows the demo business's data to another business's key",
    async () => {
      const key = scope === "public" ? keys.foreignPublic : keys.foreignPrivate;
      const res = await fetchAs(op, ownerRequest(op), { Authorization: `Bearer ${key}` });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      if (hasPathObject && res.status === 422) {
        // Validation before lookup is fine as long as the owner gets the very same answer (no oracle).
        const owner = await fetchAs(op, ownerRequest(op), defaultAuth(op, fx));
        expect(owner.status, `owner: ${owner.text.slice(0, 200)}; foreign: ${res.text.slice(0, 200)}`).toBe(422);
      } else if (hasPathObject) expectProblem(res, 404, "not_found");
      if (res.status < 300) for (const marker of DEMO_MARKERS) expect(res.text, `leaks "${marker}"`).not.toContain(marker);
    },
  );
});

const widget = operations.filter((op) => op.door === "widget");
describe.each(widget.map((op) => [op.id, op] as const))("widget door %s", (_id, op) => {
  it("answers 403 origin_not_allowed to an origin the business did not allow", async () => {
    const res = await fetchAs(op, ownerRequest(op), { Origin: "https://evil.example" });
    expectProblem(res, 403, "origin_not_allowed");
  });
  it("answers 404 for a business that does not exist", async () => {
    const req = ownerRequest(op);
    req.path.business = "no-such-business";
    expectProblem(await fetchAs(op, req, { Origin: WIDGET_ORIGIN }), 404);
  });
});

describe("the matrix itself", () => {
  it("covers every keyed operation of the document", () => {
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.length + widget.length).toBe(operations.length);
  });
});
