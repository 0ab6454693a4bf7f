/**
 * D1 batches of requests served at the same moment travel together: what arrives while a round
 * trip is under way leaves in the next one, as one batch (one transaction).
 *
 * A D1 call costs about as much as a whole small request, whatever it carries: the call itself,
 * and the commit that ends it (locally a WAL frame and an fsync, even for a read). So the catalog
 * reads of many requests at once are cheaper sent as one batch than one batch each, and so are
 * the writes of many buyers: one commit for several carts (group commit). Nothing is read or
 * written any earlier than it would be alone: a request's statements leave after it arrived, in
 * the round trip that follows the one under way (at once when none is), so what it reads is as
 * fresh as before — a revoked key is refused, a hold seen, the same.
 *
 * In one batch the requests' statements run in the order they arrived, one request's after the
 * other's, exactly as if each were sent alone in that order. A batch that fails takes no one
 * else's result with it: it is rolled back whole, then each request's statements are sent again
 * on their own and only the request whose statements fail sees its error. A write whose guard
 * aborts (sold out, a cart changed) so costs its round one more try; the others' writes are made
 * once, in their own batch.
 *
 * When this process is serving other requests too, the first batch waits a millisecond before it
 * leaves, so that theirs (a few steps behind) can join it: under load that is what makes a round
 * trip carry several requests rather than one or two. A request on its own leaves at once.
 *
 * Who sends: the request that found no round trip under way drives the line, round after round,
 * from its own context (kept alive after its answer by its waitUntil). The runtime gives that
 * work a bounded time after the answer, and counts each D1 call against the invocation that makes
 * it (50 on the Workers Free plan), so a driver serves at most `limits.driveRounds` rounds for at
 * most `limits.driveMs` and then hands the line to the first request still waiting, which drives
 * from its own context.
 * Should a round never come back (its driver's context cancelled), each waiter gives up after
 * `limits.waitMs` with an error of its own, and the stalled line is freed for the next batches.
 */

interface Waiting {
  statements: D1PreparedStatement[];
  resolve(results: D1Result[]): void;
  reject(err: unknown): void;
  /** Asks this waiter to drive the line from its own context (the previous driver's time is up). */
  takeOver(): void;
}

interface Line {
  busy: boolean;
  waiting: Waiting[];
  /** When a round last came back or a driver started (ms): how a stalled line is told. */
  progress: number;
}

const lines = new WeakMap<D1Database, Line>();

/** Requests this process is serving now (kept by the request-context middleware). */
export const traffic = { open: 0 };

/** How long a batch waits for others' to join it, when others are being served. */
export const GATHER_MS = 1;

/** The most statements one round trip carries; the rest wait for the next. */
export const MAX_STATEMENTS_TOGETHER = 200;

/**
 * driveMs, driveRounds: how long, and for how many rounds, one request drives the line before
 * handing it on (well inside the ~30 s a runtime allows a request's waitUntil work, and the 50
 * D1 calls the Workers Free plan allows an invocation). waitMs: the longest a batch waits for a
 * round trip another request drives. Changeable for tests.
 */
export const limits = { driveMs: 2_000, driveRounds: 40, waitMs: 15_000 };

const send = (db: D1Database, statements: D1PreparedStatement[]): Promise<D1Result[]> =>
  statements.length === 1 ? statements[0].all().then((r) => [r]) : db.batch(statements);

async function sendAlone(db: D1Database, group: Waiting[]) {
  await Promise.all(
    group.map((w) =>
      send(db, w.statements).then(
        (r) => w.resolve(r),
        (e) => w.reject(e),
      ),
    ),
  );
}

