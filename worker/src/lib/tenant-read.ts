import type { Context } from "hono";
import type { LedgerRead } from "../db/catalog";
import { snapshotFrom, snapshotStatements, SNAPSHOT_STATEMENTS, type CatalogSnapshot } from "../db/catalog-snapshot";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";
import { sendTogether } from "./together";
import { waitUntil } from "./wait-until";

/**
 * How a request proves it may read a business, settled by ONE row that D1 returns together with
 * the request's own reads: for an API key, the key's record (revocation is seen at once), for
 * the widget's inner calls, the business itself. Either way the row carries the business's
 * `catalog_version`, which tells whether this process's catalog snapshot is still current.
 */
export interface Access {
  /** The statement whose row settles the request. */
  guard(db: D1Database): D1PreparedStatement;
  /** Checks the row (throws 401/403/404/429 as it must) and answers the catalog version. */
  check(row: Record<string, unknown> | null): Promise<number>;
  /** Headers to send whatever the answer (RateLimit-*). */
  headers: Record<string, string>;
  /** Set once settled. */
  version?: number;
  failure?: unknown;
  /** A settling read under way (calls running side by side wait for it rather than read again). */
  settling?: Promise<number>;
}

/** Access for a request whose door already identified the business (the widget's inner app). */
export function businessAccess(businessId: number): Access {
  return {
    headers: {},
    guard: (db) => db.prepare("SELECT catalog_version FROM businesses WHERE id = ?").bind(businessId),
    async check(row) {
      if (!row) throw new ApiError(404, "not_found", "The business does not exist.");
      return Number(row.catalog_version);
    },
  };
}

async function settleWith(access: Access, row: Record<string, unknown> | null): Promise<number> {
  if (access.failure !== undefined) throw access.failure;
  if (access.version !== undefined) return access.version;
  try {
    access.version = await access.check(row);
    return access.version;
  } catch (err) {
    access.failure = err;
    throw err;
  }
}

/** Settle the request's access on its own (for the routes that read D1 themselves). */
export async function settleAccess(c: Context<AppEnv>): Promise<number> {
  const access = c.get("access");
  if (access.failure !== undefined) throw access.failure;
  if (access.version !== undefined) return access.version;
  access.settling ??= sendTogether(c.env.DB, [access.guard(c.env.DB)], keeper(c)).then((r) =>
    settleWith(access, (r[0].results[0] as Record<string, unknown> | undefined) ?? null),
  );
  return access.settling;
}

// ---- The process's catalog snapshots, per business ----

const snapshots = new Map<number, CatalogSnapshot>();
const MAX_SNAPSHOTS = 256;

function remember(snap: CatalogSnapshot) {
  snapshots.delete(snap.businessId);
  if (snapshots.size >= MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
  snapshots.set(snap.businessId, snap);
}

/** Lets a read this request sends for others too finish even if this request's client goes away. */
const keeper = (c: Context<AppEnv>) => (p: Promise<unknown>) => waitUntil(c, p);

async function loadSnapshot(db: D1Database, businessId: number): Promise<CatalogSnapshot> {
  const snap = snapshotFrom(await db.batch(snapshotStatements(db, businessId)));
  if (!snap) throw new ApiError(404, "not_found", "The business does not exist.");
  remember(snap);
  return snap;
}

/**
 * The business's snapshot at `version` (the catalog version the request's access row showed):
 * this process's own when it is that version, else read again. Without a version, read again.
 */
export async function snapshotAt(db: D1Database, businessId: number, version: number | undefined): Promise<CatalogSnapshot> {
  const snap = snapshots.get(businessId);
  if (snap && version !== undefined && snap.version === version) return snap;
  return loadSnapshot(db, businessId);
}

export interface TenantRead {
  snap: CatalogSnapshot;
  /** The results of the statements `plan` returned, in order. */
  results: D1Result[];
}

/**
 * Everything a catalog answer reads, usually in ONE D1 round trip: the access row (key or
 * business), and the statements `plan` builds from the catalog snapshot (live inventory, say).
 * When this process has no snapshot of the business yet, the snapshot's own statements ride in
 * that round trip and `plan`'s follow in a second. When the access row shows the snapshot is
 * out of date (the catalog changed), it is read again and `plan` re-run on it.
 */
export async function readTenant(c: Context<AppEnv>, plan: (snap: CatalogSnapshot) => D1PreparedStatement[] = () => []): Promise<TenantRead> {
  const db = c.env.DB;
  const access = c.get("access");
  const businessId = c.get("tenant").businessId;
  if (access.failure !== undefined) throw access.failure;
  if (access.settling) await access.settling.catch(() => undefined);
  if (access.failure !== undefined) throw access.failure;
  const needsGuard = access.version === undefined;
  let snap = snapshots.get(businessId);
  const head: D1PreparedStatement[] = needsGuard ? [access.guard(db)] : [];
  const loading = !snap || (!needsGuard && snap.version !== access.version);
  if (loading) head.push(...snapshotStatements(db, businessId));
  const body = loading ? [] : plan(snap!);
  const all = [...head, ...body];
  // With the reads of the other requests under way at the same moment (lib/together.ts).
  const sent = sendTogether(db, all, keeper(c));
  // Reads of the same request running side by side wait for this guard rather than send their own.
  const settled = needsGuard ? sent.then((r) => settleWith(access, (r[0].results[0] as Record<string, unknown> | undefined) ?? null)) : undefined;
  if (settled) {
    access.settling = settled;
    settled.catch(() => undefined);
  }
  const results = await sent;
  const i = settled ? 1 : 0;
  const version = settled ? await settled : access.version!;
  if (loading) {
    const fresh = snapshotFrom(results.slice(i, i + SNAPSHOT_STATEMENTS));
    if (!fresh) throw new ApiError(404, "not_found", "The business does not exist.");
    remember(fresh);
    snap = fresh;
  } else if (snap!.version !== version) {
    snap = await loadSnapshot(db, businessId);
  } else {
    return { snap: snap!, results: results.slice(i) };
  }
  const statements = plan(snap);
  return { snap, results: statements.length ? await db.batch(statements) : [] };
}

/**
 * readTenant for an answer built on one live inventory ledger (a calendar, a package's items or
 * rooms): `plan` picks it on the snapshot (undefined: nothing to read). Answers the snapshot and
 * this request's ledger text ("" when none was planned).
 */
export async function readTenantLedger(c: Context<AppEnv>, plan: (snap: CatalogSnapshot) => LedgerRead | undefined): Promise<{ snap: CatalogSnapshot; ledgerText: string }> {
  let read: LedgerRead | undefined;
  const { snap, results } = await readTenant(c, (s) => {
    read = plan(s);
    return read ? [read.statement] : [];
  });
  return { snap, ledgerText: read?.text(results[0]) ?? "" };
}
