import { ApiError } from "../lib/errors";
import { processMemory } from "../lib/process-memory";

/**
 * Shards (docs/design.md "Shards"): a business lives wholly on one D1 database, its shard. `DB` is
 * shard 0 and also the directory (table shard_directory, migration 0470), which says where each
 * business lives and where new ones go. The doors read the directory once per request and hand the
 * rest of the code an Env whose `DB` is the business's shard (onShard), made per request and never
 * shared; the Durable Objects, one per business, do the same for their business (businessEnv).
 */

/**
 * How long a process may answer a READ from the directory entry it read before (middleware/shard.ts):
 * a write always reads the directory. A move waits this long after switching before it deletes the
 * business from the old shard, so a read sent there on an entry read before the switch still finds it.
 */
export const DIRECTORY_READ_TTL_MS = 5_000;

/**
 * Directory entries this process read, by "id:<n>" or "slug:<s>", with when they were read (ms): a
 * plain value in memory, never a promise (middleware/shard.ts decides who may use one).
 */
const remembered = processMemory(new Map<string, { entry: DirectoryEntry | null; at: number }>());
const REMEMBERED_MAX = 10_000;

/** The entry read under `key` less than DIRECTORY_READ_TTL_MS before `now`, if any (undefined: read it). */
export function rememberedEntry(key: string, now: number): { entry: DirectoryEntry | null } | undefined {
  const known = remembered.get(key);
  return known && now - known.at < DIRECTORY_READ_TTL_MS && now >= known.at ? known : undefined;
}

export function rememberEntry(key: string, entry: DirectoryEntry | null, now: number): void {
  if (remembered.size >= REMEMBERED_MAX) remembered.clear();
  remembered.set(key, { entry, at: now });
}

/** Forget what this process read of the business (a shard refused its write: it is moving or moved). */
export function forgetEntriesOf(businessId: number): void {
  for (const [key, known] of remembered) if (known.entry?.business_id === businessId || key === `id:${businessId}`) remembered.delete(key);
}

/** The shards' bindings, in order: the index is what the directory stores. */
export const SHARD_BINDINGS = ["DB", "DB_SHARD_1"] as const;

/** The bindings present in this Env (a CLI's Env may hold DB only). */
export function shardsOf(env: Partial<Pick<Env, (typeof SHARD_BINDINGS)[number]>>): D1Database[] {
  const dbs: D1Database[] = [];
  for (const name of SHARD_BINDINGS) {
    const db = env[name];
    if (!db) break;
    dbs.push(db);
  }
  return dbs;
}

export function shardDb(env: Env, shard: number): D1Database {
  const db = shardsOf(env)[shard];
  if (!db) throw new Error(`shard ${shard} has no D1 binding (${SHARD_BINDINGS[shard] ?? `DB_SHARD_${shard}`} in wrangler.toml)`);
  return db;
}

/** This Env with `DB` being shard `shard`'s database: a new object, for one request or one run. */
export function onShard<E extends Env>(env: E, shard: number): E {
  return shard === 0 ? env : { ...env, DB: shardDb(env, shard) };
}

export interface DirectoryEntry {
  business_id: number;
  slug: string;
  shard: number;
  moving_since: string | null;
}

/** A business absent from the directory lives on shard 0, where every business was made before it. */
export async function directoryById(directory: D1Database, businessId: number): Promise<DirectoryEntry | null> {
  return directory.prepare("SELECT business_id, slug, shard, moving_since FROM shard_directory WHERE business_id = ?").bind(businessId).first<DirectoryEntry>();
}

export async function directoryBySlug(directory: D1Database, slug: string): Promise<DirectoryEntry | null> {
  return directory.prepare("SELECT business_id, slug, shard, moving_since FROM shard_directory WHERE slug = ?").bind(slug).first<DirectoryEntry>();
}

export async function directoryList(directory: D1Database): Promise<DirectoryEntry[]> {
  return (await directory.prepare("SELECT business_id, slug, shard, moving_since FROM shard_directory ORDER BY business_id").all<DirectoryEntry>()).results;
}

/** The Env of a business's shard (the Durable Objects' and the CLIs' way in), with its entry. */
export async function businessEnv<E extends Env>(env: E, businessId: number): Promise<{ env: E; entry: DirectoryEntry | null }> {
  const entry = await directoryById(env.DB, businessId);
  return { env: onShard(env, entry?.shard ?? 0), entry };
}

/**
 * Where a new business goes: the shard with the fewest businesses in the directory (the lowest
 * index on a tie), among the `count` shards this Env reaches.
 */
export async function placementShard(directory: D1Database, count: number): Promise<number> {
  const rows = (await directory.prepare("SELECT shard, COUNT(*) AS n FROM shard_directory GROUP BY shard").all<{ shard: number; n: number }>()).results;
  const counts = Array.from({ length: count }, (_, i) => rows.find((r) => r.shard === i)?.n ?? 0);
  return counts.indexOf(Math.min(...counts));
}

