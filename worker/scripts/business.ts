/**
 * `npm run --silent business -- create --slug <slug> --title <title> [--currency EUR]`:
 * onboard an empty business (settings from BusinessConfig's defaults, one default currency).
 * `business -- list` shows the businesses. Local database by default, `--remote` for the deployed one.
 * The business is made by the Worker's own code (worker/src/manage/businesses.ts), with an audit
 * entry whose actor is the CLI ("business CLI").
 */
import { listBusinesses } from "../src/db/businesses";
import { shardsOf } from "../src/db/shards";
import { ApiError } from "../src/lib/errors";
import { createBusiness } from "../src/manage/businesses";
import { cliActor, CliError, explainApiError, parse, required, runCli, targetOf, withShards } from "./lib/cli";

const USAGE = `Usage:
  npm run --silent business -- create --slug <slug> --title <title> [--currency <ISO code>] [--company-name <name>]
  npm run --silent business -- list
Options for every command:
  --remote            the deployed D1 database instead of the local one
  --persist-to <dir>  a local state directory other than .wrangler/state`;

/** Names and symbols of common currencies; any other ISO code gets its code as both. */
const CURRENCIES: Record<string, [string, string]> = {
  EUR: ["Euro", "€"], USD: ["US Dollar", "$"], GBP: ["Pound Sterling", "£"], CHF: ["Swiss Franc", "CHF"],
  AUD: ["Australian Dollar", "A$"], CAD: ["Canadian Dollar", "C$"], NZD: ["New Zealand Dollar", "NZ$"],
  SEK: ["Swedish Krona", "kr"], NOK: ["Norwegian Krone", "kr"], DKK: ["Danish Krone", "kr"], PLN: ["Polish Złoty", "zł"],
  CZK: ["Czech Koruna", "Kč"], JPY: ["Japanese Yen", "¥"], BRL: ["Brazilian Real", "R$"], MXN: ["Mexican Peso", "MX$"],
  ZAR: ["South African Rand", "R"], IDR: ["Indonesian Rupiah", "Rp"], THB: ["Thai Baht", "฿"], MAD: ["Moroccan Dirham", "MAD"],
};

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

async function create(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { slug: { type: "string" }, title: { type: "string" }, currency: { type: "string" }, "company-name": { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "slug", USAGE);
  const title = required(values, "title", USAGE);
  if (!SLUG.test(slug)) throw new CliError(`Invalid --slug "${slug}": use 1 to 63 lower-case letters, digits and inner hyphens (it appears in URLs).`, 2);
  if (title.length > 200) throw new CliError("--title is longer than 200 characters.", 2);
  const currency = (typeof values.currency === "string" ? values.currency : "EUR").trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new CliError(`Invalid --currency "${values.currency}": give a three-letter ISO 4217 code such as EUR.`, 2);
  const [currencyTitle, symbol] = CURRENCIES[currency] ?? [currency, currency];
  const companyName = typeof values["company-name"] === "string" ? values["company-name"].trim() : "";
  const target = targetOf(values);
  // Every shard open: the directory places the business on the one with the fewest (docs/design.md "Shards").
  const id = await withShards(target, (store) =>
    createBusiness(store, cliActor("business"), { slug, title, companyName, currency: { isoCode: currency, title: currencyTitle, symbol } }, new Date()).catch((err) => {
      if (err instanceof ApiError && err.status === 409) throw new CliError(err.message);
      return explainApiError(err);
    }),
  );
  console.log(`Created business "${title}" (slug ${slug}, id ${id}, currency ${currency}) in the ${target.remote ? "remote" : "local"} database.`);
  // The first-run path: the business, its owner's invitation, the link; keys come later, from the back office or the keys CLI.
  console.log(`Next, invite its owner and open the link it prints:\n  npm run --silent staff -- invite --business ${slug} --email <owner's e-mail> --role owner${target.remote ? " --remote --url <the service's origin>" : ""}`);
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {}, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const rows = await withShards(targetOf(values), async (store) => (await Promise.all(shardsOf(store).map(listBusinesses))).flat().sort((a, b) => a.id - b.id));
  if (!rows.length) return console.log("No businesses.");
  const w = Math.max(4, ...rows.map((r) => r.slug.length));
  console.log(`${"ID".padEnd(5)} ${"SLUG".padEnd(w)}  CREATED               TITLE`);
  for (const r of rows) console.log(`${String(r.id).padEnd(5)} ${r.slug.padEnd(w)}  ${r.created_at.padEnd(20)}  ${r.title}`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create") return create(rest);
  if (command === "list") return list(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
