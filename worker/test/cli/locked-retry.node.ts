/**
 * The command-line tools' D1 (db/locked-retry.ts) tries again what met another process's lock on
 * the same local database, and nothing else. The lock itself cannot be met on purpose (it takes a
 * running server writing at that moment), so D1 here is a stand-in that refuses as the runtime
 * was seen to.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lockedPauseMs, retryingWhenLocked } from "../../src/db/locked-retry";

/** A D1 whose batches fail with `errors`, one per call, then answer; `pauseMs` as the tools' D1 would wait, or not at all. */
function refusing(errors: string[], pauseMs?: (attempt: number) => number) {
  let calls = 0;
  const db = {
    prepare: (sql: string) => ({ sql, bind: () => ({ sql }) }),
    batch: async (statements: unknown[]) => {
      calls++;
      const error = errors.shift();
      if (error) throw new Error(error);
      return statements.map(() => ({ success: true, results: [] }));
    },
  };
  return { db: retryingWhenLocked(db as unknown as D1Database, pauseMs), calls: () => calls };
}

describe("the tools' D1 beside a running server", () => {
  for (const message of ["D1_ERROR: false == true", "SQLITE_BUSY: database is locked", "internal error; reference = abc123"]) {
    it(`tries a batch again when it met the lock ("${message}")`, async () => {
      const { db, calls } = refusing([message, message]);
      const results = await db.batch([db.prepare("SELECT 1")]);
      assert.equal(results.length, 1);
      assert.equal(calls(), 3);
    });
  }

  it("keeps trying through eleven refusals, and gives up at the twelfth", async () => {
    const through = refusing(Array(11).fill("D1_ERROR: false == true"), () => 0);
    assert.equal((await through.db.batch([through.db.prepare("SELECT 1")])).length, 1);
    assert.equal(through.calls(), 12);
    const out = refusing(Array(12).fill("D1_ERROR: false == true"), () => 0);
    await assert.rejects(out.db.batch([out.db.prepare("SELECT 1")]), /false == true/);
    assert.equal(out.calls(), 12);
  });

  it("pauses longer each time, a second at most: 9.5 s in all before it gives up", () => {
    const pauses = Array.from({ length: 11 }, (_, i) => lockedPauseMs(i + 1));
    assert.deepEqual(pauses.slice(0, 5), [250, 500, 750, 1000, 1000]);
    assert.equal(pauses.reduce((a, b) => a + b, 0), 9500);
  });

  it("answers any other error at once, without trying again", async () => {
    const { db, calls } = refusing(["D1_ERROR: no such table: nope"]);
    await assert.rejects(db.batch([db.prepare("SELECT * FROM nope")]), /no such table/);
    assert.equal(calls(), 1);
  });
});
