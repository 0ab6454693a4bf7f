/**
 * Data for the conformance fuzz (conformance.node.ts), made from /openapi.json alone with a seeded
 * generator: a value the schema calls valid (its example, default, enum, minimum; the demo
 * business's real ids and dates where a name has hints), and mutations of it the schema calls
 * invalid (wrong type, a required field left out, out of its enum, below its minimum, an
 * impossible date). Deterministic: the same seed gives the same requests.
 */
import { addDaysIso, type Hints } from "../fuzz-requests";

type S = Record<string, any>;
export interface Doc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, S> };
}

/** mulberry32: a small seeded PRNG, so a run is reproducible from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)], chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof prng>;

export function deref(doc: Doc, s: S | undefined): S {
  let out = s ?? {};
  for (let i = 0; i < 20 && out.$ref; i++) out = doc.components?.schemas?.[String(out.$ref).split("/").pop()!] ?? {};
  return out;
}

const typesOf = (s: S): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** Strings tried, in order, for a pattern without an example: the first that matches is used. */
const PATTERN_CANDIDATES = ["last_name", "first_name", "person.gender", "2026-1001", "2026", "{}", "EUR", "PT", "pt", "09:00", "09:00:00", "912345678", "conformance-ref", "#336699", "2026-12-05", "key_1", "abc", "x"];

export interface GenContext {
  doc: Doc;
  rng: Rng;
  hints: Hints;
  opPath: string;
  /** Include optional object properties (true) or only the required ones (false). */
  full: boolean;
  counter: { n: number };
}

/** A value the schema calls valid. */
export function generate(ctx: GenContext, schema: S | undefined, name = "", depth = 0): unknown {
  const s = deref(ctx.doc, schema);
  const hinted = name ? ctx.hints(ctx.opPath, name) : undefined;
  if (hinted?.length && depth > 0) {
    const fits = hinted.filter((v) => fitsScalar(s, v));
    if (fits.length) return ctx.rng.pick(fits);
  }
  if ("const" in s) return s.const;
  if (s.allOf?.length) return generate(ctx, s.allOf[0], name, depth);
  if (s.discriminator?.mapping && s.oneOf) {
    const [value, ref] = ctx.rng.pick(Object.entries<string>(s.discriminator.mapping));
    return { ...(generate(ctx, { $ref: ref }, name, depth) as object), [s.discriminator.propertyName]: value };
  }
  const union = s.oneOf ?? s.anyOf;
  if (union?.length && !s.type) return generate(ctx, union.find((b: S) => !typesOf(deref(ctx.doc, b)).includes("null")) ?? union[0], name, depth);
  // A ref is unique in its kind: the example names one the demo already has.
  if (name === "ref") return `conformance-${ctx.rng.next().toString(36).slice(2, 10)}`;
  if (s.example !== undefined && exampleFits(s, s.example)) return s.example;
  if (s.enum?.length) return ctx.rng.pick(s.enum.filter((v: unknown) => v !== null));
  if (s.default !== undefined && s.default !== null && !Array.isArray(s.default) && typeof s.default !== "object") return s.default;
  if (typesOf(s).length === 1 && typesOf(s)[0] === "null") return null;
  const type = typesOf(s).find((t) => t !== "null") ?? (s.properties ? "object" : s.items ? "array" : "string");
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [k, sub] of Object.entries<S>(s.properties ?? {})) {
        if (!required.has(k) && (!ctx.full || depth > 3)) continue;
        out[k] = generate(ctx, sub, k, depth + 1);
      }
      // A rule the object states as anyOf of required lists (InventoryPatch: capacity or blocked).
      const needs: string[] = s.anyOf?.find((b: S) => Array.isArray(b.required))?.required ?? [];
      for (const k of needs) if (!(k in out) && s.properties?.[k]) out[k] = generate(ctx, s.properties[k], k, depth + 1);
      return coherent(out);
    }
    case "array": {
      const n = Math.max(s.minItems ?? 0, ctx.full || s.minItems ? 1 : 0);
      return Array.from({ length: n }, () => generate(ctx, s.items, name.replace(/s$/, ""), depth + 1));
    }
    case "integer":
    case "number": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(Math.max(min, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case "boolean":
      return false;
    default:
      return stringFor(ctx, s, name);
  }
}

