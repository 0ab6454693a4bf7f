/**
 * The SQL of the lists' filters and sorts (GET /private/guests, /bookings, /persons, and the back
 * office's screens over them). A door reads its query into typed values (a Range, a list of ids,
 * a Sort of a named field); only db/ turns them into SQL.
 */

/** A range filter's value: `null` / `notnull` (where allowed), or from..to (either end open). */
export type Range = { kind: "null" } | { kind: "notnull" } | { kind: "range"; from?: string; to?: string };

/** One `sort_by` entry: a field the list names, ascending or descending. */
export interface Sort<F extends string = string> {
  field: F;
  desc: boolean;
}

/** SQL conditions and their parameters, ANDed by the list's statement. */
export interface Conditions {
  where: string[];
  params: (string | number)[];
}

export const conditions = (): Conditions => ({ where: [], params: [] });

/**
 * "expr is one of these values", with the whole list as ONE parameter (a JSON array read by
 * json_each): D1 binds at most 100 parameters per statement, and lists of up to 100 values
 * combine with other filters. Nothing for no list.
 */
export function inList(c: Conditions, expr: string, values: readonly (string | number)[] | undefined): void {
  if (!values) return;
  c.where.push(`${expr} IN (SELECT value FROM json_each(?))`);
  c.params.push(JSON.stringify(values));
}

/** A range filter on an expression, as one condition. Nothing for no range. */
export function inRange(c: Conditions, expr: string, range: Range | undefined): void {
  if (!range) return;
  const s = rangeSql(expr, range);
  c.where.push(s.sql);
  c.params.push(...s.params);
}

/** A range filter on an expression, as SQL and its parameters. */
export function rangeSql(expr: string, range: Range): { sql: string; params: string[] } {
  if (range.kind === "null") return { sql: `${expr} IS NULL`, params: [] };
  if (range.kind === "notnull") return { sql: `${expr} IS NOT NULL`, params: [] };
  const parts: string[] = [];
  const params: string[] = [];
  if (range.from !== undefined) {
    parts.push(`${expr} >= ?`);
    params.push(range.from);
  }
  if (range.to !== undefined) {
    parts.push(`${expr} <= ?`);
    params.push(range.to);
  }
  return { sql: parts.join(" AND "), params };
}

/** The ORDER BY terms of some sorts, each field by its column; missing values go last either way. */
export function orderSql<F extends string>(sorts: readonly Sort<F>[], columns: Record<F, string>): string[] {
  return sorts.flatMap(({ field, desc }) => {
    const column = columns[field];
    // The IS NULL test is written on the bare column: a collation inside it means the same but
    // keeps SQLite from using the list's index.
    const bare = column.replace(/\s+COLLATE\s+\w+$/i, "");
    return [`(${bare} IS NULL)`, `${column} ${desc ? "DESC" : "ASC"}`];
  });
}
