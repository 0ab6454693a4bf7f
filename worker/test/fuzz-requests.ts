/**
 * Requests generated from /openapi.json: every operation's path, query and body parameters become
 * fast-check arbitraries, first valid per the schema (biased towards the demo business's real ids
 * and dates so requests reach the handlers), then mutated the ways a hostile or careless client
 * would: wrong types, missing fields, huge strings, odd Unicode, malformed JSON, absurd dates and
 * numbers, a wrong content type.
 */
import fc from "fast-check";
import { deref, type OpenApiDoc, type Schema } from "./fuzz-schema";

export type Door = "public" | "private" | "widget" | "open";
export interface Param { name: string; in: "path" | "query" | "header" | "cookie"; required: boolean; schema: Schema }
export interface Operation {
  method: string;
  path: string;
  id: string;
  params: Param[];
  body?: { schema: Schema; required: boolean };
  responses: Record<string, any>;
  door: Door;
}
export interface FuzzRequest {
  path: Record<string, string>;
  query: [string, string][];
  /** The raw body text (already serialized, possibly malformed). */
  body?: string;
  contentType?: string;
  /** Headers of its own (Stripe's webhook: its Stripe-Signature). */
  headers?: Record<string, string>;
  /** What was done to the request, for the failure report. */
  mutation?: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

export function doorOf(path: string): Door {
  if (path.startsWith("/api/pub/v2")) return "public";
  if (path.startsWith("/private")) return "private";
  if (path.startsWith("/widget/v1/")) return "widget";
  return "open";
}

/** Every operation of the document, parameters resolved (path-level ones merged in). */
export function listOperations(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared: any[] = item.parameters ?? [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const byKey = new Map<string, Param>();
      for (const raw of [...shared, ...(op.parameters ?? [])]) {
        const p = raw.$ref ? (doc as any).components?.parameters?.[String(raw.$ref).split("/").pop()!] : raw;
        if (!p) continue;
        byKey.set(`${p.in}:${p.name}`, { name: p.name, in: p.in, required: !!p.required || p.in === "path", schema: p.schema ?? {} });
      }
      // Path templates the document names without declaring (defensive): strings.
      for (const m of path.matchAll(/\{([^}]+)\}/g)) {
        if (!byKey.has(`path:${m[1]}`)) byKey.set(`path:${m[1]}`, { name: m[1], in: "path", required: true, schema: { type: "string" } });
      }
      const json = op.requestBody?.content?.["application/json"];
      ops.push({
        method: method.toUpperCase(),
        path,
        id: `${method.toUpperCase()} ${path}`,
        params: [...byKey.values()],
        body: json ? { schema: json.schema ?? {}, required: !!op.requestBody.required } : undefined,
        responses: op.responses ?? {},
        door: doorOf(path),
      });
    }
  }
  return ops;
}

/** A route as Hono lists it (`app.routes`): the widget proxy's own list, from widgetRoutes(). */
export interface RouteEntry {
  method: string;
  path: string;
}

const WIDGET_PREFIX = "/widget/v1/:business";

/**
 * The widget proxy's operations, from its own route list (widgetRoutes().routes): each route it
 * answers itself for one method (bootstrap and calendar, which /openapi.json does not list: they
 * are the widget's, not integrators'), and, behind its catch-all, every public API operation of
 * the document under /widget/v1/{business}. Throws when the list has no catch-all, or a route
 * outside /widget/v1/:business: then this mapping no longer says what the proxy serves.
 */
export function widgetOperations(ops: Operation[], routes: RouteEntry[]): Operation[] {
  const business: Param = { name: "business", in: "path", required: true, schema: { type: "string" } };
  for (const r of routes) if (!r.path.startsWith(WIDGET_PREFIX)) throw new Error(`widget route outside ${WIDGET_PREFIX}: ${r.method} ${r.path}`);
  if (!routes.some((r) => r.method === "ALL" && r.path === `${WIDGET_PREFIX}/*`)) throw new Error("the widget proxy has no catch-all to the public API");
  const mirrored = ops
    .filter((op) => op.door === "public")
    .map((op) => {
      const path = `/widget/v1/{business}${op.path.slice("/api/pub/v2".length)}`;
      return { ...op, path, id: `${op.method} ${path}`, params: [business, ...op.params], door: "widget" as const };
    });
  // A route of its own on a mirrored operation's path is a check in front of it (the human check
  // before a checkout): the operation is the mirrored one, not another.
  const mirroredIds = new Set(mirrored.map((op) => op.id));
  const own = routes
    .filter((r) => r.method !== "ALL" && !mirroredIds.has(`${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`))
    .map((r): Operation => {
      const path = r.path.replace(/:(\w+)/g, "{$1}");
      return {
        method: r.method, path, id: `${r.method} ${path}`, params: [business, ...(WIDGET_QUERIES[r.path.slice(WIDGET_PREFIX.length)] ?? [])],
        responses: { 200: { description: "widget data" }, 422: { description: "invalid query" } }, door: "widget",
      };
    });
  return [...mirrored, ...own];
}