/**
 * Claims a new business's id and slug in the directory, on `shard`: the id is one past the largest
 * the directory or shard 0 ever gave (ids stay unique across shards). Throws a UNIQUE error on
 * shard_directory.slug when the slug is taken.
 */
export async function claimBusiness(directory: D1Database, slug: string, shard: number): Promise<number> {
  const row = await directory
    .prepare(
      `INSERT INTO shard_directory (business_id, slug, shard)
       SELECT MAX(COALESCE((SELECT MAX(business_id) FROM shard_directory), 0), COALESCE((SELECT MAX(id) FROM businesses), 0)) + 1, ?, ?
       RETURNING business_id`,
    )
    .bind(slug, shard)
    .first<{ business_id: number }>();
  return row!.business_id;
}

/** A claim whose business was not made after all. */
export async function releaseClaim(directory: D1Database, businessId: number): Promise<void> {
  await directory.prepare("DELETE FROM shard_directory WHERE business_id = ?").bind(businessId).run();
}

export const isDirectorySlugTaken = (err: unknown) => /UNIQUE constraint failed: shard_directory\.slug/.test(String((err as Error)?.message ?? err));

/** The business is being moved (the doors refuse its writes) since `at`; false when it already was. */
export async function markMoving(directory: D1Database, businessId: number, slug: string, at: string): Promise<boolean> {
  const res = await directory
    .prepare(
      `INSERT INTO shard_directory (business_id, slug, shard, moving_since) VALUES (?, ?, 0, ?)
       ON CONFLICT (business_id) DO UPDATE SET moving_since = excluded.moving_since WHERE shard_directory.moving_since IS NULL`,
    )
    .bind(businessId, slug, at)
    .run();
  return res.meta.changes > 0;
}

/**
 * On the shard a business is leaving, at the start of its move: from then on a batch that starts
 * with the shard guard (SHARD_GUARD_SQL) is refused there (migration 0540). Kept once the business has left.
 */
export async function markLeaving(shard: D1Database, businessId: number, at: string): Promise<void> {
  await shard.prepare("INSERT INTO shard_leaving (business_id, since) VALUES (?, ?) ON CONFLICT (business_id) DO UPDATE SET since = excluded.since").bind(businessId, at).run();
}

/** The business stays on (or comes back to) this shard: its guarded batches are taken again. */
export const unmarkLeavingStatement = (shard: D1Database, businessId: number) => shard.prepare("DELETE FROM shard_leaving WHERE business_id = ?").bind(businessId);
export async function unmarkLeaving(shard: D1Database, businessId: number): Promise<void> {
  await unmarkLeavingStatement(shard, businessId).run();
}

/**
 * The shard guard, bound to a business id: first in every batch the cart desk sends (its callers may
 * have found the shard on a directory entry a moment old), it refuses the batch, whole, with
 * `business_moving` on a shard the business is leaving or has left (migration 0540).
 */
export const SHARD_GUARD_SQL = "INSERT INTO shard_guard (ok) SELECT NOT EXISTS (SELECT 1 FROM shard_leaving WHERE business_id = ?)";

/** Seconds a refused write is told to wait: a move of a business of thousands of bookings takes a few. */
export const MOVING_RETRY_AFTER = 30;

/** The answer to a write of a business that is being moved (the door's refusal, or the shard guard's). */
export const businessMoving = () =>
  new ApiError(503, "business_moving", "This business is being moved to another database for a moment; nothing was changed. Send the request again shortly.", {
    headers: { "Retry-After": String(MOVING_RETRY_AFTER) },
  });

/** The move is done (or given up): the business is on `shard`, writes are taken again. */
export async function switchShard(directory: D1Database, businessId: number, shard: number): Promise<void> {
  await directory.prepare("UPDATE shard_directory SET shard = ?, moving_since = NULL WHERE business_id = ?").bind(shard, businessId).run();
}

/** The shard whose staff_invites holds this token's hash (an invitation's link names no business): each shard asked once, side by side. */
export async function shardOfInvite(dbs: D1Database[], tokenHash: string): Promise<number | null> {
  const found = await Promise.all(dbs.map((db) => db.prepare("SELECT 1 AS ok FROM staff_invites WHERE token_hash = ?").bind(tokenHash).first()));
  const shard = found.findIndex((row) => row !== null);
  return shard < 0 ? null : shard;
}

/**
 * The database of a business for a Durable Object's run (one object per business: each finds its
 * own shard, so the objects scale with the businesses whatever shard they are on). Throws while the
 * business is being moved: the run fails and its alarm tries again, on the shard it moved to.
 */
export async function businessDb(env: Env, businessId: number): Promise<D1Database> {
  const { env: shardEnv, entry } = await businessEnv(env, businessId);
  if (entry?.moving_since) throw new Error(`business ${businessId} is being moved to another shard; its run is retried`);
  return shardEnv.DB;
}
