/**
 * Staff of a business's back office (/admin).
 *
 *   npm run --silent staff -- invite --business <slug> --email <e> --role owner [--name <n>] [--url <origin>] [--remote]
 *
 * prints a one-time sign-in link (alone on its line) that expires in 24 hours: whoever opens it
 * sets the password of that e-mail's account, then signs in. This is how a business gets its first
 * owner; owners invite everyone else from the back office (Staff). `remove` takes someone off the
 * staff (their sessions end at once); `list` shows the staff.
 * The link's token is shown once: only its SHA-256 is stored. Invitations and removals are made
 * by the Worker's own code (worker/src/manage/staff.ts), as in the back office, with their audit
 * entries, whose actor is the CLI ("staff CLI").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { activeStaffByEmail, listStaff } from "../src/db/staff";
import { isEmail, isRole, normalizeStaffEmail } from "../src/domain/staff";
import { ApiError } from "../src/lib/errors";
import { isoDateTime } from "../src/lib/time";
import { CLI_INVITE_HOURS, invitePath, inviteStaff, removeStaff } from "../src/manage/staff";
import { cliActor, CliError, explainApiError, parse, required, runCli, targetOf, withBusiness } from "./lib/cli";
import { DEFAULT_STATE } from "./lib/wrangler";

const USAGE = `Usage:
  npm run --silent staff -- invite --business <slug> --email <e-mail> --role owner|manager|front_desk [--name <name>] [--url <origin>]
  npm run --silent staff -- remove --business <slug> --email <e-mail>
  npm run --silent staff -- list --business <slug> [--json]
Options for every command:
  --url <origin>      where the back office is served, for the link (default: where npm start runs on this state, else
                      http://localhost:$PORT or :8787; required with --remote)
  --remote            the deployed D1 database
  --persist-to <dir>  a local state directory other than .wrangler/state`;

/** The URL `npm start` wrote for its state directory (<state>/server.json) while it runs, if any. */
function runningServerUrl(values: Record<string, string | boolean | undefined>): string | undefined {
  try {
    const file = join(typeof values["persist-to"] === "string" ? values["persist-to"] : DEFAULT_STATE, "server.json");
    const url = (JSON.parse(readFileSync(file, "utf8")) as { url?: unknown }).url;
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The link's origin: --url, else PORT, else where `npm start` on this state runs, else port 8787. */
function originOf(values: Record<string, string | boolean | undefined>): string {
  const raw =
    typeof values.url === "string"
      ? values.url.trim()
      : values.remote
        ? ""
        : process.env.PORT
          ? `http://localhost:${process.env.PORT}`
          : (runningServerUrl(values) ?? "http://localhost:8787");
  if (!raw) throw new CliError("With --remote, give --url: the origin the deployed back office is served from (e.g. https://bookings.example.com).", 2);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`Invalid --url "${raw}": give an origin such as https://bookings.example.com.`, 2);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname))) {
    throw new CliError(`Invalid --url "${raw}": the back office is served over https (plain http only on localhost).`, 2);
  }
  return url.origin;
}

async function invite(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, email: { type: "string" }, role: { type: "string" }, name: { type: "string" }, url: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const email = required(values, "email", USAGE);
  const role = required(values, "role", USAGE);
  const name = typeof values.name === "string" ? values.name.trim().slice(0, 120) : "";
  if (!isEmail(email)) throw new CliError(`Invalid --email "${email}".`, 2);
  if (!isRole(role)) throw new CliError(`Invalid --role "${role}": owner, manager or front_desk.`, 2);
  const origin = originOf(values);
  const target = targetOf(values);
  const invitation = await withBusiness(target, slug, async (db, business) => {
    return inviteStaff(db, cliActor("staff"), business.id, { email, name, role }, new Date(), CLI_INVITE_HOURS).catch((err) => {
      if (err instanceof ApiError && /on the staff already/.test(err.message)) throw new CliError(`${email} is on the staff of "${slug}" already. They sign in at ${origin}/admin/${slug}/sign-in.`);
      return explainApiError(err);
    });
  });
  console.error(`Invited ${email} as ${role} of "${slug}". The link works once, until ${isoDateTime(invitation.expiresAt)} (UTC):`);
  console.log(`${origin}${invitePath(invitation.token)}`);
}

/** Someone off the staff: they cannot sign in any more and their sessions end (the business keeps an owner). */
async function remove(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, email: { type: "string" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const email = required(values, "email", USAGE);
  await withBusiness(targetOf(values), slug, async (db, business) => {
    const user = await activeStaffByEmail(db, business.id, normalizeStaffEmail(email));
    if (!user) throw new CliError(`${email} is not on the staff of "${slug}".`);
    await removeStaff(db, cliActor("staff"), business.id, user.id, new Date()).catch(explainApiError);
  });
  console.log(`Removed ${email} from the staff of "${slug}". Their sessions ended.`);
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, json: { type: "boolean" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const staff = await withBusiness(targetOf(values), slug, async (db, business) => listStaff(db, business.id, new Date()));
  const rows = staff
    .map((u) => ({ email: u.email, name: u.name, role: u.role, status: u.password_hash === null ? "invited" : "active", created_at: u.created_at }))
    .sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : 1));
  if (values.json) return console.log(JSON.stringify(rows, null, 2));
  if (!rows.length) return console.log(`Business "${slug}" has no staff yet. Invite its first owner with \`staff -- invite --role owner\`.`);
  for (const r of rows) console.log(`${r.email}\t${r.role}\t${r.status}\t${r.name ?? ""}`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "invite") return invite(rest);
  if (command === "remove") return remove(rest);
  if (command === "list") return list(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
