/**
 * The Worker's scheduled upkeep (wrangler.toml `[triggers] crons`, every 10 minutes). Each step
 * is bounded, idempotent and safe to run at the same time as requests, so a run cut short, run
 * twice or skipped only leaves work for the next one.
 *
 * 1. Stray carts: open carts more than a minute past their expiry that their business's expiry
 *    alarm did not sweep (the request that opened them was cut by a crash before it set the
 *    alarm, durable/cart-timer.ts) are abandoned and their holds released, in every business. An
 *    expired hold never counts anyway; this only tidies up. The alarm set for the business's next
 *    cart does the same, but a business may take no other cart.
 * 2. Idempotency keys older than their 24 hours, in every business (each request forgets its own
 *    business's expired keys, but only when that business takes a keyed request).
 * 3. The webhook log: settled deliveries (delivered, or given up) older than 30 days; deliveries to
 *    subscriptions deleted more than 30 days ago; then outbox events older than 30 days that no
 *    delivery row refers to and that every subscription of the business (a disabled one too: it
 *    delivers what it missed when enabled again) has already planned.
 * 4. E-mails due more than a minute ago (a request wrote them and its process died before it told
 *    the business's delivery object; or an attempt was cut off and its object's alarm was lost):
 *    each such business's EmailDelivery object is told to send them.
 * 5. Retention, keeping the facts: a settled e-mail's message after EMAIL_BODY_RETENTION_DAYS
 *    (default 90), an audit entry's before/after after AUDIT_DETAIL_RETENTION_DAYS (default 365).
 *
 * One run makes at most QUERY_BUDGET D1 queries (the Paid plan allows 1,000 per invocation): a
 * step that meets it stops there and the next run, ten minutes later, goes on.
 */
import { EXPIRED_CARTS_PER_SWEEP, expireCartsStatements, STRAY_CART_GRACE_MS } from "./carts";
import { stamp } from "./allocations";
import { IDEMPOTENCY_TTL_SECONDS } from "./idempotency";
import { isoDateTime } from "../lib/time";
import { businessesWithDueEmails, kickMail } from "./emails";
import { onShard, shardsOf } from "./shards";
import type { D1 } from "./d1";

/** How long webhook events and their delivery log are kept (`GET /webhooks/{id}/deliveries`, redelivery). */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
/** Businesses whose stray carts one run sweeps, and sweeps per business (EXPIRED_CARTS_PER_SWEEP carts each). */
const STRAY_BUSINESSES_PER_RUN = 100;
const STRAY_SWEEPS_PER_BUSINESS = 10;
/** Rows one delete statement removes, and statements per table in one run. */
const DELETE_CHUNK = 1000;
const DELETE_CHUNKS_PER_RUN = 20;
/** D1 queries one run may make (each statement of a batch counts): under the 1,000 per invocation of the Paid plan. */
export const QUERY_BUDGET = 800;
export const DEFAULT_EMAIL_BODY_RETENTION_DAYS = 90;
export const DEFAULT_AUDIT_DETAIL_RETENTION_DAYS = 365;

/** What is left of a run's query budget; `take` says whether `n` more queries fit. */
class Budget {
  constructor(public left: number) {}
  take(n = 1): boolean {
    if (this.left < n) return false;
    this.left -= n;
    return true;
  }
}

