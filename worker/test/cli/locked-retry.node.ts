/**
 * The command-line tools' D1 (db/locked-retry.ts) tries again what met another process's lock on
 * the same local database, and nothing else. The lock itself cannot be met on purpose (it takes a
 * running server writing at that moment), so D1 here is a stand-in that refuses as the runtime
 * was seen to.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { retryingWhenLocked } from "../../src/db/locked-retry";

/** A D1 whose batches fail with `errors`, one per call, then answer. */
function refusing(errors: string[]) {
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
  return { db: retryingWhenLocked(db as unknown as D1Database), calls: () => calls };
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

  it("answers any other error at once, without trying again", async () => {
    const { db, calls } = refusing(["D1_ERROR: no such table: nope"]);
    await assert.rejects(db.batch([db.prepare("SELECT * FROM nope")]), /no such table/);
    assert.equal(calls(), 1);
  });
});
