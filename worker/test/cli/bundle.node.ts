/**
 * What `wrangler deploy` uploads holds what each isolate must parse and run at startup, and no
 * more (issue 30, docs/benchmarks.md "What the bundle holds"): zod's messages in English only,
 * and the back office's modules evaluated on its first request, not before the first request.
 * Built unminified (as wrangler.toml deploys it; said again here so that esbuild's module wrappers
 * keep their names should the deployment ever minify).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ROOT, WRANGLER, wranglerEnv } from "../../scripts/lib/wrangler";

const dir = mkdtempSync(join(tmpdir(), "bundle-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let code = "";
let inputs: string[] = [];

before(async () => {
  const opts = { cwd: ROOT, env: wranglerEnv(), maxBuffer: 16 * 1024 * 1024 };
  await promisify(execFile)(WRANGLER, ["deploy", "--dry-run", "--no-minify", "--outdir", dir, "--metafile", join(dir, "meta.json")], opts);
  code = readFileSync(join(dir, "index.js"), "utf8");
  inputs = Object.keys((JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as { inputs: object }).inputs);
});

describe("the deployed bundle", () => {
  it("holds zod's English messages and no other language's", () => {
    const locales = inputs.filter((p) => p.includes("zod/v4/locales/"));
    assert.deepEqual(locales, ["node_modules/zod/v4/locales/en.js"]);
    assert.match(code, /Invalid input: expected/);
    assert.doesNotMatch(code, /Ungültige Eingabe|Entrada inválida/);
  });
});
