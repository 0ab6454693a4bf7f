/**
 * Start the Worker locally with `wrangler dev`: migrated, seeded, in its own process group.
 * `npm start` uses it on the shared state; tests, end-to-end fixtures and the benchmark start
 * isolated servers on their own port and state directory:
 *
 *   const server = await startServer({ port: 8841, persistTo: mkdtempSync(...) });
 *   await fetch(`${server.url}/healthz`);
 *   await server.stop();
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { DEMO_BUSINESS, DIVE_BUSINESS, demoCatalog, diveCatalog } from "../seed/demo";
import { businessBySlug, ensureBusinessStatement, ensureBusinessWithIdStatement, hasAnyProduct } from "../src/db/businesses";
import { ensureIdRange } from "../src/db/id-range";
import { claimBusiness, directoryBySlug, shardsOf } from "../src/db/shards";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { applyMigrations, migrateOpened, withDatabase } from "./lib/cli-database";
import { ensureDevVars, formatVars } from "./lib/dev-vars";
import { DEFAULT_STATE, ROOT, WRANGLER, wranglerEnv, wranglerVar, type Target } from "./lib/wrangler";

export { DEFAULT_STATE, ROOT };

export interface StartServerOptions {
  /** Port on 127.0.0.1; default: a free port chosen by the system. */
  port?: number;
  /** Local state directory (D1 and Durable Objects); default `.wrangler/state`, the one `npm start` uses. */
  persistTo?: string;
  /** Worker variables added to (or overriding) those of `.dev.vars`, e.g. `{ ALLOW_TEST_CLOCK: "1" }`. */
  env?: Record<string, string>;
  /** Apply migrations and seed the demo business (once) before starting (default true; both idempotent). */
  prepare?: boolean;
  /** Run `npm run build` first (widget.js, the /docs renderer), when that script exists (default false). */
  buildWidget?: boolean;
  /** Forward wrangler's output (request logs) to this process's stdout/stderr once ready (default false). */
  inheritOutput?: boolean;
  /** Give up when the server does not answer within this time (default 60 s). */
  readyTimeoutMs?: number;
  /**
   * Keep wrangler's DevTools bridge (default false). With it, wrangler holds a DevTools session on
   * the Worker's runtime and forwards every event of it (each D1 query, each log line) to its own
   * node process as a debug log: at 120 cart requests a second that took about three quarters of
   * a core from a 2-core machine. `DEVTOOLS=1 npm start` keeps it, for a debugger on `inspectorPort`.
   */
  devtools?: boolean;
  /** Progress messages (`npm start` prints them); default silent. */
  onStep?: (message: string) => void;
  /**
   * The temporary directory of wrangler and its simulated bindings (TMPDIR): the local send_email
   * binding writes every message it is handed to `<tmpDir>/miniflare-<random>/files/email/<uuid>.eml` (removed
   * when the server stops). Default: the system's.
   */
  tmpDir?: string;
}

export interface RunningServer {
  /**
   * The temporary directory of wrangler and its simulated bindings: the one asked for, else one of
   * the server's own. The e-mails the local binding wrote there (guests' names and addresses) are
   * removed when the server stops or crashes.
   */
  tmpDir: string;
  /** e.g. "http://127.0.0.1:8841" (no trailing slash). */
  url: string;
  port: number;
  persistTo: string;
  /** The KEY_SIGNING_SECRET the server signs and checks keys with. */
  secret: string;
  /** Where Chrome DevTools connect (chrome://inspect, "Configure...": 127.0.0.1:port), when started with `devtools`. */
  inspectorPort?: number;
  /** wrangler's output so far (for diagnostics). */
  output(): string;
  /** Resolves when the server's process group has ended by itself (or was stopped), with its exit code. */
  exited: Promise<number | null>;
  /** End the whole process group (wrangler and workerd); resolves when it is gone. Idempotent. */
  stop(): Promise<void>;
  /**
   * Kill the whole process group at once with SIGKILL, as a power cut or an out-of-memory kill
   * would: no shutdown, requests in flight cut. Resolves when it is gone (fault tests).
   */
  crash(): Promise<void>;
}

