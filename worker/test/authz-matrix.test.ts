import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { issueKey } from "../src/lib/keys";
import { BASE, createBusiness, createKey, DEMO_BUSINESS_ID, fetchWorker } from "./helpers";
import { deref } from "./fuzz-schema";
import { defaultAuth, loadDocument, prepareFixture, WIDGET_ORIGIN, type Fixture } from "./fuzz-harness";
import { widgetRoutes } from "../src/routes/widget";
import { addDaysIso, arbitraryFor, encodeQuery, listOperations, upcomingSaturdays, widgetOperations, urlFor, type FuzzRequest, type Operation } from "./fuzz-requests";

// Authentication and isolation over every documented route, as docs/design.md states them:
// 401 (with WWW-Authenticate: Bearer) for a missing, malformed, forged, unknown or revoked key;
// 403 for the wrong scope; another business's object is a 404 exactly like a missing one, and a
// foreign key's lists never show the demo business's data.
const doc = await loadDocument();
const operations = listOperations(doc).filter((op) => op.door !== "open");
// The document lists the keyed doors only; the widget door comes from the proxy itself (below).
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

/** No answer to anyone but the owner, error or not, carries the demo business's data. */
function expectNoLeak(res: Awaited<ReturnType<typeof fetchAs>>) {
  for (const marker of DEMO_MARKERS) expect(res.text, `${res.status} leaks "${marker}"`).not.toContain(marker);
}

type Door = "keyed" | "widget";
const json = (body: unknown, path: Record<string, string> = {}, query: [string, string][] = []): FuzzRequest => ({
  path, query, body: JSON.stringify(body), contentType: "application/json",
});

