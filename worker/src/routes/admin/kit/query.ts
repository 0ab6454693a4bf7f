/**
 * Reading a screen's filter form (a GET query) into typed values for db/, and the ids of a
 * route's path. The same reader as the private API's lists (lib/query-reader.ts: same syntax, same
 * messages), in the shapes the back office's db/ lists take. Every invalid field is collected, and
 * `done()` throws one 422 listing them, shown at their fields.
 */
import { ApiError } from "../../../lib/errors";
import { isUuid, QueryFields, type ColumnKind } from "../../../lib/query-reader";
import type { DateRange, Presence } from "../../../db/admin-lists";
import { filledQuery, pathParam, type AdminContext } from "./kit";

/** A path id that must be a UUID (`/bookings/:id`): anything else is a 400, before anything is read. */
export function uuidOf(c: AdminContext, param: string, name: string): string {
  const value = pathParam(c, param);
  if (!isUuid(value)) throw new ApiError(400, "invalid_id", `${name} must be a UUID.`, { errors: [{ path: name, message: "must be a UUID" }] });
  return value.toLowerCase();
}

/** A screen's filter form (kit.tsx filledQuery) read into typed values (lib/query-reader.ts). */
export class FilterReader extends QueryFields {
  constructor(c: AdminContext) {
    super(filledQuery(c));
  }

  /** A date or datetime, or a range of them (from..to, either end open). */
  range(name: string, column: ColumnKind): DateRange | undefined {
    return this.ends(name, column);
  }

  /** A range as `range` reads it, or "null" / "notnull": whether the value is set at all. */
  rangeOrPresence(name: string, column: ColumnKind): DateRange | Presence | undefined {
    const v = this.one(name);
    return v === "null" || v === "notnull" ? v : this.range(name, column);
  }

  /** `sort_by` values "field" or "field,asc|desc" (also repeated), each one of `fields`. */
  sort<T extends string>(fields: readonly T[]): { by: T; desc: boolean }[] {
    return this.sortBy(fields).map(({ field, desc }) => ({ by: field, desc }));
  }
}
