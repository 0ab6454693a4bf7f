import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../../db/request-env";
import { ApiError } from "../../lib/errors";
import { isUuid, QueryFields, type ColumnKind } from "../../lib/query-reader";
import type { Range, Sort } from "../../db/list-filters";
import { MAX_ID } from "../../contract/common";

/**
 * Query syntax of the private API's lists (docs/design.md, API conventions):
 * - lists: repeated `name[]=a&name[]=b`, repeated `name=a&name=b`, or `name=a,b`;
 * - ranges: `from..to`, `from..` or `..to` (both ends included), or one value;
 *   a date on a datetime filter means that whole day (UTC);
 * - `null` / `notnull` where the spec allows them;
 * - `page` >= 1 (default 1), `limit` 1..100 (default 10); anything else is a 422, never a clamp.
 */

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
    items: kind === "uuid" ? { type: "string", format: "uuid" } : { type: "integer", minimum: 1, maximum: MAX_ID },
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
export { isUuid };

/** The private API's reader of a request's query (lib/query-reader.ts), with its paging and ranges. */
export class QueryReader extends QueryFields {
  /** `all`: the query's values by name, when not the request's own. */
  constructor(c: Context<AppEnv>, all?: Record<string, string[]>) {
    super(all ?? c.req.queries() ?? {});
  }

  /** page (>= 1, default 1) and limit (1..100, default 10). */
  paging(): { page: number; limit: number } {
    return { page: this.intValue("page", 1, 1_000_000, 1), limit: this.intValue("limit", 1, 100, 10) };
  }

  /** A date or datetime, or a range of them; `null` / `notnull` too where `allowNull`. */
  range(name: string, column: ColumnKind, allowNull = false): Range | undefined {
    const v = this.one(name);
    if (allowNull && (v === "null" || v === "notnull")) return { kind: v };
    const ends = this.ends(name, column);
    return ends && { kind: "range", ...ends };
  }
}

/**
 * `sort_by` values "field" or "field,asc|desc" (also repeated), among the list's fields; db/
 * sorts by them (db/list-filters.ts orderSql).
 */
export function parseSort<F extends string>(q: QueryReader, fields: readonly F[]): Sort<F>[] {
  return q.sortBy(fields);
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
