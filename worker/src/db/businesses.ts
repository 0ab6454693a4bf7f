import { parseConfig, type BusinessConfig } from "../contract/config";

export interface BusinessRow {
  id: number;
  slug: string;
  title: string;
  company_name: string;
  frontoffice_domain: string;
  config: string;
}

export interface Business extends Omit<BusinessRow, "config"> {
  config: BusinessConfig;
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
