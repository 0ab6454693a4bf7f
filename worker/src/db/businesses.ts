import { parseConfig } from "../contract/config";
import type { Business, BusinessRow } from "../domain/catalog";

/**
 * SQL: the business `b` is at the catalog version bound here, as this process knows it. A
 * catalog_version is a 64-bit random number and JavaScript holds it as the nearest double, so
 * the column is compared as that same double.
 */
export const CATALOG_VERSION_IS = "CAST(b.catalog_version AS REAL) = ?";

/** The first statement of a fused access check: aborts the batch unless `condition` holds. */
export function accessGuardStatement(db: D1Database, condition: string, ...params: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO access_guard (ok) SELECT EXISTS (${condition})`).bind(...params);
}


const toBusiness = (row: BusinessRow): Business => ({ ...row, config: parseConfig(row.config) });

export async function businessById(db: D1Database, id: number): Promise<Business | null> {
  const row = await db.prepare("SELECT * FROM businesses WHERE id = ?").bind(id).first<BusinessRow>();
  return row ? toBusiness(row) : null;
}

export async function businessBySlug(db: D1Database, slug: string): Promise<Business | null> {
  const row = await db.prepare("SELECT * FROM businesses WHERE slug = ?").bind(slug).first<BusinessRow>();
  return row ? toBusiness(row) : null;
}

export interface KeyRecord {
  id: string;
  name: string;
  scope: "public" | "private";
  key_hash: string;
  revoked_at: string | null;
  business_id: number;
  slug: string;
  config: string;
  catalog_version: number;
}

/** The key's record joined with its business, in one read (checked on every request). */
export function keyRecordStatement(db: D1Database, keyId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT k.id, k.name, k.scope, k.key_hash, k.revoked_at, k.business_id, b.slug, b.config, b.catalog_version
         FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.id = ?`,
    )
    .bind(keyId);
}

/**
 * The first statement of a write that opens a cart with an API key: aborts the batch
 * ('access_refused') unless the key is the business's, unrevoked, of `scope`, and the business's
 * catalog is still at `catalogVersion` (what the key's check asks of its record, in SQL).
 */
export function keyAccessGuardStatement(
  db: D1Database,
  key: { keyId: string; businessId: number; keyHash: string; scope: string },
  catalogVersion: number,
): D1PreparedStatement {
  return accessGuardStatement(
    db,
    `SELECT 1 FROM api_keys k JOIN businesses b ON b.id = k.business_id
      WHERE k.id = ? AND k.business_id = ? AND k.key_hash = ? AND k.revoked_at IS NULL AND k.scope = ? AND ${CATALOG_VERSION_IS}`,
    key.keyId,
    key.businessId,
    key.keyHash,
    key.scope,
    catalogVersion,
  );
}

/** The key's name (for the request's log line). */
export function keyNameStatement(db: D1Database, keyId: string): D1PreparedStatement {
  return db.prepare("SELECT name FROM api_keys WHERE id = ?").bind(keyId);
}
