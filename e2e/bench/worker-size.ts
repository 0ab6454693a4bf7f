/**
 * What `wrangler deploy` would upload, against Cloudflare's limits: the Worker's bundle (raw and
 * gzipped; the limit is on the uncompressed size) and its startup (the evaluation of the module
 * before the first request; limit 1 s), from `wrangler check startup`'s CPU profile on this machine.
 *
 * Run alone: `npx tsx e2e/bench/worker-size.ts` (prints JSON). `npm run bench` includes it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { ROOT, WRANGLER, wranglerEnv } from "../../worker/scripts/lib/wrangler";

/** Cloudflare Workers limits (developers.cloudflare.com/workers/platform/limits): every plan. */
export const WORKER_LIMITS = { sizeBytes: 64 * 1024 * 1024, startupMs: 1000 };

export interface WorkerNumbers {
  rawBytes: number;
  gzipBytes: number;
  /** Length of the startup phase's CPU profile, in ms (this machine's CPU, not Cloudflare's). */
  startupMs: number;
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
    return { rawBytes: statSync(bundle).size, gzipBytes: gzipSync(readFileSync(bundle)).length, startupMs: Math.round((endTime - startTime) / 1000) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /worker-size\.ts$/.test(process.argv[1])) {
  measureWorker().then((n) => console.log(JSON.stringify(n, null, 2)));
}
