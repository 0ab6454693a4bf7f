/**
 * Moving one business's rows from one shard to another (manage/shards.ts moveBusiness; docs/design.md
 * "Shards"). The business's tables are discovered, not listed: a table with a `business_id` column
 * holds the rows of that business, `businesses` its row by `id`, and a table without either holds
 * the rows whose foreign key points at a business's row of its parent (season_segments by their
 * season, cart_lines by their cart, ...), found through the schema's foreign keys. Tables reached by
 * none of these (the guards, the directory) hold nothing of a business and are left alone.
 *
 * Copying and deleting each run as ONE batch (one transaction) on their shard, with the shard's
 * triggers set aside inside it and put back at its end: the rows are copied as they are (booked
 * units, charge ids, catalog versions already say what the triggers would compute), and no other
 * request ever sees the shard without its triggers, nor half a business. The persons' search table
 * (FTS5) is filled for the business's persons, as the triggers would have.
 */
import { ID_SPAN } from "./id-range";
import { unmarkLeavingStatement } from "./shards";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LEFT_OUT = /^(sqlite_|_cf_|d1_migrations$|persons_fts|shard_directory$|shard_leaving$|id_range$|id_high$)/;
/** D1 binds at most 100 parameters to one statement. */
const MAX_PARAMS = 100;
const ROWS_PER_READ = 500;

const quote = (name: string) => {
  if (!NAME.test(name)) throw new Error(`unexpected table or column name ${JSON.stringify(name)}`);
  return `"${name}"`;
};

export interface BusinessTable {
  name: string;
  columns: string[];
  /** The order rows are read and copied in: `rowid` (a copy keeps the rows' relative order, which breaks ties in lists), or a WITHOUT ROWID table's key. */
  order: string;
  /** SQL selecting the business's rows' condition, with `?` for the business id (one or more). */
  where: string;
  params: number;
  /** Its integer key when that is the rowid and not the business's own id (ids given in the shard's range: db/id-range.ts), else null. */
  key: string | null;
}

