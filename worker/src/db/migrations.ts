/**
 * The schema's migrations applied through a D1 binding, for local databases (the CLIs' local D1,
 * scripts/lib/cli-database.ts): the same tracking table and names as `wrangler d1 migrations
 * apply`, so either may run after the other and each sees what the other applied. Wrangler's local apply starts a runtime
 * for every migration file (about 16 s for both shards on a 2-core machine); through the binding
 * of a simulator that is already running, the same work takes well under a second.
 */
import type { D1 } from "./d1";

/** One migration file: its name as wrangler records it (the file name) and its statements. */
export interface MigrationFile {
  name: string;
  queries: string[];
}

/** wrangler's default `migrations_table`, with wrangler's own definition of it. */
const TABLE = "d1_migrations";
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${TABLE}(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Apply, in order, the migrations `db` has not recorded yet; each file and its record are one
 * batch (one transaction), so a failing file leaves nothing of itself behind. Returns how many
 * were applied. `recorded`: what appliedMigrations just answered, when the caller read it.
 */
export async function applyMigrationFiles(db: D1, files: MigrationFile[], recorded?: Set<string>): Promise<number> {
  const applied = recorded ?? (await appliedMigrations(db));
  let count = 0;
  for (const file of files) {
    if (applied.has(file.name)) continue;
    await db.batch([...file.queries.map((q) => db.prepare(q)), db.prepare(`INSERT INTO ${TABLE} (name) VALUES (?)`).bind(file.name)]);
    count++;
  }
  return count;
}

/** The names of the migrations `db` has recorded (its tracking table is made if missing). */
export async function appliedMigrations(db: D1): Promise<Set<string>> {
  await db.prepare(CREATE_TABLE).run();
  return new Set((await db.prepare(`SELECT name FROM ${TABLE}`).all<{ name: string }>()).results.map((r) => r.name));
}
