/**
 * Reads that arrive while another read is under way travel together in the next D1 round trip.
 *
 * A D1 call costs about as much as a whole small request, whatever it carries, so the catalog
 * reads of many requests at once are cheaper sent as one batch than one batch each. Nothing is
 * read any earlier than it would be alone: a request's statements leave after it arrived, in the
 * round trip that follows the one under way (at once when none is), so what it reads is as fresh
 * as before — a revoked key is refused, a hold seen, the same. A batch is one read transaction.
 *
 * When this process is serving other requests too, the first read waits a millisecond before it
 * leaves, so that theirs (a few steps behind) can join it: under load that is what makes a round
 * trip carry several requests rather than one or two. A request on its own leaves at once.
 *
 * Only reads come here: a batch that fails takes no one else's result with it, since each
 * request's statements are then sent again on their own and only the failing request sees its
 * error.
 */

interface Waiting {
  statements: D1PreparedStatement[];
  resolve(results: D1Result[]): void;
  reject(err: unknown): void;
}

interface Line {
  busy: boolean;
  waiting: Waiting[];
}

const lines = new WeakMap<D1Database, Line>();

/** Requests this process is serving now (kept by the request-context middleware). */
export const traffic = { open: 0 };

/** How long a read waits for others' to join it, when others are being served. */
export const GATHER_MS = 1;

/** The most statements one round trip carries; the rest wait for the next. */
export const MAX_STATEMENTS_TOGETHER = 200;

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

async function drain(db: D1Database, line: Line) {
  try {
    if (traffic.open > 1) await new Promise((r) => setTimeout(r, GATHER_MS));
    await drainAll(db, line);
  } finally {
    // Synchronously after the queue was seen empty: a read arriving later starts a new round.
    line.busy = false;
  }
}

async function drainAll(db: D1Database, line: Line) {
  while (line.waiting.length) {
    const group: Waiting[] = [];
    let count = 0;
    while (line.waiting.length && (group.length === 0 || count + line.waiting[0].statements.length <= MAX_STATEMENTS_TOGETHER)) {
      const next = line.waiting.shift()!;
      count += next.statements.length;
      group.push(next);
    }
    if (group.length === 1) {
      await sendAlone(db, group);
      continue;
    }
    let results: D1Result[];
    try {
      results = await db.batch(group.flatMap((w) => w.statements));
    } catch {
      await sendAlone(db, group);
      continue;
    }
    let at = 0;
    for (const w of group) {
      w.resolve(results.slice(at, at + w.statements.length));
      at += w.statements.length;
    }
  }
}

/**
 * Sends `statements` (reads only) and answers their results, in order. `keepAlive` receives the
 * round trip this request starts for others too (pass the request's `waitUntil`), so that the
 * others are answered even if this request's client goes away first.
 */
export function readTogether(db: D1Database, statements: D1PreparedStatement[], keepAlive?: (p: Promise<unknown>) => void): Promise<D1Result[]> {
  if (statements.length === 0) return Promise.resolve([]);
  let line = lines.get(db);
  if (!line) lines.set(db, (line = { busy: false, waiting: [] }));
  const answer = new Promise<D1Result[]>((resolve, reject) => line!.waiting.push({ statements, resolve, reject }));
  if (!line.busy) {
    line.busy = true;
    const draining = drain(db, line); // (not inside `keepAlive?.(…)`, which would skip it without one)
    keepAlive?.(draining);
    return answer;
  }
  return awaitedHere(answer);
}

/** The longest a read waits for a round trip another request started. */
export const WAIT_LIMIT_MS = 30_000;

/**
 * `answer`, awaited with a timer of this request's own: the runtime ends a request that waits
 * on nothing of its own as hung, and the timer also bounds the wait should the round trip
 * never come back.
 */
function awaitedHere(answer: Promise<D1Result[]>): Promise<D1Result[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("A D1 read sent together with other requests did not come back in time.")), WAIT_LIMIT_MS);
  });
  return Promise.race([answer, limit]).finally(() => clearTimeout(timer));
}
