import { DurableObject } from "cloudflare:workers";
import { madeAgain, type DeskAnswer, type DeskFault, type PlainStatement } from "../db/plain-statements";
import { SHARD_GUARD_SQL, shardDb } from "../db/shards";

interface Waiting {
  businessId: number;
  statements: PlainStatement[];
  fault?: DeskFault;
  resolve(answer: DeskAnswer): void;
}

/** How long a round waits for more batches when the desk is under load (`drive`). */
const GATHER_MS = 1;

/**
 * The most statements one round trip carries (an add is about 7, a checkout's write about 14, its
 * read 3); the rest wait for the next. A round's length is what whoever arrives meanwhile waits,
 * so this bounds the wait as much as it feeds the group commit. Measured at 20 buyers adding and
 * checking out (docs/benchmarks.md, "What the night changed"): 200 let a round grow to
 * 18 batches, and add p99 was 101-111 ms; 64 keeps about five batches a round at the same
 * throughput, add p99 89-98 ms; 40 split checkouts from each other and lost a fifth of it.
 */
const MAX_STATEMENTS_PER_ROUND = 64;

/**
 * The cart desk of one business on one shard (named `<shard>:<business id>`): the cart routes send
 * their D1 batches here (carts/desk.ts), and what arrives while a round trip is under way leaves
 * in the next one, as ONE batch: one transaction and one commit for the carts of many buyers
 * (a group commit). All its callers share this object's one I/O context, so gathering their
 * batches shares nothing between the Worker's requests.
 *
 * In a round the batches run in the order they arrived, one caller's after another's, as if each
 * were sent alone in that order; nothing is read or written earlier than it would be alone (a
 * batch leaves in the round after it arrived, at once when none is under way; under load a round
 * waits a millisecond for the batches a few steps behind). A round that fails
 * (a guard's abort: sold out, a cart changed, a limit) is rolled back whole and sent again in
 * halves (`together`), so only the caller whose batch fails gets its error and the others' writes
 * are made once, in arrival order. A round of one batch is sent as it is.
 *
 * Should the object be reset mid-round (its process died, an update), its callers get an error
 * (carts/desk.ts answers 503): the round's transaction was committed whole or not at all, and an
 * Idempotency-Key's retry finds out which.
 */
export class CartDesk extends DurableObject<Env> {
  private waiting: Waiting[] = [];
  private busy = false;
  /** D1 round trips made, and batches answered, since the object started (`counts`). */
  private trips = 0;
  private batches = 0;

  /** The readiness check's call (routes/health.ts /readyz): the namespace answers; nothing is read. */
  ready(): "ok" {
    return "ok";
  }

  /** How many batches this object answered in how many D1 round trips (what grouping saved). */
  counts(): { batches: number; trips: number } {
    return { batches: this.batches, trips: this.trips };
  }

  /**
   * Sends one caller's statements (one transaction, all or nothing) with the others' of the moment.
   * Every round trip starts with the shard guard of its business (db/shards.ts, `guarded`): the cart
   * routes may have found the shard on a directory entry a few seconds old, and the guard refuses
   * the round whole (`business_moving`) on a shard the business is leaving or has left; halved
   * until each batch goes alone, each is refused. Its result is not part of any answer.
   */
  send(shard: number, businessId: number, statements: PlainStatement[], fault?: DeskFault): Promise<DeskAnswer> {
    if (statements.length === 0) return Promise.resolve({ ok: true, results: [], bookmark: null, round: 0 });
    const db = shardDb(this.env, shard);
    const answer = new Promise<DeskAnswer>((resolve) => {
      this.waiting.push({ businessId, statements, fault: this.env.ALLOW_TEST_CLOCK === "1" ? fault : undefined, resolve });
    });
    if (!this.busy) {
      this.busy = true;
      void this.drive(db);
    }
    return answer;
  }

  /**
   * Rounds, one after the other, until no batch waits. Under load (the round before found several
   * batches waiting) a round first waits GATHER_MS, so that the batches of the requests a few steps
   * behind join it: rounds then carry many buyers rather than one or two. A batch that finds the
   * desk idle leaves at once.
   */
  private async drive(db: D1Database): Promise<void> {
    try {
      let found = 1;
      while (this.waiting.length) {
        if (found > 1) await new Promise((r) => setTimeout(r, GATHER_MS));
        found = this.waiting.length;
        await this.round(db);
      }
    } finally {
      this.busy = false;
    }
  }

  private async round(db: D1Database): Promise<void> {
    const group: Waiting[] = [];
    let count = 1;
    while (this.waiting.length && (group.length === 0 || count + this.waiting[0].statements.length <= MAX_STATEMENTS_PER_ROUND)) {
      const next = this.waiting.shift()!;
      count += next.statements.length;
      group.push(next);
    }
    await this.together(db, group);
  }

  /**
   * The group's batches in one D1 batch. When D1 refuses it (one batch's guard aborted: it was
   * rolled back whole), the group is halved and each half sent the same way, the first half
   * first: the batches that pass are made once, in the order they arrived, each after those before
   * it, exactly as if each were sent alone in that order, and the one that fails is answered its
   * error, alone.
   */
  private async together(db: D1Database, group: Waiting[]): Promise<void> {
    if (group.length === 1) return this.alone(db, group[0]);
    const session = db.withSession("first-primary");
    let results: D1Result[];
    this.trips++;
    const round = this.trips;
    const guards = guarded(group);
    try {
      results = await session.batch(madeAgain(session, [...guards, ...group.flatMap((w) => w.statements)]));
    } catch {
      const half = Math.ceil(group.length / 2);
      await this.together(db, group.slice(0, half));
      await this.together(db, group.slice(half));
      return;
    }
    const bookmark = session.getBookmark();
    this.crashIfAsked(group);
    let at = guards.length;
    for (const w of group) {
      this.batches++;
      w.resolve({ ok: true, results: results.slice(at, at + w.statements.length), bookmark, round });
      at += w.statements.length;
    }
  }

  private async alone(db: D1Database, w: Waiting): Promise<void> {
    const session = db.withSession("first-primary");
    const statements = madeAgain(session, [...guarded([w]), ...w.statements]);
    this.trips++;
    const round = this.trips;
    let results: D1Result[];
    try {
      results = await session.batch(statements);
    } catch (err) {
      this.batches++;
      w.resolve({ ok: false, error: String((err as Error)?.message ?? err) });
      return;
    }
    this.crashIfAsked([w]);
    this.batches++;
    w.resolve({ ok: true, results: results.slice(1), bookmark: session.getBookmark(), round });
  }

  /** Tests only: the object dies after the round committed, before anyone is answered. */
  private crashIfAsked(group: Waiting[]): void {
    if (group.some((w) => w.fault === "crash-after-commit")) this.ctx.abort("test fault: the cart desk crashed after its batch committed");
  }
}

/**
 * The shard guards that open a round trip: one for its business (a desk serves one business, so
 * one guard covers every batch of the round, in the same transaction), not one for each batch.
 */
function guarded(group: Waiting[]): PlainStatement[] {
  return [...new Set(group.map((w) => w.businessId))].map((businessId) => ({ sql: SHARD_GUARD_SQL, params: [businessId] }));
}
