/**
 * API keys of a business. `create` prints the new key alone on one line (it is shown once: only
 * its SHA-256 is stored); `list` shows names, scopes and dates, never keys; `revoke` stops a key
 * at once (every request checks the key's record in D1). Local database by default, `--remote`
 * for the deployed one (then KEY_SIGNING_SECRET must be set to the Worker's secret).
 * Keys are made and revoked by the Worker's own code (worker/src/manage/keys.ts), as in the back
 * office: each change has its audit entry, whose actor is the CLI ("keys CLI").
 */
import { activeApiKeyByName, listApiKeyRows } from "../src/db/api-keys";
import { ApiError } from "../src/lib/errors";
import { createApiKey, KEY_NAME, revokeApiKey } from "../src/manage/keys";
import { cliActor, CliError, explainApiError, parse, required, runCli, signingSecret, targetOf, withBusiness } from "./lib/cli";

const USAGE = `Usage:
  npm run --silent keys -- create --business <slug> --scope public|private --name <name>
  npm run --silent keys -- list --business <slug> [--json]
  npm run --silent keys -- revoke --business <slug> --name <name>
Options for every command:
  --remote            the deployed D1 database (needs KEY_SIGNING_SECRET in the environment to create keys)
  --persist-to <dir>  a local state directory other than .wrangler/state`;

function keyName(values: Record<string, string | boolean | undefined>): string {
  const name = required(values, "name", USAGE);
  if (!KEY_NAME.test(name)) throw new CliError(`Invalid --name "${name}": 1 to 64 letters, digits, spaces and . _ : @ - (it shows in request logs).`, 2);
  return name;
}

/** Made through manage/keys.ts, as the back office's Developers screen makes keys: with its audit entry, by the CLI. */
async function create(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, scope: { type: "string" }, name: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const scope = required(values, "scope", USAGE);
  if (scope !== "public" && scope !== "private") throw new CliError(`Invalid --scope "${scope}": it is public or private.`, 2);
  const name = keyName(values);
  const target = targetOf(values);
  const secret = signingSecret(target);
  const key = await withBusiness(target, slug, async (db, business) => {
    return createApiKey({ DB: db, KEY_SIGNING_SECRET: secret }, cliActor("keys"), business.id, { name, scope }, new Date()).catch((err) => {
      // The partial unique index on active names (also when someone made the same name meanwhile).
      if (err instanceof ApiError && err.status === 409) throw new CliError(`Business "${slug}" already has an active key named "${name}". Choose another name, or revoke that key first.`);
      return explainApiError(err);
    });
  });
  console.log(key.token);
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, json: { type: "boolean" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const keys = await withBusiness(targetOf(values), slug, async (db, business) => listApiKeyRows(db, business.id));
  // Names, scopes and dates: never a key (only its hash is stored), nor its id.
  const rows = keys.map(({ name, scope, created_at, revoked_at }) => ({ name, scope, created_at, revoked_at }));
  if (values.json) return console.log(JSON.stringify(rows, null, 2));
  if (!rows.length) return console.log(`Business "${slug}" has no API keys.`);
  const w = Math.max(4, ...rows.map((r) => r.name.length));
  console.log(`${"NAME".padEnd(w)}  SCOPE    CREATED               REVOKED`);
  for (const r of rows) console.log(`${r.name.padEnd(w)}  ${r.scope.padEnd(7)}  ${r.created_at.padEnd(20)}  ${r.revoked_at ?? "-"}`);
}

/** Revoked through manage/keys.ts, as the back office revokes keys: with its audit entry, by the CLI. */
async function revoke(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, name: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const name = required(values, "name", USAGE);
  const noSuchKey = () => new CliError(`Business "${slug}" has no active key named "${name}".`);
  await withBusiness(targetOf(values), slug, async (db, business) => {
    const key = await activeApiKeyByName(db, business.id, name);
    if (!key) throw noSuchKey();
    await revokeApiKey({ DB: db }, cliActor("keys"), business.id, key.id, new Date()).catch((err) => {
      if (err instanceof ApiError && err.status === 404) throw noSuchKey();
      return explainApiError(err);
    });
  });
  console.log(`Revoked the key "${name}" of business "${slug}". It is refused from now on.`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create") return create(rest);
  if (command === "list") return list(rest);
  if (command === "revoke") return revoke(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
