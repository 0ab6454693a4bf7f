import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../../db/request-env";
import { ApiError, type FieldError } from "../../lib/errors";
import type { Range, Sort } from "../../db/list-filters";

/**
 * Query syntax of the private API's lists (docs/design.md, API conventions):
 * - lists: repeated `name[]=a&name[]=b`, repeated `name=a&name=b`, or `name=a,b`;
 * - ranges: `from..to`, `from..` or `..to` (both ends included), or one value;
 *   a date on a datetime filter means that whole day (UTC);
 * - `null` / `notnull` where the spec allows them;
 * - `page` >= 1 (default 1), `limit` 1..100 (default 10); anything else is a 422, never a clamp.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A path id that must be a UUID: anything else is a 400 (the spec's "invalid request"). */
export function uuidParam(value: string, name: string): string {
  if (!isUuid(value)) throw new ApiError(400, "invalid_id", `${name} must be a UUID.`, { errors: [{ path: name, message: "must be a UUID" }] });
  return value.toLowerCase();
}

/** Documentation of a list-capable query parameter (also accepts name[]). */
export const listParam = (description: string) =>
  z.union([z.string(), z.array(z.string())]).optional().openapi({ description: `${description} One value, a comma-separated list, or repeated (name[]=a&name[]=b).` });
/** `page`: the server takes an integer from 1 (default 1); anything else is a 422 (QueryReader.paging). */
export const pageParam = () =>
  z.string().optional().openapi({ type: "integer", minimum: 1, maximum: 1_000_000, default: 1, description: "Page number, from 1 (default 1); other values are a 422." });
/** `limit`: the server takes an integer from 1 to 100 (default 10); anything else is a 422. */
export const limitParam = () =>
  z.string().optional().openapi({ type: "integer", minimum: 1, maximum: 100, default: 10, description: "Items per page, 1 to 100 (default 10); other values are a 422." });
/** A boolean filter: the server takes `true` or `false` (QueryReader.bool); anything else is a 422. */
export const boolParam = (description = "true or false") =>
  z.string().optional().openapi({ type: "boolean", description: `${description} (true or false, also 1 or 0; other values are a 422).` });
/** A list of values from a fixed set (QueryReader.enums): documented as an array of the set, sent repeated (name=a&name=b); a comma-separated list is also taken. */
export const enumListParam = (values: readonly string[], description = "") =>
  z.union([z.string(), z.array(z.string())]).optional().openapi({
    type: "array",
    items: { type: "string", enum: [...values] },
    description: `${description ? `${description} ` : ""}Any of ${values.join(", ")}; repeated (name=a&name=b or name[]=a), or comma-separated. Other values are a 422.`,
  });
/** One value from a fixed set (QueryReader.enumOne). */
export const enumParam = (values: readonly string[], description = "") =>
  z.string().optional().openapi({ type: "string", enum: [...values], description: `${description ? `${description} ` : ""}One of ${values.join(", ")}; other values are a 422.` });
/** A list of ids (QueryReader.uuids / ints): documented as an array of UUIDs or of integers from 1. */
export const idListParam = (kind: "uuid" | "integer", description: string) =>
  z.union([z.string(), z.array(z.string())]).optional().openapi({
    type: "array",
    items: kind === "uuid" ? { type: "string", format: "uuid" } : { type: "integer", minimum: 1, maximum: 2_147_483_647 },
    description: `${description} One value, a comma-separated list, or repeated (name[]=a&name[]=b); other values are a 422.`,
  });
const DATE_TEXT = "\\d{4}-\\d{2}-\\d{2}";
const DATETIME_TEXT = `${DATE_TEXT}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2}))?`;
/**
 * A date or datetime filter (QueryReader.range): one value, from..to, from.. or ..to; `null` and
 * `notnull` where allowed. Its pattern says the form (a real date is checked by the server).
 */