/** The cron triggers of wrangler.toml (its `[triggers] crons` list of cron expressions). */
export function cronTriggers(): string[] {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const list = /^crons\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/**
 * Run the Worker's scheduled handler (the upkeep of worker/src/db/maintenance.ts) once per cron
 * trigger, as Cloudflare does on schedule. Resolves true when every run succeeded.
 */
export async function runUpkeep(url: string): Promise<boolean> {
  let ok = true;
  for (const cron of cronTriggers()) {
    try {
      const res = await fetch(`${url}/__scheduled?cron=${encodeURIComponent(cron)}`, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      ok &&= res.ok;
    } catch {
      ok = false;
    }
  }
  return ok;
}

/** Ask the system for a free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:port. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const srv = createServer();
    srv.once("error", () => resolveFree(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolveFree(true)));
  });
}

/**
 * Where a demo business lives, made bare if missing: `demo` on shard 0, `dive` on shard 1 (so the
 * local service runs on both shards: docs/design.md "Shards"), placed through the directory as a
 * business the CLI makes. A local state that seeded `dive` on shard 0 before keeps it there.
 */
async function demoHome(db: D1Database, dbs: D1Database[], business: { slug: string; title: string; createdAt: string }, shard: number): Promise<D1Database> {
  const entry = await directoryBySlug(db, business.slug);
  if (!entry && (shard === 0 || !dbs[shard] || (await businessBySlug(db, business.slug)))) {
    await db.batch([ensureBusinessStatement(db, business)]);
    return db;
  }
  const at = entry ?? { business_id: await claimBusiness(db, business.slug, shard), shard };
  const home = dbs[at.shard] ?? db;
  await home.batch([ensureBusinessWithIdStatement(home, at.business_id, business)]);
  return home;
}

/**
 * Apply the D1 migrations, give each shard its id range (as `npm run shard -- init` does), make
 * the demo businesses if they are missing (the surf camp `demo` on shard 0 and the dive centre
 * `dive` on shard 1) and, the first time only (while one has no product), apply its catalog
 * file (worker/seed/demo.catalog.json, dive.catalog.json) through the
 * administration's code, as `npm run catalog -- apply` does. Touches no other business, and never
 * changes a demo that was seeded: what the owner edited stays.
 *
 * A local state that does not exist yet starts as a copy of a template prepared this way once
 * (freshTemplate): preparing took about 6 s of a 2-core machine (the migrations' 309 statements on
 * two shards, most of it), and the tests start a server on a fresh state a dozen times a run.
 */
export async function prepareDatabase(target: Target): Promise<{ migrations: number; demoChanges: number }> {
  if (target.remote) return prepareInPlace(target);
  const persistTo = resolve(target.persistTo ?? DEFAULT_STATE);
  if (existsSync(join(persistTo, "v3"))) return prepareInPlace(target);
  const template = await freshTemplate();
  mkdirSync(persistTo, { recursive: true });
  cpSync(join(template.dir, "v3"), join(persistTo, "v3"), { recursive: true });
  return template.counts;
}

const TEMPLATES = join(ROOT, ".wrangler", "templates");

/**
 * What a prepared state depends on: the migrations, the demo's seed and the code that applies it,
 * the bindings (wrangler.toml) and the runtime that wrote the files (package-lock.json).
 */
function templateFingerprint(): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else h.update(path.slice(ROOT.length)).update(readFileSync(path));
    }
  };
  for (const dir of ["worker/migrations", "worker/seed", "worker/src"]) walk(join(ROOT, dir));
  for (const file of ["wrangler.toml", "package-lock.json", "worker/scripts/server.ts", "worker/scripts/lib/cli-database.ts"]) h.update(readFileSync(join(ROOT, file)));
  return h.digest("hex").slice(0, 16);
}

/**
 * The prepared template of this checkout (under .wrangler/templates/<fingerprint>), made now if
 * missing: prepared in a directory of its own, then renamed into place, so that two processes
 * preparing at once (the node tests run two files at a time) each end with a whole one. Older
 * templates are removed.
 */
