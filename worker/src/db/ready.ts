import type { D1 } from "./d1";
/** The readiness check's read of D1 (routes/health.ts /readyz): the database answers a query. */
export async function d1Answers(db: D1): Promise<boolean> {
  const row = await db.prepare("SELECT 1 AS one FROM businesses LIMIT 1").first<{ one: number }>().catch(() => undefined);
  return row !== undefined;
}
