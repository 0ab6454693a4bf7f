/**
 * `npm test`: every suite, one after the other, each with its own summary, then one plain line
 * `N passed, N failed` (the last line of the output). Exits non-zero when anything failed,
 * including a suite that crashed before reporting (counted as one failure).
 *
 *   typecheck  tsc --noEmit over the whole project                counted as one test
 *   house    layer rules (dependency-cruiser; worker/src and widget/src,  one test each
 *            each with its rooms) and Env's drift from wrangler.toml
 *            (wrangler types --check)
 *   worker   vitest inside workerd (worker/vitest.config.ts)           counts from its JSON report
 *   widget   vitest in node: the pure parts of widget/src (*.test.ts     counts from its JSON report
 *            beside their files; widget/vitest.config.ts)
 *   node     node:test files worker/test/cli/*.node.ts (CLI, servers,  counts from TAP
 *            OpenAPI lint), two files at a time
 *   e2e      Playwright (e2e/playwright.config.ts), when it exists     counts from its JSON report
 *
 * Pass suite names to run only those: `npm test -- worker node`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib/wrangler";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  note?: string;
}

const REPORTS = join(ROOT, ".cache", "test-reports");

function run(command: string, args: string[], env: Record<string, string | undefined> = {}): Promise<number> {
  return new Promise((done) => {
    // Colours only on a terminal: CI logs stay plain text.
    const colour = process.stdout.isTTY ? {} : { NO_COLOR: "1", FORCE_COLOR: undefined };
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...colour, ...env } });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", (err) => {
      console.error(`could not run ${command}: ${err.message}`);
      done(127);
    });
    child.on("close", (code) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      done(code ?? 1);
    });
  });
}

const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

function readJson(file: string): any | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** A suite that exited non-zero without any failing test still failed: count it once. */
function settle(counts: Counts, code: number, what: string): Counts {
  if (code !== 0 && counts.failed === 0) return { ...counts, failed: 1, note: `${what} exited with code ${code} without a failing test` };
  return counts;
}

/** A vitest run and its counts, from its JSON report. */
async function vitestSuite(name: string, config: string): Promise<Counts> {
  const report = join(REPORTS, `${name}.json`);
  const code = await run(bin("vitest"), ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  const json = readJson(report);
  if (!json) return { passed: 0, failed: 1, skipped: 0, note: "vitest wrote no report (crashed?)" };
  const counts = { passed: json.numPassedTests ?? 0, failed: json.numFailedTests ?? 0, skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0) };
  // A test file that fails to load has no tests but is a failure.
  const brokenFiles = (json.testResults ?? []).filter((f: any) => f.status === "failed" && !(f.assertionResults ?? []).some((a: any) => a.status === "failed")).length;
  return settle({ ...counts, failed: counts.failed + brokenFiles }, code, "vitest");
}

const workerSuite = () => vitestSuite("worker", "worker/vitest.config.ts");
const widgetSuite = () => vitestSuite("widget", "widget/vitest.config.ts");

/** One `node --test` run over some files, its counts from its TAP report. */
async function nodeRun(files: string[], concurrency: number, name: string): Promise<Counts> {
  const tap = join(REPORTS, `${name}.tap`);
  const code = await run(process.execPath, [
    // A test that hangs (a request never answered) fails after five minutes instead of holding CI.
    "--import", "tsx", "--test", `--test-concurrency=${concurrency}`, "--test-timeout=300000",
    "--test-reporter=spec", "--test-reporter-destination=stdout",
    "--test-reporter=tap", `--test-reporter-destination=${tap}`,
    ...files,
  ]);
  let text = "";
  try {
    text = readFileSync(tap, "utf8");
  } catch {
    return { passed: 0, failed: 1, skipped: 0, note: "node --test wrote no report" };
  }
  const num = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return settle({ passed: num("pass"), failed: num("fail") + num("cancelled"), skipped: num("skipped") + num("todo") }, code, "node --test");
}

/**
 * The node files, two at a time (most of their time is spent waiting on a server or a CLI), except
 * `npm start`'s test, which runs alone first: it rebuilds worker/public, which the other files'
 * servers serve.
 */
