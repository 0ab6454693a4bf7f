/**
 * Lint the generated OpenAPI description with Redocly (offline, recommended rules plus
 * worker/scripts/redocly.yaml). `npm run lint:openapi` starts an isolated server, fetches
 * /openapi.json and lints it; the node test suite calls lintOpenApi() on the same document.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/wrangler";

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  pointer: string;
}
export interface LintResult {
  errors: number;
  warnings: number;
  problems: LintProblem[];
}

/** Lint an OpenAPI document (an object); resolves with Redocly's findings. */
export async function lintOpenApi(doc: unknown): Promise<LintResult> {
  const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const bin = join(ROOT, "node_modules", ".bin", "redocly");
    const args = ["lint", file, "--config", join(ROOT, "worker", "scripts", "redocly.yaml"), "--format=json"];
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((done, fail) => {
      const child = spawn(bin, args, {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("error", fail);
      child.on("close", () => done({ stdout: out, stderr: err }));
    });
    let report: { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] }[] };
    try {
      report = JSON.parse(stdout);
    } catch {
      throw new Error(`redocly lint gave no report:\n${stdout}\n${stderr}`);
    }
    return {
      errors: report.totals.errors,
      warnings: report.totals.warnings,
      problems: report.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location[0]?.pointer ?? "" })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatProblems(result: LintResult): string {
  return result.problems.map((p) => `${p.severity.padEnd(5)} ${p.ruleId}  ${p.pointer}\n      ${p.message}`).join("\n");
}

async function main(): Promise<void> {
  const { startServer } = await import("./server");
  const persistTo = mkdtempSync(join(tmpdir(), "openapi-lint-state-"));
  const server = await startServer({ persistTo, prepare: false });
  try {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    const result = await lintOpenApi(doc);
    if (result.problems.length) console.log(formatProblems(result));
    console.log(`openapi.json: ${result.errors} error(s), ${result.warnings} warning(s)`);
    process.exitCode = result.problems.length ? 1 : 0;
  } finally {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
