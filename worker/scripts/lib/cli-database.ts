/**
 * The D1Database the command-line tools hand to the Worker's own code (worker/src/manage/), so
 * that the catalog CLI and `npm start`'s demo apply the catalog through the very functions of
 * the private API:
 *
 * - local state: a real local D1 through miniflare (the simulator wrangler dev runs) on the state
 *   directory `wrangler dev --persist-to` uses (<dir>/v3), bound as wrangler's getPlatformProxy()
 *   binds it. One workerd starts in half a second and every round trip after that is in-process,
 *   where `wrangler d1 execute` costs one to two seconds a round trip on a small machine. Only the
 *   D1 bindings are made (the Worker's Durable Objects are not needed, and their classes are not
 *   in this process).
 * - `--remote`: `wrangler d1 execute --remote` (lib/remote-d1.ts), as every other CLI here reaches
 *   the deployed database (wrangler's platform proxy's remote bindings need a login proxy session).
 *
 * A local database may be written by a running `npm start` at the same moment: a batch or a
 * statement that finds it locked is tried again (each is one transaction; a failed one changed
 * nothing), also when the runtime reports the lock as an internal error.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { WranglerD1 } from "./remote-d1";
import { applyMigrationsWithWrangler } from "./wrangler-d1";
import { appliedMigrations, applyMigrationFiles, type MigrationFile } from "../../src/db/migrations";
import { compatibility, DEFAULT_STATE, ROOT, type Target } from "./wrangler";
import { directoryBySlug, shardsOf } from "../../src/db/shards";
import { retryingWhenLocked } from "../../src/db/locked-retry";

export interface OpenDatabase {
  /** DB: shard 0 and the directory. */
  db: D1Database;
  /** Every shard's database by its binding (DB, DB_SHARD_1, ...; docs/design.md "Shards"). */
  shards: Record<string, D1Database>;
  close(): Promise<void>;
}