async function nodeSuite(): Promise<Counts> {
  const dir = join(ROOT, "worker", "test", "cli");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".node.ts")).sort().map((f) => join("worker", "test", "cli", f)) : [];
  if (!files.length) return { passed: 0, failed: 0, skipped: 0, note: "no files" };
  const alone = files.filter((f) => f.endsWith("start.node.ts"));
  const together = files.filter((f) => !alone.includes(f));
  const runs = [alone.length ? await nodeRun(alone, 1, "node-alone") : undefined, together.length ? await nodeRun(together, 2, "node") : undefined].filter((c): c is Counts => !!c);
  return runs.reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped, note: [a.note, b.note].filter(Boolean).join("; ") || undefined }));
}

async function e2eSuite(): Promise<Counts> {
  if (!existsSync(join(ROOT, "e2e", "playwright.config.ts"))) return { passed: 0, failed: 0, skipped: 0, note: "no e2e/playwright.config.ts yet" };
  const report = join(REPORTS, "e2e.json");
  // The config writes its JSON report where this variable says (and lists progress on stdout).
  const code = await run("npm", ["run", "--silent", "test:e2e"], { PLAYWRIGHT_JSON_OUTPUT_FILE: report, PLAYWRIGHT_JSON_OUTPUT_NAME: report, CI: "true" });
  const json = readJson(report);
  if (!json?.stats) return { passed: 0, failed: 1, skipped: 0, note: "Playwright wrote no report (crashed?)" };
  const s = json.stats;
  const counts = { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0, note: s.flaky ? `${s.flaky} flaky` : undefined };
  // Errors outside tests (global setup, a file that fails to load) leave no failed test behind.
  if ((json.errors ?? []).length && counts.failed === 0) return { ...counts, failed: 1, note: `${json.errors.length} error(s) outside tests` };
  return settle(counts, code, "playwright");
}

/** The whole project type-checks (tsc, about a second): counted as one test. */
async function typecheckSuite(): Promise<Counts> {
  const code = await run(bin("tsc"), ["--noEmit", "-p", "."]);
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0, note: "tsc --noEmit found errors" };
}

/**
 * The house keeps its shape: the layer rules of worker/layers.cjs (dependency-cruiser: no import
 * cycle, nothing back up out of domain/, db/ or lib/, only the entry imports app.ts; the
 * widget's rooms, its checkout steps imported on demand only), and `Env`
 * as `npm run types` generates it from wrangler.toml (no drift). One test each.
 */
async function houseSuite(): Promise<Counts> {
  const layers = await run(bin("depcruise"), ["--config", "worker/layers.cjs", "worker/src", "widget/src"]);
  const types = await run(process.execPath, ["--import", "tsx", "worker/scripts/types-check.ts"]);
  const notes = [layers ? "layer rules broken (worker/layers.cjs)" : "", types ? "worker/worker-configuration.d.ts is stale: run `npm run types`" : ""].filter(Boolean);
  const failed = (layers ? 1 : 0) + (types ? 1 : 0);
  return { passed: 2 - failed, failed, skipped: 0, note: notes.join("; ") || undefined };
}

const SUITES: Record<string, () => Promise<Counts>> = { typecheck: typecheckSuite, house: houseSuite, worker: workerSuite, widget: widgetSuite, node: nodeSuite, e2e: e2eSuite };

const wanted = process.argv.slice(2).filter((a) => a !== "--");
for (const name of wanted) {
  if (!SUITES[name]) {
    console.error(`Unknown suite "${name}". Suites: ${Object.keys(SUITES).join(", ")}.`);
    process.exit(2);
  }
}

rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const results: [string, Counts, number][] = [];
for (const [name, suite] of Object.entries(SUITES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  let counts: Counts;
  try {
    counts = await suite();
  } catch (err) {
    counts = { passed: 0, failed: 1, skipped: 0, note: `runner error: ${(err as Error).message}` };
  }
  results.push([name, counts, Date.now() - started]);
}

console.log("\n=== summary ===");
for (const [name, c, ms] of results) {
  const extra = [c.skipped ? `${c.skipped} skipped` : "", c.note ?? ""].filter(Boolean).join("; ");
  console.log(`${name.padEnd(9)} ${String(c.passed).padStart(4)} passed  ${String(c.failed).padStart(3)} failed  ${(ms / 1000).toFixed(1).padStart(6)} s${extra ? `  (${extra})` : ""}`);
}
const passed = results.reduce((n, [, c]) => n + c.passed, 0);
const failed = results.reduce((n, [, c]) => n + c.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