export const rangeParam = (description: string, kind: "date" | "datetime" = "date", allowNull = false) => {
  const one = kind === "date" ? DATE_TEXT : DATETIME_TEXT;
  return z
    .string()
    .optional()
    .openapi({
      pattern: `^(${allowNull ? "null|notnull|" : ""}${one}(\\.\\.(${one})?)?|\\.\\.${one})$`,
      description: `${description} One value or a range from..to (either end may be left open)${kind === "datetime" ? "; a date (YYYY-MM-DD) or an ISO 8601 datetime with its offset, a date meaning that whole day (UTC)" : "; dates YYYY-MM-DD"}. Other values are a 422.`,
    });
};

export type { Range, Sort };

/** Collects the query's errors so that one 422 lists them all. */
export class QueryReader {
  readonly errors: FieldError[] = [];
  private readonly all: Record<string, string[]>;

  /** `all`: the query's values by name, when not the request's own (the back office drops a form's empty fields). */
  constructor(c: Context<AppEnv>, all?: Record<string, string[]>) {
    this.all = all ?? c.req.queries() ?? {};
  }

  fail(path: string, message: string): undefined {
    this.errors.push({ path, message });
    return undefined;
  }

  /** Every value given for name and name[], split on commas. */
  values(name: string): string[] | undefined {
    const raw = [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])];
    if (!raw.length) return undefined;
    return raw.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  }

  /** Every value given for name and name[], as sent (sort_by keeps its ",desc"). */
  raw(name: string): string[] | undefined {
    const raw = [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])].map((v) => v.trim()).filter((v) => v !== "");
    return raw.length ? raw : undefined;
  }

  /** The single value of name (the last one if repeated). */
  one(name: string): string | undefined {
    const raw = [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])];
    const v = raw.at(-1)?.trim();
    return v === undefined || v === "" ? undefined : v;
  }

  string(name: string, max = 255): string | undefined {
    const v = this.one(name);
    if (v !== undefined && v.length > max) return this.fail(name, `must be at most ${max} characters`);
    return v;
  }

  uuids(name: string): string[] | undefined {
    const vs = this.values(name);
    if (!vs) return undefined;
    const bad = vs.find((v) => !isUuid(v));
    if (bad !== undefined) return this.fail(name, `"${bad.slice(0, 60)}" is not a UUID`);
    if (vs.length > 100) return this.fail(name, "at most 100 values");
    return vs.map((v) => v.toLowerCase());
  }

  ints(name: string): number[] | undefined {
    const vs = this.values(name);
    if (!vs) return undefined;
    const bad = vs.find((v) => !/^\d{1,10}$/.test(v) || Number(v) < 1 || Number(v) > 2_147_483_647);
    if (bad !== undefined) return this.fail(name, `"${bad.slice(0, 60)}" is not a positive integer id`);
    if (vs.length > 100) return this.fail(name, "at most 100 values");
    return vs.map(Number);
  }

  enums<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const vs = this.values(name);
    if (!vs) return undefined;
    const bad = vs.find((v) => !(allowed as readonly string[]).includes(v));
    if (bad !== undefined) return this.fail(name, `"${bad.slice(0, 60)}" is not one of ${allowed.join(", ")}`);
    return [...new Set(vs)] as T[];
  }

  enumOne<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) return this.fail(name, `must be one of ${allowed.join(", ")}`);
    return v as T;
  }

  bool(name: string): boolean | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    if (["true", "1"].includes(v)) return true;
    if (["false", "0"].includes(v)) return false;
    return this.fail(name, "must be true or false");
  }

  intValue(name: string, min: number, max: number, fallback: number): number {
    const v = this.one(name);
    if (v === undefined) return fallback;
    if (!/^-?\d{1,10}$/.test(v) || Number(v) < min || Number(v) > max) {
      this.fail(name, `must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return Number(v);
  }

  /** page (>= 1, default 1) and limit (1..100, default 10). */
  paging(): { page: number; limit: number } {
    return { page: this.intValue("page", 1, 1_000_000, 1), limit: this.intValue("limit", 1, 100, 10) };
  }

  /**
   * A date or datetime, or a range of them. `column` says what the filtered column holds: on a
   * date column a datetime counts by its date; on a datetime column a date spans its whole day.
   */
  range(name: string, column: "date" | "datetime", allowNull = false): Range | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    if (allowNull && (v === "null" || v === "notnull")) return { kind: v };
    const [fromRaw, toRaw, ...rest] = v.includes("..") ? v.split("..") : [v, v];
    if (rest.length) return this.fail(name, "a range is from..to");
    const from = fromRaw === "" ? undefined : this.bound(name, fromRaw, column, "from");
    const to = toRaw === "" ? undefined : this.bound(name, toRaw, column, "to");
    if ((fromRaw !== "" && from === undefined) || (toRaw !== "" && to === undefined)) return undefined;
    if (from === undefined && to === undefined) return this.fail(name, "a range needs at least one end");
    if (from !== undefined && to !== undefined && from > to) return this.fail(name, "the range ends before it starts");
    return { kind: "range", from, to };
  }

  private bound(name: string, raw: string, column: "date" | "datetime", end: "from" | "to"): string | undefined {
    const allowedHint = allowNullHint(column);
    if (DATE.test(raw)) {
      if (!validDate(raw)) return this.fail(name, `"${raw}" is not a real date`);
      if (column === "date") return raw;
      return end === "from" ? `${raw}T00:00:00Z` : `${raw}T23:59:59Z`;
    }
    if (DATETIME.test(raw) && !Number.isNaN(Date.parse(raw))) {
      const iso = new Date(raw).toISOString().replace(/\.\d{3}Z$/, "Z");
      return column === "date" ? iso.slice(0, 10) : iso;
    }
    return this.fail(name, `"${raw.slice(0, 60)}" is not ${allowedHint}`);
  }

  /** Throw one 422 listing every invalid parameter. */
  done(): void {
    if (this.errors.length) {
      throw new ApiError(422, "validation_failed", `The query is invalid: ${this.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, {
        errors: this.errors,
      });
    }
  }
}