/** POST through the door the matrix is testing (a cart is its client's: the key or the widget visitor). */
async function post(door: Door, path: string, body: unknown, auth?: Record<string, string>): Promise<any> {
  const url = door === "widget" ? `/widget/v1/demo${path.slice("/api/pub/v2".length)}` : path;
  const headers = auth ?? (door === "widget" ? { Origin: WIDGET_ORIGIN } : { Authorization: `Bearer ${path.startsWith("/private") ? fx.privateKey : fx.publicKey}` });
  const res = await fetchWorker(`${BASE}${url}`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = (await res.json()) as any;
  if (res.status >= 300) throw new Error(`setup: POST ${url} answered ${res.status}: ${JSON.stringify(out).slice(0, 300)}`);
  return out?.data ?? out;
}
let unique = 0;
const sat = () => upcomingSaturdays(4)[3];
/**
 * A stay for one guest: the demo's rooms (201 takes men only) over ten weeks no other fixture
 * uses, in turn, so that the matrix's own carts and bookings never sell a room out.
 */
const ROOMS = [202, 203, 204, 205];
const WEEKS = upcomingSaturdays(14).slice(4);
const stay = () => {
  const n = ++unique;
  const start = WEEKS[n % WEEKS.length];
  return { id: 101, start_date: start, end_date: addDaysIso(start, 7), accommodation_id: ROOMS[Math.floor(n / WEEKS.length) % ROOMS.length] };
};
const cartBody = () => ({
  currency: "EUR",
  guests: [{ first_name: "Matrix", last_name: `Guest${++unique}`, gender: "f", birth_date: "1990-01-01", package: stay() }],
});
const newCart = async (door: Door) => (await post(door, "/api/pub/v2/bookings/add", cartBody())).cart_id as string;
const checkoutBody = () => ({ terms_accepted: true, customer: { first_name: "Matrix", last_name: "Buyer", email: `matrix.buyer${++unique}@example.com`, phone: "912345678", phone_countrycode: 351, country: "Portugal" } });
/** A booking of its own (cart and checkout through the public API), with its guest and e-mails. */
async function newBooking() {
  const cart = await newCart("keyed");
  const booking = await post("keyed", `/api/pub/v2/carts/${cart}/checkout`, checkoutBody());
  const email = await env.DB.prepare("SELECT id FROM emails WHERE booking_id = ? ORDER BY id LIMIT 1").bind(booking.id).first<{ id: string }>();
  // As if its delivery were done (only a sent or failed e-mail can be resent), without waiting for it.
  await env.DB.prepare("UPDATE emails SET status = 'sent', next_attempt_at = NULL WHERE id = ?").bind(email!.id).run();
  return { id: booking.id as string, guest: booking.guests[0].id as string, email: email!.id };
}
const newWebhook = async (events = ["BookingCancelled"]) => (await post("keyed", "/private/webhooks", { url: "http://127.0.0.1:8859/matrix-hook", events })).id as string;
const newPerson = async () => (await post("keyed", "/private/persons", { first_name: "Matrix", last_name: "Person", email: `matrix.person${++unique}@example.com` })).id as string;

/**
 * Requests that their owner's key (or the allowed widget origin) gets a 2xx for, where the
 * document's required fields alone are not enough, or where the request spends its object (a
 * deletion, a checkout, a cancellation: each gets an object of its own, so the order of the tests
 * does not matter). Keyed by the public API's or private API's operation id.
 */
const OWNER_REQUESTS: Record<string, (door: Door) => Promise<FuzzRequest>> = {
  "GET /api/pub/v2/products/prices": async () => ({ path: {}, query: [["product_ids", "101,201"], ["start_date", sat()], ["duration", "7"], ["pax", "1"]] }),
  "POST /api/pub/v2/packages/prices": async () =>
    json({ currency_id: "EUR", guests: [{ unique_id: "ana", gender: "f", package: stay() }] }),
  "GET /api/pub/v2/packages/{id}/accommodations": async () => ({ path: { id: "101" }, query: [["start_date", sat()], ["duration", "7"], ["males", "0"], ["females", "1"], ["couples", "0"]] }),
  "POST /api/pub/v2/bookings/add": async () => json(cartBody()),
  "GET /api/pub/v2/carts/{cart_id}": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
  "DELETE /api/pub/v2/carts/{cart_id}": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
  "PUT /api/pub/v2/carts/{cart_id}/extend": async (door) => ({ path: { cart_id: await newCart(door) }, query: [] }),
  "POST /api/pub/v2/carts/{cart_id}/checkout": async (door) => json(checkoutBody(), { cart_id: await newCart(door) }),
  "DELETE /private/persons/{person_id}": async () => ({ path: { person_id: await newPerson() }, query: [] }),
  "DELETE /private/bookings/{booking_id}/guests/{guest_id}": async () => {
    const b = await newBooking();
    return { path: { booking_id: b.id, guest_id: b.guest }, query: [] };
  },
  "POST /private/bookings/{booking_id}/cancel": async () => ({ path: { booking_id: (await newBooking()).id }, query: [] }),
  "POST /private/webhooks": async () => json({ url: "http://127.0.0.1:8859/matrix-hook", events: ["BookingCancelled"] }),
  "GET /private/webhooks/{webhook_id}": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
  "DELETE /private/webhooks/{webhook_id}": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
  "GET /private/webhooks/{webhook_id}/deliveries": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
  "POST /private/webhooks/{webhook_id}/redeliver": async () => {
    // An event the webhook subscribes to, written after it was made.
    const webhook_id = await newWebhook(["PersonCreated"]);
    const person = await newPerson();
    const event = await env.DB.prepare("SELECT id FROM outbox WHERE business_id = ? AND event = 'PersonCreated' AND json_extract(data, '$.person_id') = ?")
      .bind(DEMO_BUSINESS_ID, person).first<{ id: string }>();
    return json({ event_id: event!.id }, { webhook_id });
  },
  "POST /private/webhooks/{webhook_id}/enable": async () => ({ path: { webhook_id: await newWebhook() }, query: [] }),
  "PATCH /private/catalog/products/{id}/inventory": async () => json({ from: sat(), to: sat(), capacity: 30 }, { id: "101" }),
  "POST /private/catalog/categories": async () => json({ title: `Matrix category ${++unique}`, kind: "backoffice" }),
  "GET /private/emails/{email_id}": async () => ({ path: { email_id: (await newBooking()).email }, query: [] }),
  "POST /private/emails/{email_id}/resend": async () => ({ path: { email_id: (await newBooking()).email }, query: [] }),
};

/** The operation of the public or private API a widget operation runs (itself for keyed ones). */
const keyedId = (op: Operation) => op.id.replace("/widget/v1/{business}", "/api/pub/v2");

async function ownerRequestFor(op: Operation, door: Door): Promise<FuzzRequest> {
  const build = OWNER_REQUESTS[keyedId(op)];
  const req = build ? await build(door) : ownerRequest(op);
  if (door === "widget") req.path.business = "demo";
  return req;
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
      ? "answers 404 to another business's key for the demo business's object, which its owner reads or changes"
      : "never shows the demo business's data to another business's key, and serves its owner",
    async () => {
      const req = await ownerRequestFor(op, "keyed");
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
});

// The widget's door, over what the widget proxy itself routes (its Hono route list): its own reads
// and every public API operation behind its catch-all. No key: the business comes from the path
// and the page's Origin is what the business allowed, or not.
const widgetRouteList = widgetRoutes().routes;
const publicOps = operations.filter((op) => op.door === "public");
const widget = widgetOperations(operations, widgetRouteList);
const WIDGET_OWN_READS: Record<string, () => FuzzRequest> = {
  "GET /widget/v1/{business}/bootstrap": () => ({ path: {}, query: [["product", "101"], ["start_date", sat()]] }),
  "GET /widget/v1/{business}/calendar": () => ({ path: {}, query: [["product", "101"], ["from", sat()]] }),
};
async function widgetRequest(op: Operation): Promise<FuzzRequest> {
  const own = WIDGET_OWN_READS[op.id];
  if (!own) return ownerRequestFor(op, "widget");
  const req = own();
  req.path.business = "demo";
  return req;
}

describe.each(widget.map((op) => [op.id, op] as const))("widget door %s", (_id, op) => {
  it("answers 403 origin_not_allowed to an origin the business did not allow, and serves the one it did", async () => {
    const req = await widgetRequest(op);
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
    const req = ownerRequest(op);
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
    const ownReads = widgetRouteList.filter((r) => r.method !== "ALL");
    expect(ownReads.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["GET /widget/v1/:business/bootstrap", "GET /widget/v1/:business/calendar"]);
    expect(publicOps.length).toBeGreaterThan(0);
    expect(widget.length).toBe(ownReads.length + publicOps.length);
    const ids = widget.map((w) => w.id);
    for (const op of publicOps) expect(ids).toContain(op.id.replace("/api/pub/v2", "/widget/v1/{business}"));
    // Every own read has a request its test builds on purpose (a product to show).
    for (const r of ownReads) expect(Object.keys(WIDGET_OWN_READS)).toContain(`${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
  });
});