const q = (name: string, schema: Record<string, unknown>): Param => ({ name, in: "query", required: false, schema });
/** The query parameters of the widget's own reads (routes/widget.ts, readQuery). */
const WIDGET_QUERIES: Record<string, Param[]> = {
  "/bootstrap": [q("product", { type: "integer", minimum: 1 }), q("start_date", { type: "string", format: "date" }), q("duration", { type: "integer", minimum: 1 }), q("language", { type: "string" }), q("currency", { type: "string" })],
  "/calendar": [q("product", { type: "integer", minimum: 1 }), q("from", { type: "string", format: "date" }), q("to", { type: "string", format: "date" }), q("duration", { type: "integer", minimum: 1 }), q("currency", { type: "string" })],
};

/** Values known to exist (the demo business and objects created before the run), by name. */
export type Hints = (opPath: string, name: string) => unknown[] | undefined;

function isoDay(offset: number, base = new Date()): string {
  const d = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate() + offset));
  return d.toISOString().slice(0, 10);
}
/** Saturdays (the demo package's check-in day) over the next months, and a few other days. */
export function upcomingSaturdays(n = 8): string[] {
  const out: string[] = [];
  for (let i = 7; out.length < n; i++) if (new Date(`${isoDay(i)}T00:00:00Z`).getUTCDay() === 6) out.push(isoDay(i));
  return out;
}
export const addDaysIso = (iso: string, days: number) => isoDay(days, new Date(`${iso}T00:00:00Z`));

const PRODUCT_IDS = [101, 201, 202, 203, 204, 205, 301, 302, 303, 401, 402, 501];
let emailCounter = 0;

/** Hints from the demo seed; `extra` adds the ids created at run time (carts, persons, ...). */
export function demoHints(extra: Record<string, unknown[]> = {}): Hints {
  const sats = upcomingSaturdays();
  const base: Record<string, unknown[]> = {
    business: ["demo"],
    product: [101, 302, 401],
    from: sats,
    to: sats.map((d) => addDaysIso(d, 40)),
    id: PRODUCT_IDS,
    product_id: PRODUCT_IDS,
    package_id: [101],
    accommodation_id: [201, 202, 203, 204, 205],
    package_item_id: [1001, 1002, 1003, 1004, 1005],
    currency: ["EUR", "USD"],
    currency_id: ["EUR", "USD"],
    language: ["en", "de", "es"],
    language_code: ["en", "de", "es"],
    start_date: sats,
    end_date: [...sats.map((d) => addDaysIso(d, 7)), ...sats.map((d) => addDaysIso(d, 30))],
    duration: [7, 14, 1],
    males: [0, 1, 2],
    females: [0, 1, 2],
    couples: [0, 1],
    pax: [1, 2, 3],
    terms_accepted: [true],
    ...extra,
  };
  return (opPath, name) => {
    const bare = name.replace(/\[\]$/, "");
    const scoped = extra[`${opPath}#${bare}`];
    if (scoped) return scoped;
    if (bare === "id" && !opPath.includes("{id}")) return undefined;
    if (bare === "id" && (opPath.startsWith("/private") || opPath.includes("carts"))) return extra[`private:id`];
    if (bare === "email") return undefined;
    return base[bare];
  };
}

const LIMIT = { arrayMax: 3, stringMax: 24, depth: 6 };

/** A value valid for `schema` (as far as the schema says), biased by hints for known names. */
export function arbitraryFor(doc: OpenApiDoc, schema: Schema, hints: Hints, opPath: string, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.constantFrom("x", 1, true);
  if (schema === false) return fc.constant(undefined);
  const s = deref(doc, schema) as Record<string, any>;
  const hinted = name ? hints(opPath, name) : undefined;
  const own = generate(doc, s, hints, opPath, name, depth);
  if (hinted && hinted.length) return fc.oneof({ arbitrary: fc.constantFrom(...hinted), weight: 4 }, { arbitrary: own, weight: 1 });
  return own;
}

