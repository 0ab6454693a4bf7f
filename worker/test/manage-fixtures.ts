/** Shared by the administration's tests: a business of its own with its keys, and calls as its owner. */
import { env } from "cloudflare:test";
import { callJson, createBusiness, createKey, dbOf, type CallOptions } from "./helpers";

let seq = 0;

export interface AdminBusiness {
  businessId: number;
  slug: string;
  privateKey: string;
  publicKey: string;
  keyName: string;
  /** Call the private API as the owner (its key). */
  admin<T = any>(path: string, options?: Omit<CallOptions, "key">): Promise<{ status: number; headers: Headers; body: T }>;
  /** Call the public API v2 with the business's public key. */
  pub<T = any>(path: string, options?: Omit<CallOptions, "key">): Promise<{ status: number; headers: Headers; body: T }>;
}

/** An empty business (one currency, EUR), as `business create` makes it, with a private and a public key. */
export async function adminBusiness(config: Record<string, unknown> = {}): Promise<AdminBusiness> {
  const slug = `admin-${Date.now().toString(36)}-${++seq}`;
  const businessId = await createBusiness(slug, { rate_limit_per_minute: 100_000, ...config });
  const keyName = `owner-${seq}`;
  const privateKey = await createKey("private", businessId, keyName);
  const publicKey = await createKey("public", businessId);
  return {
    businessId,
    slug,
    privateKey,
    publicKey,
    keyName,
    admin: (path, options = {}) => callJson(`/private${path}`, { ...options, key: privateKey }),
    pub: (path, options = {}) => callJson(`/api/pub/v2${path}`, { ...options, key: publicKey }),
  };
}

/** What a refused change must leave as it was: the catalog's version, the audit log, the outbox. */
export async function footprint(businessId: number) {
  const db = await dbOf(businessId);
  const one = (sql: string) => db.prepare(sql).bind(businessId).first<Record<string, unknown>>();
  return {
    version: (await one("SELECT CAST(catalog_version AS TEXT) AS v FROM businesses WHERE id = ?"))?.v,
    audit: (await one("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?"))?.n,
    outbox: (await one("SELECT COUNT(*) AS n FROM outbox WHERE business_id = ?"))?.n,
    ledger: (await one("SELECT COALESCE((SELECT version FROM ledger_versions WHERE business_id = ?), 0) AS v"))?.v,
  };
}

/** The next date on a weekday (0 = Sunday) at least `daysAhead` days after 2026-11-21 (the tests' clock). */
export function weekdayAfter(day: number, daysAhead = 30, from = "2026-11-21"): string {
  const d = new Date(Date.parse(`${from}T00:00:00Z`) + daysAhead * 86_400_000);
  while (d.getUTCDay() !== day) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The tests' clock (X-Test-Now). */
export const NOW = "2026-11-21T10:00:00.000Z";
