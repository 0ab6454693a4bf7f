import type { D1 } from "./d1";
/** Idempotency-Key records: the only SQL of the idempotency middleware (middleware/idempotency.ts). */

/** How long a key is remembered by default (the scheduled upkeep, db/maintenance.ts, forgets older ones). */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;

export interface IdempotencyRow {
  route: string;
  request_hash: string;
  state: "running" | "done";
  response_status: number | null;
  response_body: string | null;
  resource: string | null;
}

/** Forgets the business's records created at or before `before` (ISO datetime). */
export function forgetExpiredKeysStatement(db: D1, businessId: number, before: string): D1PreparedStatement {
  return db.prepare("DELETE FROM idempotency WHERE business_id = ? AND created_at <= ?").bind(businessId, before);
}

/**
 * Claims `key` for a request: inserts its record as running, or takes over a record whose request
 * died while running (created at or before `staleBefore`, same request, nothing made). Its
 * `changes` say whether the request owns the key now.
 */
export function claimKeyStatement(db: D1, businessId: number, key: string, route: string, hash: string, created: string, staleBefore: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO idempotency (business_id, key, route, request_hash, state, created_at) VALUES (?, ?, ?, ?, 'running', ?)
       ON CONFLICT (business_id, key) DO UPDATE SET route = excluded.route, request_hash = excluded.request_hash,
         state = 'running', response_status = NULL, response_body = NULL, created_at = excluded.created_at
       WHERE idempotency.state = 'running' AND idempotency.created_at <= ? AND idempotency.request_hash = excluded.request_hash
         AND idempotency.resource IS NULL`,
    )
    .bind(businessId, key, route, hash, created, staleBefore);
}

/** The record of `key`, as IdempotencyRow. */
export function keyRecordStatement(db: D1, businessId: number, key: string): D1PreparedStatement {
  return db.prepare("SELECT route, request_hash, state, response_status, response_body, resource FROM idempotency WHERE business_id = ? AND key = ?").bind(businessId, key);
}

/** Records the answer of the request that owns `key` (onlyRunning: only while it is still running). */
export function recordAnswerStatement(db: D1, businessId: number, key: string, status: number, body: string, onlyRunning = false): D1PreparedStatement {
  return db
    .prepare(`UPDATE idempotency SET state = 'done', response_status = ?, response_body = ? WHERE business_id = ? AND key = ?${onlyRunning ? " AND state = 'running'" : ""}`)
    .bind(status, body, businessId, key);
}

/** Forgets a running record under which nothing was made, so that the request's retry runs. */
export function forgetRunningKeyStatement(db: D1, businessId: number, key: string): D1PreparedStatement {
  return db.prepare("DELETE FROM idempotency WHERE business_id = ? AND key = ? AND state = 'running' AND resource IS NULL").bind(businessId, key);
}

/**
 * For the batch that makes a request's change: records what it made (a cart or booking id) on
 * the request's Idempotency-Key, in the same transaction, so that a retry after the process died
 * before the answer was recorded gets that resource (the route's `replay`), never a second one.
 */
export function idempotencyResourceStatement(db: D1, businessId: number, key: string, resource: string): D1PreparedStatement {
  return db.prepare("UPDATE idempotency SET resource = ? WHERE business_id = ? AND key = ? AND state = 'running'").bind(resource, businessId, key);
}

