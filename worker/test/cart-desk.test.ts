import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { cartDeskOf } from "../src/carts/desk";
import { markLeaving, unmarkLeaving } from "../src/db/shards";
import type { DeskAnswer, PlainStatement } from "../src/db/plain-statements";
import { addToCart, cartBusiness, clock, count, guest, liveUnits, smallPackage, stay } from "./carts-fixtures";
import { placeBusinessesOn } from "./helpers";

/**
 * The cart desk (durable/cart-desk.ts): the batches its callers send at the same moment leave in
 * one D1 batch, each made once, in the order they arrived; one that D1 refuses takes nobody
 * else's write with it.
 */

// The desk probed directly writes to shard 0; the businesses of the last test live there too.
placeBusinessesOn(0);

/** A desk of a business no test uses: the probe's own line. */
let probeBusiness = 9_000_000;
const probeDesk = () => cartDeskOf(env, 0, ++probeBusiness);

/** One caller's batch: its row, numbered by how many rows it found before it, then the count it sees. */
const insert = (n: number): PlainStatement[] => [
  { sql: "INSERT INTO desk_probe (n, seen) VALUES (?, (SELECT COUNT(*) FROM desk_probe))", params: [n] },
  { sql: "SELECT COUNT(*) AS c FROM desk_probe", params: [] },
];
const rows = async () => (await env.DB.prepare("SELECT n, seen FROM desk_probe ORDER BY n").all<{ n: number; seen: number }>()).results;
const seenCount = (a: DeskAnswer) => (a.ok ? (a.results[1].results[0] as { c: number }).c : null);

describe("the cart desk", () => {
  beforeAll(async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS desk_probe (n INTEGER PRIMARY KEY, seen INTEGER NOT NULL)");
  });

  it("sends batches that arrive at once together, each made once and after the ones that arrived before it", async () => {
    await env.DB.exec("DELETE FROM desk_probe");
    const desk = probeDesk();
    // A round under way when the eight arrive (a statement that takes a while), so that they meet
    // in the rounds after it whatever the machine's load: the test does not race the desk's D1.
    const busy = desk.send(0, 1, [{ sql: "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 300000) SELECT COUNT(*) AS c FROM k", params: [] }]);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => desk.send(0, 1, insert(i + 1))));
    expect((await busy).ok).toBe(true);
    expect(answers.map((a) => a.ok)).toEqual(Array(8).fill(true));
    // Each row once; each batch saw exactly the rows of those before it, and its own.
    const made = await rows();
    expect(made.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(made.map((r) => r.seen).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const [i, a] of answers.entries()) expect(seenCount(a)).toBe(made[i].seen + 1);
    // Fewer round trips than batches: the first leaves alone, those that came meanwhile together.
    const { batches, trips } = await desk.counts();
    expect(batches).toBe(9);
    // (how many rounds the eight take depends on when their calls reach the object: on a loaded
    // machine some arrive after the next round left; sharing one is what is asserted)
    expect(trips).toBeLessThan(batches);
  });

  it("a round carries at most 64 statements: eight batches of 20 that arrive during a round leave after it in rounds of three, each made once, in order", async () => {
    await env.DB.exec("DELETE FROM desk_probe");
    const desk = probeDesk();
    const busy = desk.send(0, 1, [{ sql: "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 300000) SELECT COUNT(*) AS c FROM k", params: [] }]);
    // Each batch: its row, the count it sees, and 18 more statements (a checkout's write is about 14).
    const big = (n: number): PlainStatement[] => [...insert(n), ...Array.from({ length: 18 }, () => ({ sql: "SELECT 1 AS one", params: [] }))];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => desk.send(0, 1, big(i + 1))));
    expect((await busy).ok).toBe(true);
    expect(answers.map((a) => a.ok)).toEqual(Array(8).fill(true));
    const statements = new Map<number, number>();
    for (const a of answers as DeskAnswer[]) if (a.ok) statements.set(a.round, (statements.get(a.round) ?? 0) + 20);
    // Each round opens with its shard guard: 3 batches (61 statements) fit in 64, a fourth would not.
    for (const n of statements.values()) expect(n + 1).toBeLessThanOrEqual(64);
    expect(statements.size).toBeGreaterThanOrEqual(3);
    const made = await rows();
    expect(made.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(made.map((r) => r.seen).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const [i, a] of answers.entries()) expect(seenCount(a)).toBe(made[i].seen + 1);
  });

  it("a batch D1 refuses takes no other's write with it: the others are made once, it alone gets its error", async () => {
    await env.DB.exec("DELETE FROM desk_probe");
    const desk = probeDesk();
    // Its second row clashes with its first (the same key): D1 refuses the whole batch.
    const clash: PlainStatement[] = [...insert(100), { sql: "INSERT INTO desk_probe (n, seen) VALUES (?, 0)", params: [100] }];
    const answers = await Promise.all([desk.send(0, 1, insert(1)), desk.send(0, 1, insert(2)), desk.send(0, 1, clash), desk.send(0, 1, insert(3)), desk.send(0, 1, insert(4))]);
    expect(answers.map((a) => a.ok)).toEqual([true, true, false, true, true]);
    expect(answers[2]).toMatchObject({ ok: false, error: expect.stringMatching(/UNIQUE constraint failed: desk_probe\.n/) });
    const made = await rows();
    expect(made.map((r) => r.n)).toEqual([1, 2, 3, 4]);
    // What each of the others was answered is what it made: it saw the rows before its own, and its own.
    for (const [i, a] of answers.filter((x) => x.ok).entries()) expect(seenCount(a)).toBe(made[i].seen + 1);
  });

  it("refuses, whole, the batch of a business this shard is leaving or has left (a directory entry read before its move): the others of the round are made", async () => {
    await env.DB.exec("DELETE FROM desk_probe");
    const desk = probeDesk();
    await markLeaving(env.DB, 4242, new Date().toISOString());
    try {
      const answers = await Promise.all([desk.send(0, 1, insert(1)), desk.send(0, 4242, insert(2)), desk.send(0, 1, insert(3))]);
      expect(answers.map((a) => a.ok)).toEqual([true, false, true]);
      expect(answers[1]).toMatchObject({ ok: false, error: expect.stringMatching(/business_moving/) });
      const made = await rows();
      expect(made.map((r) => r.n)).toEqual([1, 3]);
      // The guard's own result is not in the answer: the caller's statements' are, in order (each
      // saw the rows made before its own, and its own; which of the two arrived first may vary).
      expect(seenCount(answers[0])).toBe(made[0].seen + 1);
      expect(seenCount(answers[2])).toBe(made[1].seen + 1);
    } finally {
      await unmarkLeaving(env.DB, 4242);
    }
  });

  it("buyers adding at once share D1 round trips: fewer than their adds, every cart and hold made once", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 40);
    const t = clock();
    const { start, end } = stay(2);
    // A first add warms the process (its catalog snapshot), so the crowd's adds are one write each.
    expect((await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).status).toBe(201);
    const desk = cartDeskOf(env, 0, businessId);
    const before = await desk.counts();
    const answers = await Promise.all(Array.from({ length: 16 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(1))));
    const after = await desk.counts();
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(201));
    expect(new Set(answers.map((a) => a.body.cart_id)).size).toBe(16);
    expect(await liveUnits(pkg, start, t(1))).toBe(17);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(17);
    // Each add sent one batch to the desk (its write, the cart read back inside it), in fewer round trips.
    expect(after.batches - before.batches).toBe(16);
    expect(after.trips - before.trips).toBeLessThan(16);
  });
});
