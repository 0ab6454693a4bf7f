/**
 * Reading a screen's filter form (a GET query) into typed values for db/, and the ids of a
 * route's path. Like the private API's list parameters (same names, same messages), but the
 * back office's own: its screens do not reach into the API's route modules. Every invalid field
 * is collected, and `done()` throws one 422 listing them, shown at their fields.
 */
import { ApiError, type FieldError } from "../../../lib/errors";
import type { DateRange, Presence } from "../../../db/admin-lists";
import { filledQuery, pathParam, type AdminContext } from "./kit";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A path id that must be a UUID (`/bookings/:id`): anything else is a 400, before anything is read. */
export function uuidOf(c: AdminContext, param: string, name: string): string {
  const value = pathParam(c, param);
  if (!UUID.test(value)) throw new ApiError(400, "invalid_id", `${name} must be a UUID.`, { errors: [{ path: name, message: "must be a UUID" }] });
  return value.toLowerCase();
}

const realDate = (iso: string) => {
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
};

/** The filled fields of a filter form (kit.tsx filledQuery), read into typed values. */
export class FilterReader {
  readonly errors: FieldError[] = [];
  private readonly all: Record<string, string[]>;

  constructor(c: AdminContext) {
    this.all = filledQuery(c);
  }

  fail(path: string, message: string): undefined {
    this.errors.push({ path, message });
    return undefined;
  }

  /** The single value of name (the last one if repeated). */
  one(name: string): string | undefined {
    const v = [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])].at(-1)?.trim();
    return v === undefined || v === "" ? undefined : v;
  }

  string(name: string, max = 255): string | undefined {
    const v = this.one(name);
    if (v !== undefined && v.length > max) return this.fail(name, `must be at most ${max} characters`);
    return v;
  }

  /** Every value given for name and name[], as sent. */
  raw(name: string): string[] {
    return [...(this.all[name] ?? []), ...(this.all[`${name}[]`] ?? [])].map((v) => v.trim()).filter((v) => v !== "");
  }

  /** Every value of a list (repeated, or comma-separated). */
  values(name: string): string[] | undefined {
    const vs = this.raw(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
    return vs.length ? vs : undefined;
  }

  uuids(name: string): string[] | undefined {
    const vs = this.values(name);
    if (!vs) return undefined;
    const bad = vs.find((v) => !UUID.test(v));
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

  bool(name: string): boolean | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    if (["true", "1"].includes(v)) return true;
    if (["false", "0"].includes(v)) return false;
    return this.fail(name, "must be true or false");
  }

  /** Values of a list (repeated, or comma-separated), each one of `allowed`. */
  enums<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const vs = this.values(name);
    if (!vs) return undefined;
    const bad = vs.find((v) => !(allowed as readonly string[]).includes(v));
    if (bad !== undefined) return this.fail(name, `"${bad.slice(0, 60)}" is not one of ${allowed.join(", ")}`);
    return [...new Set(vs)] as T[];
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
   * A date or datetime, or a range of them (from..to, either end open). On a date column a
   * datetime counts by its date; on a datetime column a date spans its whole day.
   */
  range(name: string, column: "date" | "datetime"): DateRange | undefined {
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

  /** A range as `range` reads it, or "null" / "notnull": whether the value is set at all. */
  rangeOrPresence(name: string, column: "date" | "datetime"): DateRange | Presence | undefined {
    const v = this.one(name);
    return v === "null" || v === "notnull" ? v : this.range(name, column);
  }

  /** `sort_by` values "field" or "field,asc|desc" (also repeated), each one of `fields`. */
  sort<T extends string>(fields: readonly T[]): { by: T; desc: boolean }[] {
    const out: { by: T; desc: boolean }[] = [];
    for (const raw of this.raw("sort_by")) {
      const [field, dir = "asc", ...rest] = raw.split(",").map((s) => s.trim());
      if (!(fields as readonly string[]).includes(field) || rest.length || !["asc", "desc"].includes(dir.toLowerCase())) {
        this.fail("sort_by", `must be one of ${fields.join(", ")}, optionally followed by ,asc or ,desc`);
        continue;
      }
      out.push({ by: field as T, desc: dir.toLowerCase() === "desc" });
    }
    return out;
  }

  private bound(name: string, raw: string, column: "date" | "datetime", end: "from" | "to"): string | undefined {
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
