import { insertRowsStatements } from "./insert-rows";
import type { PendingEvent } from "../domain/events";
import { isoDateTime } from "../lib/time";
import { newId } from "../lib/ids";
import type { D1 } from "./d1";


/** A new event id, also the `webhook-id` of every delivery of that event. */
export function newEventId(): string {
  return `evt_${newId().replaceAll("-", "")}`;
}

/**
 * The INSERT of events into the outbox, in order (their `seq` follows it), as one statement (none
 * for no event). Put it in the same `db.batch` as the change it reports: the batch is one
 * transaction, so no change is kept without its event and no event is written for a change that
 * failed.
 */
export function outboxStatements(db: D1, businessId: number, events: PendingEvent[], now: Date): D1PreparedStatement[] {
  return insertRowsStatements(
    db,
    "outbox",
    { business_id: businessId, created_at: isoDateTime(now) },
    ["id", "event", "data"],
    events.map((e) => [newEventId(), e.event, JSON.stringify(e.data)]),
  );
}

/** The business's WebhookDelivery Durable Object (one per business). */
export function deliveryStub(env: Pick<Env, "WEBHOOK_DELIVERY">, businessId: number) {
  return env.WEBHOOK_DELIVERY.get(env.WEBHOOK_DELIVERY.idFromName(`business:${businessId}`));
}

/**
 * After a batch with outbox rows committed: the business's WebhookDelivery DO delivers them now
 * (the caller does not wait for the deliveries). Never throws: the events are safe in D1 and the
 * DO's alarm, set while subscriptions exist, delivers them anyway.
 */
export function kickDelivery(env: Pick<Env, "WEBHOOK_DELIVERY">, businessId: number, requestId?: string): Promise<void> {
  return tell(businessId, "webhook kick failed", () => deliveryStub(env, businessId).kick(businessId, requestId), requestId);
}

/**
 * After a subscription was made or enabled, or a redelivery scheduled: the DO's alarm is set to
 * now, so from here on an alarm stands while the subscription lives. Never throws (the periodic
 * sweep of another live subscription, or the next wake, catches up).
 */
export function wakeDelivery(env: Pick<Env, "WEBHOOK_DELIVERY">, businessId: number): Promise<void> {
  return tell(businessId, "webhook wake failed", () => deliveryStub(env, businessId).wake(businessId));
}

async function tell(businessId: number, msg: string, call: () => Promise<void>, requestId?: string): Promise<void> {
  try {
    await call();
  } catch (err) {
    console.error(JSON.stringify({ level: "warn", msg, business: businessId, request_id: requestId, error: String(err) }));
  }
}