function generate(doc: OpenApiDoc, s: Record<string, any>, hints: Hints, opPath: string, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > LIMIT.depth) return fc.constant(null);
  if (s.enum) return fc.constantFrom(...s.enum);
  if ("const" in s) return fc.constant(s.const);
  if (s.allOf) {
    const merged: Record<string, any> = { type: "object", properties: {}, required: [] };
    for (const sub of s.allOf) {
      const d = deref(doc, sub) as Record<string, any>;
      Object.assign(merged.properties, d.properties ?? {});
      merged.required.push(...(d.required ?? []));
      if (d.type && d.type !== "object") return generate(doc, d, hints, opPath, name, depth);
    }
    return generate(doc, merged, hints, opPath, name, depth);
  }
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b: Schema) => arbitraryFor(doc, b, hints, opPath, name, depth + 1)));
  let types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ["object"] : ["string"];
  if (s.nullable) types = [...types, "null"];
  if (types.length > 1) return fc.oneof(...types.map((t) => generate(doc, { ...s, type: t, nullable: false }, hints, opPath, name, depth)));
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(min, 0) + 100);
      return fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, Math.max(min, 0) + 1000) });
    }
    case "number": {
      const min = s.minimum ?? 0;
      const max = s.maximum ?? min + 1000;
      return fc.double({ min, max: Math.min(max, min + 1e6), noNaN: true, noDefaultInfinity: true });
    }
    case "array": {
      const item = s.items ?? {};
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? LIMIT.arrayMax, LIMIT.arrayMax));
      return fc.array(arbitraryFor(doc, item, hints, opPath, name, depth + 1), { minLength, maxLength });
    }
    case "object": {
      const props: Record<string, Schema> = s.properties ?? {};
      const required: string[] = s.required ?? [];
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, sub] of Object.entries(props)) model[k] = arbitraryFor(doc, sub, hints, opPath, k, depth + 1);
      if (!Object.keys(model).length) return fc.constant({});
      return fc.record(model, { requiredKeys: required.filter((k) => k in model) });
    }
    default:
      return stringFor(s, name);
  }
}

function stringFor(s: Record<string, any>, name: string): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? LIMIT.stringMax, LIMIT.stringMax));
  switch (s.format) {
    case "date":
      return fc.integer({ min: -30, max: 400 }).map((n) => isoDay(n));
    case "date-time":
      return fc.integer({ min: -30, max: 400 }).map((n) => `${isoDay(n)}T10:00:00Z`);
    case "uuid":
      return fc.uuid();
    case "email":
      return fc.constant(null).map(() => `fuzz.${Date.now().toString(36)}.${++emailCounter}@example.com`);
    case "uri":
    case "url":
      return fc.constantFrom("https://hooks.example.com/in", "http://127.0.0.1:8859/hook");
  }
  if (/e-?mail/i.test(name)) return fc.constant(null).map(() => `fuzz.${Date.now().toString(36)}.${++emailCounter}@example.com`);
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= minLength && v.length <= Math.max(maxLength, 64));
    } catch {
      /* an engine-specific pattern: plain strings */
    }
  }
  return fc.string({ minLength, maxLength });
}

/** A valid request for the operation (per the document; the business may still refuse it). */
export function validRequest(doc: OpenApiDoc, op: Operation, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const pathArbs: Record<string, fc.Arbitrary<unknown>> = {};
  const queryArbs: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  for (const p of op.params) {
    if (p.in === "path") pathArbs[p.name] = arbitraryFor(doc, p.schema, hints, op.path, p.name);
    if (p.in === "query") {
      queryArbs[p.name] = arbitraryFor(doc, p.schema, hints, op.path, p.name);
      if (p.required) requiredQuery.push(p.name);
    }
  }
  const bodyArb: fc.Arbitrary<unknown> = op.body ? arbitraryFor(doc, op.body.schema, hints, op.path) : fc.constant(undefined);
  return fc
    .record({
      path: Object.keys(pathArbs).length ? fc.record(pathArbs) : fc.constant({}),
      query: Object.keys(queryArbs).length ? fc.record(queryArbs, { requiredKeys: requiredQuery }) : fc.constant({}),
      body: bodyArb,
      coherent: fc.boolean(),
    })
    .map(({ path, query, body, coherent }) => {
      if (coherent) {
        makeCoherent(query);
        makeCoherent(body);
      }
      return {
        path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, String(v)])),
        query: encodeQuery(query as Record<string, unknown>),
        body: body === undefined ? undefined : JSON.stringify(body),
        contentType: body === undefined ? undefined : "application/json",
      };
    });
}

