/**
 * The e-mails the service wrote and sent (docs/email.md), read from D1's outbox: `list` shows each
 * with its status and, when an attempt failed, why; `show` prints one as it was sent: its headers
 * and text (default), its HTML (`--html`, for a browser) or the whole MIME message (`--raw`, an
 * .eml file for a mail client). Locally nothing leaves the machine: wrangler's send_email binding
 * writes each message to an .eml file and logs its path; this reads the same message from D1.
 * Local database by default, `--remote` for the deployed one.
 */
import { simpleParser } from "mailparser";
import { listEmailsOfAll, sentEmailById } from "../src/db/emails";
import { CliError, parse, runCli, targetOf, withShards } from "./lib/cli";
import { shardsOf } from "../src/db/shards";

const USAGE = `Usage:
  npm run --silent mail -- list [--business <slug>] [--status <status>] [--booking <id>] [--limit <n>] [--json]
  npm run --silent mail -- show <email id> [--raw | --html]
Statuses: pending, sending, retrying, sent, failed.
Options for every command:
  --remote            the deployed D1 database
  --persist-to <dir>  a local state directory other than .wrangler/state`;

const STATUSES = ["pending", "sending", "retrying", "sent", "failed"];

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    { business: { type: "string" }, status: { type: "string" }, booking: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } },
    USAGE,
  );
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const status = typeof values.status === "string" ? values.status : undefined;
  if (status !== undefined && !STATUSES.includes(status)) throw new CliError(`Invalid --status "${status}": one of ${STATUSES.join(", ")}.`, 2);
  const limit = typeof values.limit === "string" ? Number(values.limit) : 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError(`Invalid --limit "${values.limit}": 1 to 1000.`, 2);
  const filter = { slug: typeof values.business === "string" ? values.business : undefined, status, bookingId: typeof values.booking === "string" ? values.booking : undefined, limit };
  // Every shard's e-mails (docs/design.md "Shards"), newest first as each shard lists them.
  const rows = await withShards(targetOf(values), async (store) =>
    (await Promise.all(shardsOf(store).map((db) => listEmailsOfAll(db, filter))))
      .flat()
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))
      .slice(0, limit),
  );
  if (values.json) return console.log(JSON.stringify(rows, null, 2));
  if (!rows.length) return console.log("No e-mails.");
  for (const r of rows) {
    const status = r.status === "sent" && r.unconfirmed_attempts > 0 ? "sent (possible duplicate)" : r.status;
    console.log(`${r.created_at}  ${r.id}  ${status.padEnd(8)}  ${r.slug}  ${r.kind} -> ${r.recipient}`);
    console.log(`    ${r.subject ?? "(not composed yet)"}`);
    if (r.last_error && r.status !== "sent") console.log(`    attempt ${r.attempts} failed: ${r.last_error}${r.next_attempt_at ? `; next attempt ${r.next_attempt_at}` : ""}`);
  }
}

async function show(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { raw: { type: "boolean" }, html: { type: "boolean" } }, USAGE);
  if (positionals.length !== 1) throw new CliError(`Give one e-mail id (see \`npm run --silent mail -- list\`).\n\n${USAGE}`, 2);
  if (values.raw && values.html) throw new CliError("--raw and --html exclude each other.", 2);
  const row = await withShards(targetOf(values), async (store) => (await Promise.all(shardsOf(store).map((db) => sentEmailById(db, positionals[0])))).find((r) => r) ?? null);
  if (!row) throw new CliError(`No e-mail "${positionals[0]}".`);
  if (!row.raw && row.body_removed_at) throw new CliError(`E-mail ${row.id} was ${row.status}; its message was removed on ${row.body_removed_at} (EMAIL_BODY_RETENTION_DAYS). \`mail list\` still shows what was sent, to whom and when.`);
  if (!row.raw) throw new CliError(`E-mail ${row.id} is ${row.status} and has not been composed yet${row.last_error ? ` (${row.last_error})` : ""}.`);
  if (values.raw) return void process.stdout.write(row.raw);
  const mail = await simpleParser(row.raw);
  if (values.html) return void process.stdout.write(typeof mail.html === "string" ? mail.html : "");
  for (const name of ["from", "to", "reply-to", "subject", "date", "message-id", "content-language"]) {
    const value = mail.headers.get(name);
    if (value === undefined) continue;
    const text = typeof value === "object" && value !== null && "text" in value ? String((value as { text: string }).text) : value instanceof Date ? value.toISOString() : String(value);
    console.log(`${name.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase())}: ${text}`);
  }
  console.log(`Status: ${row.status}${row.last_error && row.status !== "sent" ? ` (${row.last_error})` : ""}`);
  console.log("");
  process.stdout.write(mail.text ?? "");
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "list") return list(rest);
  if (command === "show") return show(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
