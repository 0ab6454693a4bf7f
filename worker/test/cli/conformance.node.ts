/**
 * The conformance fuzz: /openapi.json against a running server (wrangler dev, as an integrator
 * meets it), so the description and the server cannot drift apart. Every operation of the
 * description is walked:
 *
 * - every answer is checked by ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect, with ajv-formats):
 *   its status is one the operation lists, its Content-Type the one listed for that status, its
 *   body valid against the schema listed for it;
 * - positive: requests made from the schema alone (its examples, defaults, enums and minimums, the
 *   demo business's real ids and dates where a name has them). The first of each operation, with
 *   the required fields only, is accepted: a 2xx, or a documented refusal the schema cannot
 *   foresee (404: the business has no such object; 409/410: the object's state), never a
 *   400/415/422 (DATA_RULES lists the one field whose rule is the business's data). The others,
 *   with every optional field, may also meet a 422 naming fields (two fields that must agree, a
 *   ref already taken, an id of another package: rules no schema states), listed in the run's
 *   diagnostics, never a 400/415 or a 5xx;
 * - negative: one value at a time made invalid as the schema says (wrong type, a required field
 *   left out, out of its enum, below its minimum, an impossible date) is refused with a documented
 *   4xx problem+json, and nothing in the database changes;
 * - a method the description does not list for a path answers 405 with Allow listing those it does.
 *
 * Bounded by count, not time: CONFORMANCE_RUNS (default 2) positive requests per operation (the
 * first with the required fields only, then with every field), every mutation of those requests
 * up to CONFORMANCE_NEGATIVES (default 6) per operation; CONFORMANCE_SEED picks the values.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { startServer, type RunningServer } from "../../scripts/server";
import { demoHints, encodeQuery, listOperations, upcomingSaturdays, urlFor, type Operation } from "../fuzz-requests";
import { deref, generate, mutate, mutationsOf, prng, slotsOf, type Doc, type Rng } from "./conformance-data";
import { issueKey } from "../../src/lib/keys";
import { stateExec, stateQuery } from "./helpers";

const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof import("ajv/dist/2020.js").default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import("ajv-formats").default;

const RUNS = Math.max(1, Number(process.env.CONFORMANCE_RUNS) || 2);
const NEGATIVES = Math.max(1, Number(process.env.CONFORMANCE_NEGATIVES) || 6);
const SEED = Number(process.env.CONFORMANCE_SEED) || 20261127;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** Refusals a well-formed request may meet that no schema can foresee: no such object, the object's state. */
const DOMAIN_REFUSALS = new Set([404, 409, 410]);
/**
 * Fields whose rule depends on the business's data, which the field's description states and no
 * schema can: a guest's gender is required when the package is booked with a room.
 */
const DATA_RULES: Record<string, string[]> = { "POST /api/pub/v2/bookings/add": ["guests.0.gender"] };
/** Query parameters of which the description says (in words) one is required; a parameter list cannot say it. */
const ONE_OF_REQUIRED: Record<string, string[]> = { "GET /api/pub/v2/products/prices": ["product_ids"] };

interface Answer {
  status: number;
  contentType: string;
  text: string;
  allow: string | null;
}
interface Sent {
  op: Operation;
  url: string;
  body?: unknown;
  answer: Answer;
}

