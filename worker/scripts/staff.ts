/**
 * Staff of a business's back office (/admin).
 *
 *   npm run --silent staff -- invite --business <slug> --email <e> --role owner [--name <n>] [--url <origin>] [--remote]
 *
 * prints a one-time sign-in link (alone on its line) that expires in 24 hours: whoever opens it
 * sets the password of that e-mail's account, then signs in. This is how a business gets its first
 * owner; owners invite everyone else from the back office (Staff). `list` shows the staff.
 * The link's token is shown once: only its SHA-256 is stored (as for the back office's own
 * invitations, manage/staff.ts, whose rules this command applies to a database it reaches
 * through wrangler).
 */
import { isEmail, isRole, normalizeStaffEmail } from "../src/domain/staff";
import { newId } from "../src/lib/ids";
import { sha256Hex } from "../src/lib/keys";
import { randomToken } from "../src/lib/password";
import { isoDateTime } from "../src/lib/time";
import { CLI_INVITE_HOURS, invitePath } from "../src/manage/staff";
import { CliError, parse, required, runCli, targetOf } from "./lib/cli";
import { d1Query } from "./lib/d1";

const USAGE = `Usage:
  npm run --silent staff -- invite --business <slug> --email <e-mail> --role owner|manager|front_desk [--name <name>] [--url <origin>]
  npm run --silent staff -- list --business <slug> [--json]
Options for every command:
  --url <origin>      where the back office is served, for the link (default http://localhost:8787; required with --remote)
  --remote            the deployed D1 database
  --persist-to <dir>  a local state directory other than .wrangler/state`;

const unknownBusiness = (slug: string) => new CliError(`Unknown business "${slug}". See \`npm run --silent business -- list\`.`);

function originOf(values: Record<string, string | boolean | undefined>): string {
  const raw = typeof values.url === "string" ? values.url.trim() : values.remote ? "" : `http://localhost:${process.env.PORT ?? "8787"}`;
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
  const emailNorm = normalizeStaffEmail(email);

  const [[business], [existing]] = await d1Query<any>(target, [
    { sql: "SELECT id FROM businesses WHERE slug = ?", params: [slug] },
    {
      sql: "SELECT u.id, u.password_hash IS NOT NULL AS active FROM staff_users u JOIN businesses b ON b.id = u.business_id WHERE b.slug = ? AND u.email_norm = ? AND u.removed_at IS NULL",
      params: [slug, emailNorm],
    },
  ]);
  if (!business) throw unknownBusiness(slug);
  if (existing?.active) throw new CliError(`${email} is on the staff of "${slug}" already. They sign in at ${origin}/admin/${slug}/sign-in.`);

  const now = new Date();
  const ts = isoDateTime(now);
  const token = randomToken();
  const staffId = existing?.id ?? newId(now.getTime());
  const expiresAt = isoDateTime(new Date(now.getTime() + CLI_INVITE_HOURS * 3_600_000));
  // One command, one transaction: the user (new, or still pending: the new role), the link, the audit entry.
  await d1Query(target, [
    existing
      ? { sql: "UPDATE staff_users SET role = ?, name = ?, updated_at = ? WHERE id = ? AND password_hash IS NULL", params: [role, name, ts, staffId] }
      : {
          sql: "INSERT INTO staff_users (id, business_id, email, email_norm, name, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          params: [staffId, business.id, email, emailNorm, name, role, ts, ts],
        },
    {
      sql: "INSERT INTO staff_invites (token_hash, business_id, staff_id, purpose, created_by, created_at, expires_at) VALUES (?, ?, ?, 'invite', 'staff CLI', ?, ?)",
      params: [await sha256Hex(token), business.id, staffId, ts, expiresAt],
    },
    {
      sql: `INSERT INTO audit_log (id, business_id, at, actor_kind, actor_id, actor_name, action, entity, entity_id, summary, before, after)
            VALUES (?, ?, ?, 'cli', 'staff-cli', 'staff CLI', 'invited', 'staff', ?, ?, NULL, ?)`,
      params: [newId(now.getTime()), business.id, ts, staffId, `Invited ${email} as ${role.replace("_", " ")}`, JSON.stringify({ email, role })],
    },
  ]);
  console.error(`Invited ${email} as ${role} of "${slug}". The link works once, until ${expiresAt} (UTC):`);
  console.log(`${origin}${invitePath(token)}`);
}

async function list(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { business: { type: "string" }, json: { type: "boolean" } }, USAGE);
  if (positionals.length) throw new CliError(`Unexpected argument: ${positionals[0]}\n\n${USAGE}`, 2);
  const slug = required(values, "business", USAGE);
  const [businesses, rows] = await d1Query<any>(targetOf(values), [
    { sql: "SELECT id FROM businesses WHERE slug = ?", params: [slug] },
    {
      sql: `SELECT u.email, u.name, u.role, CASE WHEN u.password_hash IS NULL THEN 'invited' ELSE 'active' END AS status, u.created_at
              FROM staff_users u JOIN businesses b ON b.id = u.business_id WHERE b.slug = ? AND u.removed_at IS NULL ORDER BY u.email_norm`,
      params: [slug],
    },
  ]);
  if (!businesses.length) throw unknownBusiness(slug);
  if (values.json) return console.log(JSON.stringify(rows, null, 2));
  if (!rows.length) return console.log(`Business "${slug}" has no staff yet. Invite its first owner with \`staff -- invite --role owner\`.`);
  for (const r of rows) console.log(`${r.email}\t${r.role}\t${r.status}\t${r.name ?? ""}`);
}

await runCli(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "invite") return invite(rest);
  if (command === "list") return list(rest);
  if (!command || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
  throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
});
