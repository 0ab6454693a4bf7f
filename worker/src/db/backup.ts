/**
 * A backup of the whole database as data, and its restore into a fresh one (`npm run backup`,
 * worker/scripts/backup.ts; issue 32). `wrangler d1 export` refuses a database holding an FTS5
 * table (the persons' search, persons_fts: workers-sdk #6305, #9519), so this one reads every
 * ordinary table row by row through the D1 binding, leaves the search table out, and the restore
 * rebuilds it from the persons, as migration 0110 first filled it.
 *
 * Restore, into a database the migrations made (and nothing else wrote): its triggers are set
 * aside (they would refuse or double what the rows already say: capacity guards, charge ids,
 * catalog versions), every table is emptied and filled with the backup's rows in the order of
 * their foreign keys, rowids kept, then the triggers come back and the search table is rebuilt.
 */
export interface TableDump {
  name: string;
  /** Rows with their rowid as `__rowid` (kept: the search table's rows are keyed by the persons' rowids); none for a WITHOUT ROWID table. */
  rows: Record<string, unknown>[];
}

export interface Backup {
  format: "booking-platform-backup";
  version: 1;
  /** The last migration the database had: a restore goes into a database migrated as far. */
  migration: string | null;
  tables: TableDump[];
}

/** Tables a backup leaves out: SQLite's and D1's own, the migrations' log, and the search table with its shadow tables. */
const LEFT_OUT = /^(sqlite_|_cf_|d1_migrations$|persons_fts)/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ROWS_PER_READ = 500;
const STATEMENTS_PER_BATCH = 100;

const quote = (name: string) => {
  if (!NAME.test(name)) throw new Error(`unexpected table or column name ${JSON.stringify(name)}`);
  return `"${name}"`;
};

/** The ordinary tables, parents before the tables whose foreign keys point at them. */
async function tablesInOrder(db: D1Database): Promise<string[]> {
  const names = (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>()).results
    .map((r) => r.name)
    .filter((n) => !LEFT_OUT.test(n));
  const parents = new Map<string, string[]>();
  for (const name of names) {
    const fks = await db.prepare("SELECT DISTINCT \"table\" AS parent FROM pragma_foreign_key_list(?)").bind(name).all<{ parent: string }>();
    parents.set(name, fks.results.map((f) => f.parent).filter((p) => p !== name && names.includes(p)));
  }
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const p of parents.get(name) ?? []) visit(p, path);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

/** The table's rowid alias (an INTEGER PRIMARY KEY column), which carries the rowid itself. */
async function rowidAlias(db: D1Database, table: string): Promise<string | null> {
  const cols = (await db.prepare("SELECT name, type, pk FROM pragma_table_info(?)").bind(table).all<{ name: string; type: string; pk: number }>()).results;
  const pks = cols.filter((c) => c.pk > 0);
  return pks.length === 1 && pks[0].type.toUpperCase() === "INTEGER" ? pks[0].name : null;
}

/** Whether the table has no rowid (WITHOUT ROWID): read in its primary key's order instead. */
async function withoutRowid(db: D1Database, table: string): Promise<string[] | null> {
  const sql = (await db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table).first<{ sql: string }>())?.sql ?? "";
  if (!/WITHOUT\s+ROWID/i.test(sql)) return null;
  const cols = (await db.prepare("SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk").bind(table).all<{ name: string }>()).results;
  return cols.map((c) => c.name);
}

/** Every row of every ordinary table, read a page at a time. */
export async function readBackup(db: D1Database): Promise<Backup> {
  const migration = await db
    .prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1")
    .first<{ name: string }>()
    .catch(() => null);
  const tables: TableDump[] = [];
  for (const name of await tablesInOrder(db)) {
    const rows: Record<string, unknown>[] = [];
    const keys = await withoutRowid(db, name);
    if (keys) {
      for (let offset = 0; ; offset += ROWS_PER_READ) {
        const page = (await db.prepare(`SELECT * FROM ${quote(name)} ORDER BY ${keys.map(quote).join(", ")} LIMIT ${ROWS_PER_READ} OFFSET ?`).bind(offset).all<Record<string, unknown>>()).results;
        rows.push(...page);
        if (page.length < ROWS_PER_READ) break;
      }
      tables.push({ name, rows });
      continue;
    }
    for (let after = -Infinity; ; ) {
      const page = (
        await db
          .prepare(`SELECT rowid AS __rowid, * FROM ${quote(name)} WHERE rowid > ? ORDER BY rowid LIMIT ${ROWS_PER_READ}`)
          .bind(after === -Infinity ? -9_007_199_254_740_991 : after)
          .all<Record<string, unknown>>()
      ).results;
      rows.push(...page);
      if (page.length < ROWS_PER_READ) break;
      after = page[page.length - 1].__rowid as number;
    }
    tables.push({ name, rows });
  }
  return { format: "booking-platform-backup", version: 1, migration: migration?.name ?? null, tables };
}

/** How many rows the database holds in a backup's tables (a restore refuses a database that is not fresh). */
export async function rowsInUse(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT (SELECT COUNT(*) FROM bookings) + (SELECT COUNT(*) FROM persons) + (SELECT COUNT(*) FROM businesses) AS n").first<{ n: number }>();
  return row?.n ?? 0;
}

/** Restore a backup into a freshly migrated database (see the module comment). Returns the rows written. */
export async function restoreBackup(db: D1Database, backup: Backup): Promise<number> {
  const run = async (statements: D1PreparedStatement[]) => {
    for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
  };
  const triggers = (await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL ORDER BY name").all<{ name: string; sql: string }>()).results;
  await run(triggers.map((t) => db.prepare(`DROP TRIGGER ${quote(t.name)}`)));
  let written = 0;
  try {
    const order = backup.tables.map((t) => t.name);
    await run([...order].reverse().map((name) => db.prepare(`DELETE FROM ${quote(name)}`)));
    for (const table of backup.tables) {
      const alias = await rowidAlias(db, table.name);
      const statements = table.rows.map((row) => {
        const { __rowid, ...fields } = row;
        const columns = Object.keys(fields);
        const keepRowid = __rowid !== undefined && !alias;
        const names = [...(keepRowid ? ["rowid"] : []), ...columns.map(quote)];
        const values = [...(keepRowid ? [__rowid] : []), ...columns.map((c) => fields[c])];
        return db.prepare(`INSERT INTO ${quote(table.name)} (${names.join(", ")}) VALUES (${values.map(() => "?").join(", ")})`).bind(...values);
      });
      await run(statements);
      written += statements.length;
    }
  } finally {
    // the triggers come back whatever happened: the database keeps its rules
    await run(triggers.map((t) => db.prepare(t.sql)));
  }
  // the search table, from the persons (as migration 0110 filled it)
  await db.batch([
    db.prepare("DELETE FROM persons_fts"),
    db.prepare(
      `INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name, tenant)
       SELECT rowid, first_name, last_name, email,
              COALESCE(phone_country_calling_code, '') || COALESCE(phone, '') || ' ' || COALESCE(phone, ''),
              city, company_name, '~' || business_id || '~' FROM persons`,
    ),
  ]);
  return written;
}