/** Most business rules tie dates together: an end a week after the start, dates inside the stay. */
function makeCoherent(v: unknown): void {
  if (!v || typeof v !== "object") return;
  if (Array.isArray(v)) return v.forEach(makeCoherent);
  const o = v as Record<string, unknown>;
  if (typeof o.start_date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(o.start_date) && "end_date" in o) o.end_date = addDaysIso(o.start_date, 7);
  for (const child of Object.values(o)) makeCoherent(child);
}

export function encodeQuery(q: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) out.push([k, scalar(item)]);
    else out.push([k, scalar(v)]);
  }
  return out;
}
const scalar = (v: unknown) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

/** The URL path of a request: the template with its (encoded) parameters. */
export function urlFor(op: Operation, req: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, n) => encode(req.path[n] ?? "x"));
  const qs = req.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
  return qs ? `${path}?${qs}` : path;
}

/**
 * Percent-encoding that also carries lone surrogates (which encodeURIComponent refuses) as the
 * bytes a sloppy client would send: their 3-byte (invalid UTF-8) form.
 */
export function encode(s: string): string {
  let out = "";
  for (const ch of s) {
    const u = ch.charCodeAt(0);
    if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff) {
      out += [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

export const ODD_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF\uD800", "\u202Eevil", "\u200B\u200C\u200D\uFEFF", "🏄‍♀️🌊", "𝕿𝖊𝖘𝖙",
  "Ω≈ç√∫˜µ≤≥÷", "ﷺ", "' OR 1=1 --", "\"; DROP TABLE persons; --", "<script>alert(1)</script>", "%00", "%", "../../etc/passwd",
  "null", "undefined", "NaN", "true", "[]", "{}", "\\", "\r\n\r\n", "a".repeat(256), "ÿ".repeat(300), "Z̴̧̛̖͎̔a̶̗̓l̵g̸o̴",
  "__proto__", "constructor", "$where", "1e999",
];
export const ABSURD_DATES = [
  "0000-00-00", "0000-01-01", "9999-12-31", "2026-02-30", "2026-02-29", "2028-02-29", "2026-13-01", "2026-1-1", "1970-01-01",
  "275760-09-13", "-000001-01-01", "2026-11-21T25:00:00Z", "2026-11-21T10:00:00Z", "21/11/2026", "today", "2026-W47", "",
];
export const ABSURD_NUMBERS: unknown[] = [
  -1, 0, -0, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 + 1, 1e308, -1e308, 5e-324, "1e999", "0x10", "Infinity", "NaN",
  "١٢٣", "1,2", " 7 ", "7abc", "-", "+1", "00007",
];
const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, "string", [], [1, 2], {}, { a: 1 }, 1.5, "[]"];
const MALFORMED_JSON = [
  "{", "}", "{\"a\":", "[1,2", "{'a':1}", "nul", "tru", "{\"guests\":[}", "\u0000", "{\"a\":1,}", "NaN", "\"unterminated",
  "[".repeat(5000) + "]".repeat(5000), "{\"a\":\"\\uD800\"}", "{\"__proto__\":{\"admin\":true}}", "  ", "\uFEFF{}",
];

function hugeString(kind: number, size: number): string {
  const unit = ["A", "é", "🌊", "\u0000", "%", "0"][kind % 6];
  return unit.repeat(Math.ceil(size / unit.length));
}

/** Slots of a JSON value that can be replaced, as key paths. */
function slots(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length) out.push(prefix);
  if (value && typeof value === "object" && prefix.length < 8) {
    for (const [k, v] of Object.entries(value)) slots(v, [...prefix, Array.isArray(value) ? Number(k) : k], out);
  }
  return out;
}
function setAt(root: any, path: (string | number)[], fn: (old: unknown) => unknown | typeof DELETE): void {
  let node = root;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1];
  const next = fn(node[last]);
  if (next === DELETE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = next;
}
const DELETE = Symbol("delete");

type Mutator = (req: FuzzRequest, pick: number, size: number) => FuzzRequest;

function mutateBody(req: FuzzRequest, pick: number, label: string, fn: (old: unknown) => unknown): FuzzRequest {
  if (req.body === undefined) return mutateParam({ ...req }, pick, label, (old) => scalar(fn(old)));
  const value = JSON.parse(req.body);
  const all = slots(value);
  if (!all.length) return { ...req, body: JSON.stringify(fn(value)), mutation: `${label} (whole body)` };
  const path = all[pick % all.length];
  setAt(value, path, fn);
  return { ...req, body: JSON.stringify(value), mutation: `${label} at body.${path.join(".")}` };
}
function mutateParam(req: FuzzRequest, pick: number, label: string, fn: (old: string) => string): FuzzRequest {
  const pathKeys = Object.keys(req.path);
  const n = pathKeys.length + req.query.length;
  if (!n) return { ...req, query: [...req.query, ["unexpected", fn("x")]], mutation: `${label} in an unexpected query parameter` };
  const i = pick % n;
  if (i < pathKeys.length) {
    const k = pathKeys[i];
    return { ...req, path: { ...req.path, [k]: fn(req.path[k]) }, mutation: `${label} in path parameter ${k}` };
  }
  const query = req.query.map((e) => [...e] as [string, string]);
  const q = query[i - pathKeys.length];
  q[1] = fn(q[1]);
  return { ...req, query, mutation: `${label} in query parameter ${q[0]}` };
}

