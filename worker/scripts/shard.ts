/**
 * `npm run --silent shard -- init | list | move <business> <shard>`: each shard's id range, the shard directory, and moving a
 * business to another shard (worker/src/manage/shards.ts says how: mark, grace, copy, verify,
 * switch, delete; docs/design.md "Shards"). Local state by default, `--remote` for the deployment.
 */
import { directoryList, SHARD_BINDINGS, shardsOf } from "../src/db/shards";
import { ensureIdRange, floorOf, ID_SPAN } from "../src/db/id-range";
import { listBusinesses } from "../src/db/businesses";
import { moveBusiness } from "../src/manage/shards";
import { CliError, explainApiError, parse, runCli, targetOf, withShards } from "./lib/cli";

const USAGE = `Usage:
  npm run --silent shard -- init                          give each shard its id range (after the migrations; idempotent)
  npm run --silent shard -- list                          each business with its shard (and whether it is moving)
  npm run --silent shard -- move <business> <shard>       move a business (its slug or id) to shard 0, 1, ...
      [--grace-seconds <n>]   wait this long after refusing its writes, for writes already under way (default 30)
Options for every command:
  --remote            the deployed D1 databases instead of the local ones
  --persist-to <dir>  a local state directory other than .wrangler/state`;

/** Each shard says its index, so it gives its ids in its own range (db/id-range.ts); run after the migrations, again at will. */
async function init(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {}, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  await withShards(targetOf(values), async (store) => {
    for (const [shard, db] of shardsOf(store).entries()) {
      const done = await ensureIdRange(db, shard).catch((err) => {
        throw new CliError(`${SHARD_BINDINGS[shard]}: ${String((err as Error)?.message ?? err)}`);
      });
      console.log(`${SHARD_BINDINGS[shard]} is shard ${shard}: ids ${floorOf(shard) + 1} to ${floorOf(shard) + ID_SPAN} (${done === "set" ? "set now" : "already set"})`);
    }
  });
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {}, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  await withShards(targetOf(values), async (store) => {
    const entries = new Map((await directoryList(store.DB)).map((e) => [e.business_id, e]));
    const shards = shardsOf(store);
    console.log(`${"ID".padEnd(5)} ${"SHARD".padEnd(6)} SLUG`);
    for (let shard = 0; shard < shards.length; shard++) {
      for (const b of await listBusinesses(shards[shard])) {
        const entry = entries.get(b.id);
        // A business absent from the directory lives on shard 0 (made before it).
        if ((entry?.shard ?? 0) !== shard) continue;
        console.log(`${String(b.id).padEnd(5)} ${String(shard).padEnd(6)} ${b.slug}${entry?.moving_since ? `  (moving since ${entry.moving_since})` : ""}`);
      }
    }
  });
}

async function move(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { "grace-seconds": { type: "string" } }, USAGE);
  const [business, shardText] = positionals;
  if (!business || shardText === undefined || positionals.length > 2) throw new CliError(USAGE, 2);
  const to = Number(shardText);
  const grace = values["grace-seconds"] === undefined ? 30 : Number(values["grace-seconds"]);
  if (!Number.isInteger(grace) || grace < 0) throw new CliError(`Invalid --grace-seconds "${values["grace-seconds"]}": a whole number of seconds.`, 2);
  await withShards(targetOf(values), async (store) => {
    const entries = await directoryList(store.DB);
    let id = /^\d+$/.test(business) ? Number(business) : entries.find((e) => e.slug === business)?.business_id;
    id ??= (await listBusinesses(store.DB)).find((b) => b.slug === business)?.id;
    if (id === undefined) throw new CliError(`Unknown business "${business}". See \`npm run --silent shard -- list\`.`);
    const report = await moveBusiness(store, id, to, { now: new Date(), graceMs: grace * 1000, log: (line) => console.log(line) }).catch(explainApiError);
    console.log(`Moved business ${report.businessId} from shard ${report.from} to shard ${report.to}: ${report.rows} rows, ${report.tables.length} tables verified.`);
  });
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "init") return init(rest);
  if (command === "list") return list(rest);
  if (command === "move") return move(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
