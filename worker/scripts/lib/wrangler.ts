/**
 * Running wrangler from scripts: one place that knows where the project is, which environment
 * keeps wrangler quiet and contained, and how to run a command and capture its output.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (where package.json and wrangler.toml are). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
/** Where `npm start` and the CLIs keep local D1 and Durable Object state (wrangler's default). */
export const DEFAULT_STATE = join(ROOT, ".wrangler", "state");

/** Where a command runs: the local state (optionally an isolated directory) or the deployed database. */
export interface Target {
  remote?: boolean;
  /** Local state directory (default `.wrangler/state`, shared with `npm start`). */
  persistTo?: string;
}

/**
 * The environment for wrangler: no metrics, no banner (which also skips the update check), no
 * prompts, and caches inside the project's git-ignored `.wrangler/` so nothing touches $HOME.
 * A remote command keeps the user's XDG directories, where `wrangler login` keeps its token.
 */
export function wranglerEnv(target: Target = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CI: process.env.CI ?? "true",
    FORCE_COLOR: "0",
  };
  if (!target.remote) {
    const base = join(ROOT, ".wrangler");
    env.XDG_CONFIG_HOME = join(base, "xdg", "config");
    env.XDG_CACHE_HOME = join(base, "xdg", "cache");
    env.XDG_DATA_HOME = join(base, "xdg", "data");
    env.MINIFLARE_CACHE_DIR = join(base, "cache");
    // Offline, miniflare would try to fetch the Request.cf object on every start and warn.
    env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
    writeCfJson(env.MINIFLARE_CACHE_DIR);
  }
  return env;
}

/** A fresh cf.json (miniflare refetches one older than 30 days) so that `wrangler dev` stays quiet offline. */
function writeCfJson(cacheDir: string): void {
  const file = join(cacheDir, "cf.json");
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(file)) writeFileSync(file, JSON.stringify({ colo: "DFW", country: "US" }));
  else {
    const now = new Date();
    utimesSync(file, now, now);
  }
}

/** The flags that choose the database of a `wrangler d1` command. */
export function d1TargetFlags(target: Target): string[] {
  if (target.remote) return ["--remote"];
  return ["--local", "--persist-to", target.persistTo ?? DEFAULT_STATE];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run wrangler to completion, capturing its output (never inheriting the terminal, so never a prompt). */
export function runWrangler(args: string[], target: Target = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(WRANGLER, args, { cwd: ROOT, env: wranglerEnv(target), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => reject(new Error(`Could not run wrangler (${WRANGLER}): ${err.message}. Run \`npm install\` first.`)));
    child.on("close", (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}

/**
 * A variable of wrangler.toml's [vars] (a quoted string), as the Worker gets it; the environment
 * variable of the same name wins (an operator's one-off). "" when neither is set.
 */
export function wranglerVar(name: string): string {
  if (process.env[name] !== undefined) return process.env[name]!;
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  return new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(toml)?.[1] ?? "";
}

/** wrangler.toml's compatibility date and flags, for a runtime started here without wrangler (miniflare). */
export function compatibility(): { date: string; flags: string[] } {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error("wrangler.toml has no compatibility_date.");
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return { date, flags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1]) };
}
