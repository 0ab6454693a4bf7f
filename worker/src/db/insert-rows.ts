import type { D1 } from "./d1";
import { RANGED_KEYS, lastIdSql } from "./id-range";

/**
 * The INSERT of many rows into `table` as ONE statement (none for no row): the rows travel as one
 * JSON array bound to one parameter and are inserted in their order (`json_each` ... ORDER BY
 * key), so autoincremented ids and sequences follow it. A request's rows (a week of holds, its
 * guests, lines, events) then cost one statement each, however many they are.
 *
 * `shared`: the columns every row has the same value in (bound once); `columns`: the others, in
 * the order each row of `rows` holds its values. Table and column names are the caller's
 * constants, never input. A table whose integer key is given in the shard's id range
 * (db/id-range.ts RANGED_KEYS) gets it here, in the rows' order, when the caller gives none.
 */
export function insertRowsStatements(
  db: D1,
  table: string,
  shared: Record<string, unknown>,
  columns: string[],
  rows: unknown[][],
): D1PreparedStatement[] {
  if (rows.length === 0) return [];
  const sharedColumns = Object.keys(shared);
  const rowsParam = sharedColumns.length + 1;
  const values = [
    ...sharedColumns.map((_, i) => `?${i + 1}`),
    ...columns.map((_, i) => `json_extract(r.value, '$[${i}]')`),
  ];
  const key = RANGED_KEYS[table];
  const ranged = key !== undefined && !sharedColumns.includes(key) && !columns.includes(key);
  const names = [...(ranged ? [key] : []), ...sharedColumns, ...columns];
  if (ranged) values.unshift(`${lastIdSql(table, key)} + r.key + 1`);
  return [
    db
      .prepare(`INSERT INTO ${table} (${names.join(", ")}) SELECT ${values.join(", ")} FROM json_each(?${rowsParam}) r ORDER BY r.key`)
      .bind(...Object.values(shared), JSON.stringify(rows)),
  ];
}
