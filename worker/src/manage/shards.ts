/**
 * Moving a business from one shard to another (docs/design.md "Shards"; `npm run shard -- move`):
 *
 * 1. mark: the directory says the business is moving; every door refuses its writes from then on
 *    (503 business_moving, Retry-After) and its Durable Objects postpone their runs; reads are
 *    still served, from the shard it is leaving. The shard it leaves is marked too (shard_leaving,
 *    migration 0540): it refuses a cart write sent on a directory entry read before the mark, and
 *    keeps refusing it after the business left.
 * 2. grace: wait for writes that passed the door before the mark to finish (a request's D1 work is
 *    bounded; 30 s by default from the CLI).
 * 3. copy: every row of the business (db/shard-move.ts finds its tables) into the target shard, in
 *    one transaction there.
 * 4. verify: each table's row count and SHA-256 of its rows, on both shards, must be equal; else
 *    the copy is removed from the target and the move is given up, nothing lost.
 * 5. switch: the directory names the target and takes writes again.
 * 6. delete: once the reads a process may still send to the old shard on a directory entry read
 *    before the switch are over (DIRECTORY_READ_TTL_MS), the business's rows leave the old shard
 *    (one transaction).
 *
 * A failure before the switch gives the move up (the directory keeps the old shard, the copy is
 * removed), so the business is never without its rows.
 */
import { businessRows, businessTables, copyBusinessRows, deleteBusinessRows, holdsBusiness, tableSum, type BusinessTable } from "../db/shard-move";
import { DIRECTORY_READ_TTL_MS, directoryById, markLeaving, markMoving, shardsOf, switchShard, unmarkLeaving } from "../db/shards";
import { ApiError } from "../lib/errors";
import { isoDateTime } from "../lib/time";

export interface MoveReport {
  businessId: number;
  from: number;
  to: number;
  /** Per table: the rows moved and their checksum, equal on both shards. */
  tables: { name: string; rows: number; sha256: string }[];
  rows: number;
}

export type ShardStore = Pick<Env, "DB"> & Partial<Pick<Env, "DB_SHARD_1">>;

export async function moveBusiness(
  store: ShardStore,
  businessId: number,
  to: number,
  options: { now: Date; graceMs: number; staleReadsMs?: number; log?: (line: string) => void },
): Promise<MoveReport> {
  const shards = shardsOf(store);
  const log = options.log ?? (() => {});
  if (!Number.isInteger(to) || to < 0 || to >= shards.length) throw new ApiError(422, "validation_failed", `There is no shard ${to}; the shards are 0 to ${shards.length - 1}.`);
  const entry = await directoryById(store.DB, businessId);
  const from = entry?.shard ?? 0;
  const source = shards[from];
  const target = shards[to];
  const business = await holdsBusiness(source, businessId);
  if (!business) throw new ApiError(404, "not_found", `No business ${businessId} on shard ${from}.`);
  if (from === to) throw new ApiError(409, "conflict", `Business ${businessId} already lives on shard ${to}.`);
  if (await holdsBusiness(target, businessId)) throw new ApiError(409, "conflict", `Shard ${to} already holds rows of business ${businessId} (a move given up half-way?); nothing was changed.`);
  if (!(await markMoving(store.DB, businessId, business.slug, isoDateTime(options.now)))) {
    throw new ApiError(409, "conflict", `Business ${businessId} is being moved already.`);
  }
  log(`marked business ${businessId} (${business.slug}) moving from shard ${from} to ${to}: its writes are refused`);
  let tables: BusinessTable[] = [];
  let copied = false;
  try {
    // The shard it leaves refuses the cart writes sent on a directory entry read before the mark
    // (middleware/shard.ts remembers one for a few seconds): from now on, nothing new is written there.
    await markLeaving(source, businessId, isoDateTime(options.now));
    if (options.graceMs > 0) {
      log(`waiting ${options.graceMs} ms for writes that passed the door before the mark`);
      await new Promise((resolve) => setTimeout(resolve, options.graceMs));
    }
    tables = await businessTables(source);
    const rows = new Map<string, Record<string, unknown>[]>();
    for (const table of tables) rows.set(table.name, await businessRows(source, table, businessId));
    let count: number;
    try {
      count = await copyBusinessRows(target, tables, rows, businessId);
    } catch (err) {
      throw new ApiError(409, "conflict", `The copy into shard ${to} was refused, nothing was written there: ${String((err as Error)?.message ?? err)}. Row ids are numbered per shard; see docs/design.md "Shards".`);
    }
    copied = true;
    log(`copied ${count} rows of ${tables.length} tables`);
    const sums: MoveReport["tables"] = [];
    for (const table of tables) {
      const [a, b] = [await tableSum(source, table, businessId), await tableSum(target, table, businessId)];
      if (a.rows !== b.rows || a.sha256 !== b.sha256) throw new Error(`verify failed on ${table.name}: ${a.rows} rows (${a.sha256.slice(0, 12)}) on shard ${from}, ${b.rows} (${b.sha256.slice(0, 12)}) on shard ${to}`);
      if (a.rows) sums.push({ name: table.name, ...a });
    }
    log(`verified ${sums.length} tables (row counts and SHA-256 equal)`);
    await switchShard(store.DB, businessId, to);
    log(`switched: business ${businessId} lives on shard ${to}; writes are taken again`);
    // A read may still be sent to the old shard on a directory entry read before the switch
    // (middleware/shard.ts): the old shard keeps the business until every such entry has expired.
    const staleMs = options.staleReadsMs ?? DIRECTORY_READ_TTL_MS + 1_000;
    if (staleMs > 0) await new Promise((resolve) => setTimeout(resolve, staleMs));
    await deleteBusinessRows(source, tables, businessId);
    log(`deleted its rows from shard ${from}`);
    return { businessId, from, to, tables: sums, rows: count };
  } catch (err) {
    // Given up before the switch: the copy goes, the business stays where it was and takes writes again.
    if ((await directoryById(store.DB, businessId))?.shard !== to) {
      if (copied) await deleteBusinessRows(target, tables, businessId);
      await unmarkLeaving(source, businessId);
      await switchShard(store.DB, businessId, from);
      log(`move given up; business ${businessId} stays on shard ${from}`);
    }
    throw err;
  }
}
