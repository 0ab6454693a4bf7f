/** Helpers for the node-side tests: run the npm scripts as a user would, in a temp state directory. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../scripts/lib/wrangler";
import { withDatabase } from "../../scripts/lib/cli-database";
import type { Statement } from "../../scripts/lib/wrangler-d1";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run --silent <script> -- <args>` from the repository root, as a user runs it: the script's
 * own command from package.json with the arguments appended, as npm would run it. A command that
 * is a plain `node ...` is started directly (npm's own start-up is 0.3–0.5 s, and the node suite
 * runs about 60 of them); anything else goes through npm.
 */
export function npmRun(script: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  const command = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts ?? {})[script] as string | undefined;
  const plain = command && /^(?:exec )?node((?: [\w@./=-]+)+)$/.exec(command);
  const [file, argv] = plain ? [process.execPath, [...plain[1].trim().split(" "), ...args]] : ["npm", ["run", "--silent", script, "--", ...args]];
  return new Promise((done, fail) => {
    const child = spawn(file, argv, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

/** GET a path of the server with an optional bearer key. */
export async function get(url: string, key?: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body };
}

/**
 * Statements on a local state's D1, in one batch (one transaction), and the rows of each: through
 * the tools' own local D1 (scripts/lib/cli-database.ts, about 0.7 s), where `wrangler d1 execute`
 * starts a runtime for each command (3 to 4 s of a 2-core machine). sql-render.node.ts keeps the
 * wrangler path under test, for `--remote`.
 */
export async function stateQuery<Row = Record<string, unknown>>(target: { persistTo: string }, statements: Statement[], binding = "DB"): Promise<Row[][]> {
  return withDatabase(target, async ({ shards }) => {
    const db = shards[binding];
    const results = await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    return results.map((r) => (r.results ?? []) as Row[]);
  });
}

/** stateQuery, for statements whose rows are not wanted. */
export async function stateExec(target: { persistTo: string }, statements: Statement[], binding = "DB"): Promise<void> {
  await stateQuery(target, statements, binding);
}
