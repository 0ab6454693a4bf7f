/** The audit log as the API and the back office show it: newest first, before and after as JSON. */
import { listAuditEntries, type AuditQuery } from "../db/audit-log";
import type { D1 } from "../db/d1";

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: "key" | "staff" | "cli"; id: string; name: string };
  action: string;
  entity: string;
  entity_id: string | null;
  summary: string;
  before: unknown;
  after: unknown;
}

export async function listAuditLog(db: D1, businessId: number, filter: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
  const { rows, total } = await listAuditEntries(db, businessId, filter);
  const parse = (text: string | null) => (text === null ? null : JSON.parse(text));
  return {
    total,
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
      action: r.action,
      entity: r.entity,
      entity_id: r.entity_id,
      summary: r.summary,
      before: parse(r.before),
      after: parse(r.after),
    })),
  };
}