/** The tables that hold a business's rows, parents before children, with how to find its rows. */
export async function businessTables(db: D1Database): Promise<BusinessTable[]> {
  const names = (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>()).results.map((r) => r.name).filter((n) => !LEFT_OUT.test(n));
  const info = new Map<string, { columns: string[]; order: string; key: string | null; fks: { parent: string; from: string; to: string }[] }>();
  for (const name of names) {
    const columns = (await db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").bind(name).all<{ name: string }>()).results.map((c) => c.name);
    const fks = (await db.prepare('SELECT "table" AS parent, "from", "to" FROM pragma_foreign_key_list(?)').bind(name).all<{ parent: string; from: string; to: string | null }>()).results;
    const sql = (await db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").bind(name).first<{ sql: string }>())?.sql ?? "";
    const keys = (await db.prepare("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk").bind(name).all<{ name: string }>()).results.map((c) => c.name);
    const rowid = !/WITHOUT\s+ROWID/i.test(sql);
    const order = rowid ? "rowid" : keys.map(quote).join(", ");
    const types = (await db.prepare("SELECT type FROM pragma_table_info(?) WHERE pk > 0").bind(name).all<{ type: string }>()).results;
    const key = rowid && keys.length === 1 && types[0]?.type.toUpperCase() === "INTEGER" && name !== "businesses" && keys[0] !== "business_id" ? keys[0] : null;
    info.set(name, { columns, order, key, fks: fks.filter((f) => names.includes(f.parent) && f.parent !== name).map((f) => ({ ...f, to: f.to ?? "id" })) });
  }
  const found = new Map<string, BusinessTable>();
  const resolve = (name: string, path: Set<string>): BusinessTable | null => {
    if (found.has(name)) return found.get(name)!;
    if (path.has(name)) return null;
    const { columns, order, key, fks } = info.get(name)!;
    let table: BusinessTable | null = null;
    if (name === "businesses") table = { name, columns, order, key, where: `${quote("id")} = ?`, params: 1 };
    else if (columns.includes("business_id")) table = { name, columns, order, key, where: `${quote("business_id")} = ?`, params: 1 };
    else {
      path.add(name);
      for (const fk of fks) {
        const parent = resolve(fk.parent, path);
        if (!parent) continue;
        table = { name, columns, order, key, where: `${quote(fk.from)} IN (SELECT ${quote(fk.to)} FROM ${quote(parent.name)} WHERE ${parent.where})`, params: parent.params };
        break;
      }
      path.delete(name);
    }
    if (table) found.set(name, table);
    return table;
  };
  for (const name of names) resolve(name, new Set());
  // Parents first: a table after every table its foreign keys point at.
  const ordered: BusinessTable[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (!found.has(name) || ordered.some((t) => t.name === name) || path.has(name)) return;
    path.add(name);
    for (const fk of info.get(name)!.fks) visit(fk.parent, path);
    ordered.push(found.get(name)!);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

const bindId = (table: BusinessTable, businessId: number) => Array.from({ length: table.params }, () => businessId);

/** The business's rows of one table (its columns only: a rowid is the shard's own), in their order on the shard. */
export async function businessRows(db: D1Database, table: BusinessTable, businessId: number): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const cols = table.columns.map(quote).join(", ");
  for (let offset = 0; ; offset += ROWS_PER_READ) {
    const page = (
      await db
        .prepare(`SELECT ${cols} FROM ${quote(table.name)} WHERE ${table.where} ORDER BY ${table.order} LIMIT ${ROWS_PER_READ} OFFSET ?`)
        .bind(...bindId(table, businessId), offset)
        .all<Record<string, unknown>>()
    ).results;
    rows.push(...page);
    if (page.length < ROWS_PER_READ) break;
  }
  return rows;
}

/** Count and SHA-256 of the business's rows of a table: what a copy must give back exactly. */
export async function tableSum(db: D1Database, table: BusinessTable, businessId: number): Promise<{ rows: number; sha256: string }> {
  const rows = (await businessRows(db, table, businessId)).map((r) => JSON.stringify(table.columns.map((c) => r[c]))).sort();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rows.join("\n")));
  return { rows: rows.length, sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("") };
}

async function triggers(db: D1Database): Promise<{ name: string; sql: string }[]> {
  return (await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL ORDER BY name").all<{ name: string; sql: string }>()).results;
}

/** The persons' search rows of the business (migration 0110's shape), from its persons on this shard. */
const fillSearch = (db: D1Database, businessId: number) =>
  db
    .prepare(
      `INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name, tenant)
       SELECT rowid, first_name, last_name, email,
              COALESCE(phone_country_calling_code, '') || COALESCE(phone, '') || ' ' || COALESCE(phone, ''),
              city, company_name, '~' || business_id || '~' FROM persons WHERE business_id = ?`,
    )
    .bind(businessId);

const clearSearch = (db: D1Database, businessId: number) => db.prepare("DELETE FROM persons_fts WHERE rowid IN (SELECT rowid FROM persons WHERE business_id = ?)").bind(businessId);

/** Writes the rows read from the other shard into this one: one batch, triggers set aside inside it. Answers the rows written. */
export async function copyBusinessRows(db: D1Database, tables: BusinessTable[], rows: Map<string, Record<string, unknown>[]>, businessId: number): Promise<number> {
  const statements: D1PreparedStatement[] = [];
  let written = 0;
  for (const table of tables) {
    const list = rows.get(table.name) ?? [];
    const perStatement = Math.max(1, Math.floor(MAX_PARAMS / table.columns.length));
    for (let i = 0; i < list.length; i += perStatement) {
      const chunk = list.slice(i, i + perStatement);
      const tuple = `(${table.columns.map(() => "?").join(", ")})`;
      statements.push(
        db.prepare(`INSERT INTO ${quote(table.name)} (${table.columns.map(quote).join(", ")}) VALUES ${chunk.map(() => tuple).join(", ")}`).bind(...chunk.flatMap((r) => table.columns.map((c) => r[c] ?? null))),
      );
      written += chunk.length;
    }
  }
  const kept = await triggers(db);
  await db.batch([
    ...kept.map((t) => db.prepare(`DROP TRIGGER ${quote(t.name)}`)),
    ...statements,
    ...kept.map((t) => db.prepare(t.sql)),
    fillSearch(db, businessId),
    // A business coming back to a shard it once left: its guarded batches are taken here again.
    unmarkLeavingStatement(db, businessId),
  ]);
  return written;
}

/**
 * The largest id of this shard's range the business holds in each table, kept in id_high before
 * its rows go: this shard never gives those ids again, so the business can come back (and its ids
 * stay unique wherever it is).
 */
const keepHighStatements = (db: D1Database, tables: BusinessTable[], businessId: number) =>
  tables
    .filter((t) => t.key !== null)
    .map((t) => {
      const k = quote(t.key!);
      return db
        .prepare(
          `INSERT INTO id_high (name, last)
           SELECT ?, MAX(${k}) FROM ${quote(t.name)}, id_floor f WHERE ${t.where} AND ${k} > f.floor AND ${k} <= f.floor + ${ID_SPAN} HAVING MAX(${k}) IS NOT NULL
           ON CONFLICT (name) DO UPDATE SET last = MAX(last, excluded.last)`,
        )
        .bind(t.name, ...bindId(t, businessId));
    });

/** Removes every row of the business from this shard: one batch, children first, triggers set aside inside it. */
export async function deleteBusinessRows(db: D1Database, tables: BusinessTable[], businessId: number): Promise<void> {
  const kept = await triggers(db);
  const deletes = [...tables].reverse().map((t) => db.prepare(`DELETE FROM ${quote(t.name)} WHERE ${t.where}`).bind(...bindId(t, businessId)));
  await db.batch([
    ...keepHighStatements(db, tables, businessId),
    clearSearch(db, businessId),
    ...kept.map((t) => db.prepare(`DROP TRIGGER ${quote(t.name)}`)),
    ...deletes,
    ...kept.map((t) => db.prepare(t.sql)),
  ]);
}

/** Whether this shard holds the business's row. */
export async function holdsBusiness(db: D1Database, businessId: number): Promise<{ slug: string } | null> {
  return db.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>();
}
