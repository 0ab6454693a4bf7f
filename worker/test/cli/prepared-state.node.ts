/**
 * A local state that does not exist yet starts as a copy of the checkout's prepared template
 * (worker/scripts/server.ts prepareDatabase): it must hold exactly what preparing it in place
 * makes, on every shard, and a later start must find nothing left to do.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { prepareDatabase, prepareInPlace } from "../../scripts/server";
import { applyMigrations, withDatabase } from "../../scripts/lib/cli-database";

/**
 * A row as text, with its moments, the ids made from them (UUIDv7: an audit entry's, an event's)
 * and its versions told apart from the rest: a template prepared an hour ago holds the same rows
 * as a state prepared now.
 */
const sameAnyMoment = (row: Record<string, unknown>) =>
  JSON.stringify(row, (key, value) => {
    // A catalog's and a ledger's version are random numbers (SQLite's random(), db/catalog-write.ts).
    if (/version$/.test(key) && typeof value === "number") return "<version>";
    if (typeof value !== "string") return value;
    return value
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, "<moment>")
      .replace(/[0-9a-f]{8}-?[0-9a-f]{4}-?7[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}/g, "<id>");
  });

/** Every shard's schema, and every table's rows (ids, names, prices, config), as text. */
async function contents(persistTo: string): Promise<Record<string, string>> {
  return withDatabase({ persistTo }, async ({ shards }) => {
    const out: Record<string, string> = {};
    for (const [binding, db] of Object.entries(shards)) {
      const schema = (await db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name").all()).results;
      out[`${binding} schema`] = JSON.stringify(schema);
      for (const { name } of schema.filter((r) => r.type === "table") as { name: string }[]) {
        // d1_migrations' applied_at is the moment each was applied: the names are what count.
        const sql = name === "d1_migrations" ? "SELECT id, name FROM d1_migrations" : `SELECT * FROM "${name}"`;
        out[`${binding} ${name}`] = JSON.stringify((await db.prepare(sql).all()).results.map(sameAnyMoment).sort());
      }
    }
    return out;
  });
}

describe("a fresh local state", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), "prepared-state-"));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("copied from the template holds what preparing it in place makes, and a later start has nothing left to do", async () => {
    const copied = fresh();
    const inPlace = fresh();
    const counts = await prepareDatabase({ persistTo: copied });
    assert.deepEqual(counts, await prepareInPlace({ persistTo: inPlace }), "the same migrations and demo changes reported");
    const [a, b] = [await contents(copied), await contents(inPlace)];
    assert.ok(Object.keys(a).some((k) => k.startsWith("DB_SHARD_1 ")), "both shards compared");
    assert.ok(JSON.parse(a["DB products"] ?? "[]").length > 0 && JSON.parse(a["DB_SHARD_1 products"] ?? "[]").length > 0, "both demo catalogs seeded");
    assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort());
    const differing = Object.keys(b).filter((key) => a[key] !== b[key]);
    assert.deepEqual(differing, [], `tables that differ: ${differing.join(", ")}`);
    assert.equal(await applyMigrations({ persistTo: copied }), 0);
    assert.deepEqual(await prepareDatabase({ persistTo: copied }), { migrations: 0, demoChanges: 0 });
  });
});
