/** Helpers for the node-side tests: run the npm scripts as a user would, in a temp state directory. */
import { spawn } from "node:child_process";
import { ROOT } from "../../scripts/lib/wrangler";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run --silent <script> -- <args>` from the repository root. */
export function npmRun(script: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
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
