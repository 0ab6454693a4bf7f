/**
 * The seed and the CLIs pass values to `wrangler d1 execute` as SQL literals: the escaping must
 * hold for any text, and placeholders must only be replaced outside quotes and comments.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { d1ExecuteScript, d1Query, renderStatement, sqlLiteral } from "../../scripts/lib/wrangler-d1";
import { applyMigrations } from "../../scripts/lib/cli-database";
import { runWrangler } from "../../scripts/lib/wrangler";
import { formatVars, parseVars } from "../../scripts/lib/dev-vars";

describe("SQL literals", () => {
  it("doubles single quotes and leaves everything else as it is", () => {
    assert.equal(sqlLiteral("it's"), "'it''s'");
    assert.equal(sqlLiteral("'); DROP TABLE businesses; --"), "'''); DROP TABLE businesses; --'");
    assert.equal(sqlLiteral("a\\b\n€"), "'a\\b\n€'");
    assert.equal(sqlLiteral(null), "NULL");
    assert.equal(sqlLiteral(-1.5), "-1.5");
  });

  it("refuses what SQLite text or numbers cannot carry", () => {
    assert.throws(() => sqlLiteral("a\0b"), /NUL/);
    assert.throws(() => sqlLiteral(Number.NaN), /Cannot store/);
    assert.throws(() => sqlLiteral(Infinity), /Cannot store/);
  });

  it("replaces placeholders outside quotes and comments only, and checks their count", () => {
    assert.equal(renderStatement({ sql: "SELECT '?', ? -- why?\n, \"?\"", params: ["x"] }), "SELECT '?', 'x' -- why?\n, \"?\"");
    assert.equal(renderStatement({ sql: "SELECT 'it''s ?', ?", params: [1] }), "SELECT 'it''s ?', 1");
    assert.throws(() => renderStatement({ sql: "SELECT ?, ?", params: [1] }), /Too few/);
    assert.throws(() => renderStatement({ sql: "SELECT ?", params: [1, 2] }), /2 parameters for 1/);
  });

  it("renders numbered placeholders (?NNN) as SQLite numbers them, each as often as it appears", () => {
    assert.equal(renderStatement({ sql: "SELECT ?2, ?1, ?2 WHERE x = '?1'", params: ["a", "b"] }), "SELECT 'b', 'a', 'b' WHERE x = '?1'");
    assert.equal(renderStatement({ sql: "SELECT ?1, ?", params: [1, 2] }), "SELECT 1, 2");
    assert.throws(() => renderStatement({ sql: "SELECT ?3", params: [1, 2] }), /Too few/);
    assert.throws(() => renderStatement({ sql: "SELECT ?1", params: [1, 2] }), /2 parameters for 1/);
  });
});

describe("round trip through local D1", () => {
  let persistTo: string;
  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "sql-render-"));
    await applyMigrations({ persistTo });
  });
  after(() => rmSync(persistTo, { recursive: true, force: true }));

  it("records the migrations it applies through the proxy as wrangler does: `wrangler d1 migrations apply` finds nothing left, on each shard", async () => {
    for (const binding of ["DB", "DB_SHARD_1"]) {
      const result = await runWrangler(["d1", "migrations", "apply", binding, "--local", "--persist-to", persistTo], { persistTo });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /No migrations to apply/, `${binding}: ${result.stdout}`);
    }
    assert.equal(await applyMigrations({ persistTo }), 0, "a second run applies nothing");
  });

  it("stores and reads back hostile text unchanged, in a script and in a command", async () => {
    const titles = ["O'Brien's \"Surf\"; Camp", "x'); DELETE FROM businesses; --", "line\nbreak ? and € ü 🏄", "back\\slash; ;"];
    await d1ExecuteScript({ persistTo }, titles.slice(0, 2).map((t, i) => ({
      sql: "INSERT INTO businesses (slug, title, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')", params: [`s${i}`, t] })));
    await d1Query({ persistTo }, titles.slice(2).map((t, i) => ({
      sql: "INSERT INTO businesses (slug, title, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')", params: [`s${i + 2}`, t] })));
    const [rows] = await d1Query<{ title: string }>({ persistTo }, [{ sql: "SELECT title FROM businesses ORDER BY slug", params: [] }]);
    assert.deepEqual(rows.map((r) => r.title), titles);
  });
});

describe(".dev.vars format", () => {
  it("reads what it writes, with comments, quotes and export prefixes", () => {
    const vars = { KEY_SIGNING_SECRET: "abc-_123", ALLOW_LOOPBACK_WEBHOOKS: "true" };
    assert.deepEqual(parseVars(`# comment\n${formatVars(vars)}\nexport OTHER='x y'\n`), { ...vars, OTHER: "x y" });
  });

  it("refuses values it could not write back faithfully", () => {
    assert.throws(() => formatVars({ A: 'say "hi"' }), /quotes/);
    assert.throws(() => formatVars({ "BAD-NAME": "x" }), /Invalid variable name/);
  });
});
