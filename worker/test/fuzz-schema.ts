/**
 * A small JSON Schema checker for the subset that @hono/zod-openapi emits into /openapi.json
 * (OpenAPI 3.1: $ref, allOf/anyOf/oneOf/not, type lists, nullable, enum/const, properties,
 * required, additionalProperties, items/prefixItems, string/number/array bounds, pattern and
 * the formats the contract uses). A keyword it does not know is recorded, never ignored silently:
 * the fuzz suite reports them so the checker grows with the document.
 *
 * No validator package: this covers the document in ~150 lines and keeps test dependencies flat.
 */
export type Schema = { [k: string]: any } | boolean;
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

const KNOWN = new Set([
  "$ref", "allOf", "anyOf", "oneOf", "not", "type", "nullable", "enum", "const", "properties", "required",
  "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "propertyNames", "minProperties", "maxProperties", "default", "description", "example", "examples", "title",
  "deprecated", "readOnly", "writeOnly", "$schema", "discriminator", "xml", "externalDocs", "contentEncoding",
  "contentMediaType", "$id", "$comment", "id",
]);
export const unknownKeywords = new Set<string>();

export function deref(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 32 && typeof s === "object" && s.$ref; i++) {
    const name = String(s.$ref).replace(/^#\/components\/schemas\//, "");
    const target = doc.components?.schemas?.[name];
    if (target === undefined) throw new Error(`unresolvable $ref ${s.$ref}`);
    s = target;
  }
  return s;
}

const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;

function isRealDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

const formats: Record<string, (s: string) => boolean> = {
  date: isRealDate,
  "date-time": (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
  time: (s) => /^\d{2}:\d{2}(:\d{2})?$/.test(s),
  email: (s) => /^[^\s@]+@[^\s@]+$/.test(s),
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  uri: (s) => { try { new URL(s); return true; } catch { return false; } },
  url: (s) => { try { new URL(s); return true; } catch { return false; } },
};

/** Errors of `value` against `schema`, each as "path: message"; empty when valid. */
export function validate(doc: OpenApiDoc, schema: Schema, value: unknown, path = "$"): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const s = deref(doc, schema) as Record<string, any>;
  if (typeof s !== "object") return [];
  for (const k of Object.keys(s)) if (!KNOWN.has(k) && !k.startsWith("x-")) unknownKeywords.add(k);
  const errs: string[] = [];

  if (s.allOf) for (const sub of s.allOf) errs.push(...validate(doc, sub, value, path));
  if (s.anyOf && !s.anyOf.some((sub: Schema) => validate(doc, sub, value, path).length === 0)) {
    errs.push(`${path}: matches none of anyOf (${JSON.stringify(value)?.slice(0, 80)})`);
  }
  // oneOf: zod emits it for unions whose branches may overlap, so "at least one" is the honest check.
  if (s.oneOf && !s.oneOf.some((sub: Schema) => validate(doc, sub, value, path).length === 0)) {
    errs.push(`${path}: matches none of oneOf (${JSON.stringify(value)?.slice(0, 80)})`);
  }
  if (s.not && validate(doc, s.not, value, path).length === 0) errs.push(`${path}: matches a "not" schema`);
  if (s.nullable && value === null) return errs;
  if (s.enum && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(value)) errs.push(`${path}: must be ${JSON.stringify(s.const)}`);

  if (s.type) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(value);
    const ok = types.includes(t) || (t === "integer" && types.includes("number"));
    if (!ok) return [...errs, `${path}: expected ${types.join("|")}, got ${t} (${JSON.stringify(value)?.slice(0, 60)})`];
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (s.minLength !== undefined && len < s.minLength && value.length < s.minLength) errs.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && len > s.maxLength && value.length > s.maxLength) errs.push(`${path}: longer than ${s.maxLength}`);
    if (s.pattern && !new RegExp(s.pattern, "u").test(value)) errs.push(`${path}: ${JSON.stringify(value).slice(0, 60)} does not match /${s.pattern}/`);
    if (s.format && formats[s.format] && !formats[s.format](value)) errs.push(`${path}: ${JSON.stringify(value).slice(0, 60)} is not a ${s.format}`);
  }
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) errs.push(`${path}: ${value} < minimum ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) errs.push(`${path}: ${value} > maximum ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) errs.push(`${path}: ${value} <= ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) errs.push(`${path}: ${value} >= ${s.exclusiveMaximum}`);
    if (s.multipleOf && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) errs.push(`${path}: not a multiple of ${s.multipleOf}`);
    if (!Number.isFinite(value)) errs.push(`${path}: not finite`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) errs.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) errs.push(`${path}: more than ${s.maxItems} items`);
    if (s.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) errs.push(`${path}: items not unique`);
    const prefix: Schema[] = s.prefixItems ?? [];
    value.forEach((item, i) => {
      const sub = i < prefix.length ? prefix[i] : s.items;
      if (sub !== undefined) errs.push(...validate(doc, sub, item, `${path}[${i}]`));
    });
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const req of s.required ?? []) if (!(req in obj)) errs.push(`${path}: missing required "${req}"`);
    const props: Record<string, Schema> = s.properties ?? {};
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) errs.push(...validate(doc, props[k], v, `${path}.${k}`));
      else if (s.additionalProperties === false) errs.push(`${path}: unexpected property "${k}"`);
      else if (typeof s.additionalProperties === "object") errs.push(...validate(doc, s.additionalProperties, v, `${path}.${k}`));
      if (s.propertyNames) errs.push(...validate(doc, s.propertyNames, k, `${path}{${k}}`));
    }
    const n = Object.keys(obj).length;
    if (s.minProperties !== undefined && n < s.minProperties) errs.push(`${path}: fewer than ${s.minProperties} properties`);
    if (s.maxProperties !== undefined && n > s.maxProperties) errs.push(`${path}: more than ${s.maxProperties} properties`);
  }
  return errs;
}
