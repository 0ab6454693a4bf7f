import type { D1 } from "./d1";
/**
 * The readiness check's read of D1 (routes/health.ts /readyz): the database answers a query, and
 * it is the shard its binding says (its id range, migration 0490: a shard whose range was never set
 * would give ids that clash with shard 0's; shard 0's range is the default).
 */
export async function d1Answers(db: D1, shard = 0): Promise<boolean> {
  const row = await db
    .prepare("SELECT (SELECT shard FROM id_range WHERE single = 1) AS shard, EXISTS (SELECT 1 FROM businesses) AS any_business")
    .first<{ shard: number | null }>()
    .catch(() => undefined);
  if (!row) return false;
  return row.shard === shard || (row.shard === null && shard === 0);
}
