import { BusinessDrainer } from "./business-drainer";
import { MAX_ATTEMPTS, RETRY_BACKOFF_SECONDS, signPayload } from "../domain/webhook-signing";
import { isoDateTime } from "../lib/time";
import {
  deliveredStatement, dueDeliveries, eventsAfter, gaveUpStatement, goneStatements, liveHooks, nextDue, planStatements, retryStatements, type DueDelivery, type LiveHook,
} from "../db/webhook-deliveries";
import { checkWebhookUrl } from "../domain/webhook-urls";
import { businessDb } from "../db/shards";
import type { D1 } from "../db/d1";

/** Longest wait between two looks at the outbox while the business has subscriptions: a lost kick costs at most this. */
const SWEEP_MS = 5 * 60_000;
const PLAN_BATCH = 500;
const SEND_BATCH = 50;
/**
 * Sends at once: a Worker invocation has at most six connections waiting for response headers (a
 * seventh is queued by the platform, its timeout already running, and would fail falsely behind
 * a slow receiver). Each send's timeout starts when its own request starts.
 */
const SEND_CONCURRENCY = 6;
const FETCH_TIMEOUT_MS = 10_000;
/** After a run started by a kick failed: the alarm tries again this much later. */
const RETRY_SOON_MS = 5_000;
/**
 * How long a run that found no live subscription answers the kicks that follow without reading
 * D1 again. A subscription made or enabled through the API wakes the object at once; one written
 * to D1 by other means is seen within this time.
 */
const QUIET_MS = 30_000;

/**
 * One per business: turns the outbox into deliveries and delivers them, at least once.
 *
 * 1. Plan: for each live subscription, the outbox events after its cursor that it asked for become
 *    `pending` delivery rows; the cursor moves in the same batch (never skipped, never twice).
 * 2. Send: each due pending row is POSTed, signed; the outcome updates the row. A failure
 *    schedules the next attempt on the backoff (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
 *    24 h); after the 10th it gives up. 410 Gone disables the subscription.
 * 3. Alarm: at the next due retry, and at least every 5 minutes while subscriptions exist; none
 *    while there is no live subscription.
 *
 * A kick (events written) starts a run at once; wake() (a subscription made or enabled, a
 * redelivery) sets the alarm to now. With no live subscription a run is one read, and the kicks
 * of the next QUIET_MS need none.
 *
 * State lives in D1, so a crash between a send and its record only repeats a delivery. Runs are
 * serialized in memory: an alarm and a kick never send the same row twice at once.
 */
export class WebhookDelivery extends BusinessDrainer {
  /** Until when kicks need no run: the last run found no live subscription (wall clock, ms). */
  private quietUntil = 0;

  /**
   * A change wrote events: deliver them now. The run starts here and the caller does not wait for
   * it, nor is the alarm touched: while live subscriptions exist an alarm is always set (every run
   * ends by setting it, wake() sets it first), so a run lost with its process is picked up by it.
   * A run that fails retries from the alarm a few seconds later.
   */
  async kick(businessId: number, requestId?: string): Promise<void> {
    await this.kicked(businessId, requestId);
    if (Date.now() < this.quietUntil) return;
    this.run().catch(async (err) => {
      this.log("warn", "webhook run failed", { error: String(err) });
      await this.alarmBy(Date.now() + RETRY_SOON_MS);
    });
  }

  /** A subscription was made or enabled, or a redelivery asked for: the alarm is set to now first. */
  async wake(businessId: number): Promise<void> {
    await this.remember(businessId);
    this.quietUntil = 0;
    // A run under way may have read the subscriptions before this one and would end by clearing
    // the alarm: it goes round once more, and sees it.
    if (this.running) this.again = true;
    await this.alarmBy(Date.now());
  }

