/**
 * The bench's own service: a prepared database (migrated, demo-seeded, tuned for load, optionally
 * with the scale data) kept as a template under .wrangler/bench/, copied fresh for every run so
 * that one run's carts and bookings never slow the next, and served by `wrangler dev` on
 * 127.0.0.1 through the project's startServer() (its own process group, ended when done).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { issueKey } from "../../worker/src/lib/keys";
import { freePort, prepareDatabase, ROOT, startServer, type RunningServer } from "../../worker/scripts/server";
import { d1ExecuteScript, type Statement } from "../../worker/scripts/lib/wrangler-d1";
import { ensureDevVars } from "../../worker/scripts/lib/dev-vars";
import { loadSql, SCALE, writeScaleSql } from "./seed-scale";

export const BENCH_DIR = join(ROOT, ".wrangler", "bench");
export const today = () => new Date().toISOString().slice(0, 10);

export interface BenchService {
  server: RunningServer;
  url: string;
  publicKeys: string[];
  privateKeys: string[];
  /** Private keys of the scale businesses, by id (SCALE.small: 1,000 persons; SCALE.large: 100,000 persons). */
  scaleKeys: Record<number, string>;
  stop(): Promise<void>;
  /** Kill the server at once (SIGKILL, requests in flight cut) and start it again on the same state and port. */
  crashAndRestart(): Promise<void>;
  /** Stop the server and start it again on the same state and port: a fresh process, the same data. */
  restart(): Promise<void>;
}

export interface BenchOptions {
  /** Template name: separate templates for the bench (scale data) and the soak (short carts). */
  name: string;
  /** Default: a free port, chosen after the template is ready (preparing it can take minutes, and other processes take ports meanwhile). */
  port?: number;
  scale: boolean;
  /** Extra SQL run on the template after the demo seed (config tweaks). */
  tune?: string[];
  env?: Record<string, string>;
  log?: (msg: string) => void;
}

/** Everything that shapes the prepared data: a change rebuilds the template. */
export function fingerprint(opts: BenchOptions): string {
  const h = createHash("sha256");
  const migrations = join(ROOT, "worker", "migrations");
  for (const f of readdirSync(migrations).sort()) h.update(f).update(readFileSync(join(migrations, f)));
  for (const f of ["worker/seed/demo.ts", "worker/seed/demo.catalog.json", "e2e/bench/seed-scale.ts", "e2e/bench/harness.ts"]) h.update(readFileSync(join(ROOT, f)));
  h.update(JSON.stringify({ scale: opts.scale, tune: opts.tune ?? [], today: today() }));
  return h.digest("hex").slice(0, 16);
}

/** Settings that let a load generator in: generous limits (still enforced), room for every buyer. */
export const LOAD_TUNING = [
  `UPDATE businesses SET config = json_set(config, '$.rate_limit_per_minute', 100000, '$.max_open_carts_per_client', 1000,
     '$.max_items_per_cart', 500, '$.max_extensions_per_cart', 100) WHERE id = 1`,
  // Capacities no load can exhaust (the scale data also writes a year of large inventory rows).
  "UPDATE products SET default_capacity = 1000000 WHERE business_id = 1 AND default_capacity IS NOT NULL",
];

async function prepareTemplate(dir: string, opts: BenchOptions): Promise<void> {
  const log = opts.log ?? (() => {});
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target = { persistTo: dir };
  log(`preparing ${opts.name} database (migrations, demo seed${opts.scale ? ", scale data" : ""}) ...`);
  await prepareDatabase(target);
  if (opts.scale) {
    const files = writeScaleSql(join(BENCH_DIR, `${opts.name}-sql`), today());
    const started = Date.now();
    await loadSql(target, files, (i, n) => log(`  loading scale data ${i + 1}/${n} ...`));
    log(`  scale data loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    rmSync(join(BENCH_DIR, `${opts.name}-sql`), { recursive: true, force: true });
  }
  const tune = [...LOAD_TUNING, ...(opts.tune ?? [])].map((sql): Statement => ({ sql, params: [] }));
  await d1ExecuteScript(target, tune);
}

/** Keys straight into the run's D1, each on its business's shard, as `npm run keys -- create` would. */
async function makeKeys(scale: boolean, secret: string) {
  const statements: Record<"DB" | "DB_SHARD_1", Statement[]> = { DB: [], DB_SHARD_1: [] };
  const make = async (business: number, scope: "public" | "private", name: string, shard = 0) => {
    const k = await issueKey(secret, business, scope);
    statements[shard === 1 ? "DB_SHARD_1" : "DB"].push({
      sql: "INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      params: [k.id, business, name, scope, k.hash, new Date().toISOString()],
    });
    return k.token;
  };
  const stamp = Date.now().toString(36);
  const publicKeys: string[] = [];
  const privateKeys: string[] = [];
  for (let i = 0; i < 12; i++) publicKeys.push(await make(1, "public", `bench-public-${stamp}-${i}`));
  for (let i = 0; i < 4; i++) privateKeys.push(await make(1, "private", `bench-private-${stamp}-${i}`));
  const scaleKeys: Record<number, string> = {};
  if (scale) {
    for (const { id, shard } of [SCALE.small, SCALE.large]) scaleKeys[id] = await make(id, "private", `bench-scale-${stamp}-${id}`, shard);
  }
  return { statements, publicKeys, privateKeys, scaleKeys };
}

/** Prepare (or reuse) the template, copy it for this run, add keys, start the server. */
export async function startBenchService(opts: BenchOptions): Promise<BenchService> {
  const log = opts.log ?? (() => {});
  const template = join(BENCH_DIR, `${opts.name}-template`);
  const stampFile = join(template, "fingerprint");
  const fp = fingerprint(opts);
  const fresh = process.env.BENCH_RESEED === "1" || !existsSync(stampFile) || readFileSync(stampFile, "utf8") !== fp;
  if (fresh) {
    await prepareTemplate(template, opts);
    writeFileSync(stampFile, fp);
  } else log(`reusing the prepared ${opts.name} database (.wrangler/bench/${opts.name}-template; BENCH_RESEED=1 rebuilds it)`);

  const run = join(BENCH_DIR, `${opts.name}-run`);
  rmSync(run, { recursive: true, force: true });
  cpSync(template, run, { recursive: true });
  const { vars } = ensureDevVars();
  const secret = { ...vars, ...opts.env }.KEY_SIGNING_SECRET;
  const keys = await makeKeys(opts.scale, secret);
  for (const [binding, statements] of Object.entries(keys.statements)) if (statements.length) await d1ExecuteScript({ persistTo: run }, statements, binding);

  const port = opts.port ?? (await freePort());
  log(`starting wrangler dev on 127.0.0.1:${port} ...`);
  const start = () => startServer({ port, persistTo: run, prepare: false, env: opts.env });
  const server = await start();
  const svc: BenchService = {
    server,
    url: server.url,
    publicKeys: keys.publicKeys,
    privateKeys: keys.privateKeys,
    scaleKeys: keys.scaleKeys,
    stop: () => svc.server.stop(),
    async crashAndRestart() {
      await svc.server.crash();
      svc.server = await start();
    },
    async restart() {
      await svc.server.stop();
      svc.server = await start();
    },
  };
  return svc;
}

/** The document the running service serves: scenarios switch on when their operation exists. */
export async function servedOperations(url: string): Promise<Set<string>> {
  const res = await fetch(`${url}/openapi.json`);
  const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) for (const m of Object.keys(item)) ops.add(`${m.toUpperCase()} ${path}`);
  return ops;
}
