/**
 * What `wrangler deploy` would upload, against Cloudflare's limits: the Worker's bundle (raw and
 * gzipped; the limit is on the uncompressed size) and its startup (the evaluation of the module
 * before the first request; limit 1 s), from `wrangler check startup`'s CPU profile on this machine,
 * and the same evaluation timed without a profiler (below).
 *
 * Run alone: `npx tsx e2e/bench/worker-size.ts` (prints JSON). `npm run bench` includes it.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { compatibility, ROOT, WRANGLER, wranglerEnv } from "../../worker/scripts/lib/wrangler";

/** Cloudflare Workers limits (developers.cloudflare.com/workers/platform/limits): every plan. */
export const WORKER_LIMITS = { sizeBytes: 64 * 1024 * 1024, startupMs: 1000 };

export interface WorkerNumbers {
  rawBytes: number;
  gzipBytes: number;
  /** Length of the startup phase's CPU profile, in ms (this machine's CPU, not Cloudflare's). */
  startupMs: number;
  /**
   * The same evaluation without a profiler: a fresh workerd's first request, which imports the
   * bundle, less the same request importing a module with nothing to start (the request's own
   * round trip); the median of EVALUATE_ROUNDS rounds, each side started afresh in turn.
   */
  evaluateMs: number;
}

const EVALUATE_ROUNDS = 5;

/**
 * Milliseconds of a fresh workerd's first request whose handler imports `code` (as `wrangler check
 * startup` does, without its profiler). Profiling inflates the startup it measures: V8 records
 * every function the profile may name, so the profile's length is mostly its own work (on a 2-core
 * Xeon, 95-239 ms for a startup this measures at 33-49 ms).
 */
async function firstRequestMs(code: string, compatibilityDate: string, compatibilityFlags: string[]): Promise<number> {
  const { Miniflare } = createRequire(import.meta.url)("miniflare") as typeof import("miniflare");
  const mf = new Miniflare({
    compatibilityDate,
    compatibilityFlags,
    modulesRoot: "/",
    modules: [
      { type: "ESModule", path: "/startup.mjs", contents: `export default { async fetch() { await import("./index.js"); return new Response("ok"); } };` },
      { type: "ESModule", path: "/index.js", contents: code },
    ],
    cf: false,
  });
  try {
    await mf.ready;
    const started = performance.now();
    await (await mf.dispatchFetch("http://startup.local/")).text();
    return performance.now() - started;
  } finally {
    await mf.dispose();
  }
}

async function evaluateWithoutProfiler(bundle: string): Promise<number> {
  const { date, flags } = compatibility();
  const code = readFileSync(bundle, "utf8");
  const nothing = "export default {};";
  const diffs: number[] = [];
  for (let i = 0; i < EVALUATE_ROUNDS; i++) {
    const empty = await firstRequestMs(nothing, date, flags);
    const full = await firstRequestMs(code, date, flags);
    diffs.push(full - empty);
  }
  diffs.sort((a, b) => a - b);
  return Math.round(diffs[diffs.length >> 1]);
}

const run = promisify(execFile);

export async function measureWorker(): Promise<WorkerNumbers> {
  const dir = mkdtempSync(join(tmpdir(), "worker-size-"));
  try {
    const opts = { cwd: ROOT, env: wranglerEnv(), maxBuffer: 16 * 1024 * 1024 };
    await run(WRANGLER, ["deploy", "--dry-run", "--outdir", dir], opts);
    const bundle = join(dir, "index.js");
    const profile = join(dir, "startup.cpuprofile");
    await run(WRANGLER, ["check", "startup", "--outfile", profile], opts);
    const { startTime, endTime } = JSON.parse(readFileSync(profile, "utf8")) as { startTime: number; endTime: number };
    const evaluateMs = await evaluateWithoutProfiler(bundle);
    return { rawBytes: statSync(bundle).size, gzipBytes: gzipSync(readFileSync(bundle)).length, startupMs: Math.round((endTime - startTime) / 1000), evaluateMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /worker-size\.ts$/.test(process.argv[1])) {
  measureWorker().then((n) => console.log(JSON.stringify(n, null, 2)));
}
