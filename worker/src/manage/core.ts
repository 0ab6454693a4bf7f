/**
 * How every administration change is made (settings, catalog, inventory; by the private API, the
 * catalog file and the back office alike): read the business's catalog state in one round trip,
 * plan the change on it (pure), check that no capacity falls below what is held or booked, then
 * write everything in ONE batch: the change, its audit entries and its webhook events, behind a
 * guard that the catalog is still at the version the plan was made on (and one for capacity,
 * where it can drop). A batch refused by a guard is planned again on what is there now.
 */
import type { CatalogState, ProductEntity } from "../domain/catalog-write";
import { capacityChanged, capacityConflicts, eventOf, rowKey, type CatalogPlan, type CapacityConflict, type InventoryRow, type Usage } from "../domain/catalog-plan";
import type { Actor } from "../db/audit-log";
import { capacityGuard, catalogStateFrom, catalogStateStatements, inventoryRowsFrom, inventoryRowsStatement, planStatements, usageFrom, usageStatement, versionGuard } from "../db/catalog-write";
import { ApiError } from "../lib/errors";
import type { z } from "@hono/zod-openapi";
import { dateIn } from "../lib/time";
import { readConfig } from "../contract/config";
import { write, type Store } from "./write";
import type { D1 } from "../db/d1";

export type { Actor, Store };

/** The business's catalog state; 404 when the business does not exist. */
export async function readState(db: D1, businessId: number): Promise<CatalogState> {
  const state = catalogStateFrom(await db.batch(catalogStateStatements(db, businessId)));
  if (!state) throw new ApiError(404, "not_found", "The business does not exist.");
  return state;
}

/** What a planner answers: the plan, and what the operation gives back once it is written. */
export interface Planned<T> {
  plan: CatalogPlan;
  result: T;
  /** The inventory rows and usage (from today on) of the business's products, when the planner read them already. */
  capacity?: { inventory: Map<number, InventoryRow[]>; usage: Usage[] };
}

export interface CommitOptions {
  /** Plan and check, but write nothing. */
  dryRun?: boolean;
  /** More to read in the state's round trip; their results go to the planner. */
  reads?: (db: D1) => D1PreparedStatement[];
}

const ATTEMPTS = 4;
const RACE = /catalog_changed|capacity_below_used|UNIQUE constraint failed: \w+\.id\b/;

/**
 * Plan on the current state and write the plan (see the module comment) through write(), which
 * tells the delivery object of its events once it committed; answers the planner's result.
 * Nothing is written when the plan changes nothing. `dryRun`: planned and checked, not written.
 */
export async function commit<T>(
  store: Store,
  actor: Actor,
  businessId: number,
  now: Date,
  planner: (state: CatalogState, reads: D1Result[]) => Promise<Planned<T>> | Planned<T>,
  options: CommitOptions = {},
): Promise<Planned<T>> {
  const db = store.DB;
  for (let attempt = 1; ; attempt++) {
    const head = catalogStateStatements(db, businessId);
    const results = await db.batch([...head, ...(options.reads?.(db) ?? [])]);
    const state = catalogStateFrom(results.slice(0, head.length));
    if (!state) throw new ApiError(404, "not_found", "The business does not exist.");
    const planned = await planner(state, results.slice(head.length));
    const { plan } = planned;
    if (plan.changes.length === 0) return planned;
    const affected = affectedProducts(state, plan);
    // From the business's today on (its date in its time zone): nothing before it can be booked.
    const today = dateIn(now, readConfig(JSON.stringify(state.settings.config)).config.time_zone);
    if (affected.length) {
      const known = planned.capacity;
      const conflicts = known ? capacityConflictsOf(affected, plan, known.inventory, known.usage, today) : await findCapacityConflicts(db, businessId, affected, plan, today, now);
      if (conflicts.length) throw capacityError(conflicts);
    }
    if (options.dryRun) return planned;
    const statements = [
      versionGuard(db, businessId, state.version),
      ...planStatements(db, businessId, plan, now),
      ...(affected.length ? [capacityGuard(db, businessId, affected.map((p) => p.id), today, now)] : []),
    ];
    try {
      await write(store, actor, businessId, now, {
        statements,
        audit: plan.changes.map((c) => ({ action: c.action, entity: c.entity, entityId: c.entity_id === null ? null : String(c.entity_id), summary: c.summary, before: c.before, after: c.after })),
        events: plan.changes.map(eventOf),
      });
      return planned;
    } catch (err) {
      const message = String((err as Error)?.message ?? err);
      if (!RACE.test(message)) throw err;
      if (attempt >= ATTEMPTS) throw new ApiError(409, "conflict", "The catalog kept changing while this change was being made; try again.");
    }
  }
}

