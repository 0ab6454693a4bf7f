/**
 * What a change to a business's catalog does, pure: the entities to write (compared by id with
 * what is stored: same ids, same rows), and for each one changed, the change as the audit log
 * and the webhooks tell it. The private API's operations, the catalog file and the back office
 * all plan here, so one entity changed one way gives the same rows, audit entry and event.
 */
import type { PendingEvent } from "./events";
import { readConfig } from "../contract/config";
import { canonical, defaultCurrency, lookupView, productView, seasonView, type CatalogState, type Lookup, type LookupKind, type ProductEntity, type Season, type SettingsEntity } from "./catalog-write";
import { slotState, ledgerKey, type InventoryEntry } from "./availability";
import { addDays, dateRange } from "../lib/time";

export type Action = "created" | "updated" | "archived" | "restored" | "deleted" | "blocked" | "unblocked";
export type EntityKind = "settings" | "product" | "season" | "inventory" | LookupKind;

/** One entity changed: an audit entry, a line of the catalog file's plan, and (with events) a webhook. */
export interface Change {
  entity: EntityKind;
  entity_id: number | null;
  ref: string | null;
  action: Action;
  summary: string;
  before: unknown;
  after: unknown;
}

/** An inventory row as stored: capacity (an override when `override`), and whether the date is blocked. */
export interface InventoryRow {
  date: string;
  slot: string;
  capacity: number;
  blocked: boolean;
  override: boolean;
}

export interface InventoryChange {
  productId: number;
  upsert: InventoryRow[];
  remove: { date: string; slot: string }[];
}

export interface CatalogPlan {
  settings: { before: SettingsEntity; after: SettingsEntity } | null;
  lookups: { kind: LookupKind; before: Lookup | null; after: Lookup }[];
  seasons: { before: Season | null; after: Season }[];
  products: { before: ProductEntity | null; after: ProductEntity }[];
  inventory: InventoryChange[];
  changes: Change[];
}

export const emptyPlan = (): CatalogPlan => ({ settings: null, lookups: [], seasons: [], products: [], inventory: [], changes: [] });

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

function actionOf(before: { archived_at: string | null } | null, after: { archived_at: string | null }): Action {
  if (!before) return "created";
  if (before.archived_at === null && after.archived_at !== null) return "archived";
  if (before.archived_at !== null && after.archived_at === null) return "restored";
  return "updated";
}

const NAMES: Record<EntityKind, string> = {
  settings: "settings",
  product: "product",
  season: "season",
  inventory: "inventory",
  location: "location",
  category: "category",
  accommodation_type: "accommodation type",
  diet: "diet",
  level: "level",
};

/** The settings as shown: the business row's fields, the currencies, and the stored configuration. */
export function settingsView(s: SettingsEntity) {
  // A write-only field (the Turnstile secret) is never shown: only whether it is set.
  const { turnstile_secret, ...config } = readConfig(JSON.stringify(s.config)).config;
  return {
    title: s.title,
    company_name: s.company_name,
    frontoffice_domain: s.frontoffice_domain,
    currencies: s.currencies.map((c) => ({ id: c.id, iso_code: c.iso_code, title: c.title, symbol: c.symbol, exchange_rate: c.exchange_rate, default: c.is_default })),
    ...config,
    turnstile_secret_set: turnstile_secret !== null,
  };
}

/** The names of the settings fields that differ, a write-only one included (its view shows only whether it is set). */
export function changedSettingsFields(before: SettingsEntity, after: SettingsEntity): string[] {
  const was = settingsView(before) as Record<string, unknown>;
  const now = settingsView(after) as Record<string, unknown>;
  const fields = Object.keys(now).filter((k) => !same(was[k], now[k]));
  const secret = (e: SettingsEntity) => ("turnstile_secret" in e.config ? e.config.turnstile_secret : null) ?? null;
  if (!same(secret(before), secret(after)) && !fields.includes("turnstile_secret_set")) fields.push("turnstile_secret");
  return fields;
}

