/**
 * Reading a query's text values into typed ones, collecting every invalid field so that one 422
 * names them all. One reader for both doors that list things: the private API's list parameters
 * (routes/private/query.ts) and the back office's filter forms (routes/admin/kit/query.ts) take
 * the same syntax with the same messages:
 * - lists: repeated `name=a&name=b`, `name[]=a&name[]=b`, or `name=a,b`;
 * - ranges: `from..to`, `from..` or `..to` (both ends included), or one value; a date on a
 *   datetime filter means that whole day (UTC);
 * - ids are positive integers or UUIDs, at most 100 of them.
 */
import { ApiError, type FieldError } from "./errors";
import { ID_DIGITS, MAX_ID } from "../contract/common";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A calendar date that exists (not 2026-02-30). */
function realDate(iso: string): boolean {
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/** What a filtered column holds: a date is compared by day, a datetime by instant. */
export type ColumnKind = "date" | "datetime";

export class QueryFields {
  readonly errors: FieldError[] = [];

  /** `all`: the query's values by name, as the door has them. */
  constructor(private readonly all: Record<string, string[]>) {}

  fail(path: string, message: string): undefined {
    this.errors.push({ path, message });
    return undefined;
  }

  /** Every value given for name and name[], as sent (sort_by keeps its ",desc"). */
  raw(name: string): string[] | undefined {
    const raw = [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])].map((v) => v.trim()).filter((v) => v !== "");
    return raw.length ? raw : undefined;
  }

  /** Every value given for name and name[], split on commas. */
  values(name: string): string[] | undefined {
    const vs = (this.raw(name) ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
    return vs.length ? vs : undefined;
  }

  /** The single value of name (the last one if repeated). */
  one(name: string): string | undefined {
    return this.raw(name)?.at(-1);
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
    const bad = vs.find((v) => !ID_DIGITS.test(v) || Number(v) < 1 || Number(v) > MAX_ID);
    if (bad !== undefined) return this.fail(name, `"${bad.slice(0, 60)}" is not a positive integer id`);
    if (vs.length > 100) return this.fail(name, "at most 100 values");
    return vs.map(Number);
  }

  /** Values of a list, each one of `allowed`, without repeats. */
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

  /**
   * A date or datetime, or a range of them, as its two ends (either may be open). On a date
   * column a datetime counts by its date; on a datetime column a date spans its whole day.
   */
  ends(name: string, column: ColumnKind): { from?: string; to?: string } | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    const [fromRaw, toRaw, ...rest] = v.includes("..") ? v.split("..") : [v, v];
    if (rest.length) return this.fail(name, "a range is from..to");
    const from = fromRaw === "" ? undefined : this.bound(name, fromRaw, column, "from");
    const to = toRaw === "" ? undefined : this.bound(name, toRaw, column, "to");
    if ((fromRaw !== "" && from === undefined) || (toRaw !== "" && to === undefined)) return undefined;
    if (from === undefined && to === undefined) return this.fail(name, "a range needs at least one end");
    if (from !== undefined && to !== undefined && from > to) return this.fail(name, "the range ends before it starts");
    return { from, to };
  }

  /** `sort_by` values "field" or "field,asc|desc" (also repeated), each one of `fields`. */
  sortBy<F extends string>(fields: readonly F[]): { field: F; desc: boolean }[] {
    const out: { field: F; desc: boolean }[] = [];
    for (const raw of this.raw("sort_by") ?? []) {
      const [field, dir = "asc", ...rest] = raw.split(",").map((s) => s.trim());
      // A known field only (an array lookup: `sort_by=__proto__` finds nothing).
      const known = fields.find((f) => f === field);
      if (!known || rest.length || !["asc", "desc"].includes(dir.toLowerCase())) {
        this.fail("sort_by", `must be one of ${fields.join(", ")}, optionally followed by ,asc or ,desc`);
        continue;
      }
      out.push({ field: known, desc: dir.toLowerCase() === "desc" });
    }
    return out;
  }

  /**
   * A booking's number as lists filter it: `reference=2026-1001`, or its parts `reference_year`
   * and `reference_number` (the number as the sequence counts it, without its zero padding).
   */
  reference(): { year?: string; number?: number } {
    let number = this.one("reference_number");
    let year = this.one("reference_year");
    const reference = this.one("reference");
    if (reference !== undefined) {
      const m = /^(\d{4})-(\d{1,10})$/.exec(reference);
      if (!m) this.fail("reference", "must be YEAR-NUMBER, e.g. 2026-1001");
      else [year, number] = [m[1], m[2]];
    }
    const out: { year?: string; number?: number } = {};
    if (number !== undefined) {
      if (!/^\d{1,10}$/.test(number)) this.fail("reference_number", "must be a number");
      else out.number = Number(number);
    }
    if (year !== undefined) {
      if (!/^\d{4}$/.test(year)) this.fail("reference_year", "must be a four-digit year");
      else out.year = year;
    }
    return out;
  }

  private bound(name: string, raw: string, column: ColumnKind, end: "from" | "to"): string | undefined {
    if (DATE.test(raw)) {
      if (!realDate(raw)) return this.fail(name, `"${raw}" is not a real date`);
      if (column === "date") return raw;
      return end === "from" ? `${raw}T00:00:00Z` : `${raw}T23:59:59Z`;
    }
    if (DATETIME.test(raw) && !Number.isNaN(Date.parse(raw))) {
      const iso = new Date(raw).toISOString().replace(/\.\d{3}Z$/, "Z");
      return column === "date" ? iso.slice(0, 10) : iso;
    }
    return this.fail(name, `"${raw.slice(0, 60)}" is not ${column === "date" ? "a date (YYYY-MM-DD)" : "a date or an ISO 8601 datetime"}`);
  }

  /** Throw one 422 listing every invalid field. */
  done(): void {
    if (this.errors.length) {
      throw new ApiError(422, "validation_failed", `The query is invalid: ${this.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors: this.errors });
    }
  }
}
