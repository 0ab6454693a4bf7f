/**
 * API keys of a business. `create` prints the new key alone on one line (it is shown once: only
 * its SHA-256 is stored); `list` shows names, scopes and dates, never keys; `revoke` stops a key
 * at once (every request checks the key's record in D1). Local database by default, `--remote`
 * for the deployed one (then KEY_SIGNING_SECRET must be set to the Worker's secret).
 */
import { issueKey, type KeyScope } from "../src/lib/keys";
import { isoDateTime } from "../src/lib/time";
import { CliError, parse, required, runCli, signingSecret, targetOf } from "./lib/cli";
import { D1CommandError, d1Query } from "./lib/d1";

const USAGE = `Usage:
  npm run --silent keys -- create --business <slug> --scope public|private --name <name>
  npm run --silent keys -- list --business <slug> [--json]
  npm run --silent keys -- revoke --business <slug> --name <name>
Options for every command:
  --remote            the deployed D1 database (needs KEY_SIGNING_SECRET in the environment to create keys)
  --persist-to <dir>  a local state directory other than .wrangler/state`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._:@-]{0,63}$/;

function keyName(values: Record<string, string | boolean | undefined>): string {
  const name = required(values, "name", USAGE);
  if (!NAME.test(name)) throw new CliError(`Invalid --name "${name}": 1 to 64 letters, digits, spaces and . _ : @ - (it shows in request logs).`, 2);
  return name;
}

const unknownBusiness = (slug: string) =>
  new CliError(`Unknown business "${slug}". See \`npm run --silent business -- list\`, or create it with \`npm run --silent business -- create\`.`);

async function create(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, scope: { type: "string" }, name: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const scope = required(values, "scope", USAGE);
  if (scope !== "public" && scope !== "private") throw new CliError(`Invalid --scope "${scope}": it is public or private.`, 2);
  const name = keyName(values);
  const target = targetOf(values);
  const secret = signingSecret(target);

  const [[business]] = await d1Query<{ id: number; taken: number }>(target, [
    {
      sql: `SELECT b.id, (SELECT COUNT(*) FROM api_keys k WHERE k.business_id = b.id AND k.name = ? AND k.revoked_at IS NULL) AS taken
              FROM businesses b WHERE b.slug = ?`,
      params: [name, slug],
    },
  ]);
  if (!business) throw unknownBusiness(slug);
  const duplicate = new CliError(`Business "${slug}" already has an active key named "${name}". Choose another name, or revoke that key first.`);
  if (business.taken) throw duplicate;

  const now = new Date();
  const key = await issueKey(secret, business.id, scope as KeyScope, now);
  try {
    await d1Query(target, [
      {
        sql: "INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        params: [key.id, business.id, name, scope, key.hash, isoDateTime(now)],
      },
    ]);
  } catch (err) {
    // The partial unique index on active names: someone made the same name meanwhile.
    if (err instanceof D1CommandError && /UNIQUE constraint failed/.test(err.message)) throw duplicate;
    throw err;
  }
  console.log(key.token);
}

interface KeyRow {
  name: string;
  scope: string;
  created_at: string;
  revoked_at: string | null;
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, json: { type: "boolean" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const [businesses, keys] = await d1Query<any>(targetOf(values), [
    { sql: "SELECT id FROM businesses WHERE slug = ?", params: [slug] },
    {
      sql: `SELECT k.name, k.scope, k.created_at, k.revoked_at FROM api_keys k JOIN businesses b ON b.id = k.business_id
             WHERE b.slug = ? ORDER BY k.created_at, k.name`,
      params: [slug],
    },
  ]);
  if (!businesses.length) throw unknownBusiness(slug);
  const rows = keys as KeyRow[];
  if (values.json) return console.log(JSON.stringify(rows, null, 2));
  if (!rows.length) return console.log(`Business "${slug}" has no API keys.`);
  const w = Math.max(4, ...rows.map((r) => r.name.length));
  console.log(`${"NAME".padEnd(w)}  SCOPE    CREATED               REVOKED`);
  for (const r of rows) console.log(`${r.name.padEnd(w)}  ${r.scope.padEnd(7)}  ${r.created_at.padEnd(20)}  ${r.revoked_at ?? "-"}`);
}

async function revoke(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, name: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const name = required(values, "name", USAGE);
  const [businesses, revoked] = await d1Query<any>(targetOf(values), [
    { sql: "SELECT id FROM businesses WHERE slug = ?", params: [slug] },
    {
      sql: `UPDATE api_keys SET revoked_at = ?
             WHERE business_id = (SELECT id FROM businesses WHERE slug = ?) AND name = ? AND revoked_at IS NULL RETURNING id`,
      params: [isoDateTime(new Date()), slug, name],
    },
  ]);
  if (!businesses.length) throw unknownBusiness(slug);
  if (!revoked.length) throw new CliError(`Business "${slug}" has no active key named "${name}".`);
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
