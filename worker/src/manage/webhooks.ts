/**
 * Webhook subscriptions, changed the same way by the private API (/private/webhooks) and the back
 * office's Developers screen: each change is one batch with its audit entry.
 */
import type { EventName } from "../contract/events";
import { generateSecret } from "../domain/webhook-signing";
import { checkWebhookUrl } from "../domain/webhook-urls";
import { auditStatements, type Actor } from "../db/audit-log";
import { wakeDelivery } from "../db/outbox";
import {
  createWebhookStatement,
  deleteWebhookStatement,
  enableWebhookStatement,
  getWebhook,
  outboxEvent,
  scheduleRedeliveryStatement,
  type WebhookRow,
} from "../db/webhooks";
import { ApiError, invalid, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import type { D1Env } from "../db/d1";

/** Subscribe `url` to `events`. 422 for a URL the rules refuse. Answers the row and its secret (shown once). */
export async function createSubscription(env: D1Env, actor: Actor, businessId: number, input: { url: string; events: EventName[] }, now: Date): Promise<{ row: WebhookRow; secret: string }> {
  const db = env.DB;
  const check = checkWebhookUrl(input.url, env.ALLOW_LOOPBACK_WEBHOOKS === "true");
  if (!check.ok) throw invalid("url", check.message);
  const events = [...new Set(input.events)];
  if (!events.length) throw invalid("events", "choose at least one event");
  const secret = generateSecret();
  const id = newId();
  const [created] = await db.batch([
    createWebhookStatement(db, businessId, id, check.url, events, secret, now),
    ...auditStatements(db, businessId, actor, [{ action: "created", entity: "webhook", entityId: id, summary: `Subscribed ${check.url}`, after: { url: check.url, events } }], now),
  ]);
  await wakeDelivery(env, businessId);
  return { row: created.results[0] as unknown as WebhookRow, secret };
}

/** Unsubscribe: nothing more is delivered. 404 for no such subscription. */
export async function deleteSubscription(env: D1Env, actor: Actor, businessId: number, id: string, now: Date): Promise<void> {
  const db = env.DB;
  const hook = await getWebhook(db, businessId, id);
  if (!hook) throw notFound("The webhook");
  const [deleted] = await db.batch([
    deleteWebhookStatement(db, businessId, id, now),
    ...auditStatements(db, businessId, actor, [{ action: "deleted", entity: "webhook", entityId: id, summary: `Unsubscribed ${hook.url}`, before: { url: hook.url, events: JSON.parse(hook.events) } }], now),
  ]);
  if (!deleted.meta.changes) throw notFound("The webhook");
}

/**
 * Deliver one event again: a new series of attempts, now. 404 for no such subscription or an
 * event it does not receive, 409 when it is disabled.
 */
export async function redeliverEvent(env: D1Env, actor: Actor, businessId: number, id: string, eventId: string, now: Date): Promise<{ series: number }> {
  const db = env.DB;
  const hook = await getWebhook(db, businessId, id);
  if (!hook) throw notFound("The webhook");
  if (hook.disabled_at) throw new ApiError(409, "conflict", "The webhook is disabled (its receiver answered 410 Gone).");
  const event = await outboxEvent(db, businessId, eventId);
  const events = JSON.parse(hook.events) as string[];
  if (!event || event.seq <= hook.start_seq || !events.includes(event.event)) throw notFound("The event (for this webhook)");
  const [scheduled] = await db.batch([
    scheduleRedeliveryStatement(db, id, event, now),
    ...auditStatements(db, businessId, actor, [{ action: "redelivered", entity: "webhook", entityId: id, summary: `Redelivery of ${event.event} ${eventId} to ${hook.url}`, after: { event_id: eventId } }], now),
  ]);
  await wakeDelivery(env, businessId);
  return { series: (scheduled.results[0] as { series?: number } | undefined)?.series ?? 1 };
}

/** Enable a subscription a 410 Gone disabled. 404 for no such subscription. */
export async function enableSubscription(env: D1Env, actor: Actor, businessId: number, id: string, now: Date): Promise<void> {
  const db = env.DB;
  const hook = await getWebhook(db, businessId, id);
  if (!hook) throw notFound("The webhook");
  const [enabled] = await db.batch([
    enableWebhookStatement(db, businessId, id),
    ...auditStatements(db, businessId, actor, [{ action: "enabled", entity: "webhook", entityId: id, summary: `Enabled ${hook.url}` }], now),
  ]);
  if (!enabled.meta.changes) throw notFound("The webhook");
  await wakeDelivery(env, businessId);
}
