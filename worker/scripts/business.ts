/**
 * `npm run --silent business -- create --slug <slug> --title <title> [--currency EUR]`:
 * onboard an empty business (settings from BusinessConfig's defaults, one default currency).
 * `business -- list` shows the businesses. Local database by default, `--remote` for the deployed one.
 */
import { BusinessConfig } from "../src/contract/config";
import { isoDateTime } from "../src/lib/time";
import { CliError, parse, required, runCli, targetOf } from "./lib/cli";
import { D1CommandError, d1Query } from "./lib/d1";

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
  const config = JSON.stringify(BusinessConfig.parse({}));
  const target = targetOf(values);

  let rows;
  try {
    // One command, so wrangler runs it as one transaction: the business and its currency, or nothing.
    rows = await d1Query<{ id: number }>(target, [
      { sql: "INSERT INTO businesses (slug, title, company_name, config, created_at) VALUES (?, ?, ?, ?, ?)", params: [slug, title, companyName, config, isoDateTime(new Date())] },
      {
        sql: "INSERT INTO currencies (business_id, iso_code, title, symbol, exchange_rate, is_default) SELECT id, ?, ?, ?, 1, 1 FROM businesses WHERE slug = ?",
        params: [currency, currencyTitle, symbol, slug],
      },
      { sql: "SELECT id FROM businesses WHERE slug = ?", params: [slug] },
    ]);
  } catch (err) {
    if (err instanceof D1CommandError && /UNIQUE constraint failed: businesses\.slug/.test(err.message)) {
      throw new CliError(`A business with the slug "${slug}" already exists.`);
    }
    throw err;
  }
  const id = rows[2][0]?.id;
  console.log(`Created business "${title}" (slug ${slug}, id ${id}, currency ${currency}) in the ${target.remote ? "remote" : "local"} database.`);
  console.log(`Next: npm run --silent keys -- create --business ${slug} --scope public --name <name>${target.remote ? " --remote" : ""}`);
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {}, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const [rows] = await d1Query<{ id: number; slug: string; title: string; created_at: string }>(targetOf(values), [
    { sql: "SELECT id, slug, title, created_at FROM businesses ORDER BY id", params: [] },
  ]);
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
