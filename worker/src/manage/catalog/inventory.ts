/**
 * A product's inventory over dates: capacity per date (or slot) where it differs from the
 * product's own, and blocked dates. Read with what is held and booked; changed only where no
 * capacity falls below that (409 listing the dates and counts).
 */
import { InventoryPatch } from "../../contract/catalog-write";
import { ledgerKey, slotState } from "../../domain/availability";
import { capacityProduct, editInventory, emptyPlan, planInventory, type InventoryRow } from "../../domain/catalog-plan";
import { scheduledCapacity, slotsOn } from "../../domain/product";
import { catalogStateFrom, catalogStateStatements, inventoryRowsFrom, inventoryRowsStatement, usageFrom, usageStatement } from "../../db/catalog-write";
import { ApiError, type FieldError } from "../../lib/errors";
import { addDays, dateIn, dateRange, daysBetween } from "../../lib/time";
import { readConfig } from "../../contract/config";
import { commit, failIfInvalid, parseInput, type Actor, type Store } from "../core";
import { findProduct } from "./products";
import type { D1 } from "../../db/d1";

export const MAX_INVENTORY_READ_DAYS = 366;
export const MAX_INVENTORY_EDIT_DAYS = 731;

export interface InventoryDayView {
  date: string;
  slot: string;
  capacity: number | null;
  source: "default" | "schedule" | "override" | "blocked" | "off_schedule";
  blocked: boolean;
  booked: number;
  held: number;
  available: number | null;
}

/** Every date of [from, to] (and each of its slots, for a timeslot product): capacity, where it comes from, booked, held. */
export async function getInventory(db: D1, businessId: number, productId: number, q: { from?: string; to?: string }, now: Date) {
  const head = catalogStateStatements(db, businessId);
  let from = q.from;
  if (from === undefined) {
    // Default: the business's today (its date in its time zone).
    const state = catalogStateFrom(await db.batch(head));
    from = dateIn(now, state ? readConfig(JSON.stringify(state.settings.config)).config.time_zone : "UTC");
  }
  const to = q.to ?? addDays(from, 30);
  const errors: FieldError[] = [];
  if (to < from) errors.push({ path: "to", message: "must not be before from" });
  else if (daysBetween(from, to) > MAX_INVENTORY_READ_DAYS) errors.push({ path: "to", message: `at most ${MAX_INVENTORY_READ_DAYS} days after from` });
  failIfInvalid(errors, "The query");
  const results = await db.batch([...head, inventoryRowsStatement(db, businessId, [productId], from, to), usageStatement(db, businessId, [productId], from, to, now)]);
  const state = catalogStateFrom(results.slice(0, head.length));
  if (!state) throw new ApiError(404, "not_found", "The business does not exist.");
  const product = findProduct(state, productId);
  const rows = inventoryRowsFrom(results[head.length]).get(productId) ?? [];
  const usage = usageFrom(results[head.length + 1]);
  const ledger = { inventory: new Map(rows.map((r) => [ledgerKey(r.date, r.slot), { capacity: r.capacity, blocked: r.blocked }])), allocated: new Map<string, number>() };
  const byKey = new Map(rows.map((r) => [ledgerKey(r.date, r.slot), r]));
  const used = new Map(usage.map((u) => [ledgerKey(u.date, u.slot), u]));
  const cp = capacityProduct(product);
  const days: InventoryDayView[] = [];
  for (const date of dateRange(from, to)) {
    const slots = cp.is_on_timeslots ? ["", ...new Set([...slotsOn(cp, date), ...rows.filter((r) => r.date === date && r.slot !== "").map((r) => r.slot)])] : [""];
    for (const slot of slots) {
      const key = ledgerKey(date, slot);
      const u = used.get(key);
      const s = slotState(cp, ledger, date, slot);
      const row = byKey.get(key);
      const dayBlocked = slot !== "" && byKey.get(ledgerKey(date, ""))?.blocked;
      const source: InventoryDayView["source"] =
        s.blocked || dayBlocked ? "blocked" : row?.override ? "override" : slot !== "" && scheduledCapacity(cp, date, slot) === undefined ? "off_schedule" : slot !== "" ? "schedule" : "default";
      const booked = u?.booked ?? 0;
      const held = u?.held ?? 0;
      days.push({ date, slot, capacity: s.capacity, source, blocked: s.blocked, booked, held, available: s.capacity === null ? null : Math.max(0, s.capacity - booked - held) });
    }
  }
  return { product_id: productId, from, to, days };
}

/** Set capacity and/or block over a range of dates (see InventoryPatch). */
export async function updateInventory(store: Store, actor: Actor, businessId: number, productId: number, input: InventoryPatch, now: Date) {
  const db = store.DB;
  const patch = parseInput(InventoryPatch, input);
  const errors: FieldError[] = [];
  if (patch.to < patch.from) errors.push({ path: "to", message: "must not be before from" });
  else if (daysBetween(patch.from, patch.to) > MAX_INVENTORY_EDIT_DAYS) errors.push({ path: "to", message: `at most ${MAX_INVENTORY_EDIT_DAYS} days after from` });
  if (patch.capacity === undefined && patch.blocked === undefined) errors.push({ path: "capacity", message: "send capacity, blocked, or both" });
  failIfInvalid(errors);
  await commit(store, actor, businessId, now, async (state) => {
    const product = findProduct(state, productId);
    const slot = patch.slot ?? "";
    if (slot !== "" && !product.timeslots.some((t) => t.time === slot)) {
      failIfInvalid([{ path: "slot", message: `${product.title} has no timeslot at ${slot}${product.timeslots.length ? ` (its timeslots: ${[...new Set(product.timeslots.map((t) => t.time))].join(", ")})` : ""}` }]);
    }
    const current: InventoryRow[] = inventoryRowsFrom(await inventoryRowsStatement(db, businessId, [productId], patch.from, patch.to).all()).get(productId) ?? [];
    const desired = editInventory(current, { from: patch.from, to: patch.to, slot, days: patch.days, capacity: patch.capacity, blocked: patch.blocked });
    const plan = emptyPlan();
    const action = patch.capacity === undefined ? (patch.blocked ? "blocked" : "unblocked") : "updated";
    planInventory(plan, product, current, desired, action);
    return { plan, result: null };
  });
  return getInventory(db, businessId, productId, { from: patch.from, to: daysBetween(patch.from, patch.to) > MAX_INVENTORY_READ_DAYS ? addDays(patch.from, MAX_INVENTORY_READ_DAYS) : patch.to }, now);
}
