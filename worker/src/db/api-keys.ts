import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

export interface ApiKeyRow {
  id: string;
  name: string;
  scope: "public" | "private";
  created_at: string;
  revoked_at: string | null;
}

export async function listApiKeyRows(db: D1, businessId: number): Promise<ApiKeyRow[]> {
  return (await db.prepare("SELECT id, name, scope, created_at, revoked_at FROM api_keys WHERE business_id = ? ORDER BY revoked_at IS NOT NULL, created_at, name").bind(businessId).all<ApiKeyRow>()).results;
}

/** The business's active key of a name (the keys CLI names keys; names of active keys are unique). */
export async function activeApiKeyByName(db: D1, businessId: number, name: string): Promise<ApiKeyRow | null> {
  return db.prepare("SELECT id, name, scope, created_at, revoked_at FROM api_keys WHERE business_id = ? AND name = ? AND revoked_at IS NULL").bind(businessId, name).first<ApiKeyRow>();
}

/** A new key's record; the partial unique index refuses a second active key of the same name. */
export function insertApiKeyStatement(db: D1, businessId: number, key: { id: string; name: string; scope: string; hash: string }, now: Date): D1PreparedStatement {
  return db
    .prepare("INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(key.id, businessId, key.name, key.scope, key.hash, isoDateTime(now));
}

export async function apiKeyRow(db: D1, businessId: number, id: string): Promise<ApiKeyRow | null> {
  return db.prepare("SELECT id, name, scope, created_at, revoked_at FROM api_keys WHERE id = ? AND business_id = ?").bind(id, businessId).first<ApiKeyRow>();
}

/** Batch guard: the key is the business's and active when the batch commits. */
export function activeKeyGuard(db: D1, businessId: number, id: string): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'key_active', EXISTS (SELECT 1 FROM api_keys WHERE id = ? AND business_id = ? AND revoked_at IS NULL)").bind(id, businessId);
}

/** Revoke an active key (every request checks the record: it stops at once). */
export function revokeApiKeyStatement(db: D1, businessId: number, id: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND business_id = ? AND revoked_at IS NULL").bind(isoDateTime(now), id, businessId);
}

export const isDuplicateKeyName = (err: unknown) => /UNIQUE constraint failed: api_keys\.(business_id|name)/.test(String((err as Error)?.message ?? err));
