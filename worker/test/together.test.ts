import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { limits, MAX_STATEMENTS_TOGETHER, sendTogether } from "../src/lib/together";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID } from "./helpers";

// D1 batches of requests served at the same moment share round trips (lib/together.ts): catalog
// reads, and the cart writes. What must never show: one request's rows in another's answer, one
// request's failure in another's (nor its write undone by another's), or a read older than the
// request that made it.

/** The real D1, counting the round trips made through it. */
function countingDb() {
  const trips = { count: 0 };
  const db = {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: (statements: D1PreparedStatement[]) => {
      trips.count += 1;
      return env.DB.batch(statements);
    },
  } as unknown as D1Database;
  return { db, trips };
}

describe("sendTogether", () => {
  it("answers every caller its own rows, in order, in fewer round trips than callers", async () => {
    const { db, trips } = countingDb();
    const asks = Array.from({ length: 12 }, (_, i) =>
      sendTogether(db, [db.prepare("SELECT ?1 AS n, ?2 AS tag").bind(i, `first-${i}`), db.prepare("SELECT ?1 * 10 AS n").bind(i)]),
    );
    const answers = await Promise.all(asks);
    answers.forEach((results, i) => {
      expect(results).toHaveLength(2);
      expect(results[0].results).toEqual([{ n: i, tag: `first-${i}` }]);
      expect(results[1].results).toEqual([{ n: i * 10 }]);
    });
    // The first leaves at once; the eleven that arrive while it is under way leave together.
    expect(trips.count).toBe(2);
  });

  it("keeps a failing read to its own caller", async () => {
    const { db } = countingDb();
    const good = sendTogether(db, [db.prepare("SELECT 1 AS one"), db.prepare("SELECT 2 AS two")]);
    const others = [
      sendTogether(db, [db.prepare("SELECT 3 AS three"), db.prepare("SELECT 4 AS four")]),
      sendTogether(db, [db.prepare("SELECT missing FROM no_such_table"), db.prepare("SELECT 5 AS five")]),
      sendTogether(db, [db.prepare("SELECT 6 AS six"), db.prepare("SELECT 7 AS seven")]),
    ];
    expect((await good).map((r) => r.results)).toEqual([[{ one: 1 }], [{ two: 2 }]]);
    const [before, failed, after] = await Promise.allSettled(others);
    expect(before).toMatchObject({ status: "fulfilled" });
    expect((before as PromiseFulfilledResult<D1Result[]>).value.map((r) => r.results)).toEqual([[{ three: 3 }], [{ four: 4 }]]);
    expect(failed.status).toBe("rejected");
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/no_such_table/);
    expect((after as PromiseFulfilledResult<D1Result[]>).value.map((r) => r.results)).toEqual([[{ six: 6 }], [{ seven: 7 }]]);
  });

  it("writes sent together are made once each; one that aborts takes no other's write with it", async () => {
    const { db, trips } = countingDb();
    await env.DB.prepare("CREATE TABLE IF NOT EXISTS together_writes (k TEXT PRIMARY KEY, v INTEGER NOT NULL)").run();
    await env.DB.prepare("DELETE FROM together_writes").run();
    await env.DB.prepare("INSERT INTO together_writes (k, v) VALUES ('taken', 0)").run();
    // Each writes its row and reads back the table's count within its own transaction; one
    // collides with the existing key (a write that aborts, as a sold-out hold does).
    const write = (k: string) =>
      sendTogether(db, [db.prepare("INSERT INTO together_writes (k, v) VALUES (?, 1)").bind(k), db.prepare("SELECT v FROM together_writes WHERE k = ?").bind(k)]);
    const first = write("w0"); // leaves at once; the others gather behind it
    const rest = ["w1", "w2", "taken", "w3", "w4"].map(write);
    await first;
    const settled = await Promise.allSettled(rest);
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    for (const r of settled.filter((x) => x.status === "fulfilled")) expect((r as PromiseFulfilledResult<D1Result[]>).value[1].results).toEqual([{ v: 1 }]);
    const rows = await env.DB.prepare("SELECT k, v FROM together_writes ORDER BY k").all();
    expect(rows.results).toEqual([{ k: "taken", v: 0 }, ...["w0", "w1", "w2", "w3", "w4"].map((k) => ({ k, v: 1 }))]);
    // The first alone, the five together (rolled back whole for the collision), then each alone.
    expect(trips.count).toBe(2 + 5);
    await env.DB.prepare("DROP TABLE together_writes").run();
  });

  it("writes sent together without a failure share one commit", async () => {
    const { db, trips } = countingDb();
    await env.DB.prepare("CREATE TABLE IF NOT EXISTS together_commit (k TEXT PRIMARY KEY)").run();
    await env.DB.prepare("DELETE FROM together_commit").run();
    const writes = Array.from({ length: 8 }, (_, i) =>
      sendTogether(db, [db.prepare("INSERT INTO together_commit (k) VALUES (?)").bind(`k${i}`), db.prepare("SELECT COUNT(*) AS n FROM together_commit")]),
    );
    // Each sees the writes made before its own in the same transaction, and its own.
    expect((await Promise.all(writes)).map((r) => r[1].results[0])).toEqual(Array.from({ length: 8 }, (_, i) => ({ n: i + 1 })));
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM together_commit").first<{ n: number }>())!.n).toBe(8);
    expect(trips.count).toBe(2);
    await env.DB.prepare("DROP TABLE together_commit").run();
  });

  it("never answers a read from before it was asked: a write finished first is seen", async () => {
    const { db } = countingDb();
    await env.DB.prepare("CREATE TABLE IF NOT EXISTS read_together_probe (v INTEGER)").run();
    await env.DB.prepare("DELETE FROM read_together_probe").run();
    const probe = () => db.prepare("SELECT COUNT(*) AS n FROM read_together_probe");
    const early = sendTogether(db, [probe()]); // under way while the write happens
    await env.DB.prepare("INSERT INTO read_together_probe (v) VALUES (1)").run();
    const late = sendTogether(db, [probe()]);
    expect((await late)[0].results).toEqual([{ n: 1 }]);
    await early;
    await env.DB.prepare("DROP TABLE read_together_probe").run();
  });
});