function allowNullHint(column: "date" | "datetime"): string {
  return column === "date" ? "a date (YYYY-MM-DD)" : "a date or an ISO 8601 datetime";
}

function validDate(iso: string): boolean {
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/**
 * `sort_by` values "field" or "field,asc|desc" (also repeated), among the list's fields; db/
 * sorts by them (db/list-filters.ts orderSql).
 */
export function parseSort<F extends string>(q: QueryReader, fields: readonly F[]): Sort<F>[] {
  const all = q.raw("sort_by") ?? [];
  const out: Sort<F>[] = [];
  for (const raw of all) {
    const [field, dir = "asc", ...rest] = raw.split(",").map((s) => s.trim());
    // A known field only (an array lookup: `sort_by=__proto__` finds nothing).
    const known = fields.find((f) => f === field);
    if (!known || rest.length || !["asc", "desc"].includes(dir.toLowerCase())) {
      q.fail("sort_by", `must be one of ${fields.join(", ")}, optionally followed by ,asc or ,desc`);
      continue;
    }
    out.push({ field: known, desc: dir.toLowerCase() === "desc" });
  }
  return out;
}

/** X-Total-Count and a Link header (first, prev, next, last) for one page of a list. */
export function setPagingHeaders(c: Context<AppEnv>, total: number, page: number, limit: number): void {
  c.header("X-Total-Count", String(total));
  const last = Math.max(1, Math.ceil(total / limit));
  const url = new URL(c.req.url);
  const link = (p: number, rel: string) => {
    url.searchParams.set("page", String(p));
    url.searchParams.set("limit", String(limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (page > 1) links.push(link(Math.min(page - 1, last), "prev"));
  if (page < last) links.push(link(page + 1, "next"));
  links.push(link(last, "last"));
  c.header("Link", links.join(", "));
}