describe("the description and the running server agree (conformance fuzz)", () => {
  let persistTo: string;
  let server: RunningServer;
  let doc: Doc;
  let ops: Operation[];
  let keys: { public: string; private: string };
  let ajv: InstanceType<typeof Ajv2020>;
  let hints: ReturnType<typeof demoHints>;
  const sent: Sent[] = [];
  /** Numbers the generated texts across the run: two requests never send the same title or e-mail. */
  const counter = { n: 0 };

  async function send(op: Operation, url: string, body?: unknown, method = op.method): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (op.door === "public") headers.authorization = `Bearer ${keys.public}`;
    if (op.door === "private") headers.authorization = `Bearer ${keys.private}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${server.url}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const answer = { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text(), allow: res.headers.get("allow") };
    if (method === op.method) sent.push({ op, url, body, answer });
    return answer;
  }

  const schemaRef = (schema: unknown) => JSON.parse(JSON.stringify(schema ?? {}).replaceAll('"#/components/schemas/', '"doc.json#/components/schemas/'));
  const validators = new Map<unknown, ReturnType<InstanceType<typeof Ajv2020>["compile"]>>();
  function validatorFor(schema: unknown) {
    let v = validators.get(schema);
    if (!v) validators.set(schema, (v = ajv.compile(schemaRef(schema))));
    return v;
  }

  /** What is wrong with an answer, by the description (empty: it conforms). */
  function conformance(op: Operation, a: Answer): string[] {
    const problems: string[] = [];
    const declared = op.responses[String(a.status)];
    if (!declared) return [`${a.status} is not a status ${op.id} lists (${Object.keys(op.responses).join(", ")})`];
    const media = Object.keys(declared.content ?? {});
    if (!media.length) {
      if (a.text.length) problems.push(`${a.status} has a body where the description lists none`);
      return problems;
    }
    const type = a.contentType.split(";")[0].trim().toLowerCase();
    if (!media.includes(type)) return [`${a.status} answered Content-Type "${a.contentType}" where the description lists ${media.join(", ")}`];
    const schema = declared.content[type].schema;
    if (!/json/.test(type) || !schema) return problems;
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return [`${a.status} body is not JSON: ${a.text.slice(0, 100)}`];
    }
    const validate = validatorFor(schema);
    if (!validate(body)) problems.push(`${a.status} body does not match its schema: ${ajv.errorsText(validate.errors?.slice(0, 4), { dataVar: "body" })}`);
    return problems;
  }

  function report(what: string, failures: string[]) {
    assert.equal(failures.length, 0, `${failures.length} ${what}:\n  ${failures.slice(0, 40).join("\n  ")}`);
  }

  /** A positive request of an operation: its path, query and body made from the schema. */
  function positive(op: Operation, rng: Rng, full: boolean) {
    const ctx = { doc, rng, hints, opPath: op.path, full, counter };
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = {};
    for (const p of op.params) {
      if (p.in === "path") {
        const known = hints(op.path, p.name);
        path[p.name] = String(known?.length ? rng.pick(known) : generate(ctx, p.schema as any, p.name, 1));
      } else if (p.in === "query" && (p.required || full)) {
        query[p.name] = generate(ctx, p.schema as any, p.name, 1);
      }
    }
    if (query.start_date && "end_date" in query) query.end_date = undefined;
    const body = op.body ? generate(ctx, op.body.schema as any, "", 0) : undefined;
    return { path, query, body };
  }

  const urlOf = (op: Operation, path: Record<string, string>, query: Record<string, unknown>) => urlFor(op, { path, query: encodeQuery(query) });

  /**
   * Rows per table: a refused request that wrote anything shows here. Webhook deliveries are left
   * out: the delivery object writes them on its own time, for events of the positive requests.
   */
  async function fingerprint(): Promise<Record<string, string>> {
    const [tables] = await stateQuery<{ name: string }>({ persistTo }, [
      { sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'd1_%' AND name NOT LIKE '%search%' AND name <> 'webhook_deliveries'", params: [] },
    ]);
    const rows = await stateQuery<{ name: string; n: number }>({ persistTo }, tables.map((t) => ({ sql: `SELECT '${t.name}' AS name, COUNT(*) AS n FROM "${t.name}"`, params: [] })));
    return Object.fromEntries(rows.map(([r]) => [r.name, String(r.n)]));
  }

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "conformance-"));
    server = await startServer({ persistTo });
    // One key of each scope sends every request (made straight in D1, as the keys CLI does): the
    // limits are the integrator's, not the fuzz's.
    const issued = { public: await issueKey(server.secret, 1, "public"), private: await issueKey(server.secret, 1, "private") };
    await stateExec({ persistTo }, [
      // A business that asks of guests and customers nothing beyond the schema's required fields.
      {
        sql:
          "UPDATE businesses SET config = json_set(config, '$.rate_limit_per_minute', 100000, '$.max_open_carts_per_client', 1000, '$.max_guests_held_per_visitor', 1000, " +
          "'$.guest_fields.birthday.required', json('false'), '$.customer_fields.phone.required', json('false'), '$.customer_fields.address.required', json('false')) WHERE id = 1",
        params: [],
      },
      ...Object.values(issued).map((k, i) => ({
        sql: "INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, 1, ?, ?, ?, ?)",
        params: [k.id, `conformance-${i}`, i === 0 ? "public" : "private", k.hash, new Date().toISOString()],
      })),
    ]);
    keys = { public: issued.public.token, private: issued.private.token };
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc;
    ops = listOperations(doc as any);
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: "doc.json", components: schemaRef(doc.components) });

    // Objects the requests can name: a person, a webhook, a cart (made through the API).
    const personRes = await fetch(`${server.url}/private/persons`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.private}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "conformance.person@example.com", first_name: "Con", last_name: "Formance" }),
    });
    const personBody = (await personRes.json()) as any;
    const person = (personBody.id ?? personBody.data?.id) as string;
    const hookRes = await fetch(`${server.url}/private/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.private}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/conformance-hook", events: ["BookingCancelled"] }),
    });
    const hookBody = (await hookRes.json()) as any;
    const hook = (hookBody.id ?? hookBody.data?.id) as string;
    const sat = upcomingSaturdays(3)[1];
    const cartRes = await fetch(`${server.url}/api/pub/v2/bookings/add`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.public}`, "content-type": "application/json" },
      body: JSON.stringify({ currency: "EUR", guests: [{ first_name: "Con", last_name: "Formance", gender: "f", birth_date: "1990-01-01", package: { id: 101, start_date: sat, end_date: new Date(Date.parse(sat) + 7 * 864e5).toISOString().slice(0, 10), accommodation_id: 202 } }] }),
    });
    const cartBody = (await cartRes.json()) as any;
    const cart = cartBody.cart_id as string;
    assert.ok(person && hook && cart, `the fixture's person (${personRes.status}), webhook (${hookRes.status}) and cart (${cartRes.status}: ${JSON.stringify(cartBody).slice(0, 300)}) were made`);
    hints = demoHints({
      // The demo's stays are 7 or 14 nights; people are born in the past.
      duration: [7, 14],
      birth_date: ["1990-01-01"],
      person_id: [person],
      webhook_id: [hook],
      cart_id: [cart],
      "private:id": [hook, person],
      "/private/catalog/products/{id}#id": [101, 302],
      "/private/catalog/products/{id}/inventory#id": [101, 302],
      "/private/catalog/locations/{id}#id": [1],
      "/private/catalog/categories/{id}#id": [1],
      "/private/catalog/accommodation-types/{id}#id": [1],
      "/private/catalog/diets/{id}#id": [1],
      "/private/catalog/levels/{id}#id": [1],
      "/private/catalog/seasons/{id}#id": [1],
      "/api/pub/v2/packages/{id}#id": [101],
      "/api/pub/v2/packages/{id}/accommodations#id": [101],
      "/api/pub/v2/products/{id}/deeplink#id": [101],
      "/api/pub/v2/products/{id}#id": [101, 302],
      "/api/pub/v2/products/{id}/prices#id": [101, 302],
      "/api/pub/v2/products/{id}/availabilities#id": [101, 302],
    });
  });
  after(async () => {
    await server?.stop();
    if (persistTo) rmSync(persistTo, { recursive: true, force: true });
  });

  it("walks every operation of the description", () => {
    assert.ok(ops.length >= 70, `${ops.length} operations`);
  });

  it("positive: requests made from the schema are accepted (a 2xx, or a documented 404/409/410), each answer as documented", async (t) => {
    const failures: string[] = [];
    const crossField: string[] = [];
    const rng = prng(SEED);
    // Deletions last, so the objects they remove served every other operation first.
    const ordered = [...ops.filter((o) => o.method !== "DELETE"), ...ops.filter((o) => o.method === "DELETE")];
    for (const op of ordered) {
      for (let run = 0; run < RUNS; run++) {
        const minimal = run === 0;
        const { path, query, body } = positive(op, rng, !minimal);
        for (const name of ONE_OF_REQUIRED[op.id] ?? []) query[name] ??= generate({ doc, rng, hints, opPath: op.path, full: true, counter }, op.params.find((p) => p.name === name)!.schema as any, name, 1);
        const url = urlOf(op, path, query);
        const a = await send(op, url, body);
        const problems = conformance(op, a);
        const ok = (a.status >= 200 && a.status < 300) || DOMAIN_REFUSALS.has(a.status);
        let errors: { path: string }[] = [];
        try {
          errors = JSON.parse(a.text).errors ?? [];
        } catch {
          /* judged by conformance() */
        }
        const dataRule = a.status === 422 && errors.length > 0 && errors.every((e) => DATA_RULES[op.id]?.includes(e.path));
        if (!ok && !dataRule && (minimal || a.status !== 422 || !errors.length)) problems.push(`refused a request the schema calls valid with ${a.status}: ${a.text.slice(0, 300)}`);
        else if (!ok) crossField.push(`${op.id}: ${errors.map((e) => e.path).join(", ")}`);
        if (problems.length) failures.push(`${op.method} ${url}${body === undefined ? "" : ` ${JSON.stringify(body).slice(0, 300)}`}\n    → ${problems.join("\n    → ")}`);
      }
    }
    // Rules between fields or on the business's data (a ref taken, the cart's currency, an id of
    // another package) that no schema states: named, for whoever reads the run.
    if (crossField.length) t.diagnostic("422s to requests with every optional field (rules between fields or on the business's data, or not yet in the schema):");
    for (const line of crossField) t.diagnostic(`  ${line}`);
    report("positive requests went wrong", failures);
  });

  it("negative: values the schema calls invalid are refused with a documented 4xx problem+json, and nothing changes", async () => {
    const failures: string[] = [];
    const rng = prng(SEED + 1);
    const validBody = (op: Operation) => (op.body ? validatorFor(op.body.schema) : undefined);
    const beforeRows = await fingerprint();
    let count = 0;
    for (const op of ops) {
      const base = positive(op, rng, true);
      const cases: { what: string; url: string; body?: unknown }[] = [];
      // The body: each value the generator made, made invalid one way at a time.
      if (op.body && base.body !== undefined) {
        for (const slot of slotsOf(doc, op.body.schema as any, base.body)) {
          for (const m of mutationsOf(slot)) {
            const body = mutate(base.body, slot.at, m);
            if (body === undefined) continue;
            // Only what the description itself calls invalid (ajv decides, not the generator).
            if (validBody(op)!(body)) continue;
            cases.push({ what: m.what, url: urlOf(op, base.path, base.query), body });
          }
        }
      }
      // The query: a required parameter left out, a typed one of the wrong type or out of its enum.
      for (const p of op.params.filter((x) => x.in === "query")) {
        const s = deref(doc, p.schema as any);
        if (p.required) cases.push({ what: `required query ${p.name} left out`, url: urlOf(op, base.path, { ...base.query, [p.name]: undefined }), body: base.body });
        const t = Array.isArray(s.type) ? s.type : [s.type];
        if (t.includes("integer") || t.includes("number") || t.includes("boolean")) cases.push({ what: `query ${p.name} not a ${t.join("|")}`, url: urlOf(op, base.path, { ...base.query, [p.name]: "zz" }), body: base.body });
        else if (s.enum) cases.push({ what: `query ${p.name} out of its enum`, url: urlOf(op, base.path, { ...base.query, [p.name]: "zz-not-in-enum" }), body: base.body });
        else if (s.format === "date") cases.push({ what: `query ${p.name} an impossible date`, url: urlOf(op, base.path, { ...base.query, [p.name]: "2026-02-30" }), body: base.body });
      }
      // The path: an id of the wrong type.
      for (const p of op.params.filter((x) => x.in === "path")) {
        const s = deref(doc, p.schema as any);
        if (s.type === "integer" || s.format === "uuid") cases.push({ what: `path ${p.name} not a ${s.format ?? s.type}`, url: urlOf(op, { ...base.path, [p.name]: "zz" }, base.query), body: base.body });
      }
      const chosen = cases.length <= NEGATIVES ? cases : Array.from({ length: NEGATIVES }, () => cases.splice(Math.floor(rng.next() * cases.length), 1)[0]);
      for (const c of chosen) {
        count++;
        const a = await send(op, c.url, c.body);
        const problems = conformance(op, a);
        if (a.status < 400 || a.status >= 500) problems.push(`answered ${a.status} to ${c.what}`);
        else if (!/^application\/problem\+json/.test(a.contentType)) problems.push(`${a.status} is not problem+json`);
        if (problems.length) failures.push(`${op.method} ${c.url} [${c.what}]${c.body === undefined ? "" : ` ${JSON.stringify(c.body).slice(0, 300)}`}\n    → ${problems.join("\n    → ")}\n    ${a.text.slice(0, 200)}`);
      }
    }
    assert.ok(count >= ops.length, `${count} negative requests`);
    const afterRows = await fingerprint();
    for (const [table, n] of Object.entries(afterRows)) if (beforeRows[table] !== n) failures.push(`refused requests changed ${table}: ${beforeRows[table]} rows → ${n}`);
    report("invalid requests went wrong", failures);
  });

  it("a method the description does not list for a path answers 405 with Allow", async () => {
    const failures: string[] = [];
    const rng = prng(SEED + 2);
    for (const [path, item] of Object.entries(doc.paths)) {
      const listed = METHODS.filter((m) => item[m.toLowerCase()]);
      const op = ops.find((o) => o.path === path)!;
      const { path: params } = positive(op, rng, false);
      const url = urlOf(op, params, {});
      // A URL another path of the description matches (GET /packages/prices is GET /packages/{id}) is that path's.
      const elsewhere = (method: string) =>
        Object.entries(doc.paths).some(([other, it]) => other !== path && it[method.toLowerCase()] && new RegExp(`^${other.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(url.split("?")[0]));
      for (const method of METHODS.filter((m) => !listed.includes(m) && !elsewhere(m))) {
        const a = await send(op, url, method === "GET" || method === "DELETE" ? undefined : {}, method);
        const allow = (a.allow ?? "").split(",").map((m) => m.trim()).filter(Boolean);
        if (a.status !== 405) failures.push(`${method} ${url} answered ${a.status}, not 405`);
        else if (!listed.every((m) => allow.includes(m))) failures.push(`${method} ${url}: Allow "${a.allow}" does not list ${listed.join(", ")}`);
        else if (!/^application\/problem\+json/.test(a.contentType)) failures.push(`${method} ${url}: the 405 is not problem+json`);
      }
    }
    report("undocumented methods went wrong", failures);
  });

  it("every answer of this run conformed to the description", () => {
    const failures = sent.flatMap((s) => conformance(s.op, s.answer).map((p) => `${s.op.method} ${s.url}: ${p}`));
    assert.ok(sent.length > ops.length * RUNS, `${sent.length} answers checked`);
    report("answers did not conform", failures);
  });
});
