/**
 * Per-shard id ranges (docs/design.md "Shards", migration 0490). Shard k gives the integer ids of
 * its tables in (k × 10^12, (k + 1) × 10^12]: ids are unique across shards, so a business moved
 * to another shard keeps its ids and never clashes with the rows there. 10^12 ids per shard and
 * table, and JavaScript's safe integers (2^53 ≈ 9.007 × 10^15) bound the index: up to 9,006 shards.
 *
 * SQLite would give "one past the largest id in the table", which a business moved in from a shard
 * of a higher range would push into that range; so the code gives these ids itself, with
 * `nextIdSql`: one past the largest id of this shard's range in the table, or past the floor, or
 * past the largest that left the shard with a moved business (id_high), whichever is largest.
 */
export const ID_SPAN = 1_000_000_000_000;

/** The first id shard `shard` gives is floorOf(shard) + 1. */
export const floorOf = (shard: number) => shard * ID_SPAN;

const NAME = /^[a-z_]+$/;

/**
 * SQL (a scalar subquery) for the largest id this shard has given in `table`'s integer key
 * `column`: a new row's id is it + 1 (a statement of many rows: + 1, + 2, ... in their order).
 * Table and column are the caller's constants.
 */
export function lastIdSql(table: string, column = "id"): string {
  if (!NAME.test(table) || !NAME.test(column)) throw new Error(`unexpected table or column ${table}.${column}`);
  return `(SELECT MAX(f.floor,
      COALESCE((SELECT t.${column} FROM ${table} t WHERE t.${column} > f.floor AND t.${column} <= f.floor + ${ID_SPAN} ORDER BY t.${column} DESC LIMIT 1), 0),
      COALESCE((SELECT h.last FROM id_high h WHERE h.name = '${table}'), 0)) FROM id_floor f)`;
}

/**
 * Says which shard this database is and so its id range: run where the shards are set up (`npm run
 * shard -- init`, `npm start`, the tests' setup). Idempotent; refuses a database that already
 * says it is another shard (two bindings on one database would give the same ids).
 */
export async function ensureIdRange(db: D1Database, shard: number): Promise<"set" | "kept"> {
  const row = await db.prepare("SELECT shard FROM id_range WHERE single = 1").first<{ shard: number }>();
  if (row) {
    if (row.shard !== shard) throw new Error(`this database is shard ${row.shard} (its id_range), not shard ${shard}: is the binding pointed at another shard's database?`);
    return "kept";
  }
  await db.prepare("INSERT INTO id_range (single, shard, floor) VALUES (1, ?, ?) ON CONFLICT (single) DO NOTHING").bind(shard, floorOf(shard)).run();
  return "set";
}

/** The shard index a database says it is (null before ensureIdRange ran on it). */
export async function idRangeShard(db: D1Database): Promise<number | null> {
  return (await db.prepare("SELECT shard FROM id_range WHERE single = 1").first<{ shard: number }>())?.shard ?? null;
}

/**
 * The tables whose integer key is given in the shard's range, with that key: every table of a
 * business whose key is SQLite's rowid (worker/test/shards.test.ts finds them in sqlite_master and
 * fails on one missing here). Businesses take theirs from the directory.
 */
export const RANGED_KEYS: Readonly<Record<string, string>> = {
  currencies: "id",
  diets: "id",
  levels: "id",
  locations: "id",
  categories: "id",
  accommodation_types: "id",
  products: "id",
  seasons: "id",
  season_segments: "id",
  rates: "id",
  package_groups: "id",
  package_items: "id",
  package_charges: "id",
  cart_lines: "id",
  booking_lines: "id",
  allocations: "id",
  outbox: "seq",
  webhook_deliveries: "id",
};