describe("sendTogether: who sends, and what if a round never comes back", () => {
  it.each([
    ["its time", { driveMs: 0 }],
    ["its rounds", { driveRounds: 1 }],
  ])("hands the line from driver to waiter after %s, and every caller still gets its own rows", async (_why, limit) => {
    const { db, trips } = countingDb();
    const saved = { ...limits };
    Object.assign(limits, limit); // every driver hands on after one round
    try {
      // Who drove: each request is told (its keepAlive) when it drives rounds.
      const drivers = new Set<number>();
      const ask = (i: number) =>
        sendTogether(db, [db.prepare("SELECT ?1 AS n").bind(i), db.prepare("SELECT ?1 + 1000 AS m").bind(i)], () => void drivers.add(i));
      // Waves arriving while rounds are under way, so that there is always someone to hand on to.
      const asks: Promise<D1Result[]>[] = [];
      for (let wave = 0; wave < 4; wave++) {
        for (let i = 0; i < 5; i++) asks.push(ask(wave * 5 + i));
        await new Promise((r) => setTimeout(r, 0));
      }
      const answers = await Promise.all(asks);
      answers.forEach((results, i) => expect(results.map((r) => r.results)).toEqual([[{ n: i }], [{ m: i + 1000 }]]));
      expect(trips.count).toBeGreaterThan(1);
      expect(drivers.size).toBeGreaterThan(1);
      // The line is free afterwards: the next read is sent at once.
      expect((await ask(99)).map((r) => r.results)).toEqual([[{ n: 99 }], [{ m: 1099 }]]);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it("a driver hands on after its rounds even while it has time: a line of rounds queued at once", async () => {
    const { db } = countingDb();
    const saved = { ...limits };
    limits.driveRounds = 1;
    try {
      const drivers = new Set<number>();
      // Batches too big to share a round (the statement cap), all queued at once: one round each.
      const big = (i: number) => Array.from({ length: MAX_STATEMENTS_TOGETHER - 10 }, () => db.prepare("SELECT ?1 AS n").bind(i));
      const asks = Array.from({ length: 4 }, (_, i) => sendTogether(db, big(i), () => void drivers.add(i)));
      const answers = await Promise.all(asks);
      answers.forEach((results, i) => expect(results.every((r) => (r.results[0] as { n: number }).n === i)).toBe(true));
      expect(drivers.size).toBe(4);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it("gives up on a round that never comes back, with an error, and the next reads go through", async () => {
    let first = true;
    const db = {
      prepare: (sql: string) => env.DB.prepare(sql),
      batch: (statements: D1PreparedStatement[]) => {
        if (first) {
          first = false;
          return new Promise<D1Result[]>(() => {}); // a driver whose round is lost
        }
        return env.DB.batch(statements);
      },
    } as unknown as D1Database;
    const saved = { ...limits };
    limits.waitMs = 60;
    try {
      const pair = (i: number) => [db.prepare("SELECT ?1 AS n").bind(i), db.prepare("SELECT 0 AS z")];
      const lost = sendTogether(db, pair(1));
      const queued = sendTogether(db, pair(2));
      await expect(lost).rejects.toThrow(/did not come back in time/);
      await expect(queued).rejects.toThrow(/did not come back in time/);
      const after = await sendTogether(db, pair(3));
      expect(after.map((r) => r.results)).toEqual([[{ n: 3 }], [{ z: 0 }]]);
    } finally {
      Object.assign(limits, saved);
    }
  });
});

describe("catalog requests served together", () => {
  it("gives each business its own catalog and availability when their requests arrive at once", async () => {
    const other = await createBusiness(`together-${Date.now()}`);
    const otherProduct = (await env.DB.prepare(
      `INSERT INTO products (business_id, type, title, backoffice_title, is_promoted, duration, default_capacity, created_at)
       VALUES (?, 'activity', 'Kayak tour', 'Kayak tour', 1, '{"is_flexible":false,"min":1,"default":1,"unit":"day","variants":[]}', 3, ?) RETURNING id`,
    )
      .bind(other, new Date().toISOString())
      .first<{ id: number }>())!.id;
    const demoKey = await createKey("public", DEMO_BUSINESS_ID);
    const otherKey = await createKey("public", other);
    const window = `start_date=${MAY_SAT}&end_date=${MAY_SAT}`;
    const asks = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0
        ? callJson(`/api/pub/v2/products/availabilities?${window}`, { key: demoKey }).then((r) => ({ who: "demo", r }))
        : callJson(`/api/pub/v2/products/availabilities?${window}`, { key: otherKey }).then((r) => ({ who: "other", r })),
    );
    for (const { who, r } of await Promise.all(asks)) {
      expect(r.status).toBe(200);
      const ids = Object.keys(r.body);
      if (who === "other") {
        expect(ids).toEqual([String(otherProduct)]);
        expect(r.body[String(otherProduct)][MAY_SAT]).toMatchObject({ available: 3, capacity: 3 });
      } else {
        expect(ids).toContain("101");
        expect(ids).not.toContain(String(otherProduct));
      }
    }
  });

  it("refuses every request that arrives after the key is revoked, while others are under way", async () => {
    const name = `together-revoke-${Date.now()}`;
    const key = await createKey("public", DEMO_BUSINESS_ID, name);
    const bystander = await createKey("public", DEMO_BUSINESS_ID);
    const path = `/api/pub/v2/products/101/availabilities?start_date=${MAY_SAT}`;
    const first = await Promise.all(Array.from({ length: 10 }, () => callJson(path, { key })));
    expect(first.map((r) => r.status)).toEqual(Array(10).fill(200));
    const busy = Array.from({ length: 10 }, () => callJson(path, { key: bystander })); // under way meanwhile
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE name = ?").bind(new Date().toISOString(), name).run();
    const after = await Promise.all(Array.from({ length: 10 }, () => callJson(path, { key })));
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(401));
    expect((await Promise.all(busy)).map((r) => r.status)).toEqual(Array(10).fill(200));
  });

  it("shows a capacity change to every product's calendar at once, for the same dates asked again", async () => {
    const key = await createKey("public", DEMO_BUSINESS_ID);
    const day = "2031-09-03";
    const path = `/api/pub/v2/products/availabilities?start_date=${day}&end_date=${day}`;
    const before = await callJson(path, { key });
    expect(before.body["501"][day].capacity).toBe(1_000_000_000); // no capacity limit
    await env.DB.prepare("UPDATE products SET default_capacity = 12 WHERE id = 501").run();
    try {
      const after = await callJson(path, { key });
      expect(after.body["501"][day]).toMatchObject({ capacity: 12, available: 12 });
    } finally {
      await env.DB.prepare("UPDATE products SET default_capacity = NULL WHERE id = 501").run();
    }
  });
});