/** The D1 bindings of wrangler.toml, in order (their names and ids locate the local database files): DB, then each shard's. */
function d1Bindings(): { binding: string; database_name: string; database_id: string }[] {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const blocks = [...toml.matchAll(/\[\[d1_databases\]\]([\s\S]*?)(?=\n\[|$)/g)].map((m) => m[1]);
  const bindings = blocks.map((block) => {
    const value = (key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m").exec(block)?.[1];
    const binding = value("binding") ?? "DB";
    const database_name = value("database_name");
    const database_id = value("database_id");
    if (!database_name || !database_id) throw new Error(`wrangler.toml's [[d1_databases]] ${binding} has no database_name and database_id.`);
    return { binding, database_name, database_id };
  });
  if (!bindings.length) throw new Error("wrangler.toml has no [[d1_databases]] with database_name and database_id.");
  return bindings;
}

async function localDatabase(persistTo: string): Promise<OpenDatabase> {
  // Miniflare itself, as wrangler's getPlatformProxy() configures it for these bindings (the same
  // database files: <persistTo>/v3/d1, each named after its binding's database_id), without
  // wrangler: importing wrangler's 12.7 MB bundle took 1.9 s of each CLI run's 3.1 s on a 2-core
  // machine, miniflare's 0.3 s. Required, not imported: through tsx's ESM loader the same module
  // took longer to load.
  const { Miniflare } = createRequire(import.meta.url)("miniflare") as typeof import("miniflare");
  const compatibilityDate = compatibility().date;
  const bindings = d1Bindings();
  const mf = new Miniflare({
    name: "booking-platform-cli",
    modules: true,
    script: "export default {}",
    compatibilityDate,
    d1Databases: Object.fromEntries(bindings.map(({ binding, database_id }) => [binding, database_id])),
    defaultPersistRoot: join(persistTo, "v3"),
    // The placeholder Request.cf: nothing here reads it, and offline miniflare would try to fetch one.
    cf: false,
  });
  const env = await mf.getBindings<Record<string, D1Database>>();
  const shards: Record<string, D1Database> = {};
  for (const { binding } of bindings) shards[binding] = retryingWhenLocked(env[binding]);
  return { db: shards.DB, shards, close: () => mf.dispose() };
}

/**
 * miniflare's synchronous binding proxy (the one `prepare` and `bind` of its D1 bindings go
 * through) can lose step with its worker thread when that thread is preempted under load: the
 * call fails an assertion (`message?.id === id`), and every later synchronous call of that proxy
 * fails too (cloudflare/workers-sdk#15552, fixed after the miniflare this project pins). Seen once
 * in CI as a server's start on a 2-core machine running the suite.
 */
export const isProxyDesync = (err: unknown): boolean =>
  (err as { code?: string } | undefined)?.code === "ERR_ASSERTION" && /SynchronousFetcher/.test(String((err as Error | undefined)?.stack));

/**
 * `work` on a local database opened for it and closed after; when the proxy lost step
 * (isProxyDesync), on a newly opened one again, up to three times. `work` must be idempotent,
 * as applying migrations (each file and its record one transaction) and seeding once are.
 */
export async function withDatabase<T>(target: Target, work: (opened: OpenDatabase) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const opened = await openDatabase(target);
    try {
      return await work(opened);
    } catch (err) {
      if (attempt >= 3 || !isProxyDesync(err)) throw err;
    } finally {
      await opened.close();
    }
  }
}

/** The database of a target, for the Worker's code; close it when done. */
export async function openDatabase(target: Target): Promise<OpenDatabase> {
  if (target.remote) {
    const shards = Object.fromEntries(d1Bindings().map(({ binding }) => [binding, new WranglerD1(target, binding).asD1()]));
    return { db: shards.DB, shards, close: async () => {} };
  }
  return localDatabase(target.persistTo ?? DEFAULT_STATE);
}

/**
 * The database of the shard the business of `slug` lives on (the directory on DB says which; a
 * business absent from it lives on DB), for the CLIs that work on one business; close it when done.
 */
export async function openBusinessDatabase(target: Target, slug: string): Promise<OpenDatabase> {
  const opened = await openDatabase(target);
  const entry = await directoryBySlug(opened.db, slug);
  return { ...opened, db: shardsOf(opened.shards as Pick<Env, "DB">)[entry?.shard ?? 0] ?? opened.db };
}

const MIGRATIONS = join(ROOT, "worker", "migrations");

/** The names of worker/migrations' files (wrangler.toml's migrations_dir), in order. */
function migrationNames(): string[] {
  return readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith(".sql"))
    .sort((a, b) => parseInt(a) - parseInt(b));
}

/** Those files, each split into its statements as wrangler splits it. */
function migrationFiles(names: string[]): MigrationFile[] {
  // wrangler is loaded only when a migration is to be applied (a second or more of a CLI run).
  const { unstable_splitSqlQuery } = createRequire(import.meta.url)("wrangler") as typeof import("wrangler");
  return names.map((name) => ({ name, queries: unstable_splitSqlQuery(readFileSync(join(MIGRATIONS, name), "utf8")) }));
}

/** Apply the pending migrations to every shard of an open local database. Returns how many DB took. */
export async function migrateOpened(opened: OpenDatabase): Promise<number> {
  const names = migrationNames();
  let files: MigrationFile[] | undefined;
  const counts: Record<string, number> = {};
  for (const [binding, db] of Object.entries(opened.shards)) {
    const applied = await appliedMigrations(db);
    counts[binding] = names.every((name) => applied.has(name)) ? 0 : await applyMigrationFiles(db, (files ??= migrationFiles(names)), applied);
  }
  return counts.DB ?? 0;
}

/**
 * Apply the pending migrations to every shard's database (DB and each DB_SHARD_n: the same
 * migrations; docs/design.md "Shards"), recorded as `wrangler d1 migrations apply` records them.
 * Local: through the local D1's binding (db/migrations.ts says why); `--remote`: with wrangler.
 * Returns how many DB took.
 */
export async function applyMigrations(target: Target): Promise<number> {
  if (target.remote) return applyMigrationsWithWrangler(target);
  return withDatabase(target, migrateOpened);
}
