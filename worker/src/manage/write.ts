/**
 * The one way manage/ writes a change, whichever door asks (the private API, the back office, a
 * CLI): the change's statements, its audit entries, its webhook events and its e-mails in ONE
 * batch (one transaction), and once it committed, the change's effects: the business's webhook
 * delivery object is told when the batch wrote events, its mail object when it wrote e-mails. The
 * doors hand manage/ their bindings and never tell the objects themselves, so none can forget to.
 */
import { auditStatements, type Actor, type AuditEntry } from "../db/audit-log";
import { forgetBusiness } from "../db/business-memo";
import { kickMail } from "../db/emails";
import { kickDelivery, outboxStatements } from "../db/outbox";
import type { PendingEvent } from "../domain/events";
import type { D1 } from "../db/d1";

/**
 * What a change is written to, and who is told after it committed. The Worker's doors pass their
 * env; a CLI, which reaches D1 through wrangler and no Durable Object, passes `{ DB }` only: its
 * events and e-mails wait in D1 for the objects' own sweep (the delivery alarm, the upkeep).
 */
/** The Worker's bindings a change needs: D1, and (from the Worker, not a CLI) the objects it tells and the operator's sending configuration. */
export type Store = { DB: D1 } & Partial<Pick<Env, "DB_SHARD_1" | "WEBHOOK_DELIVERY" | "EMAIL_DELIVERY" | "EMAIL_SENDING_DOMAINS" | "EMAIL_DEFAULT_FROM">>;

export interface Change {
  /** The change itself, guards included, in order: their results come first in the answer. */
  statements: D1PreparedStatement[];
  /** Its audit entries, written by `actor`. */
  audit?: AuditEntry[];
  /** The webhook events that report it (written to the outbox, delivered at once after). */
  events?: PendingEvent[];
  /** Its e-mails' statements (db/emails.ts emailStatements), sent at once after. */
  emails?: D1PreparedStatement[];
}

/** Write the change in one batch, then run its after-commit effects; answers the batch's results. */
export async function write(store: Store, actor: Actor, businessId: number, now: Date, change: Change): Promise<D1Result[]> {
  const db = store.DB;
  const events = change.events ?? [];
  const emails = change.emails ?? [];
  const results = await db.batch([
    ...change.statements,
    ...auditStatements(db, businessId, actor, change.audit ?? [], now),
    ...outboxStatements(db, businessId, events, now),
    ...emails,
  ]);
  // this process's widget door reads the business again on its next request (other processes within half a second: db/business-memo.ts)
  forgetBusiness(businessId);
  await afterCommit(store, businessId, { events: events.length > 0, emails: emails.length > 0 }, actor.requestId);
  return results;
}

/** Tell the business's objects what a committed batch wrote (neither throws: what they send is safe in D1). */
async function afterCommit(store: Store, businessId: number, wrote: { events: boolean; emails: boolean }, requestId: string | undefined): Promise<void> {
  const { WEBHOOK_DELIVERY, EMAIL_DELIVERY } = store;
  await Promise.all([
    wrote.events && WEBHOOK_DELIVERY ? kickDelivery({ WEBHOOK_DELIVERY }, businessId, requestId) : undefined,
    wrote.emails && EMAIL_DELIVERY ? kickMail({ EMAIL_DELIVERY }, businessId, requestId) : undefined,
  ]);
}
