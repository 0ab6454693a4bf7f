/**
 * A D1Database for the command line, over `wrangler d1 execute` (local state or `--remote`), so
 * that the CLIs run the Worker's own code (worker/src/manage/) on the same database the Worker
 * uses, with nothing of it written again for the CLI.
 *
 * Why this and not wrangler's getPlatformProxy(): the platform proxy gives a local D1 only (a
 * remote one only through an experimental flag that needs a login session proxy), while every
 * other CLI here reaches local and remote D1 the same way, through `wrangler d1 execute`; the
 * administration's code sends few round trips (one read, one write batch), so a wrangler run per
 * round trip (about a second) is fine.
 *
 * Semantics kept: a `batch()` is ONE wrangler command, which runs its statements as one
 * transaction (all or nothing: a guard that RAISEs aborts it, and the error carries its message);
 * parameters are rendered as SQL literals (lib/wrangler-d1.ts renderStatement, tested in sql-render.node.ts).
 * A batch over ~90 kB goes as a file (a command line has a length limit); remotely a file is
 * imported, which answers no rows, so only writes may be that large.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { D1CommandError, explain, renderStatement, runD1, type SqlValue } from "./wrangler-d1";
import { d1TargetFlags, type Target } from "./wrangler";

const COMMAND_LIMIT = 90_000;

class Statement {
  constructor(
    readonly db: WranglerD1,
    readonly sql: string,
    readonly params: SqlValue[] = [],
  ) {}
  bind(...values: unknown[]): Statement {
    return new Statement(
      this.db,
      this.sql,
      values.map((v) => {
        if (v === undefined) throw new Error(`D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined' in: ${this.sql.slice(0, 80)}`);
        if (typeof v === "boolean") return v ? 1 : 0;
        return v as SqlValue;
      }),
    );
  }
  async all<T>(): Promise<D1Result<T>> {
    return (await this.db.batch([this]))[0] as D1Result<T>;
  }
  async run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }
  async first<T>(column?: string): Promise<T | null> {
    const row = (await this.all<Record<string, unknown>>()).results[0];
    if (!row) return null;
    return (column ? row[column] : row) as T;
  }
  async raw<T>(): Promise<T[]> {
    return (await this.all<Record<string, unknown>>()).results.map((r) => Object.values(r)) as T[];
  }
}

export class WranglerD1 {
  /** Round trips made (for the CLI's tests: a plan is one read and one write). */
  trips = 0;
  /** `binding`: which of wrangler.toml's D1 databases (DB, or a shard's DB_SHARD_n). */
  constructor(
    readonly target: Target,
    readonly binding = "DB",
  ) {}

  prepare(sql: string): Statement {
    return new Statement(this, sql);
  }

  async batch(statements: Statement[]): Promise<D1Result[]> {
    if (statements.length === 0) return [];
    this.trips++;
    const sql = statements.map((s) => renderStatement({ sql: s.sql, params: s.params })).join(";\n");
    const flags = ["d1", "execute", this.binding, ...d1TargetFlags(this.target), "--json"];
    let dir: string | undefined;
    try {
      let args: string[];
      if (sql.length > COMMAND_LIMIT) {
        dir = mkdtempSync(join(tmpdir(), "booking-batch-"));
        const file = join(dir, "batch.sql");
        writeFileSync(file, `${sql};\n`);
        args = [...flags, "--file", file];
      } else args = [...flags, "--command", sql];
      const result = await runD1(this.target, args);
      if (result.code !== 0) throw new D1CommandError(explain(errorOf(result), this.target));
      let parsed: { results?: unknown[]; success?: boolean; meta?: Record<string, unknown> }[];
      try {
        parsed = JSON.parse(result.stdout);
      } catch {
        throw new D1CommandError(`Unexpected output from wrangler d1 execute: ${result.stdout.slice(0, 500)}`);
      }
      if (!Array.isArray(parsed)) parsed = [];
      return statements.map((_, i) => ({ results: parsed[i]?.results ?? [], success: true, meta: (parsed[i]?.meta ?? {}) as D1Result["meta"] }));
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }

  /** As D1Database, for the Worker's code. */
  asD1(): D1Database {
    return this as unknown as D1Database;
  }
}

function errorOf(result: { stdout: string; stderr: string }): string {
  try {
    const parsed = JSON.parse(result.stdout);
    if (parsed?.error?.text) return String(parsed.error.text);
  } catch {
    /* not JSON */
  }
  return (result.stderr || result.stdout).trim();
}
