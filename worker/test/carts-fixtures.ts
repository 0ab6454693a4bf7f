/** Shared fixtures of the cart tests: businesses with small inventories, guests, calls. */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { callJson, createBusiness, createKey, dbOf, nextWeekday, type CallOptions } from "./helpers";
import { cartTimerOf } from "../src/carts/timer";

let seq = 0;
let productSeq = 90_000;

/** A business of its own (limits raised so a crowd of buyers with one key is not throttled). */
export async function cartBusiness(config: Record<string, unknown> = {}) {
  const slug = `carts-${Date.now().toString(36)}-${++seq}`;
  const businessId = await createBusiness(slug, {
    rate_limit_per_minute: 100_000,
    max_open_carts_per_client: 1000,
    guest_fields: { birthday: { request: true, required: false }, minimum_age: 0 },
    customer_fields: { address: { request: true, required: false }, phone: { request: true, required: false }, minimum_age: 18 },
    ...config,
  });
  const key = await createKey("public", businessId);
  return { businessId, key };
}

/**
 * A package of `capacity` units per night, any check-in day, any stay from one night, priced
 * 100.00 per person per night. Returns its id.
 */
export async function smallPackage(businessId: number, capacity: number, title = "Tiny Retreat"): Promise<number> {
  const id = ++productSeq;
  const db = await dbOf(businessId);
  await db.prepare(
    `INSERT INTO products (id, business_id, type, title, backoffice_title, duration, default_capacity, created_at)
     VALUES (?, ?, 'package', ?, ?, ?, ?, ?)`,
  )
    .bind(id, businessId, title, `PKG-${id}`, JSON.stringify({ is_flexible: true, min: 1, default: 1, unit: "day", variants: [] }), capacity, "2026-01-01T00:00:00Z")
    .run();
  await db.prepare("INSERT INTO rates (business_id, product_id, amount_minor, unit, per) VALUES (?, ?, 10000, 'person', 'night')").bind(businessId, id).run();
  return id;
}

/** Sets one night's capacity of a product (an inventory row). */
export async function setCapacity(businessId: number, productId: number, date: string, capacity: number, slot = "") {
  await (await dbOf(businessId)).prepare("INSERT OR REPLACE INTO inventory (business_id, product_id, date, slot, capacity, blocked) VALUES (?, ?, ?, ?, ?, 0)")
    .bind(businessId, productId, date, slot, capacity)
    .run();
}

export function guest(packageId: number, start: string, end: string, extra: Record<string, unknown> = {}) {
  const n = ++seq;
  return {
    first_name: `Ana${n}`,
    last_name: "Silva",
    email: `guest${n}@example.com`,
    gender: "f",
    birth_date: "1990-05-01",
    package: { id: packageId, start_date: start, end_date: end },
    ...extra,
  };
}

export const customer = (extra: Record<string, unknown> = {}) => ({
  first_name: "Maria",
  last_name: "Costa",
  email: `buyer${++seq}@example.com`,
  phone: "912345678",
  phone_countrycode: 351,
  country: "Portugal",
  ...extra,
});

/** A clock for a test: a fixed instant and later instants relative to it. */
export function clock(start = "2026-11-21T10:00:00.000Z") {
  const t0 = Date.parse(start);
  return (seconds = 0) => new Date(t0 + seconds * 1000).toISOString();
}

export const stay = (nights = 2, daysAhead = 30) => {
  const start = nextWeekday(1, new Date("2026-11-21T00:00:00Z"), daysAhead);
  const end = new Date(Date.parse(`${start}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10);
  return { start, end };
};

/** helpers' callJson under a short name (kept for the files that import it from here). */
export const api = <T = any>(path: string, options: CallOptions = {}) => callJson<T>(path, options);

export async function addToCart(key: string, body: Record<string, unknown>, now: string, headers: Record<string, string> = {}) {
  return callJson("/api/pub/v2/bookings/add", { key, body: { currency: "EUR", ...body }, now, headers });
}

/** Live units of a product on a date, counted in D1 as the trigger counts them (on both shards: ids are unique across them). */
export async function liveUnits(productId: number, date: string, now: string, slot = ""): Promise<number> {
  return count(
    `SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE product_id = ? AND date = ? AND slot = ?
       AND released_at IS NULL AND (booking_id IS NOT NULL OR expires_at > ?)`,
    productId, date, slot, now,
  );
}

/**
 * A COUNT or SUM `n` over both shards added up (the tests' businesses are on both; ids are unique
 * across shards, so a query naming a row or a business finds it on its shard only).
 */
export async function count(sql: string, ...params: unknown[]): Promise<number> {
  const rows = await Promise.all([env.DB, env.DB_SHARD_1].map((db) => db.prepare(sql).bind(...params).first<{ n: number | null }>()));
  const values = rows.map((r) => r?.n ?? null).filter((n): n is number => n !== null);
  return (values.length ? values.reduce((a, b) => a + b, 0) : null) as number;
}

/** The expiry timer of a business's carts. */
export function timerStub(businessId: number) {
  return cartTimerOf(env, businessId);
}

/**
 * The grain of workerd's wall clock as two isolates read it: Date.now() moves only at I/O, so the
 * test and a Durable Object may read instants a few ms apart for one moment. Not a tolerance for
 * a slow machine: a bound taken around a call stays right however long the call takes.
 */
export const CLOCK_GRAIN_MS = 50;

/** When the business's timer rings (wall clock ms), null when it is not set. */
export async function timerAlarm(businessId: number): Promise<number | null> {
  return runInDurableObject(timerStub(businessId), (_object, state) => state.storage.getAlarm());
}

/**
 * Rings the business's cart timer now (no waiting), sweeping with the clock `at`; true when its
 * alarm was set. A new cart arms the timer after its answer: a set alarm is waited for a moment.
 */
export async function fireCartTimer(businessId: number, at: string): Promise<boolean> {
  await armed(businessId);
  await timerStub(businessId).setTestNow(businessId, at);
  return runDurableObjectAlarm(timerStub(businessId));
}

/** Waits a moment for the timer's alarm (new carts arm it after their answer). */
async function armed(businessId: number): Promise<void> {
  const deadline = Date.now() + 1000;
  while ((await timerAlarm(businessId)) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/**
 * What a crash right after new carts were written, before their business's timer heard of them,
 * leaves: the carts in D1 and no alarm for them. (Waits for the carts' arming first, then undoes it.)
 */
export async function loseTimer(businessId: number): Promise<void> {
  await armed(businessId);
  await runInDurableObject(timerStub(businessId), async (_object, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  });
}