/** A retention setting of the environment, in days (at least 1), else its default. */
function days(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

export interface MaintenanceReport {
  strayCarts: number;
  idempotencyKeys: number;
  deliveries: number;
  events: number;
  /** Businesses whose e-mail delivery was woken for e-mails overdue. */
  mailWoken: number;
  /** Settled e-mails whose message was removed, and audit entries whose before/after was. */
  emailBodies: number;
  auditDetails: number;
  /** D1 queries the run made (at most QUERY_BUDGET). */
  queries: number;
}

export async function runMaintenance(env: Env, now: Date): Promise<MaintenanceReport> {
  const cutoff = isoDateTime(new Date(now.getTime() - WEBHOOK_LOG_RETENTION_DAYS * 86_400_000));
  const budget = new Budget(QUERY_BUDGET);
  const ago = (n: number) => isoDateTime(new Date(now.getTime() - n * 86_400_000));
  const report = { strayCarts: 0, idempotencyKeys: 0, deliveries: 0, events: 0, mailWoken: 0, emailBodies: 0, auditDetails: 0 };
  // Every shard in turn (docs/design.md "Shards"), within the one budget of the invocation.
  for (let shard = 0; shard < shardsOf(env).length; shard++) {
    const on = onShard(env, shard);
    // In this order: events go only once no delivery refers to them.
    report.strayCarts += await sweepStrayCarts(on.DB, now, budget);
    report.idempotencyKeys += budget.take() ? await pruneIdempotencyKeys(on.DB, now) : 0;
    report.deliveries += await pruneDeliveries(on.DB, cutoff, budget);
    report.events += await pruneEvents(on.DB, cutoff, budget);
    report.mailWoken += await wakeOverdueMail(on, now, budget);
    report.emailBodies += await pruneEmailBodies(on.DB, ago(days(env.EMAIL_BODY_RETENTION_DAYS, DEFAULT_EMAIL_BODY_RETENTION_DAYS)), isoDateTime(now), budget);
    report.auditDetails += await pruneAuditDetails(on.DB, ago(days(env.AUDIT_DETAIL_RETENTION_DAYS, DEFAULT_AUDIT_DETAIL_RETENTION_DAYS)), budget);
  }
  return { ...report, queries: QUERY_BUDGET - budget.left };
}

/** Businesses one run wakes for overdue e-mails. */
const MAIL_BUSINESSES_PER_RUN = 100;
/** An e-mail this long overdue was not seen by its delivery object (a kick or an alarm was lost). */
const MAIL_GRACE_MS = 60_000;

async function wakeOverdueMail(env: Env, now: Date, budget: Budget): Promise<number> {
  if (!budget.take()) return 0;
  const businesses = await businessesWithDueEmails(env.DB, isoDateTime(new Date(now.getTime() - MAIL_GRACE_MS)), MAIL_BUSINESSES_PER_RUN);
  for (const id of businesses) await kickMail(env, id);
  return businesses.length;
}

async function sweepStrayCarts(db: D1, now: Date, budget: Budget): Promise<number> {
  const expiredBy = new Date(now.getTime() - STRAY_CART_GRACE_MS);
  if (!budget.take()) return 0;
  const businesses = await db
    .prepare(
      `SELECT b.id AS business_id FROM businesses b
        WHERE EXISTS (SELECT 1 FROM carts c WHERE c.business_id = b.id AND c.status = 'open' AND c.expires_at <= ?)
        LIMIT ${STRAY_BUSINESSES_PER_RUN}`,
    )
    .bind(stamp(expiredBy))
    .all<{ business_id: number }>();
  let swept = 0;
  for (const { business_id } of businesses.results) {
    for (let round = 0; round < STRAY_SWEEPS_PER_BUSINESS; round++) {
      const statements = expireCartsStatements(db, business_id, now, expiredBy);
      if (!budget.take(statements.length)) return swept;
      const results = await db.batch(statements);
      const carts = results[results.length - 1].meta.changes;
      swept += carts;
      if (carts < EXPIRED_CARTS_PER_SWEEP) break;
    }
  }
  return swept;
}

async function pruneIdempotencyKeys(db: D1, now: Date): Promise<number> {
  const res = await db
    .prepare("DELETE FROM idempotency WHERE business_id IN (SELECT id FROM businesses) AND created_at <= ?")
    .bind(isoDateTime(new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000)))
    .run();
  return res.meta.changes;
}

/** Runs a chunked delete until it removes less than a chunk (or the run's budget is spent). */
async function deleteInChunks(statement: D1PreparedStatement, budget: Budget): Promise<number> {
  let removed = 0;
  for (let i = 0; i < DELETE_CHUNKS_PER_RUN && budget.take(); i++) {
    const { changes } = (await statement.run()).meta;
    removed += changes;
    if (changes < DELETE_CHUNK) break;
  }
  return removed;
}

async function pruneDeliveries(db: D1, cutoff: string, budget: Budget): Promise<number> {
  const settled = await deleteInChunks(
    db
      .prepare(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries INDEXED BY webhook_deliveries_settled_age
            WHERE status IN ('delivered', 'gave_up') AND created_at <= ? LIMIT ${DELETE_CHUNK})`,
      )
      .bind(cutoff),
    budget,
  );
  const ofDeleted = await deleteInChunks(
    db
      .prepare(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT d.id FROM webhooks w CROSS JOIN webhook_deliveries d ON d.webhook_id = w.id
            WHERE w.deleted_at IS NOT NULL AND w.deleted_at <= ? LIMIT ${DELETE_CHUNK})`,
      )
      .bind(cutoff),
    budget,
  );
  return settled + ofDeleted;
}

async function pruneEvents(db: D1, cutoff: string, budget: Budget): Promise<number> {
  return deleteInChunks(
    db
      .prepare(
        `DELETE FROM outbox WHERE seq IN (
           SELECT o.seq FROM outbox o
            WHERE o.created_at <= ?
              AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.business_id = o.business_id AND w.deleted_at IS NULL AND w.cursor_seq < o.seq)
              AND NOT EXISTS (SELECT 1 FROM webhooks w JOIN webhook_deliveries d ON d.webhook_id = w.id AND d.event_seq = o.seq
                               WHERE w.business_id = o.business_id)
            LIMIT ${DELETE_CHUNK})`,
      )
      .bind(cutoff),
    budget,
  );
}

/** Settled e-mails' messages (raw MIME) older than the cutoff; the row and its facts stay, saying when its body went. */
async function pruneEmailBodies(db: D1, cutoff: string, at: string, budget: Budget): Promise<number> {
  return deleteInChunks(
    db
      .prepare(
        `UPDATE emails SET raw = NULL, body_removed_at = ?2 WHERE id IN (
           SELECT id FROM emails INDEXED BY emails_body_age
            WHERE raw IS NOT NULL AND status IN ('sent', 'failed') AND updated_at <= ?1 LIMIT ${DELETE_CHUNK})`,
      )
      .bind(cutoff, at),
    budget,
  );
}

/** Audit entries' before/after older than the cutoff; who did what, when, to what, and its summary stay. */
async function pruneAuditDetails(db: D1, cutoff: string, budget: Budget): Promise<number> {
  return deleteInChunks(
    db
      .prepare(
        `UPDATE audit_log SET before = NULL, after = NULL WHERE id IN (
           SELECT id FROM audit_log INDEXED BY audit_log_detail_age
            WHERE (before IS NOT NULL OR after IS NOT NULL) AND at <= ? LIMIT ${DELETE_CHUNK})`,
      )
      .bind(cutoff),
    budget,
  );
}