/** Add `after` (compared with `before`, null when new) to the plan; nothing when they are the same. */
export function planEntity(plan: CatalogPlan, state: Pick<CatalogState, "settings">, kind: EntityKind, before: any, after: any): Change | null {
  if (before && same(before, after)) return null;
  const currency = defaultCurrency(state.settings)?.iso_code ?? "EUR";
  let change: Change;
  if (kind === "settings") {
    plan.settings = { before, after };
    const was = settingsView(before);
    const now = settingsView(after);
    const fields = changedSettingsFields(before, after);
    change = { entity: "settings", entity_id: null, ref: null, action: "updated", summary: `settings changed: ${fields.join(", ")}`, before: was, after: now };
  } else {
    const action = actionOf(before, after);
    const view = (e: any) => (e === null ? null : kind === "product" ? productView(e, currency) : kind === "season" ? seasonView(e) : lookupView(kind as LookupKind, e));
    if (kind === "product") plan.products.push({ before, after });
    else if (kind === "season") plan.seasons.push({ before, after });
    else plan.lookups.push({ kind: kind as LookupKind, before, after });
    const v = view(after)!;
    change = { entity: kind, entity_id: after.id, ref: v.ref, action, summary: `${NAMES[kind]} ${JSON.stringify(after.title)} (${v.ref}, id ${after.id}) ${action}`, before: view(before), after: v };
  }
  plan.changes.push(change);
  return change;
}

/** The webhook event of a change (every change has one). */
export function eventOf(c: Change): PendingEvent {
  if (c.entity === "product") {
    const event = ({ created: "ProductCreated", updated: "ProductUpdated", archived: "ProductArchived", restored: "ProductRestored", deleted: "ProductArchived", blocked: "ProductUpdated", unblocked: "ProductUpdated" } as const)[c.action];
    return { event, data: { product_id: c.entity_id, ref: c.ref } };
  }
  if (c.entity === "settings") {
    const before = c.before as Record<string, unknown>;
    const after = c.after as Record<string, unknown>;
    return { event: "SettingsUpdated", data: { fields: Object.keys(after).filter((k) => !same(before[k], after[k])) } };
  }
  if (c.entity === "inventory") {
    const a = c.after as { from: string; to: string };
    return { event: "InventoryUpdated", data: { product_id: c.entity_id, from: a.from, to: a.to } };
  }
  return { event: "CatalogUpdated", data: { entity: c.entity, id: c.entity_id, ref: c.ref, action: c.action } };
}

// ---- Inventory ----

export const rowKey = (date: string, slot: string) => `${date}|${slot}`;

/** Rows as ranges of equal consecutive dates (for the audit log and the catalog file). */
export function rowRanges(rows: InventoryRow[]): { from: string; to: string; slot: string; capacity: number; blocked: boolean; override: boolean }[] {
  const sorted = [...rows].sort((a, b) => (a.slot + a.date < b.slot + b.date ? -1 : a.slot + a.date > b.slot + b.date ? 1 : 0));
  const out: { from: string; to: string; slot: string; capacity: number; blocked: boolean; override: boolean }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && last.slot === r.slot && last.capacity === r.capacity && last.blocked === r.blocked && last.override === r.override && addDays(last.to, 1) === r.date) last.to = r.date;
    else out.push({ from: r.date, to: r.date, slot: r.slot, capacity: r.capacity, blocked: r.blocked, override: r.override });
  }
  return out;
}

