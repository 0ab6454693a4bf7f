import type { D1 } from "./d1";
/**
 * The webhook delivery log as the delivery object (durable/webhook-delivery.ts) works it: live
 * subscriptions, planning outbox events into pending rows, due rows, and each attempt's record.
 */
import { lastIdSql } from "./id-range";

export interface LiveHook {
  id: string;
  events: string;
  cursor_seq: number;
}

export interface DueDelivery {
  id: number;
  webhook_id: string;
  event_id: string;
  event_seq: number;
  series: number;
  attempt: number;
  event: string;
  data: string;
  url: string;
  secret: string;
}

export interface PlannableEvent {
  seq: number;
  id: string;
  event: string;
  created_at: string;
}

/** The business's subscriptions that deliver (neither deleted nor disabled). */
export async function liveHooks(db: D1, businessId: number): Promise<LiveHook[]> {
  const rows = await db
    .prepare("SELECT id, events, cursor_seq FROM webhooks WHERE business_id = ? AND deleted_at IS NULL AND disabled_at IS NULL")
    .bind(businessId)
    .all<LiveHook>();
  return rows.results;
}

/** Up to `limit` outbox events of the business after `afterSeq`, oldest first. */
export async function eventsAfter(db: D1, businessId: number, afterSeq: number, limit: number): Promise<PlannableEvent[]> {
  const rows = await db
    .prepare("SELECT seq, id, event, created_at FROM outbox WHERE business_id = ? AND seq > ? ORDER BY seq LIMIT ?")
    .bind(businessId, afterSeq, limit)
    .all<PlannableEvent>();
  return rows.results;
}

/**
 * One subscription's plan as one batch: the events it wants become pending rows due at `ts`, and
 * its cursor moves to `lastSeq`, unless the cursor moved since it was read (the batch aborts with
 * 'cursor_moved': another run planned these events).
 */
export function planStatements(db: D1, hook: LiveHook, events: PlannableEvent[], lastSeq: number, ts: string): D1PreparedStatement[] {
  return [
    db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'cursor_moved', cursor_seq = ? FROM webhooks WHERE id = ?").bind(hook.cursor_seq, hook.id),
    ...events.map((e) => insertAttemptStatement(db, hook.id, e.id, e.seq, 1, 1, ts, ts)),
    db.prepare("UPDATE webhooks SET cursor_seq = ? WHERE id = ?").bind(lastSeq, hook.id),
  ];
}

function insertAttemptStatement(db: D1, webhookId: string, eventId: string, eventSeq: number, series: number, attempt: number, dueAt: string, createdAt: string): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_seq, series, attempt, status, next_retry_at, created_at) VALUES (${lastIdSql("webhook_deliveries")} + 1, ?, ?, ?, ?, ?, 'pending', ?, ?)`)
    .bind(webhookId, eventId, eventSeq, series, attempt, dueAt, createdAt);
}

/** Up to `limit` pending deliveries of live subscriptions due at `now`, earliest first. */
export async function dueDeliveries(db: D1, businessId: number, now: string, limit: number): Promise<DueDelivery[]> {
  const rows = await db
    .prepare(
      `SELECT d.id, d.webhook_id, d.event_id, d.event_seq, d.series, d.attempt, o.event, o.data, w.url, w.secret
         FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         JOIN outbox o ON o.seq = d.event_seq
        WHERE w.business_id = ? AND w.deleted_at IS NULL AND w.disabled_at IS NULL
          AND d.status = 'pending' AND d.next_retry_at <= ?
        ORDER BY d.next_retry_at, d.event_seq LIMIT ?`,
    )
    .bind(businessId, now, limit)
    .all<DueDelivery>();
  return rows.results;
}

/** The earliest pending retry of the business's live subscriptions, and how many live ones there are. */
export async function nextDue(db: D1, businessId: number): Promise<{ at: string | null; live: number } | null> {
  return db
    .prepare(
      `SELECT MIN(d.next_retry_at) AS at, (SELECT COUNT(*) FROM webhooks WHERE business_id = ?1 AND deleted_at IS NULL AND disabled_at IS NULL) AS live
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE w.business_id = ?1 AND w.deleted_at IS NULL AND w.disabled_at IS NULL AND d.status = 'pending'`,
    )
    .bind(businessId)
    .first<{ at: string | null; live: number }>();
}

/** An attempt the receiver accepted (2xx). */
export function deliveredStatement(db: D1, id: number, statusCode: number, attemptedAt: string): D1PreparedStatement {
  return db.prepare("UPDATE webhook_deliveries SET status = 'delivered', status_code = ?, attempted_at = ?, next_retry_at = NULL WHERE id = ?").bind(statusCode, attemptedAt, id);
}

/** 410 Gone: the attempt gives up and the subscription is disabled. */
export function goneStatements(db: D1, d: DueDelivery, attemptedAt: string): D1PreparedStatement[] {
  return [
    db.prepare("UPDATE webhook_deliveries SET status = 'gave_up', status_code = 410, attempted_at = ?, next_retry_at = NULL WHERE id = ?").bind(attemptedAt, d.id),
    db.prepare("UPDATE webhooks SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL").bind(attemptedAt, d.webhook_id),
  ];
}

/** The last attempt failed: no more tries. */
export function gaveUpStatement(db: D1, id: number, statusCode: number | null, error: string | null, attemptedAt: string): D1PreparedStatement {
  return db
    .prepare("UPDATE webhook_deliveries SET status = 'gave_up', status_code = ?, error = ?, attempted_at = ?, next_retry_at = NULL WHERE id = ?")
    .bind(statusCode, error, attemptedAt, id);
}

/** A failed attempt, and the next one due at `retryAt`. */
export function retryStatements(db: D1, d: DueDelivery, statusCode: number | null, error: string | null, attemptedAt: string, retryAt: string): D1PreparedStatement[] {
  return [
    db
      .prepare("UPDATE webhook_deliveries SET status = 'failed', status_code = ?, error = ?, attempted_at = ?, next_retry_at = ? WHERE id = ?")
      .bind(statusCode, error, attemptedAt, retryAt, d.id),
    insertAttemptStatement(db, d.webhook_id, d.event_id, d.event_seq, d.series, d.attempt + 1, retryAt, attemptedAt),
  ];
}