const mutators: Record<string, Mutator> = {
  wrongType: (r, pick, size) => {
    const v = WRONG_TYPES[size % WRONG_TYPES.length];
    return pick % 3 === 0 ? mutateParam(r, pick, `wrong type ${JSON.stringify(v)}`, () => scalar(v)) : mutateBody(r, pick, `wrong type ${JSON.stringify(v)}`, () => v);
  },
  missingField: (r, pick) => {
    if (r.body !== undefined && pick % 4 !== 0) {
      const value = JSON.parse(r.body);
      const all = slots(value);
      if (all.length) {
        const path = all[pick % all.length];
        setAt(value, path, () => DELETE);
        return { ...r, body: JSON.stringify(value), mutation: `removed body.${path.join(".")}` };
      }
      return { ...r, body: undefined, mutation: "removed the body" };
    }
    if (r.query.length) {
      const query = r.query.filter((_, i) => i !== pick % r.query.length);
      return { ...r, query, mutation: `removed query parameter ${r.query[pick % r.query.length][0]}` };
    }
    return { ...r, body: undefined, mutation: "removed the body" };
  },
  hugeString: (r, pick, size) => {
    const s = hugeString(pick, 1_000 + (size % 4) * 90_000);
    return pick % 3 === 0 ? mutateParam(r, pick, `huge string (${s.length})`, () => s.slice(0, 6000)) : mutateBody(r, pick, `huge string (${s.length})`, () => s);
  },
  oddUnicode: (r, pick, size) => {
    const s = ODD_STRINGS[size % ODD_STRINGS.length];
    return pick % 2 === 0 ? mutateParam(r, pick, `odd string ${JSON.stringify(s).slice(0, 30)}`, () => s) : mutateBody(r, pick, `odd string ${JSON.stringify(s).slice(0, 30)}`, () => s);
  },
  absurdDate: (r, pick, size) => {
    const d = ABSURD_DATES[size % ABSURD_DATES.length];
    return pick % 2 === 0 ? mutateParam(r, pick, `absurd date ${d}`, () => d) : mutateBody(r, pick, `absurd date ${d}`, () => d);
  },
  absurdNumber: (r, pick, size) => {
    const n = ABSURD_NUMBERS[size % ABSURD_NUMBERS.length];
    return pick % 2 === 0 ? mutateParam(r, pick, `absurd number ${String(n)}`, () => String(n)) : mutateBody(r, pick, `absurd number ${String(n)}`, () => n);
  },
  malformedJson: (r, _pick, size) => ({
    ...r,
    body: MALFORMED_JSON[size % MALFORMED_JSON.length],
    contentType: "application/json",
    mutation: `malformed JSON ${JSON.stringify(MALFORMED_JSON[size % MALFORMED_JSON.length].slice(0, 30))}`,
  }),
  wrongContentType: (r, pick) => ({
    ...r,
    body: r.body ?? "a=1",
    contentType: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "", "application/json; charset=latin1"][pick % 6],
    mutation: "wrong content type",
  }),
  extraFields: (r, pick) => {
    if (r.body === undefined) return { ...r, query: [...r.query, ["__proto__", "1"], ["x".repeat(300), "y"]], mutation: "unknown query parameters" };
    const value = JSON.parse(r.body);
    if (value && typeof value === "object" && !Array.isArray(value)) {
      value[["__proto__", "constructor", "zzz", "business_id"][pick % 4]] = { injected: true };
    }
    return { ...r, body: JSON.stringify(value), mutation: "unknown body fields" };
  },
  duplicateParams: (r) => ({ ...r, query: [...r.query, ...r.query], mutation: "every query parameter twice" }),
};
export const MUTATIONS = Object.keys(mutators);

/** A request of the operation with one hostile change. */
export function mutatedRequest(doc: OpenApiDoc, op: Operation, hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(validRequest(doc, op, hints), fc.constantFrom(...MUTATIONS), fc.nat(), fc.nat())
    .map(([req, kind, pick, size]) => mutators[kind](req, pick, size));
}