/** One round: the waiting batches (up to the statement cap) in one batch. */
async function round(db: D1Database, line: Line) {
  const group: Waiting[] = [];
  let count = 0;
  while (line.waiting.length && (group.length === 0 || count + line.waiting[0].statements.length <= MAX_STATEMENTS_TOGETHER)) {
    const next = line.waiting.shift()!;
    count += next.statements.length;
    group.push(next);
  }
  if (group.length === 1) return sendAlone(db, group);
  let results: D1Result[];
  try {
    results = await db.batch(group.flatMap((w) => w.statements));
  } catch {
    return sendAlone(db, group);
  }
  let at = 0;
  for (const w of group) {
    w.resolve(results.slice(at, at + w.statements.length));
    at += w.statements.length;
  }
}

/** Drives the line from the calling request's context until it is empty or this driver's time is up. */
async function drive(db: D1Database, line: Line) {
  const started = Date.now();
  line.progress = started;
  let handedOn = false;
  try {
    if (traffic.open > 1) await new Promise((r) => setTimeout(r, GATHER_MS));
    let rounds = 0;
    while (line.waiting.length) {
      await round(db, line);
      rounds += 1;
      line.progress = Date.now();
      if (line.waiting.length && (Date.now() - started >= limits.driveMs || rounds >= limits.driveRounds)) {
        // The line stays busy: the first waiter drives on from its own context.
        handedOn = true;
        line.waiting[0].takeOver();
        return;
      }
    }
  } finally {
    // Synchronously after the queue was seen empty: a read arriving later starts a new round.
    if (!handedOn) line.busy = false;
  }
}

/**
 * Sends `statements` (reads, writes, or both: one transaction, all or nothing, as db.batch) and
 * answers their results, in order. `keepAlive` receives the rounds this request drives for others
 * too (pass the request's `waitUntil`), so that they are answered even after this request's own
 * answer has gone.
 */
export function sendTogether(db: D1Database, statements: D1PreparedStatement[], keepAlive?: (p: Promise<unknown>) => void): Promise<D1Result[]> {
  if (statements.length === 0) return Promise.resolve([]);
  let line = lines.get(db);
  if (!line) lines.set(db, (line = { busy: false, waiting: [], progress: 0 }));
  const entry: Waiting = { statements, resolve: () => {}, reject: () => {}, takeOver: () => {} };
  const answer = new Promise<D1Result[]>((resolve, reject) => {
    entry.resolve = resolve;
    entry.reject = reject;
  });
  line.waiting.push(entry);
  const waited = waitHere(db, line, entry, answer, keepAlive); // (sets entry.takeOver first)
  if (!line.busy) {
    line.busy = true;
    const driving = drive(db, line); // (not inside `keepAlive?.(…)`, which would skip it without one)
    keepAlive?.(driving);
  }
  return waited;
}

/**
 * A caller's side: its answer, or its turn to drive, or its time limit — awaited with a timer of
 * this request's own (the runtime ends a request that waits on nothing of its own as hung).
 */
async function waitHere(db: D1Database, line: Line, entry: Waiting, answer: Promise<D1Result[]>, keepAlive?: (p: Promise<unknown>) => void): Promise<D1Result[]> {
  let handed = false;
  const turn = new Promise<"drive">((resolve) => {
    entry.takeOver = () => {
      handed = true;
      resolve("drive");
    };
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), limits.waitMs)));
  try {
    let outcome = await Promise.race([answer, turn, limit]);
    if (outcome === "drive") {
      const driving = drive(db, line);
      keepAlive?.(driving);
      outcome = await Promise.race([answer, limit]);
    }
    if (outcome !== "late") return outcome;
    // Still queued: leave the queue, so nothing is sent for a request that has given up.
    const at = line.waiting.indexOf(entry);
    if (at >= 0) line.waiting.splice(at, 1);
    // Handed the line at the moment it gave up: hand it on rather than leave it without a driver.
    if (handed && at >= 0) {
      if (line.waiting.length) line.waiting[0].takeOver();
      else line.busy = false;
    }
    // No round came back for as long as a waiter waits: the driver is gone. Free the line.
    if (Date.now() - line.progress >= limits.waitMs) line.busy = false;
    throw new Error("A D1 batch sent together with other requests did not come back in time.");
  } finally {
    clearTimeout(timer);
  }
}
