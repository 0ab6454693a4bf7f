import type { Context } from "hono";
import type { LedgerRead } from "./catalog";
import { snapshotFrom, snapshotStatements, SNAPSHOT_STATEMENTS } from "./catalog-snapshot";
import type { Access, AppEnv } from "./request-env";
import { ApiError } from "../lib/errors";
import { sendBatch } from "./send";
import type { CatalogSnapshot } from "../domain/catalog";
import { accessGuardStatement, CATALOG_VERSION_IS } from "./businesses";
import { processMemory } from "../lib/process-memory";
import type { D1 } from "./d1";


/** The business's catalog version (the row is missing when the business is gone). */
const versionStatement = (db: D1, businessId: number) => db.prepare("SELECT catalog_version FROM businesses WHERE id = ?").bind(businessId);

/** Access for a request whose door already identified the business (the widget's inner app). */
export function businessAccess(businessId: number): Access {
  return {
    headers: {},
    guard: (db) => versionStatement(db, businessId),
    async check(row) {
      if (!row) throw new ApiError(404, "not_found", "The business does not exist.");
      return Number(row.catalog_version);
    },
    async fused(db, snap) {
      // The door found the business and took the visitor's rate limit.
      const guard = accessGuardStatement(db, `SELECT 1 FROM businesses b WHERE b.id = ? AND ${CATALOG_VERSION_IS}`, businessId, snap.version);
      return { statements: [guard], settle() {} };
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
  access.settling ??= requestSender(c)([access.guard(c.env.DB)]).then((r) =>
    settleWith(access, (r[0].results[0] as Record<string, unknown> | undefined) ?? null),
  );
  return access.settling;
}

/** A request's access check made inside its write (fuseAccess). */
export interface FusedAccess {
  /** The catalog version the write is built on. */
  version: number;
  /** To put first in the write's batch. */
  statements: D1PreparedStatement[];
  /** Once the write is made, with the results of `statements`: the access is settled. */
  settle(results: D1Result[]): void;
}

/**
 * For a write whose first D1 round trip is the write itself (opening a cart): the request's access
 * check rides inside the write's own transaction instead of a round trip before it, so the write
 * is made only if the key (or the widget's business) holds, and on this process's catalog
 * snapshot only if the catalog has not changed since. Null when the access is settled or being
 * settled already, or this process has no snapshot of the business: the caller settles it first.
 * A write whose batch aborts with 'access_refused' is answered by settling the usual way (which
 * says why: 401, 403, 404), or run again when the check holds after all (the catalog changed).
 */
export async function fuseAccess(c: Context<AppEnv>): Promise<FusedAccess | null> {
  const access = c.get("access");
  if (!access.fused || access.version !== undefined || access.failure !== undefined || access.settling) return null;
  const snap = snapshots.get(c.get("tenant").businessId);
  if (!snap) return null;
  let fused: Awaited<ReturnType<NonNullable<Access["fused"]>>>;
  try {
    fused = await access.fused(c.env.DB, snap);
  } catch (err) {
    access.failure = err;
    throw err;
  }
  return {
    version: snap.version,
    statements: fused.statements,
    settle(results) {
      fused.settle(results);
      access.version = snap.version;
    },
  };
}

// ---- The process's catalog snapshots, per business ----

const snapshots = processMemory(new Map<number, CatalogSnapshot>());
const MAX_SNAPSHOTS = 256;

function remember(snap: CatalogSnapshot) {
  snapshots.delete(snap.businessId);
  if (snapshots.size >= MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
  snapshots.set(snap.businessId, snap);
}

/**
 * How a request sends its D1 batches, one transaction each: on its own (db/send.ts), or, on the
 * cart routes, through the business's cart desk (the request's `send`, carts/desk.ts).
 */
export function requestSender(c: Context<AppEnv>): (statements: D1PreparedStatement[]) => Promise<D1Result[]> {
  return c.get("send") ?? ((statements) => sendBatch(c.env.DB, statements));
}

async function loadSnapshot(db: D1, businessId: number): Promise<CatalogSnapshot> {
  const snap = snapshotFrom(await db.batch(snapshotStatements(db, businessId)));
  if (!snap) throw new ApiError(404, "not_found", "The business does not exist.");
  remember(snap);
  return snap;
}

/**
 * The business's snapshot at `version` (the catalog version the request's access row showed):
 * this process's own when it is that version, else read again. Without a version, read again.
 */
export async function snapshotAt(db: D1, businessId: number, version: number | undefined): Promise<CatalogSnapshot> {
  const snap = snapshots.get(businessId);
  if (snap && version !== undefined && snap.version === version) return snap;
  return loadSnapshot(db, businessId);
}

/**
 * A snapshot for a reader that reads other rows in the same round trip (an e-mail's composer): the
 * statements to put first in its batch, and how to take the snapshot from their results. When this
 * process remembers a snapshot of the business, they are one statement (the business's catalog
 * version): the remembered snapshot when it is that version, else it is read again (a second round
 * trip, after a change of catalog or settings). Else they are the snapshot's own statements.
 * `take` answers null when the business is gone.
 */
export function snapshotInBatch(db: D1, businessId: number): { statements: D1PreparedStatement[]; take(results: D1Result[]): Promise<CatalogSnapshot | null> } {
  const fresh = (results: D1Result[]) => {
    const snap = snapshotFrom(results);
    if (snap) remember(snap);
    return snap;
  };
  const known = snapshots.get(businessId);
  if (!known) return { statements: snapshotStatements(db, businessId), take: async (results) => fresh(results) };
  return {
    statements: [versionStatement(db, businessId)],
    async take(results) {
      const row = results[0]?.results[0] as { catalog_version: unknown } | undefined;
      if (!row) return null;
      return known.version === Number(row.catalog_version) ? known : fresh(await db.batch(snapshotStatements(db, businessId)));
    },
  };
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
  const sent = requestSender(c)(all);
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
