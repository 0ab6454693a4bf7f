/**
 * D1 from the command line: statements with `?` parameters rendered to SQL text (wrangler's
 * `d1 execute` takes no parameters), executed locally or remotely, results parsed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1TargetFlags, runWrangler, type Target } from "./wrangler";
import { SHARD_BINDINGS } from "../../src/db/shards";
import { LOCKED } from "../../src/db/locked-retry";

export type SqlValue = string | number | null;
export interface Statement {
  sql: string;
  params: SqlValue[];
}

/** A value as an SQLite literal. Strings are quoted with every `'` doubled, the only escape SQLite has. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Cannot store the number ${value} in SQL.`);
    return String(value);
  }
  if (typeof value !== "string") throw new Error(`Unsupported SQL parameter: ${typeof value}`);
  if (value.includes("\0")) throw new Error("A NUL character cannot be stored in an SQL text literal.");
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Replace each `?` placeholder with its parameter's literal, and each `?NNN` with the NNN-th (as
 * SQLite numbers them: a plain `?` takes the number after the largest so far). Placeholders are
 * only recognised outside quoted strings, identifiers and comments, so a literal such as '?' in
 * the SQL stays.
 */
export function renderStatement({ sql, params }: Statement): string {
  let out = "";
  let next = 0;
  const used = new Set<number>();
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === "`") {
      const end = sql.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`Unterminated quote in SQL: ${sql}`);
      // A doubled quote inside a literal is an escape; indexOf lands on its first half, and the
      // loop continues from the second half, which opens the rest of the literal again.
      out += sql.slice(i, end + 1);
      i = end;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (ch === "?") {
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      const index = digits ? Number(digits) - 1 : next;
      if (digits) i += digits.length;
      if (index < 0 || index >= params.length) throw new Error(`Too few parameters for: ${sql}`);
      out += sqlLiteral(params[index]);
      used.add(index);
      next = Math.max(next, index + 1);
    } else {
      out += ch;
    }
  }
  if (used.size !== params.length) throw new Error(`${params.length} parameters for ${used.size} placeholders in: ${sql}`);
  return out.trim().replace(/;$/, "");
}

/** A script of statements, one per line group, each ended by `;`. */
export function renderScript(statements: Statement[]): string {
  return statements.map((s) => renderStatement(s) + ";\n").join("");
}

export class D1CommandError extends Error {}

function errorText(result: { stdout: string; stderr: string }): string {
  try {
    const parsed = JSON.parse(result.stdout);
    if (parsed?.error?.text) return String(parsed.error.text);
  } catch {
    /* not JSON: fall through */
  }
  return (result.stderr || result.stdout).trim();
}

/** Explain the errors a user can act on; anything else is shown as wrangler said it. */
export function explain(text: string, target: Target): string {
  if (/no such table/i.test(text)) {
    return target.remote
      ? `The remote database has no schema yet (${text}). Run \`npx wrangler d1 migrations apply DB --remote\` first.`
      : `The local database is not set up (${text}). Run \`npm start\` once (it applies the migrations), then try again.`;
  }
  if (target.remote && /CLOUDFLARE_API_TOKEN|not logged in|login/i.test(text)) {
    return `${text}\nLog in once with \`npx wrangler login\` (or set CLOUDFLARE_API_TOKEN), then try again.`;
  }
  return text;
}

/**
 * A local database is one SQLite file that a running `npm start` (or test server) may be
 * writing at that very moment; `wrangler d1 execute --local` then fails to take its lock, with
 * SQLITE_BUSY or an assertion of workerd's SQLite ("false == true"), before running anything,
 * or (rarely, seen once while a server's alarm was writing) with workerd's opaque "internal
 * error; reference = ..." (a command is one transaction: a failed one changed nothing). Such a
 * failure is tried again a few times; any other is reported at once (the messages: LOCKED, which
 * the tools' own local D1 retries on too, db/locked-retry.ts).
 */

export async function runD1(target: Target, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  for (let attempt = 1; ; attempt++) {
    const result = await runWrangler(args, target);
    if (result.code === 0 || target.remote || attempt >= 5 || !LOCKED.test(errorText(result))) return result;
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
}

/**
 * Run statements as one command (wrangler runs a multi-statement command atomically) and return
 * the rows of each statement, in order.
 */
export async function d1Query<Row = Record<string, unknown>>(target: Target, statements: Statement[], binding = "DB"): Promise<Row[][]> {
  const command = statements.map(renderStatement).join(";\n");
  const result = await runD1(target, ["d1", "execute", binding, ...d1TargetFlags(target), "--json", "--command", command]);
  if (result.code !== 0) throw new D1CommandError(explain(errorText(result), target));
  let parsed: { results?: Row[] }[];
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    throw new D1CommandError(`Unexpected output from wrangler d1 execute: ${result.stdout.slice(0, 500)}`);
  }
  return parsed.map((r) => r.results ?? []);
}

/** Run a whole script from a file (the seed), atomically. */
export async function d1ExecuteScript(target: Target, statements: Statement[], binding = "DB"): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "booking-sql-"));
  const file = join(dir, "script.sql");
  try {
    writeFileSync(file, renderScript(statements));
    const result = await runD1(target, ["d1", "execute", binding, ...d1TargetFlags(target), "--json", "--file", file]);
    if (result.code !== 0) throw new D1CommandError(explain(errorText(result), target));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Apply pending migrations with `wrangler d1 migrations apply` (non-interactive) to every shard's
 * database (DB and each DB_SHARD_n of wrangler.toml: the same migrations; docs/design.md "Shards").
 * Returns how many DB took. The CLIs use it for `--remote`; a local database is migrated through
 * its binding instead (lib/cli-database.ts applyMigrations), and this stays for the test
 * that both keep one record.
 */
export async function applyMigrationsWithWrangler(target: Target): Promise<number> {
  const counts: number[] = [];
  for (const binding of SHARD_BINDINGS) {
    const result = await runWrangler(["d1", "migrations", "apply", binding, ...d1TargetFlags(target)], target);
    if (result.code !== 0) throw new D1CommandError(`Applying the D1 migrations to ${binding} failed:\n${(result.stdout + result.stderr).trim()}`);
    counts.push(/No migrations to apply/i.test(result.stdout) ? 0 : new Set(result.stdout.match(/\b[\w-]+\.sql\b/g) ?? []).size);
  }
  return counts[0];
}
