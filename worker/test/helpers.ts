import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { DEMO_BUSINESS_ID } from "../seed/demo";
import worker from "../src/index";
import { issueKey, type KeyScope } from "../src/lib/keys";
import { lastIdSql } from "../src/db/id-range";
import { placementShard } from "../src/db/shards";

export { DEMO_BUSINESS_ID };
export const BASE = "http://127.0.0.1";

let counter = 0;

/** The database of a business's shard, as the directory says (docs/design.md "Shards"). */
export async function dbOf(businessId: number): Promise<D1Database> {
  const row = await env.DB.prepare("SELECT shard FROM shard_directory WHERE business_id = ?").bind(businessId).first<{ shard: number }>();
  return (row?.shard ?? 0) === 1 ? env.DB_SHARD_1 : env.DB;
}

/** Create an API key for a business straight in D1 (its shard's), as `npm run keys -- create` does. */
export async function createKey(scope: KeyScope, businessId = DEMO_BUSINESS_ID, name?: string): Promise<string> {
  const { token, id, hash } = await issueKey(env.KEY_SIGNING_SECRET, businessId, scope);
  await (await dbOf(businessId)).prepare("INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(id, businessId, name ?? `${scope}-test-${++counter}-${id.slice(0, 8)}`, scope, hash, new Date().toISOString())
    .run();
  return token;
}

let pinned: 0 | 1 | undefined;
/**
 * Every business this test file makes on one shard, not placed by the directory: for the files
 * that still read and write their businesses' rows straight in `env.DB` (shard 0). Left to move
 * to `dbOf(id)` (docs/design.md "Shards").
 */
export function placeBusinessesOn(shard: 0 | 1): void {
  pinned = shard;
}

/** Back to placing by the directory (worker/test/setup.ts, before each file: the files share this module). */
export function placeBusinessesByDirectory(): void {
  pinned = undefined;
}

/**
 * Another, empty business, for isolation tests, on shard `shard` (0: DB, beside the demo business;
 * 1: DB_SHARD_1), or where the directory places it (the shard with fewest businesses: with the
 * demo on shard 0, a file's businesses go to shard 1, 0, 1, ...), so the suite runs on both shards
 * (docs/design.md "Shards"). Its id comes from the directory, as manage/businesses.ts
 * createBusiness gives one; read and write its rows on `await dbOf(id)`.
 */
export async function createBusiness(slug: string, config: Record<string, unknown> = {}, shard?: 0 | 1): Promise<number> {
  const on = shard ?? pinned ?? ((await placementShard(env.DB, 2)) as 0 | 1);
  const claim = await env.DB.prepare(
    `INSERT INTO shard_directory (business_id, slug, shard)
     SELECT MAX(COALESCE((SELECT MAX(business_id) FROM shard_directory), 0), COALESCE((SELECT MAX(id) FROM businesses), 0)) + 1, ?, ? RETURNING business_id`,
  )
    .bind(slug, on)
    .first<{ business_id: number }>();
  const id = claim!.business_id;
  const db = on === 1 ? env.DB_SHARD_1 : env.DB;
  await db.prepare("INSERT INTO businesses (id, slug, title, config, created_at) VALUES (?, ?, ?, ?, ?)").bind(id, slug, `Business ${slug}`, JSON.stringify(config), new Date().toISOString()).run();
  await db.prepare(`INSERT INTO currencies (id, business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (${lastIdSql("currencies")} + 1, ?, 'EUR', 'Euro', '€', 1, 1)`).bind(id).run();
  return id;
}

/**
 * Send a request to the Worker's fetch handler, as `SELF.fetch(input, init)` would, but by calling
 * the default export of worker/src/index.ts directly.
 *
 * Why not SELF: every SELF.fetch crosses a service binding into a fresh handler context of the
 * pool, and in @cloudflare/vitest-pool-workers 0.15.1 that hop gets slower with every call made
 * in the same test file (1,500 GET /healthz: 7 ms for the first 300, 40 s for the last 300) until
 * a long fuzz run dies with "Maximum call stack size exceeded". A direct call stays flat.
 *
 * What the hop supplied, supplied here so the Worker sees the same request:
 * - `Content-Length` for a body (the hop sends the body with its length; a Request built in
 *   JavaScript has no such header). The request-context middleware reads it for the 413 and
 *   415 rules.
 * - `redirect: "manual"`, as on any request that arrives at a Worker.
 * Nothing else: the hop adds no client address (no CF-Connecting-IP or X-Real-IP, so the widget
 * door's per-visitor rate limit keys every test visitor as "local", as before unless a test
 * sets the header) and no `cf` object.
 *
 * `waitUntil` work (the widget's edge-cache writes) is awaited before the response is handed
 * back, so a test never races it; none of it waits on the response body being read.
 */
export async function fetchWorker(input: string | URL, init: RequestInit = {}): Promise<Response> {
  let request = new Request(input, { ...init, redirect: "manual" });
  if (request.body !== null && !request.headers.has("Content-Length")) {
    const bytes = await request.arrayBuffer();
    const headers = new Headers(request.headers);
    headers.set("Content-Length", String(bytes.byteLength));
    request = new Request(request.url, { method: request.method, headers, body: bytes, redirect: "manual" });
  }
  const ctx = createExecutionContext();
  try {
    return await worker.fetch(request, env, ctx);
  } finally {
    await waitOnExecutionContext(ctx);
  }
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
  return fetchWorker(new URL(path, BASE), { method: options.method ?? (body ? "POST" : "GET"), headers, body });
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

/**
 * The real D1, watched: `trip` hears of every round trip (a batch, or a statement run on its own),
 * through the binding or through a session opened on it (`withSession`, whose constraint or
 * bookmark `session` hears), and `beforeBatch` may do something before a batch leaves, knowing its
 * statements' SQL.
 */
export function watchedDb(hooks: { trip?(): void; beforeBatch?(sqls: string[]): Promise<void> | void; session?(constraintOrBookmark: string | undefined): void }, database: D1Database = env.DB): D1Database {
  const sqlOf = new WeakMap<object, string>();
  const wrap = (sql: string, stmt: D1PreparedStatement): D1PreparedStatement => {
    const watched = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(sql, target.bind(...args));
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
          return (...args: unknown[]) => {
            hooks.trip?.();
            return (target as any)[prop](...args);
          };
        }
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    sqlOf.set(watched, sql);
    return watched;
  };
  const watch = <T extends object>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "prepare") return (sql: string) => wrap(sql, (target as unknown as D1Database).prepare(sql));
        if (prop === "batch") {
          return async (stmts: D1PreparedStatement[]) => {
            await hooks.beforeBatch?.(stmts.map((s) => sqlOf.get(s) ?? ""));
            hooks.trip?.();
            return (target as unknown as D1Database).batch(stmts);
          };
        }
        if (prop === "withSession") {
          return (constraintOrBookmark?: string) => {
            hooks.session?.(constraintOrBookmark);
            return watch((target as unknown as D1Database).withSession(constraintOrBookmark));
          };
        }
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  return watch(database);
}
