import { DurableObject } from "cloudflare:workers";
import { cartTimerOf } from "../carts/timer";
import { expireCartsStatements, nextExpiryStatement } from "../db/carts";
import { businessDb } from "../db/shards";

/** What the timer keeps in storage: whose carts it sweeps, and (tests) the request clock's offset. */
interface TimerState {
  businessId: number;
  /** Request clock minus wall clock (tests only, ALLOW_TEST_CLOCK=1; 0 otherwise). */
  offsetMs: number;
}

/** Sweeps one alarm runs before it leaves the rest to an alarm set for right away. */
const SWEEPS_PER_ALARM = 20;

/**
 * The expiry alarm of one business's carts. Its one alarm rings at the earliest expiry among the
 * business's open carts; it then abandons every open cart whose expiry has passed and releases
 * its holds, and sets itself for the next earliest expiry, both found in D1 through the open
 * carts' expiry index. A cart opened later than that expiry needs nothing from the timer; one
 * expiring earlier (a shorter lifetime since) moves the alarm forward (`due`). Extending a cart
 * only moves its expiry later: an alarm that rings first finds it open and sets itself again.
 *
 * The alarm only tidies up: an expired hold never counts toward availability, whatever the alarm
 * did, and a cart answers as expired once its expiry passed. It runs at least once and is retried
 * on throw; every sweep is idempotent. Carts whose `due` was lost (the process died right after
 * the cart was written) are swept by the alarm another cart sets, or by the scheduled upkeep.
 *
 * Until migration 0150 each cart had an object of its own (named by its cart_id, its state under
 * "timer"): the alarm such an object still has hands its business to this timer and clears it.
 *
 * Tests drive time with X-Test-Now; the alarm runs on the wall clock, so in test mode the object
 * remembers the offset of the last request's clock (or of setTestNow) and sweeps with it.
 */
export class CartTimer extends DurableObject<Env> {
  /** The readiness check's call (routes/health.ts /readyz): the namespace answers; nothing is read or kept. */
  ready(): "ok" {
    return "ok";
  }

  private queue: Promise<unknown> = Promise.resolve();

  /** One call at a time: an alarm and a `due` never decide on the alarm at once. */
  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async state(): Promise<TimerState | null> {
    return (await this.ctx.storage.get<TimerState>("business")) ?? null;
  }

  /** Remember the business and the clock's offset (written only when they changed). */
  private async remember(businessId: number, offsetMs: number): Promise<TimerState> {
    const current = await this.state();
    // Within a second counts as the same clock: no storage write for every cart.
    if (current && current.businessId === businessId && Math.abs(current.offsetMs - offsetMs) < 1000) return current;
    const next = { businessId, offsetMs };
    await this.ctx.storage.put("business", next);
    return next;
  }

  private offsetOf(nowMs: number): number {
    return this.env.ALLOW_TEST_CLOCK === "1" ? nowMs - Date.now() : 0;
  }

  /**
   * A cart of the business was opened, expiring at `expiresAtMs` (the request's clock, `nowMs`):
   * the alarm rings by then. Usually there is nothing to write: it already rings for an earlier cart.
   * Answers when the alarm rings now (wall clock, ms), which the caller may remember (carts/timer.ts).
   */
  due(businessId: number, nowMs: number, expiresAtMs: number): Promise<number> {
    return this.serialize(async () => {
      const { offsetMs } = await this.remember(businessId, this.offsetOf(nowMs));
      const at = expiresAtMs - offsetMs;
      const alarm = await this.ctx.storage.getAlarm();
      if (alarm === null || alarm > at) {
        await this.ctx.storage.setAlarm(at);
        return at;
      }
      return alarm;
    });
  }

  /** Tests only (ALLOW_TEST_CLOCK=1): the clock the next alarm sweeps with. */
  async setTestNow(businessId: number, iso: string): Promise<void> {
    if (this.env.ALLOW_TEST_CLOCK !== "1") throw new Error("the test clock is disabled");
    await this.serialize(() => this.remember(businessId, Date.parse(iso) - Date.now()));
  }

  /** The sweep. Runs at least once and is retried on throw: idempotent by construction. */
  async alarm(): Promise<void> {
    await this.serialize(async () => {
      const state = await this.state();
      if (!state) return this.handOver();
      const db = await businessDb(this.env, state.businessId);
      for (let sweep = 1; ; sweep++) {
        const now = new Date(Date.now() + state.offsetMs);
        // The expired carts (at most a sweep's worth), then the earliest expiry still open.
        const results = await db.batch([...expireCartsStatements(db, state.businessId, now), nextExpiryStatement(db, state.businessId)]);
        const next = (results[2].results[0] as { next: string | null } | undefined)?.next ?? null;
        if (next === null) return;
        if (Date.parse(next) > now.getTime()) return this.ctx.storage.setAlarm(Date.parse(next) - state.offsetMs);
        // More expired carts than one sweep takes: sweep again, or leave them to an alarm right away.
        if (sweep >= SWEEPS_PER_ALARM) return this.ctx.storage.setAlarm(Date.now());
      }
    });
  }

  /** A cart's own object from before migration 0150: its business's timer takes over its cart. */
  private async handOver(): Promise<void> {
    const legacy = await this.ctx.storage.get<{ businessId: number; offsetMs: number }>("timer");
    if (legacy) {
      const now = Date.now() + legacy.offsetMs;
      await cartTimerOf(this.env, legacy.businessId).due(legacy.businessId, now, now);
    }
    await this.ctx.storage.deleteAll();
  }
}
