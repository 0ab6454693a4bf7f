import { env, SELF } from "cloudflare:test";
import { DEMO_BUSINESS_ID } from "../seed/demo";
import { issueKey, type KeyScope } from "../src/lib/keys";

export { DEMO_BUSINESS_ID };
export const BASE = "http://127.0.0.1";

let counter = 0;

/** Create an API key for a business straight in D1, as `npm run keys -- create` does. */
export async function createKey(scope: KeyScope, businessId = DEMO_BUSINESS_ID, name?: string): Promise<string> {
  const { token, id, hash } = await issueKey(env.KEY_SIGNING_SECRET, businessId, scope);
  await env.DB.prepare("INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(id, businessId, name ?? `${scope}-test-${++counter}-${id.slice(0, 8)}`, scope, hash, new Date().toISOString())
    .run();
  return token;
}

/** A second, empty business for isolation tests. */
export async function createBusiness(slug: string, config: Record<string, unknown> = {}): Promise<number> {
  const row = await env.DB.prepare("INSERT INTO businesses (slug, title, config, created_at) VALUES (?, ?, ?, ?) RETURNING id")
    .bind(slug, `Business ${slug}`, JSON.stringify(config), new Date().toISOString())
    .first<{ id: number }>();
  await env.DB.prepare("INSERT INTO currencies (business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (?, 'EUR', 'Euro', '€', 1, 1)")
    .bind(row!.id)
    .run();
  return row!.id;
}

export interface CallOptions {
  key?: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Drive the service's clock (tests only). */
  now?: Date | string;
}

/** Call the Worker as an HTTP client would. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (options.now) headers["X-Test-Now"] = typeof options.now === "string" ? options.now : options.now.toISOString();
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return SELF.fetch(new URL(path, BASE).toString(), { method: options.method ?? (body ? "POST" : "GET"), headers, body });
}

/** Call and parse JSON, returning status, headers and body together. */
export async function callJson<T = any>(path: string, options: CallOptions = {}) {
  const res = await call(path, options);
  const text = await res.text();
  let json: T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = text as unknown as T;
  }
  return { status: res.status, headers: res.headers, body: json };
}

/** The next date from `from` (default: today) that falls on the given weekday (0 = Sunday). */
export function nextWeekday(day: number, from = new Date(), minDaysAhead = 7): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + minDaysAhead));
  while (d.getUTCDay() !== day) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
