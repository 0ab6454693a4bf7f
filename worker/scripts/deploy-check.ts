/**
 * `npm run deploy:check` (run by `npm run deploy` before `wrangler deploy`): what a first real
 * deployment would hit, refused here with the command that fixes it, before Cloudflare refuses it
 * or the first guest meets it (issue 32). Reads wrangler.toml (or `--config <file>`); touches no
 * network. Refusals exit 1; warnings only print.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CliError, parse, runCli } from "./lib/cli";
import { ROOT } from "./lib/wrangler";

/** The Worker's secrets (docs/configuration.md): set with `wrangler secret put`, never in wrangler.toml. */
export const WORKER_SECRETS = ["KEY_SIGNING_SECRET", "SECRETS_KEY"] as const;

const USAGE = "usage: npm run deploy:check [-- --config wrangler.toml]";

/** A quoted string value of `key` in the TOML text (the first one; blocks are searched after `from`). */
const value = (toml: string, key: string, from = 0) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m").exec(toml.slice(from))?.[1];

export function deployProblems(toml: string, root = ROOT): { refusals: string[]; warnings: string[] } {
  const refusals: string[] = [];
  const warnings: string[] = [];
  // Every D1 block: DB (shard 0 and the directory) and each further shard (docs/design.md "Shards").
  const blocks = [...toml.matchAll(/\[\[d1_databases\]\]/g)].map((m) => m.index ?? 0);
  if (blocks.length === 0) refusals.push("wrangler.toml has no [[d1_databases]]: the service's database (binding DB) is missing");
  for (const at of blocks) {
    const binding = value(toml, "binding", at) ?? "DB";
    const name = value(toml, "database_name", at) ?? "booking-platform";
    const id = value(toml, "database_id", at);
    if (!id || /^0{8}-0{4}-0{4}-0{4}-0{11}[0-9]$/.test(id) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      refusals.push(
        `database_id of the [[d1_databases]] ${binding} is the placeholder: create the database and put the id it prints there:\n` +
          `    npx wrangler d1 create ${name}            # add --location weur (or --jurisdiction eu): chosen at creation only`,
      );
    }
  }
  const origin = value(toml, "PUBLIC_ORIGIN");
  if (!origin) refusals.push('PUBLIC_ORIGIN in [vars] is empty: set the https origin the service is reached on, e.g. PUBLIC_ORIGIN = "https://book.example.com" (invitation and reset links are made on it)');
  else if (!/^https:\/\/[^/]+$/.test(origin)) refusals.push(`PUBLIC_ORIGIN "${origin}" must be an https origin without a path, e.g. "https://book.example.com"`);
  if (!/^\[observability\][^[]*enabled\s*=\s*true/m.test(toml)) refusals.push("[observability] is not enabled: without it Workers Logs keep none of the request logs (add [observability] enabled = true)");
  if (value(toml, "ALLOW_TEST_CLOCK") === "1") refusals.push('ALLOW_TEST_CLOCK = "1" lets any request move the service\'s clock: remove it from the deployed [vars]');
  if (!value(toml, "EMAIL_DEFAULT_FROM") && !value(toml, "EMAIL_SENDING_DOMAINS")) {
    warnings.push("EMAIL_SENDING_DOMAINS and EMAIL_DEFAULT_FROM are empty: no business will send e-mail (onboard a domain under Email Sending first, docs/email.md)");
  }
  // The Worker's secrets live in Cloudflare's secret store, never in the committed file.
  for (const secret of WORKER_SECRETS) {
    if (new RegExp(`^${secret}\\s*=`, "m").test(toml)) refusals.push(`${secret} is written in wrangler.toml: remove it and keep it a secret (\`npx wrangler secret put ${secret}\`)`);
  }
  if (!existsSync(join(root, "worker", "public", "widget.js"))) refusals.push("worker/public/widget.js is missing: run `npm run build` first");
  return { refusals, warnings };
}

await runCli(async () => {
  const { values } = parse(process.argv.slice(2), { config: { type: "string" } }, USAGE);
  const file = resolve(typeof values.config === "string" ? values.config : join(ROOT, "wrangler.toml"));
  const { refusals, warnings } = deployProblems(readFileSync(file, "utf8"));
  for (const w of warnings) console.log(`warning: ${w}`);
  if (refusals.length) throw new CliError(`not ready to deploy (${file}):\n- ${refusals.join("\n- ")}`);
  console.log(`ready to deploy: database, public origin, logs and the widget build are in place. Also: the Workers Paid plan (docs/configuration.md#the-plan), a custom domain for the widget's edge cache, and the secrets ${WORKER_SECRETS.map((n) => `${n} (\`npx wrangler secret put ${n}\`)`).join(", ")}.`);
});