  protected async drain(): Promise<void> {
    const businessId = await this.business();
    if (businessId === undefined) return;
    const db = await businessDb(this.env, businessId);
    const hooks = await liveHooks(db, businessId);
    if (!hooks.length) {
      // No live subscription: nothing is due (deliveries of removed ones are never sent) and
      // nothing to watch for; a new or enabled subscription wakes this object.
      if ((await this.ctx.storage.getAlarm()) !== null) await this.ctx.storage.deleteAlarm();
      // Unless a wake came while this run read (it goes round again, and finds it).
      if (!this.again) this.quietUntil = Date.now() + QUIET_MS;
      return;
    }
    this.quietUntil = 0;
    const offset = await this.clockOffset();
    const now = new Date(Date.now() + offset);
    let more = await this.plan(db, businessId, hooks);
    const due = await dueDeliveries(db, businessId, isoDateTime(now), SEND_BATCH);
    if (due.length === SEND_BATCH) more = true;
    const gone = new Set<string>();
    let taken = 0;
    await Promise.all(
      Array.from({ length: Math.min(SEND_CONCURRENCY, due.length) }, async () => {
        while (taken < due.length) await this.send(db, due[taken++], now, gone);
      }),
    );

    // Next look: now if work is left, else the earliest retry, and at least every SWEEP_MS.
    const next = await nextDue(db, businessId);
    if (more) {
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    const candidates: number[] = [];
    if (next?.at) candidates.push(Date.parse(next.at) - offset);
    if (next?.live) candidates.push(Date.now() + SWEEP_MS);
    if (candidates.length) await this.ctx.storage.setAlarm(Math.max(Date.now(), Math.min(...candidates)));
    else await this.ctx.storage.deleteAlarm();
  }

  /** Pending rows for the outbox events each subscription has not planned yet. True when more remain. */
  private async plan(db: D1, businessId: number, hooks: LiveHook[]): Promise<boolean> {
    let more = false;
    for (const hook of hooks) {
      const events = await eventsAfter(db, businessId, hook.cursor_seq, PLAN_BATCH);
      if (!events.length) continue;
      if (events.length === PLAN_BATCH) more = true;
      const wanted = new Set(JSON.parse(hook.events) as string[]);
      const last = events[events.length - 1].seq;
      const ts = isoDateTime(new Date(Date.now() + (await this.clockOffset())));
      // The cursor has not moved since it was read (else another run planned these rows).
      const statements = planStatements(db, hook, events.filter((e) => wanted.has(e.event)), last, ts);
      try {
        await db.batch(statements);
      } catch (err) {
        if (!/guard_failed/.test(String(err))) throw err;
      }
    }
    return more;
  }

  /** One attempt of one delivery, and its record. */
  private async send(db: D1, d: DueDelivery, now: Date, gone: Set<string>): Promise<void> {
    if (gone.has(d.webhook_id)) return;
    const attemptedAt = isoDateTime(now);
    let statusCode: number | null = null;
    let error: string | null = null;
    const allowed = checkWebhookUrl(d.url, this.env.ALLOW_LOOPBACK_WEBHOOKS === "true");
    if (!allowed.ok) {
      error = `url not allowed: ${allowed.message}`;
    } else {
      const body = JSON.stringify({ event: d.event, data: JSON.parse(d.data) });
      const timestamp = Math.floor(now.getTime() / 1000);
      try {
        const res = await fetch(d.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "User-Agent": "booking-platform-webhooks/1",
            "webhook-id": d.event_id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": signPayload(d.secret, d.event_id, timestamp, body),
          },
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
        statusCode = res.status;
        await res.body?.cancel();
      } catch (err) {
        error = String((err as Error)?.message ?? err).slice(0, 500);
      }
    }

    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await deliveredStatement(db, d.id, statusCode, attemptedAt).run();
      return;
    }
    if (statusCode === 410) {
      // The receiver says it is gone for good: stop this subscription.
      gone.add(d.webhook_id);
      await db.batch(goneStatements(db, d, attemptedAt));
      return;
    }
    if (d.attempt >= MAX_ATTEMPTS) {
      await gaveUpStatement(db, d.id, statusCode, error, attemptedAt).run();
      return;
    }
    const retryAt = isoDateTime(new Date(now.getTime() + RETRY_BACKOFF_SECONDS[d.attempt - 1] * 1000));
    await db.batch(retryStatements(db, d, statusCode, error, attemptedAt, retryAt));
  }
}