/** Products (as they would be) whose capacity the plan can change: rules of capacity, or inventory rows. */
function affectedProducts(state: CatalogState, plan: CatalogPlan): ProductEntity[] {
  const out = new Map<number, ProductEntity>();
  for (const { before, after } of plan.products) if (capacityChanged(before, after)) out.set(after.id, after);
  for (const inv of plan.inventory) {
    const p = plan.products.find((x) => x.after.id === inv.productId)?.after ?? state.products.find((x) => x.id === inv.productId);
    if (p) out.set(p.id, p);
  }
  return [...out.values()];
}

async function findCapacityConflicts(db: D1, businessId: number, products: ProductEntity[], plan: CatalogPlan, today: string, now: Date): Promise<CapacityConflict[]> {
  const ids = products.map((p) => p.id);
  const [rows, usage] = await db.batch([inventoryRowsStatement(db, businessId, ids, today), usageStatement(db, businessId, ids, today, "9999-12-31", now)]);
  return capacityConflictsOf(products, plan, inventoryRowsFrom(rows), usageFrom(usage), today);
}

function capacityConflictsOf(products: ProductEntity[], plan: CatalogPlan, current: Map<number, InventoryRow[]>, used: Usage[], today: string): CapacityConflict[] {
  const out: CapacityConflict[] = [];
  for (const p of products) {
    const byKey = new Map<string, InventoryRow>((current.get(p.id) ?? []).map((r) => [rowKey(r.date, r.slot), r]));
    for (const inv of plan.inventory.filter((i) => i.productId === p.id)) {
      for (const r of inv.remove) byKey.delete(rowKey(r.date, r.slot));
      for (const r of inv.upsert) byKey.set(rowKey(r.date, r.slot), r);
    }
    out.push(...capacityConflicts(p, [...byKey.values()], used, today));
  }
  return out;
}

function capacityError(conflicts: CapacityConflict[]): ApiError {
  const shown = conflicts.slice(0, 50);
  const list = shown.map((c) => `${c.title} on ${c.date}${c.slot ? ` ${c.slot}` : ""}: capacity ${c.capacity}, ${c.booked} booked, ${c.held} held`).join("; ");
  return new ApiError(409, "capacity_below_used", `The capacity would fall below what is held or booked: ${list}${conflicts.length > shown.length ? `; and ${conflicts.length - shown.length} more` : ""}.`, {
    errors: shown.map((c) => ({ path: `${c.product_id}/${c.date}${c.slot ? `/${c.slot}` : ""}`, message: `capacity ${c.capacity} < ${c.booked} booked + ${c.held} held` })),
  });
}

/**
 * The input checked against its contract shape (zod): the private API's routes checked it already,
 * but the back office and the CLIs hand their forms and files straight here. 422 naming each bad
 * field (an unknown one by its own path), as the API's validation answers.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "The body"): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = result.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: [...issue.path, key].map(String).join("."), message: "is not a field of this object" }))
      : [withIssue({ path: issue.path.map(String).join(".") || "body", message: issue.message }, issue)],
  );
  failIfInvalid(errors, what);
  throw new Error("unreachable");
}

/**
 * A field error carrying its zod issue's kind and limits, unseen by JSON (the API's answer is as
 * before): the back office words the error in the staff's language from it (routes/admin/kit/form.ts).
 */
function withIssue<E extends { path: string; message: string }>(e: E, issue: z.core.$ZodIssue): E {
  const i = issue as unknown as Record<string, unknown>;
  Object.defineProperty(e, "issue", { value: { code: issue.code, minimum: i.minimum, maximum: i.maximum, expected: i.expected, format: i.format, origin: i.origin }, enumerable: false });
  return e;
}

/** 422 listing every field error, or nothing. */
export function failIfInvalid(errors: { path: string; message: string }[], what = "The body"): void {
  if (!errors.length) return;
  throw new ApiError(422, "validation_failed", `${what} is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
}
