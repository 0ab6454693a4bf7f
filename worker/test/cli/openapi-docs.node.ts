/**
 * The API description as an integrator meets it: /openapi.json lints clean with Redocly, and
 * /docs renders every operation of it in a real browser without a script error.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../../../e2e/chromium";
import { formatProblems, lintOpenApi } from "../../scripts/lint-openapi";
import { ROOT, startServer, type RunningServer } from "../../scripts/server";


describe("the API description", () => {
  let persistTo: string;
  let server: RunningServer;
  let doc: any;

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "openapi-test-"));
    // The /docs renderer is a built asset (npm run build:docs: Scalar's bundle into worker/public).
    execFileSync("npm", ["run", "--silent", "build:docs"], { cwd: ROOT, stdio: "ignore" });
    server = await startServer({ persistTo, prepare: false });
    doc = await (await fetch(`${server.url}/openapi.json`)).json();
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("lints clean with Redocly's recommended rules (no error, no warning)", async () => {
    const result = await lintOpenApi(doc);
    assert.equal(result.problems.length, 0, `redocly lint found:\n${formatProblems(result)}`);
  });

  it("gives every operation a unique operationId and a tag", () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        assert.ok(op.operationId, `${method.toUpperCase()} ${path} has an operationId`);
        assert.ok(op.tags?.length, `${method.toUpperCase()} ${path} has a tag`);
        ids.push(op.operationId);
      }
    }
    assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  });

  it("renders the description on /docs with its assets from this server only, without errors", async () => {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const hosts = new Set<string>();
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("request", (r) => hosts.add(new URL(r.url()).origin));
      const res = await page.goto(`${server.url}/docs`);
      assert.doesNotMatch(res?.headers()["content-security-policy"] ?? "", /script-src[^;]*'unsafe-inline'/);
      // Every tag of the description is in the reference's navigation.
      const tags = [...new Set(Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags ?? [])))];
      assert.ok(tags.length >= 10, `tags: ${tags.join(", ")}`);
      const sidebar = page.getByRole("complementary");
      for (const tag of tags) await sidebar.getByRole("link", { name: tag, exact: true }).waitFor();
      // Opening a tag's group lists its operations by their summaries.
      await sidebar.getByRole("button", { name: "Open Group - Carts" }).click();
      for (const op of Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item)).filter((op) => op.tags?.includes("Carts"))) {
        await sidebar.getByRole("link", { name: new RegExp(`^${op.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} HTTP Method`) }).waitFor();
      }
      assert.deepEqual([...hosts], [server.url], "every request went to this server");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