async function freshTemplate(): Promise<{ dir: string; counts: { migrations: number; demoChanges: number } }> {
  const fp = templateFingerprint();
  const dir = join(TEMPLATES, fp);
  const stamp = join(dir, "counts.json");
  if (!existsSync(stamp)) {
    mkdirSync(TEMPLATES, { recursive: true });
    const building = mkdtempSync(join(TEMPLATES, `.building-${fp}-`));
    try {
      const counts = await prepareInPlace({ persistTo: building });
      writeFileSync(join(building, "counts.json"), JSON.stringify(counts));
      try {
        renameSync(building, dir);
      } catch {
        /* another process put its own in place first */
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
    for (const other of readdirSync(TEMPLATES)) {
      if (other !== fp && !other.startsWith(".building-")) rmSync(join(TEMPLATES, other), { recursive: true, force: true });
    }
  }
  return { dir, counts: JSON.parse(readFileSync(stamp, "utf8")) };
}

/** Prepares `target` itself, never from the template (prepareDatabase says what; the tests compare the two). */
export async function prepareInPlace(target: Target): Promise<{ migrations: number; demoChanges: number }> {
  // A remote database is migrated by wrangler; a local one through the proxy opened for the seed.
  const remoteMigrations = target.remote ? await applyMigrations(target) : 0;
  return withDatabase(target, async (opened) => {
    const { db, shards } = opened;
    const migrations = target.remote ? remoteMigrations : await migrateOpened(opened);
    const dbs = shardsOf(shards as Pick<Env, "DB">);
    for (const [shard, shardDb] of dbs.entries()) await ensureIdRange(shardDb, shard);
    let demoChanges = 0;
    for (const [business, file, shard] of [[DEMO_BUSINESS, demoCatalog, 0], [DIVE_BUSINESS, diveCatalog, 1]] as const) {
      const home = await demoHome(db, dbs, business, shard);
      const demo = (await businessBySlug(home, business.slug))!;
      // Seeded once: a demo that has products is the owner's to edit, and a later start changes
      // nothing of it (it used to apply the file again and revert what the owner had changed).
      if (await hasAnyProduct(home, demo.id)) continue;
      const { changes } = await applyCatalog({ DB: home, EMAIL_SENDING_DOMAINS: wranglerVar("EMAIL_SENDING_DOMAINS") }, { kind: "cli", id: "npm start", name: "cli" }, demo.id, CatalogFile.parse(file), new Date());
      demoChanges += changes.length;
    }
    return { migrations, demoChanges };
  });
}

/** Build what the Worker serves from worker/public (`npm run build`: widget.js and the /docs renderer). */
export async function buildWidget(): Promise<boolean> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  if (!pkg.scripts?.build) return false;
  await new Promise<void>((done, fail) => {
    const child = spawn("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done() : fail(new Error(`npm run build failed:\n${out.trim()}`))));
  });
  return true;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
/** If this process exits without stopping its servers, take their process groups with it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of live) killGroup(child, "SIGKILL");
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

async function waitUntilReady(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error("wrangler dev exited before the server was ready");
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Start `wrangler dev` on 127.0.0.1 in its own process group and wait until it answers.
 * Throws (after ending the group) if it does not come up; the error includes wrangler's output.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const step = options.onStep ?? (() => {});
  const persistTo = resolve(options.persistTo ?? DEFAULT_STATE);
  if (options.port !== undefined) {
    const port = options.port;
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Invalid port: ${port}`);
    if (!(await portIsFree(port))) throw new Error(`Port ${port} on 127.0.0.1 is already in use; choose another (PORT=...).`);
  }

  const { vars } = ensureDevVars();
  // A local wrangler dev passes a client's CF-Connecting-IP through: never trusted here.
  const workerVars: Record<string, string> = { TRUST_CF_CONNECTING_IP: "false", ...vars, ...options.env };
  const target: Target = { persistTo };

  if (options.prepare ?? true) {
    step("Applying D1 migrations and the demo business's catalog file ...");
    const { migrations, demoChanges } = await prepareDatabase(target);
    const demo = demoChanges ? `demo businesses: ${demoChanges} change(s) applied from worker/seed/demo.catalog.json and dive.catalog.json` : "demo businesses kept as they are (seeded once; your changes stay)";
    step(migrations ? `Applied ${migrations} migration(s); ${demo}.` : `Database up to date; ${demo}.`);
  }
  if (options.buildWidget) {
    step("Building the widget ...");
    step((await buildWidget()) ? "Widget and /docs renderer built." : "No build script: skipped the build.");
  }

  // A port the system found free may be taken by another process before wrangler binds it (two
  // servers starting side by side, a runtime's own sockets): without a port asked for, another is
  // chosen and wrangler started again.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(port);
    } catch (err) {
      if (options.port !== undefined || attempt >= 3 || !/Address already in use/.test(String((err as Error)?.message))) throw err;
      step(`Port ${port} was taken meanwhile; trying another ...`);
    }
  }

  async function launch(port: number): Promise<RunningServer> {
    // The variables go to wrangler as an env file (with --env-file, .dev.vars itself is not read),
    // so an isolated server can differ from .dev.vars without touching it.
    mkdirSync(persistTo, { recursive: true });
    const envFile = join(persistTo, `worker-${port}.env`);
    writeFileSync(envFile, formatVars(workerVars), { mode: 0o600 });
    chmodSync(envFile, 0o600);

    // The DevTools inspector gets a free port of its own: wrangler's default (9229) is taken by the
    // first of several servers started side by side (the e2e workers, the bench's widget server).
    const inspectorPort = await freePort();
    const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo, "--env-file", envFile,
      "--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false", "--live-reload=false",
      // Local wrangler never fires cron triggers by itself; this lets runUpkeep() fire them (GET /__scheduled).
      "--test-scheduled"];
    const env = wranglerEnv(target);
    // Always a directory of this server's own (mode 0700), never the shared system one: miniflare
    // removes its files only on a clean exit, and a stop that ends in SIGKILL (or a crash) left the
    // .eml files of every e-mail sent, with guests' data, in /tmp. They are removed here instead.
    const tmpDir = options.tmpDir ?? mkdtempSync(join(tmpdir(), "booking-server-"));
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    env.TMPDIR = tmpDir;
    const removeTemporaryFiles = () => {
      if (!options.tmpDir) return rmSync(tmpDir, { recursive: true, force: true });
      for (const entry of readdirSync(tmpDir, { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name.startsWith("miniflare-")) rmSync(join(tmpDir, entry.name), { recursive: true, force: true });
      }
    };
    // wrangler dev has no flag to turn its DevTools bridge off; it leaves it off when it runs in VS
    // Code's JavaScript debug terminal, which it recognizes by this variable (its value is not read).
    if (!options.devtools) env.VSCODE_INSPECTOR_OPTIONS ??= "{}";
    const child = spawn(WRANGLER, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    live.add(child);
    installExitHook();

    let output = "";
    let forwarding = false;
    const capture = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
      if (forwarding) stream.write(chunk);
    };
    child.stdout!.on("data", capture(process.stdout));
    child.stderr!.on("data", capture(process.stderr));
    const exited = new Promise<number | null>((done) => {
      child.on("close", (code) => {
        live.delete(child);
        done(code);
      });
      child.on("error", (err) => {
        output += `\n${err.message}`;
        live.delete(child);
        done(null);
      });
    });

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        if (!live.has(child)) return;
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
        // workerd may outlive wrangler for a moment; make sure the group is gone.
        killGroup(child, "SIGKILL");
        removeTemporaryFiles();
      })());

    const crash = async () => {
      if (!live.has(child)) return;
      killGroup(child, "SIGKILL");
      await exited;
      // The group's other processes (workerd) can take a moment longer to die and free the port.
      const deadline = Date.now() + 10_000;
      while (!(await portIsFree(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      removeTemporaryFiles();
    };

    const url = `http://127.0.0.1:${port}`;
    step(`Starting wrangler dev on ${url} ...`);
    try {
      await waitUntilReady(url, exited, options.readyTimeoutMs ?? 60_000);
    } catch (err) {
      await stop();
      throw new Error(`${(err as Error).message}.\n--- wrangler output ---\n${output.trim()}`);
    }
    forwarding = options.inheritOutput ?? false;
    return {
      tmpDir,
      url,
      port,
      persistTo,
      secret: workerVars.KEY_SIGNING_SECRET,
      inspectorPort: options.devtools ? inspectorPort : undefined,
      output: () => output,
      exited,
      stop,
      crash,
    };
  }
}

