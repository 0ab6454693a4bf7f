/**
 * What `wrangler deploy` uploads holds what each isolate must parse and run at startup, and no
 * more (issue 30, docs/benchmarks.md "What the bundle holds", "What loads lazily"): zod's messages
 * in English only, and the public and private APIs, the back office, the Stripe webhook's rules and
 * the contracts whose schemas only they use evaluated on their first request, not at the isolate's startup.
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
let meta: Metafile;

/** What esbuild's metafile says of the bundle: each input's imports, and the entry point. */
interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  outputs: Record<string, { entryPoint?: string }>;
}

/**
 * The modules evaluated at the isolate's startup: reached from the entry point by static imports
 * (a dynamic `import()` is evaluated when it runs). Each is mapped to the module that imports it.
 */
function evaluatedAtStartup(): Map<string, string | null> {
  const entry = Object.values(meta.outputs).find((o) => o.entryPoint)!.entryPoint!;
  const reached = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const imported of meta.inputs[from]?.imports ?? []) {
      if (imported.kind === "dynamic-import" || imported.external || reached.has(imported.path)) continue;
      reached.set(imported.path, from);
      queue.push(imported.path);
    }
  }
  return reached;
}

before(async () => {
  const opts = { cwd: ROOT, env: wranglerEnv(), maxBuffer: 16 * 1024 * 1024 };
  await promisify(execFile)(WRANGLER, ["deploy", "--dry-run", "--no-minify", "--outdir", dir, "--metafile", join(dir, "meta.json")], opts);
  code = readFileSync(join(dir, "index.js"), "utf8");
  meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as Metafile;
  inputs = Object.keys(meta.inputs);
});

describe("the deployed bundle", () => {
  it("holds zod's English messages and no other language's", () => {
    const locales = inputs.filter((p) => p.includes("zod/v4/locales/"));
    assert.deepEqual(locales, ["node_modules/zod/v4/locales/en.js"]);
    assert.match(code, /Invalid input: expected/);
    assert.doesNotMatch(code, /Ungültige Eingabe|Entrada inválida/);
  });

  it("evaluates the public and private APIs, the back office, the Stripe webhook's rules and the contracts only they use on their first request, not at startup", () => {
    const lazy = [
      // the public API v2's routes (the widget's proxy runs them too) and the contracts only they use;
      // catalog-view.ts is the products' plain views, which the widget's door reads as well
      /^worker\/src\/routes\/public\/(?!catalog-view\.ts$)/,
      /^worker\/src\/contract\/(cart|catalog|catalog-prices|catalog-availability|settings)\.ts$/,
      /^worker\/src\/routes\/private\//,
      /^worker\/src\/routes\/admin\//,
      /^worker\/src\/contract\/private(-[\w-]+)?\.ts$/,
      /^worker\/src\/contract\/catalog-(write|file)\.ts$/,
      // the payments' shapes and the Stripe webhook's rules (its route imports them when an event comes)
      /^worker\/src\/contract\/payments\.ts$/,
      /^worker\/src\/manage\/stripe\.ts$/,
    ];
    // They are in the bundle (reached by import()), so a request can load them.
    for (const pattern of lazy) assert.ok(inputs.some((p) => pattern.test(p)), `nothing in the bundle matches ${pattern}`);
    const reached = evaluatedAtStartup();
    const chain = (path: string) => {
      const links = [path];
      for (let from = reached.get(path); from; from = reached.get(from)) links.push(from);
      return links.join(" <- ");
    };
    // The answers every route with a body can give (413, 415), shared with the Stripe webhook's route: a few small objects.
    const shared = ["worker/src/routes/private/openapi-parts.ts"];
    const eager = [...reached.keys()].filter((p) => lazy.some((pattern) => pattern.test(p)) && !shared.includes(p));
    assert.deepEqual(eager.map(chain), [], "imported statically from the entry point: evaluated at every isolate's startup");
  });
});
