/**
 * The API description as an integrator meets it: /openapi.json lints clean with Redocly, and
 * /docs renders every operation of it in a real browser without a script error.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../../../e2e/chromium";
import { formatProblems, lintOpenApi } from "../../scripts/lint-openapi";
import { startServer, type RunningServer } from "../../scripts/server";


describe("the API description", () => {
  let persistTo: string;
  let server: RunningServer;
  let doc: any;

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "openapi-test-"));
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

  it("renders every operation on /docs in a browser, without script errors", async () => {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(`${server.url}/docs`);
      await page.waitForSelector("section.op");
      const operations = Object.values<any>(doc.paths).reduce(
        (n, item) => n + Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).length, 0);
      const schemas = Object.keys(doc.components?.schemas ?? {}).length;
      assert.equal(await page.locator("section.op").count(), operations + schemas);
      assert.equal(await page.locator("section.op h3", { hasText: "/api/pub/v2/settings" }).count(), 1);
      assert.ok(await page.locator("#errors").isVisible());
      assert.match((await page.locator("#errors ~ p").nth(1).textContent()) ?? "", /unauthorized/);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
