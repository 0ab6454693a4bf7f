import { isoDateTime } from "../lib/time";
import { type EventName } from "../contract/events";
import type { D1 } from "./d1";
import { lastIdSql } from "./id-range";

export interface WebhookRow {
  id: string;
  business_id: number;
  url: string;
  events: string;
  secret: string;
  start_seq: number;
  cursor_seq: number;
  disabled_at: string | null;
  created_at: string;
  deleted_at: string | null;
}

/** A new subscription: it receives the events written after this moment (seq > start_seq). RETURNING the row. */
export function createWebhookStatement(db: D1, businessId: number, id: string, url: string, events: EventName[], secret: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO webhooks (id, business_id, url, events, secret, start_seq, cursor_seq, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, s.seq, s.seq, ?6 FROM (SELECT COALESCE(MAX(seq), 0) AS seq FROM outbox) s
       RETURNING *`,
    )
    .bind(id, businessId, url, JSON.stringify(events), secret, isoDateTime(now));
}


export async function listWebhooks(db: D1, businessId: number): Promise<WebhookRow[]> {
  const rows = await db.prepare("SELECT * FROM webhooks WHERE business_id = ? AND deleted_at IS NULL ORDER BY created_at, id").bind(businessId).all<WebhookRow>();
  return rows.results;
}

export async function getWebhook(db: D1, businessId: number, id: string): Promise<WebhookRow | null> {
  return db.prepare("SELECT * FROM webhooks WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(id, businessId).first<WebhookRow>();
}

/** Delete a subscription: nothing more is delivered to it; its log stays readable to nobody. */
export function deleteWebhookStatement(db: D1, businessId: number, id: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE webhooks SET deleted_at = ? WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(isoDateTime(now), id, businessId);
}


export interface DeliveryRow {
  id: number;
  webhook_id: string;
  event_id: string;
  event_seq: number;
  event: string;
  series: number;
  attempt: number;
  status: "pending" | "delivered" | "failed" | "gave_up";
  status_code: number | null;
  error: string | null;
  attempted_at: string | null;
  next_retry_at: string | null;
  created_at: string;
}

/** The delivery log of a subscription, newest first. */
export async function listDeliveries(
  db: D1,
  webhookId: string,
  filter: { eventId?: string; status?: string; page: number; limit: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = ["d.webhook_id = ?"];
  const params: (string | number)[] = [webhookId];
  if (filter.eventId) {
    where.push("d.event_id = ?");
    params.push(filter.eventId);
  }
  if (filter.status) {
    where.push("d.status = ?");
    params.push(filter.status);
  }
  const w = where.join(" AND ");
  const [page, count] = await db.batch([
    db
      .prepare(
        `SELECT d.id, d.webhook_id, d.event_id, d.event_seq, o.event, d.series, d.attempt, d.status, d.status_code, d.error,
                d.attempted_at, d.next_retry_at, d.created_at
           FROM webhook_deliveries d JOIN outbox o ON o.seq = d.event_seq
          WHERE ${w} ORDER BY d.id DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, filter.limit, (filter.page - 1) * filter.limit),
    db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries d WHERE ${w}`).bind(...params),
  ]);
  return { rows: page.results as unknown as DeliveryRow[], total: (count.results[0] as { n: number }).n };
}

/** The outbox event of a business by id. */
export async function outboxEvent(db: D1, businessId: number, eventId: string) {
  return db
    .prepare("SELECT seq, id, event, data, created_at FROM outbox WHERE id = ? AND business_id = ?")
    .bind(eventId, businessId)
    .first<{ seq: number; id: string; event: string; data: string; created_at: string }>();
}

/** A new series of attempts for one event (a redelivery asked for), due now. RETURNING series. */
export function scheduleRedeliveryStatement(db: D1, webhookId: string, event: { seq: number; id: string }, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_seq, series, attempt, status, next_retry_at, created_at)
       SELECT ${lastIdSql("webhook_deliveries")} + 1, ?1, ?2, ?3, COALESCE(MAX(series), 0) + 1, 1, 'pending', ?4, ?4 FROM webhook_deliveries WHERE webhook_id = ?1 AND event_seq = ?3
       RETURNING series`,
    )
    .bind(webhookId, event.id, event.seq, ts);
}


/** Enable a subscription again after a 410: delivery resumes where it stopped (nothing is skipped). */
export function enableWebhookStatement(db: D1, businessId: number, id: string): D1PreparedStatement {
  return db.prepare("UPDATE webhooks SET disabled_at = NULL WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(id, businessId);
}

