/**
 * The audit log (migrations 0200 and 0300 make it): one row per change, written in the batch of the
 * change by manage/ (settings, catalog, bookings, guests, keys, staff, ...), read by GET
 * /private/audit and the back office.
 */
import { newId } from "../lib/ids";
import { isoDateTime } from "../lib/time";
import { insertRowsStatements } from "./insert-rows";
import type { D1 } from "./d1";

/** Who made a change: an API key (its name), a staff user of the back office, or a CLI. */
export interface Actor {
  kind: "key" | "staff" | "cli";
  id: string;
  name: string;
  /** The request that made the change (its X-Request-Id), when a request did: the delivery objects' log lines of the work it caused carry it. Not audited. */
  requestId?: string;
}

/** One audited change. */
export interface AuditEntry {
  action: string;
  entity: string;
  entityId: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
}

/** The audit rows of some changes, as ONE statement (none for no change): put it in the change's batch. */
export function auditStatements(db: D1, businessId: number, actor: Actor, entries: AuditEntry[], now: Date): D1PreparedStatement[] {
  const base = now.getTime();
  return insertRowsStatements(
    db,
    "audit_log",
    { business_id: businessId, at: isoDateTime(now), actor_kind: actor.kind, actor_id: actor.id, actor_name: actor.name },
    ["id", "action", "entity", "entity_id", "summary", "before", "after"],
    entries.map((e, i) => [
      orderedId(base, i),
      e.action,
      e.entity,
      e.entityId,
      e.summary.slice(0, 500),
      e.before === undefined || e.before === null ? null : JSON.stringify(e.before),
      e.after === undefined || e.after === null ? null : JSON.stringify(e.after),
    ]),
  );
}

/** A UUID v7 of `ms` whose 12 bits after the version are `n` (the ids of one batch sort in its order). */
function orderedId(ms: number, n: number): string {
  const id = newId(ms);
  return `${id.slice(0, 15)}${(n % 4096).toString(16).padStart(3, "0")}${id.slice(18)}`;
}

export interface AuditRow {
  id: string;
  at: string;
  actor_kind: Actor["kind"];
  actor_id: string;
  actor_name: string;
  action: string;
  entity: string;
  entity_id: string | null;
  summary: string;
  before: string | null;
  after: string | null;
}

export interface AuditQuery {
  /** One entity kind, or several. */
  entity?: string | string[];
  entityId?: string;
  action?: string[];
  /** An actor's name (or id). */
  actor?: string;
  /** `at` from / to (ISO datetimes, both included). */
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

/** One page of a business's audit log, newest first, and the count of all that match. */
export async function listAuditEntries(db: D1, businessId: number, q: AuditQuery): Promise<{ rows: AuditRow[]; total: number }> {
  const where = ["business_id = ?"];
  const params: (string | number)[] = [businessId];
  const entities = q.entity === undefined ? undefined : Array.isArray(q.entity) ? q.entity : [q.entity];
  if (entities?.length) {
    where.push(`entity IN (${entities.map(() => "?").join(", ")})`);
    params.push(...entities);
  }
  if (q.entityId !== undefined) {
    where.push("entity_id = ?");
    params.push(q.entityId);
  }
  if (q.action?.length) {
    where.push(`action IN (${q.action.map(() => "?").join(", ")})`);
    params.push(...q.action);
  }
  if (q.actor) {
    where.push("(actor_name = ? OR actor_id = ?)");
    params.push(q.actor, q.actor);
  }
  if (q.from !== undefined) {
    where.push("at >= ?");
    params.push(q.from);
  }
  if (q.to !== undefined) {
    where.push("at <= ?");
    params.push(q.to);
  }
  const w = where.join(" AND ");
  const [page, count] = await db.batch([
    db
      .prepare(`SELECT id, at, actor_kind, actor_id, actor_name, action, entity, entity_id, summary, before, after FROM audit_log WHERE ${w} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE ${w}`).bind(...params),
  ]);
  return { rows: page.results as unknown as AuditRow[], total: (count.results[0] as { n: number }).n };
}
