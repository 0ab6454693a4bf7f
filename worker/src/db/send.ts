import type { D1 } from "./d1";
/**
 * Sends a request's statements to D1 as one transaction (all or nothing) and answers their
 * results in order. A single statement goes alone (`all()`), which D1 serves without a batch.
 * Each request sends its own batches: nothing is shared with, or waits on, another request.
 */
export function sendBatch(db: D1, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  if (statements.length === 0) return Promise.resolve([]);
  return statements.length === 1 ? statements[0].all().then((r) => [r]) : db.batch(statements);
}