function stringFor(ctx: GenContext, s: S, name: string): string {
  const n = ++ctx.counter.n;
  if (s.format === "date") return (ctx.hints(ctx.opPath, "start_date") as string[])[0];
  if (s.format === "date-time") return new Date().toISOString();
  if (s.format === "email") return `conformance.${n}@example.com`;
  if (s.format === "uuid") return "00000000-0000-4000-8000-" + String(n).padStart(12, "0");
  if (s.format === "uri" || s.format === "url") return "https://example.com/conformance";
  if (s.pattern) {
    const re = new RegExp(s.pattern, "u");
    const hit = PATTERN_CANDIDATES.find((c) => re.test(c) && c.length >= (s.minLength ?? 0) && c.length <= (s.maxLength ?? Infinity));
    if (hit) return hit;
  }
  const base = `Conformance ${name || "text"} ${n}`;
  const min = s.minLength ?? 0;
  return (base.length < min ? base.padEnd(min, "x") : base).slice(0, s.maxLength ?? 200);
}

function exampleFits(s: S, v: unknown): boolean {
  if (s.enum && !s.enum.includes(v)) return false;
  return fitsScalar(s, v);
}

function fitsScalar(s: S, v: unknown): boolean {
  const types = typesOf(s);
  if (!types.length) return true;
  const t = v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
  if (!(types.includes(t) || (t === "integer" && types.includes("number")))) return false;
  if (typeof v === "number" && ((s.minimum !== undefined && v < s.minimum) || (s.maximum !== undefined && v > s.maximum))) return false;
  if (typeof v === "string" && s.pattern && !new RegExp(s.pattern, "u").test(v)) return false;
  if (s.enum && !s.enum.includes(v)) return false;
  return true;
}

/** A stay's end a week after its start, as the demo's packages sell them. */
function coherent(o: Record<string, unknown>): Record<string, unknown> {
  if (typeof o.start_date === "string" && typeof o.end_date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(o.start_date)) o.end_date = addDaysIso(o.start_date, 7);
  return o;
}

// ---- Negative: values the schema calls invalid ----

export interface Slot {
  /** Where the value sits in the body: keys and indexes. */
  at: (string | number)[];
  schema: S;
  required: boolean;
}

/** Every value of a generated body with the schema it was made from (to mutate one of them). */
export function slotsOf(doc: Doc, schema: S | undefined, value: unknown, at: (string | number)[] = [], required = true, out: Slot[] = []): Slot[] {
  let s = deref(doc, schema);
  if (s.discriminator?.mapping && value && typeof value === "object") s = deref(doc, { $ref: s.discriminator.mapping[(value as S)[s.discriminator.propertyName]] });
  else if ((s.oneOf ?? s.anyOf) && !s.type) s = deref(doc, (s.oneOf ?? s.anyOf).find((b: S) => !typesOf(deref(doc, b)).includes("null")) ?? {});
  out.push({ at, schema: s, required });
  if (Array.isArray(value)) value.forEach((v, i) => slotsOf(doc, s.items, v, [...at, i], true, out));
  else if (value && typeof value === "object") {
    const req = new Set<string>(s.required ?? []);
    for (const [k, v] of Object.entries(value)) slotsOf(doc, s.properties?.[k], v, [...at, k], req.has(k), out);
  }
  return out;
}

export interface Mutation {
  what: string;
  /** Apply to a copy of the body (undefined: remove the value). */
  value?: unknown;
  remove?: boolean;
}

/** The mutations of one slot the schema calls invalid. */
export function mutationsOf(slot: Slot): Mutation[] {
  const s = slot.schema;
  const types = typesOf(s);
  const out: Mutation[] = [];
  const where = slot.at.join(".") || "the body";
  if (slot.required && slot.at.length) out.push({ what: `required ${where} left out`, remove: true });
  if (!types.length) return out;
  const wrong = types.includes("string") ? 12345 : types.includes("integer") || types.includes("number") ? "not-a-number" : types.includes("boolean") ? "yes" : types.includes("array") ? { not: "an array" } : "not-an-object";
  if (!types.includes("null") || wrong !== null) out.push({ what: `${where} of the wrong type (${JSON.stringify(wrong)})`, value: wrong });
  if (s.enum?.length && types.includes("string")) out.push({ what: `${where} out of its enum`, value: "zz-not-in-enum" });
  if (typeof s.minimum === "number" && (types.includes("integer") || types.includes("number"))) out.push({ what: `${where} below its minimum ${s.minimum}`, value: s.minimum - 1 });
  if (s.format === "date") {
    out.push({ what: `${where} an impossible date 2026-02-30`, value: "2026-02-30" });
    out.push({ what: `${where} an impossible date 0000-00-00`, value: "0000-00-00" });
  }
  return out;
}

/** A copy of `body` with the mutation applied at `at`. */
export function mutate(body: unknown, at: (string | number)[], m: Mutation): unknown {
  if (!at.length) return m.remove ? undefined : m.value;
  const copy = structuredClone(body) as any;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k];
  const last = at[at.length - 1];
  if (m.remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = m.value;
  return copy;
}
