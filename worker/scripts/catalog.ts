/**
 * `npm run --silent catalog -- export --business <slug> [--out <file>]`: the business's settings
 * and whole catalog as one JSON document (contract/catalog-file.ts).
 * `npm run --silent catalog -- apply --business <slug> --file <file> [--dry-run]`: prints the plan
 * (what is created, changed, archived) and applies it through the Worker's own code
 * (worker/src/manage/, as the private API does), in one transaction with its audit entries and
 * webhook events. Applying the same file twice changes nothing the second time.
 * `npm run --silent catalog -- schema`: the file's JSON Schema (also served at /schemas/catalog.json).
 * Local database by default, `--remote` for the deployed one, `--persist-to <dir>` for another local state.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "@hono/zod-openapi";
import { CatalogFile } from "../src/contract/catalog-file";
import type { Change } from "../src/domain/catalog-plan";
import { applyCatalog, exportCatalog } from "../src/manage/catalog/file";
import { businessOf, cliActor, CliError, explainApiError, parse, required, runCli, targetOf } from "./lib/cli";
import { openBusinessDatabase } from "./lib/cli-database";
import { wranglerVar, type Target } from "./lib/wrangler";

const USAGE = `Usage:
  npm run --silent catalog -- export --business <slug> [--out <file>]
  npm run --silent catalog -- apply --business <slug> --file <file> [--dry-run]
  npm run --silent catalog -- schema
Options for export and apply:
  --remote            the deployed D1 database instead of the local one
  --persist-to <dir>  a local state directory other than .wrangler/state`;

const businessId = async (db: D1Database, slug: string) => (await businessOf(db, slug)).id;
const cli = () => cliActor("catalog");

async function exportCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, out: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const target: Target = targetOf(values);
  const slug = required(values, "business", USAGE);
  const { db, close } = await openBusinessDatabase(target, slug);
  const { file, problems } = await businessId(db, slug)
    .then((id) => exportCatalog(db, id))
    .catch(explainApiError)
    .finally(close);
  for (const p of problems) console.error(`warning: settings field ${p.field} does not parse (${p.message}); exported with its default.`);
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (typeof values.out === "string") {
    writeFileSync(values.out, text);
    console.error(`Wrote ${values.out}: ${file.products.length} products, ${file.seasons.length} seasons.`);
  } else process.stdout.write(text);
}

const SIGN: Record<Change["action"], string> = { created: "+", updated: "~", archived: "-", restored: "+", deleted: "-", blocked: "~", unblocked: "~" };

function printPlan(changes: Change[]): void {
  for (const c of changes) console.log(`${SIGN[c.action]} ${c.summary}`);
  const count = (a: Change["action"][]) => changes.filter((c) => a.includes(c.action)).length;
  console.log(`${count(["created", "restored"])} created, ${count(["updated", "blocked", "unblocked"])} changed, ${count(["archived", "deleted"])} archived.`);
}

async function applyCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, file: { type: "string" }, "dry-run": { type: "boolean" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const path = required(values, "file", USAGE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CliError(`Cannot read ${path} as JSON: ${(err as Error).message}`);
  }
  const parsed = CatalogFile.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 100).map((i) => `  ${i.path.map(String).join(".") || "(the file)"}: ${i.message}`);
    throw new CliError(`${path} is not a valid catalog file:\n${lines.join("\n")}`);
  }
  const target = targetOf(values);
  const dryRun = values["dry-run"] === true;
  const { db, close } = await openBusinessDatabase(target, slug);
  const result = await businessId(db, slug)
    .then((id) => applyCatalog({ DB: db, EMAIL_SENDING_DOMAINS: wranglerVar("EMAIL_SENDING_DOMAINS") }, cli(), id, parsed.data, new Date(), { dryRun }))
    .catch(explainApiError)
    .finally(close);
  if (!result.changes.length) return console.log(`Nothing to change: business "${slug}" already is as ${path} says.`);
  printPlan(result.changes);
  console.log(dryRun ? "Dry run: nothing was changed." : `Applied to business "${slug}" in the ${target.remote ? "remote" : "local"} database.`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "export") return exportCommand(rest);
  if (command === "apply") return applyCommand(rest);
  if (command === "schema") return console.log(JSON.stringify(z.toJSONSchema(CatalogFile, { io: "input", unrepresentable: "any" }), null, 2));
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