/** Add a product's inventory change (rows as they should be vs as they are) to the plan; null when none. */
export function planInventory(plan: CatalogPlan, product: Pick<ProductEntity, "id" | "title" | "ref">, current: InventoryRow[], desired: InventoryRow[], action: Action = "updated"): Change | null {
  const now = new Map(current.map((r) => [rowKey(r.date, r.slot), r]));
  const want = new Map(desired.map((r) => [rowKey(r.date, r.slot), r]));
  const upsert = desired.filter((r) => !same(now.get(rowKey(r.date, r.slot)) ?? null, r));
  const remove = current.filter((r) => !want.has(rowKey(r.date, r.slot))).map((r) => ({ date: r.date, slot: r.slot }));
  if (!upsert.length && !remove.length) return null;
  plan.inventory.push({ productId: product.id, upsert, remove });
  const touched = [...upsert.map((r) => r.date), ...remove.map((r) => r.date)].sort();
  const keys = new Set([...upsert.map((r) => rowKey(r.date, r.slot)), ...remove.map((r) => rowKey(r.date, r.slot))]);
  const change: Change = {
    entity: "inventory",
    entity_id: product.id,
    ref: product.ref,
    action,
    summary: `inventory of ${JSON.stringify(product.title)} (id ${product.id}) ${action === "updated" ? "changed" : action} on ${keys.size} date(s) from ${touched[0]} to ${touched[touched.length - 1]}`,
    before: { from: touched[0], to: touched[touched.length - 1], rows: rowRanges(current.filter((r) => keys.has(rowKey(r.date, r.slot)))) },
    after: { from: touched[0], to: touched[touched.length - 1], rows: rowRanges(upsert) },
  };
  plan.changes.push(change);
  return change;
}

/** The rows over [from, to] of some product after a change of capacity and/or block, from the current ones. */
export function editInventory(
  current: InventoryRow[],
  edit: { from: string; to: string; slot: string; days?: string[]; capacity?: number | null; blocked?: boolean },
): InventoryRow[] {
  const rows = new Map(current.map((r) => [rowKey(r.date, r.slot), { ...r }]));
  for (const date of dateRange(edit.from, edit.to)) {
    if (edit.days && !edit.days.includes(["sun", "mon", "tue", "wed", "thu", "fri", "sat"][new Date(`${date}T00:00:00Z`).getUTCDay()])) continue;
    const key = rowKey(date, edit.slot);
    let row = rows.get(key) ?? null;
    if (edit.capacity !== undefined) {
      if (edit.capacity === null) row = row && (row.blocked ? { ...row, capacity: 0, override: false } : null);
      else row = { date, slot: edit.slot, capacity: edit.capacity, blocked: row?.blocked ?? false, override: true };
    }
    if (edit.blocked === true) row = row ? { ...row, blocked: true } : { date, slot: edit.slot, capacity: 0, blocked: true, override: false };
    if (edit.blocked === false && row) row = row.override ? { ...row, blocked: false } : null;
    if (row) rows.set(key, row);
    else rows.delete(key);
  }
  return [...rows.values()];
}

/** Units held or booked of a product on a date and slot. */
export interface Usage {
  product_id: number;
  date: string;
  slot: string;
  booked: number;
  held: number;
}

export interface CapacityConflict {
  product_id: number;
  title: string;
  date: string;
  slot: string;
  capacity: number;
  booked: number;
  held: number;
}

/** As domain/availability.ts's slotState sees a product (its capacity rule). */
export const capacityProduct = (p: ProductEntity) => ({ default_capacity: p.capacity, is_on_timeslots: p.timeslots.length > 0, schedule: p.timeslots });

/**
 * Where a product's capacity after a change would be below what is held or booked: the dates (from
 * `today` on) and counts. Nothing booked is harmed: such a change is refused.
 */
export function capacityConflicts(p: ProductEntity, rows: InventoryRow[], usage: Usage[], today: string): CapacityConflict[] {
  const inventory = new Map<string, InventoryEntry>(rows.map((r) => [ledgerKey(r.date, r.slot), { capacity: r.capacity, blocked: r.blocked }]));
  const ledger = { inventory, allocated: new Map<string, number>() };
  const product = capacityProduct(p);
  const out: CapacityConflict[] = [];
  for (const u of usage) {
    if (u.product_id !== p.id || u.date < today || u.booked + u.held <= 0) continue;
    const s = slotState(product, ledger, u.date, u.slot);
    if (s.capacity !== null && s.capacity < u.booked + u.held) {
      out.push({ product_id: p.id, title: p.title, date: u.date, slot: u.slot, capacity: s.capacity, booked: u.booked, held: u.held });
    }
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.slot < b.slot ? -1 : 1));
}

/** Whether a change of a product can change its capacity on some date. */
export function capacityChanged(before: ProductEntity | null, after: ProductEntity): boolean {
  if (!before) return false;
  return !same(capacityProduct(before), capacityProduct(after));
}
