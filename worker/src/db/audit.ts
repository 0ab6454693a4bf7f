/**
 * The audit log (migration 0200): one row per changed entity, written in the batch of the change
 * (manage/), read by GET /private/audit.
 */
import type { Change } from "../domain/catalog-plan";
import { newId } from "../lib/ids";
import { isoDateTime } from "../lib/time";
import { insertRowsStatements } from "./insert-rows";

/** Who made a change: an API key (its name), a staff user of the back office, or the catalog CLI. */
export interface Actor {
  kind: "key" | "staff" | "cli";
  id: string;
  name: string;
}

/** The audit rows of some changes, as ONE statement (none for no change). */
export function auditStatements(db: D1Database, businessId: number, actor: Actor, changes: Change[], now: Date): D1PreparedStatement[] {
  const at = isoDateTime(now);
  const base = now.getTime();
  return insertRowsStatements(
    db,
    "audit_log",
    { business_id: businessId, at, actor_kind: actor.kind, actor_id: actor.id, actor_name: actor.name },
    ["id", "action", "entity", "entity_id", "summary", "before", "after"],
    // Ids in the order of the changes (UUID v7 sorts by time, then by its random part: a counter
    // keeps one batch's entries in order).
    changes.map((c, i) => [
      orderedId(base, i),
      c.action,
      c.entity,
      c.entity_id === null ? null : String(c.entity_id),
      c.summary,
      c.before === null || c.before === undefined ? null : JSON.stringify(c.before),
      c.after === null || c.after === undefined ? null : JSON.stringify(c.after),
    ]),
  );
}

/** A UUID v7 of `ms` whose 12 bits after the version are `n` (so the ids of one batch sort in its order). */
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

export interface AuditFilter {
  entity?: string[];
  entityId?: string;
  action?: string[];
  actor?: string;
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

/** One page of a business's audit log, newest first, and the count of all that match. */
export async function listAudit(db: D1Database, businessId: number, f: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
  const where = ["business_id = ?"];
  const params: (string | number)[] = [businessId];
  if (f.entity) {
    where.push(`entity IN (${f.entity.map(() => "?").join(", ")})`);
    params.push(...f.entity);
  }
  if (f.entityId !== undefined) {
    where.push("entity_id = ?");
    params.push(f.entityId);
  }
  if (f.action) {
    where.push(`action IN (${f.action.map(() => "?").join(", ")})`);
    params.push(...f.action);
  }
  if (f.actor !== undefined) {
    where.push("(actor_name = ? OR actor_id = ?)");
    params.push(f.actor, f.actor);
  }
  if (f.from !== undefined) {
    where.push("at >= ?");
    params.push(f.from);
  }
  if (f.to !== undefined) {
    where.push("at <= ?");
    params.push(f.to);
  }
  const w = where.join(" AND ");
  const [page, count] = await db.batch([
    db.prepare(`SELECT id, at, actor_kind, actor_id, actor_name, action, entity, entity_id, summary, before, after FROM audit_log WHERE ${w} ORDER BY id DESC LIMIT ? OFFSET ?`).bind(...params, f.limit, (f.page - 1) * f.limit),
    db.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE ${w}`).bind(...params),
  ]);
  return { rows: page.results as unknown as AuditRow[], total: (count.results[0] as { n: number }).n };
}
