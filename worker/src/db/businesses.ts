import { readConfig, type BusinessConfig } from "../contract/config";
import type { Business, BusinessRow } from "../domain/catalog";
import { isoDateTime } from "../lib/time";
import { processMemory } from "../lib/process-memory";
import type { D1 } from "./d1";
import { lastIdSql } from "./id-range";

/**
 * SQL: the business `b` is at the catalog version bound here, as this process knows it. A
 * catalog_version is a 64-bit random number and JavaScript holds it as the nearest double, so
 * the column is compared as that same double.
 */
export const CATALOG_VERSION_IS = "CAST(b.catalog_version AS REAL) = ?";

/** The first statement of a fused access check: aborts the batch unless `condition` holds. */
export function accessGuardStatement(db: D1, condition: string, ...params: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO access_guard (ok) SELECT EXISTS (${condition})`).bind(...params);
}


/** Config texts whose problems were logged already (per business), so a bad field is logged once per process, not per request. */
const logged = processMemory(new Map<number, string>());

/**
 * A business's stored configuration, field by field (contract/config.ts readConfig): a field that
 * does not parse takes its default here and is logged, once, as an error naming the business and
 * the field; every valid field is kept. GET /private/settings reports the same problems, and the
 * stored text stays as it is until a PATCH fixes it: nothing is reset silently.
 */
export function businessConfig(businessId: number, text: string | null | undefined): BusinessConfig {
  const { config, problems } = readConfig(text);
  if (problems.length && logged.get(businessId) !== text) {
    if (logged.size >= 1_000) logged.clear();
    logged.set(businessId, text ?? "");
    for (const p of problems) {
      console.error(JSON.stringify({ level: "error", msg: "business config field invalid; its default is used until it is fixed", business: businessId, field: p.field, problem: p.message }));
    }
  }
  return config;
}

const toBusiness = (row: BusinessRow): Business => ({ ...row, config: businessConfig(row.id, row.config) });

export async function businessById(db: D1, id: number): Promise<Business | null> {
  const row = await db.prepare("SELECT * FROM businesses WHERE id = ?").bind(id).first<BusinessRow>();
  return row ? toBusiness(row) : null;
}

export async function businessBySlug(db: D1, slug: string): Promise<Business | null> {
  const row = await db.prepare("SELECT * FROM businesses WHERE slug = ?").bind(slug).first<BusinessRow>();
  return row ? toBusiness(row) : null;
}

export interface BusinessListRow {
  id: number;
  slug: string;
  title: string;
  created_at: string;
}

/** Every business, in id order (the business CLI's list). */
export async function listBusinesses(db: D1): Promise<BusinessListRow[]> {
  return (await db.prepare("SELECT id, slug, title, created_at FROM businesses ORDER BY id").all<BusinessListRow>()).results;
}

/** A new business and its one default currency, to write in one batch (with its audit entry). */
export function insertBusinessStatements(
  db: D1,
  b: { id: number; slug: string; title: string; companyName: string; config: string },
  currency: { isoCode: string; title: string; symbol: string },
  now: Date,
): D1PreparedStatement[] {
  return [
    db.prepare("INSERT INTO businesses (id, slug, title, company_name, config, created_at) VALUES (?, ?, ?, ?, ?, ?)").bind(b.id, b.slug, b.title, b.companyName, b.config, isoDateTime(now)),
    db.prepare(`INSERT INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (${lastIdSql("currencies")} + 1, ?, ?, ?, ?, 1, 1)`).bind(b.id, currency.isoCode, currency.title, currency.symbol),
  ];
}

export const isDuplicateSlug = (err: unknown) => /UNIQUE constraint failed: businesses\.slug/.test(String((err as Error)?.message ?? err));
export const isBusinessIdTaken = (err: unknown) => /UNIQUE constraint failed: businesses\.id/.test(String((err as Error)?.message ?? err));

/** The business of a slug with the id the directory claimed for it, made bare when missing: a demo placed on another shard (`npm start`). */
export function ensureBusinessWithIdStatement(db: D1Database, id: number, b: { slug: string; title: string; createdAt: string }): D1PreparedStatement {
  return db.prepare("INSERT OR IGNORE INTO businesses (id, slug, title, created_at) VALUES (?, ?, ?, ?)").bind(id, b.slug, b.title, b.createdAt);
}

/** The business of a slug, made bare (title only) when it is missing: the demo's, before its catalog file is applied. */
export function ensureBusinessStatement(db: D1, b: { slug: string; title: string; createdAt: string }): D1PreparedStatement {
  return db.prepare("INSERT OR IGNORE INTO businesses (slug, title, created_at) VALUES (?, ?, ?)").bind(b.slug, b.title, b.createdAt);
}

export interface KeyRecord {
  id: string;
  name: string;
  scope: "public" | "private";
  key_hash: string;
  revoked_at: string | null;
  business_id: number;
  slug: string;
  /** The business's settings rate_limit_per_minute as stored (null: not set, or the settings are not JSON). */
  rate_limit_per_minute: unknown;
  catalog_version: number;
}

/**
 * The key's record joined with its business, in one read (checked on every request). Of the
 * business's settings only the rate limit, which the check applies: the settings' whole text
 * (kilobytes) made every catalog read's answer from D1 several times larger.
 */
export function keyRecordStatement(db: D1, keyId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT k.id, k.name, k.scope, k.key_hash, k.revoked_at, k.business_id, b.slug, b.catalog_version,
              CASE WHEN json_valid(b.config) THEN json_extract(b.config, '$.rate_limit_per_minute') END AS rate_limit_per_minute
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
  db: D1,
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
export function keyNameStatement(db: D1, keyId: string): D1PreparedStatement {
  return db.prepare("SELECT name FROM api_keys WHERE id = ?").bind(keyId);
}

/** Whether the business has any product, archived ones included (npm start seeds the demo only when it has none). */
export async function hasAnyProduct(db: D1, businessId: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS one FROM products WHERE business_id = ? LIMIT 1").bind(businessId).first()) !== null;
}
