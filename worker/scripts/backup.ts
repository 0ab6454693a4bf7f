/**
 * `npm run backup -- export|restore`: the whole database as a JSON file, and that file restored
 * into a fresh database (worker/src/db/backup.ts says how; docs/configuration.md#deploying-the-plan-the-checks-logs-and-backups
 * when to use it rather than Time Travel). `wrangler d1 export` refuses this database (its FTS5
 * search table); this backup leaves that table out and the restore rebuilds it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { readBackup, restoreBackup, rowsInUse, type Backup } from "../src/db/backup";
import { CliError, parse, required, runCli, targetOf, withShards } from "./lib/cli";
import { SHARD_BINDINGS, shardsOf } from "../src/db/shards";
import { applyMigrations } from "./lib/cli-database";

const USAGE = `Usage:
  npm run --silent backup -- export --file <backup.json>    every table's rows (the search table left out)
  npm run --silent backup -- restore --file <backup.json>   into a fresh database: its migrations are applied first,
                                                           and a database that already holds businesses is refused

Options for every command:
  --shard <n>          which shard's database (0: DB, the default, which also holds the directory; 1: DB_SHARD_1):
                       back up each shard, and restore each into its own (docs/design.md "Shards")
  --persist-to <dir>   a local state directory (default .wrangler/state, the one npm start uses)
  --remote             the deployed database (export only; restore a deployment with Time Travel,
                       or restore locally and check, then point the deployment at a new database)`;

/** The database of `--shard` among the target's shards, for `work`. */
function withShard<T>(values: Record<string, string | boolean | undefined>, work: (db: D1Database) => Promise<T>): Promise<T> {
  const shard = values.shard === undefined ? 0 : Number(values.shard);
  if (!Number.isInteger(shard) || shard < 0 || shard >= SHARD_BINDINGS.length) throw new CliError(`Invalid --shard "${values.shard}": 0 to ${SHARD_BINDINGS.length - 1}.`, 2);
  return withShards(targetOf(values), (store) => work(shardsOf(store)[shard]));
}

async function exportTo(argv: string[]): Promise<void> {
  const { values } = parse(argv, { file: { type: "string" }, shard: { type: "string" } }, USAGE);
  const file = required(values, "file", USAGE);
  const backup = await withShard(values, readBackup);
  writeFileSync(file, JSON.stringify(backup));
  const rows = backup.tables.reduce((n, t) => n + t.rows.length, 0);
  console.log(`Wrote ${rows} rows of ${backup.tables.length} tables (migrations up to ${backup.migration ?? "none"}) to ${file}.`);
}

async function restoreFrom(argv: string[]): Promise<void> {
  const { values } = parse(argv, { file: { type: "string" }, shard: { type: "string" } }, USAGE);
  const file = required(values, "file", USAGE);
  const target = targetOf(values);
  if (target.remote) throw new CliError("restore works on a local database only (--persist-to): restore a deployment with D1 Time Travel (docs/configuration.md).", 2);
  const backup = JSON.parse(readFileSync(file, "utf8")) as Backup;
  if (backup.format !== "booking-platform-backup" || backup.version !== 1) throw new CliError(`${file} is not a backup made by \`npm run backup -- export\`.`);
  await applyMigrations(target);
  const written = await withShard(values, async (db) => {
    if ((await rowsInUse(db)) > 0) throw new CliError("This database already holds businesses, persons or bookings: restore into a fresh state directory (--persist-to <new dir>).");
    return restoreBackup(db, backup);
  });
  console.log(`Restored ${written} rows of ${backup.tables.length} tables from ${file}; the persons' search table was rebuilt.`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "export") return exportTo(rest);
  if (command === "restore") return restoreFrom(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
