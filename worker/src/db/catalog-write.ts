/**
 * SQL of the catalog administration: a business's whole administered catalog in one round trip
 * (archived entities included, inventory aside), and the statements that write a plan
 * (domain/catalog-plan.ts) in the order the foreign keys need. The guards put in the same batch
 * decide the races: the catalog must still be at the version the plan was made on, and no
 * capacity may fall below what is held or booked.
 */
import type { CatalogPlan, InventoryRow, Usage } from "../domain/catalog-plan";
import { ID_TABLES, LOOKUP_TABLE, type CatalogState, type CurrencyEntity, type IdTable, type ItemEntity, type Lookup, type LookupKind, type ProductEntity, type Season } from "../domain/catalog-write";
import { storedProductPolicy, toProduct, type ProductRow } from "./products";
import { insertRowsStatements } from "./insert-rows";
import type { D1 } from "./d1";
import { lastIdSql } from "./id-range";

const LOOKUP_COLUMNS: Record<LookupKind, string[]> = {
  location: ["title"],
  category: ["kind", "title"],
  accommodation_type: ["title"],
  diet: ["title", "description", "abbreviation"],
  level: ["title", "description", "abbreviation"],
};
const LOOKUP_KINDS = Object.keys(LOOKUP_COLUMNS) as LookupKind[];

/** The statements of a business's catalog state, in the order catalogStateFrom() reads them. */
export function catalogStateStatements(db: D1, businessId: number): D1PreparedStatement[] {
  const q = (sql: string) => db.prepare(sql).bind(businessId);
  return [
    q("SELECT id, slug, title, company_name, frontoffice_domain, config, CAST(catalog_version AS TEXT) AS version FROM businesses WHERE id = ?"),
    q("SELECT id, iso_code, title, symbol, exchange_rate, is_default FROM currencies WHERE business_id = ? ORDER BY is_default DESC, id"),
    ...LOOKUP_KINDS.map((k) => q(`SELECT id, ref, archived_at, ${LOOKUP_COLUMNS[k].join(", ")} FROM ${LOOKUP_TABLE[k]} WHERE business_id = ? ORDER BY id`)),
    q(
      `SELECT s.id, s.ref, s.title, s.priority, s.archived_at, g.id AS segment_id, g.start_date, g.end_date FROM seasons s
         LEFT JOIN season_segments g ON g.season_id = s.id WHERE s.business_id = ? ORDER BY s.id, g.start_date, g.id`,
    ),
    q("SELECT * FROM products WHERE business_id = ? ORDER BY id"),
    q("SELECT product_id, season_id, amount_minor, unit, per, min_qty FROM rates WHERE business_id = ? ORDER BY product_id, season_id IS NOT NULL, season_id, min_qty, id"),
    q(`SELECT g.id, g.package_id, g.name, g.is_configurable_dates FROM package_groups g JOIN products p ON p.id = g.package_id WHERE p.business_id = ? ORDER BY g.id`),
    q("SELECT id, package_id, product_id, group_id, role, qty_min, qty_max, qty_default, is_configurable_dates, sort FROM package_items WHERE business_id = ? ORDER BY package_id, sort, id"),
    q(`SELECT a.package_id, a.accommodation_id FROM package_accommodations a JOIN products p ON p.id = a.package_id WHERE p.business_id = ? ORDER BY a.package_id, a.accommodation_id`),
    // The largest id this shard gave in each table (its id range: db/id-range.ts); new rows take the next ones.
    db.prepare(`SELECT ${ID_TABLES.map((t) => `${lastIdSql(t)} AS ${t}`).join(", ")}`),
  ];
}

const rowsOf = <T>(r: D1Result) => (r.results ?? []) as unknown as T[];

/** The catalog state from the results of catalogStateStatements(); null when the business does not exist. */
export function catalogStateFrom(results: D1Result[]): CatalogState | null {
  const [business, currencies, ...rest] = results;
  const b = rowsOf<{ id: number; slug: string; title: string; company_name: string; frontoffice_domain: string; config: string; version: string }>(business)[0];
  if (!b) return null;
  const lookupResults = rest.slice(0, LOOKUP_KINDS.length);
  const [seasons, products, rates, groups, items, accommodations, maxIds] = rest.slice(LOOKUP_KINDS.length);
  let config: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(b.config || "{}");
    config = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : { __stored: parsed };
  } catch {
    config = { __stored: b.config };
  }
  const lookups = Object.fromEntries(
    LOOKUP_KINDS.map((k, i) => [
      k,
      rowsOf<Lookup & { kind?: string }>(lookupResults[i]).map((r): Lookup => ({ ...r, kind: r.kind as Lookup["kind"], ref: r.ref ?? null, archived_at: r.archived_at ?? null })),
    ]),
  ) as Record<LookupKind, Lookup[]>;

  const seasonMap = new Map<number, Season>();
  for (const r of rowsOf<{ id: number; ref: string | null; title: string; priority: number; archived_at: string | null; segment_id: number | null; start_date: string; end_date: string }>(seasons)) {
    const s = seasonMap.get(r.id) ?? { id: r.id, ref: r.ref, title: r.title, priority: r.priority, archived_at: r.archived_at, segments: [] };
    seasonMap.set(r.id, s);
    if (r.segment_id !== null) s.segments.push({ id: r.segment_id, start_date: r.start_date, end_date: r.end_date });
  }

  const rateMap = new Map<number, ProductEntity["rates"]>();
  for (const r of rowsOf<ProductEntity["rates"][number] & { product_id: number }>(rates)) {
    const { product_id, ...rate } = r;
    rateMap.set(product_id, [...(rateMap.get(product_id) ?? []), rate]);
  }
  const groupRows = rowsOf<{ id: number; package_id: number; name: string | null; is_configurable_dates: number }>(groups);
  const groupName = new Map(groupRows.map((g) => [g.id, g.name ?? `group-${g.id}`]));
  const itemRows = rowsOf<Omit<ItemEntity, "group" | "is_configurable_dates"> & { package_id: number; group_id: number | null; is_configurable_dates: number }>(items);
  const accRows = rowsOf<{ package_id: number; accommodation_id: number }>(accommodations);

  const productList = rowsOf<ProductRow & { ref: string | null; archived_at: string | null; is_private: number; gender: string | null }>(products).map((row): ProductEntity => {
    const p = toProduct(row);
    const isPackage = p.type === "package";
    return {
      id: p.id,
      ref: row.ref ?? null,
      archived_at: row.archived_at ?? null,
      type: p.type,
      title: p.title,
      backoffice_title: p.backoffice_title,
      description: p.description,
      extended_description: p.extended_description,
      translations: p.translations,
      image: p.image,
      location_id: p.location_id,
      backoffice_category_id: p.backoffice_category_id,
      frontoffice_category_id: p.frontoffice_category_id,
      is_promoted: p.is_promoted,
      accommodation_type_id: p.accommodation_type_id,
      duration: { unit: p.duration.unit, default: p.duration.default, min: p.duration.min, max: p.duration.max ?? null, is_flexible: p.duration.is_flexible, variants: [...p.duration.variants].sort((a, b) => a - b) },
      pax_min: p.pax_min,
      pax_max: p.pax_max,
      allowed_checkin_days: p.allowed_checkin_days,
      default_start_time: p.default_start_time,
      capacity: p.default_capacity,
      timeslots: p.schedule.map((t) => ({ time: t.time, capacity: t.capacity, days: t.days })),
      accommodation:
        p.type === "accommodation"
          ? {
              rooms: p.rooms ?? 0,
              beds_per_room: p.beds_per_room ?? 1,
              is_private: p.is_private,
              gender: p.is_private ? null : ((p.gender as "male" | "female" | "mixed" | null) ?? "mixed"),
              srs: p.srs && { charge_minor: p.srs.charge_minor, fixed: p.srs.fixed },
            }
          : null,
      rates: rateMap.get(p.id) ?? [],
      package: isPackage
        ? {
            groups: groupRows.filter((g) => g.package_id === p.id).map((g) => ({ id: g.id, name: groupName.get(g.id)!, is_configurable_dates: g.is_configurable_dates === 1 })),
            items: itemRows
              .filter((i) => i.package_id === p.id)
              .map((i) => ({
                id: i.id,
                product_id: i.product_id,
                group: i.group_id === null ? null : (groupName.get(i.group_id) ?? null),
                role: i.role,
                qty_min: i.qty_min,
                qty_max: i.qty_max,
                qty_default: i.qty_default,
                is_configurable_dates: i.is_configurable_dates === 1,
                sort: i.sort,
              })),
            accommodation_ids: accRows.filter((a) => a.package_id === p.id).map((a) => a.accommodation_id),
          }
        : null,
      payment_policy: storedProductPolicy(row.payment_policy),
    };
  });
  const max = rowsOf<Record<IdTable, number | null>>(maxIds)[0] ?? {};
  return {
    businessId: b.id,
    slug: b.slug,
    version: b.version,
    settings: {
      title: b.title,
      company_name: b.company_name,
      frontoffice_domain: b.frontoffice_domain,
      config,
      currencies: rowsOf<Omit<CurrencyEntity, "is_default"> & { is_default: number }>(currencies).map((c) => ({ ...c, exchange_rate: Number(c.exchange_rate), is_default: c.is_default === 1 })),
    },
    lookups,
    seasons: [...seasonMap.values()],
    products: productList,
    maxIds: Object.fromEntries(ID_TABLES.map((t) => [t, Number((max as Record<string, unknown>)[t] ?? 0)])) as Record<IdTable, number>,
  };
}

/** Which of some ids exist in a table (any business): a catalog file's entry keeps its id only when it is free. */
export function existingIdsStatement(db: D1, table: IdTable, ids: number[]): D1PreparedStatement {
  return db.prepare(`SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(ids));
}

// ---- Guards ----

/** First in every batch: the catalog is still at the version the change was planned on ('catalog_changed'). */
export function versionGuard(db: D1, businessId: number, version: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO manage_guard (reason, ok) SELECT 'catalog_changed', EXISTS (SELECT 1 FROM businesses WHERE id = ? AND CAST(catalog_version AS TEXT) = ?)")
    .bind(businessId, version);
}

/**
 * Capacity of product `p` on date `d`, slot `s` (SQL expressions): the allocations_capacity
 * trigger's rule (migration 0200) and domain/availability.ts slotState().
 */
function capacitySql(p: string, d: string, s: string): string {
  return `CASE
    WHEN ${s} <> '' AND EXISTS (SELECT 1 FROM inventory x WHERE x.product_id = ${p}.id AND x.date = ${d} AND x.slot = '' AND x.blocked = 1) THEN 0
    WHEN EXISTS (SELECT 1 FROM inventory x WHERE x.product_id = ${p}.id AND x.date = ${d} AND x.slot = ${s})
      THEN (SELECT CASE WHEN x.blocked = 1 THEN 0 ELSE x.capacity END FROM inventory x WHERE x.product_id = ${p}.id AND x.date = ${d} AND x.slot = ${s})
    WHEN ${s} <> '' AND ${p}.is_on_timeslots = 1 THEN COALESCE(
      (SELECT CASE WHEN t.type = 'text' THEN COALESCE(${p}.default_capacity, 1000000000)
                   ELSE COALESCE(json_extract(t.value, '$.capacity'), ${p}.default_capacity, 1000000000) END
         FROM json_each(${p}.timeslots) t
        WHERE (t.type = 'text' AND t.value = ${s})
           OR (t.type = 'object' AND json_extract(t.value, '$.time') = ${s}
               AND (json_type(t.value, '$.days') IS NOT 'array'
                    OR EXISTS (SELECT 1 FROM json_each(t.value, '$.days') w
                                WHERE w.value = substr('sunmontuewedthufrisat', 1 + 3 * CAST(strftime('%w', ${d}) AS INTEGER), 3))))
        LIMIT 1), 0)
    ELSE COALESCE(${p}.default_capacity, 1000000000)
  END`;
}

/** Every product of business ?1 (in place of a list ?2, which is then '[]': every parameter is used, as D1 wants). */
const ALL_PRODUCTS = "SELECT id FROM products WHERE business_id = ?1 AND ?2 = '[]'";

/** Units held (unexpired holds) and booked per product, date and slot, from `from` on ([?2 = product ids JSON, ?3 = from, ?4 = to, ?5 = now]). */
const USAGE_SQL = `SELECT product_id, date, slot, SUM(booked) AS booked, SUM(held) AS held FROM (
    SELECT product_id, date, slot, qty AS booked, 0 AS held FROM booked_units
     WHERE product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4 AND qty <> 0 AND business_id = ?1
    UNION ALL
    SELECT product_id, date, slot, 0 AS booked, qty AS held FROM allocations INDEXED BY allocations_holds
     WHERE product_id IN (SELECT value FROM json_each(?2)) AND date BETWEEN ?3 AND ?4
       AND released_at IS NULL AND booking_id IS NULL AND expires_at > ?5 AND business_id = ?1)
  GROUP BY product_id, date, slot`;

/** What is held and booked of some products ("all": the business's) over [from, to] (for the capacity check's answer, and the inventory view). */
export function usageStatement(db: D1, businessId: number, productIds: number[] | "all", from: string, to: string, now: Date): D1PreparedStatement {
  const sql = productIds === "all" ? USAGE_SQL.replaceAll("SELECT value FROM json_each(?2)", ALL_PRODUCTS) : USAGE_SQL;
  return db.prepare(sql).bind(businessId, productIds === "all" ? "[]" : JSON.stringify(productIds), from, to, now.toISOString());
}
export const usageFrom = (r: D1Result): Usage[] => rowsOf<Usage>(r).map((u) => ({ ...u, booked: Number(u.booked), held: Number(u.held) }));

/**
 * Last in a batch that may lower a capacity: aborts it ('capacity_below_used') when any of the
 * products has, from `today` on, more units held or booked on a date than its capacity after the
 * batch's writes.
 */
export function capacityGuard(db: D1, businessId: number, productIds: number[], today: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO manage_guard (reason, ok) SELECT 'capacity_below_used', NOT EXISTS (
         SELECT 1 FROM (${USAGE_SQL}) u JOIN products p ON p.id = u.product_id
          WHERE u.booked + u.held > ${capacitySql("p", "u.date", "u.slot")})`,
    )
    .bind(businessId, JSON.stringify(productIds), today, "9999-12-31", now.toISOString());
}

// ---- Inventory ----

/** Some products' inventory rows (every product of the business: "all"), all or over [from, to]. */
export function inventoryRowsStatement(db: D1, businessId: number, productIds: number[] | "all", from = "0000-01-01", to = "9999-12-31"): D1PreparedStatement {
  const products = productIds === "all" ? ALL_PRODUCTS : "SELECT value FROM json_each(?2)";
  return db
    .prepare(
      `SELECT product_id, date, slot, capacity, blocked, override FROM inventory
        WHERE product_id IN (${products}) AND date BETWEEN ?3 AND ?4 AND business_id = ?1 ORDER BY product_id, slot, date`,
    )
    .bind(businessId, productIds === "all" ? "[]" : JSON.stringify(productIds), from, to);
}
export function inventoryRowsFrom(r: D1Result): Map<number, InventoryRow[]> {
  const out = new Map<number, InventoryRow[]>();
  for (const row of rowsOf<{ product_id: number; date: string; slot: string; capacity: number; blocked: number; override: number }>(r)) {
    out.set(row.product_id, [...(out.get(row.product_id) ?? []), { date: row.date, slot: row.slot, capacity: row.capacity, blocked: row.blocked === 1, override: row.override === 1 }]);
  }
  return out;
}

// ---- Writing a plan ----

const json = (v: unknown) => JSON.stringify(v);
const bool = (b: boolean) => (b ? 1 : 0);

function productRow(p: ProductEntity, businessId: number, createdAt: string): Record<string, unknown> {
  const a = p.accommodation;
  const duration: Record<string, unknown> = { is_flexible: p.duration.is_flexible, min: p.duration.min, default: p.duration.default, unit: p.duration.unit, variants: p.duration.variants };
  if (p.duration.max !== null) duration.max = p.duration.max;
  return {
    id: p.id,
    business_id: businessId,
    type: p.type,
    title: p.title,
    backoffice_title: p.backoffice_title,
    description: p.description,
    extended_description: p.extended_description,
    image: json(p.image),
    gender: a ? a.gender : null,
    backoffice_category_id: p.backoffice_category_id,
    frontoffice_category_id: p.frontoffice_category_id,
    location_id: p.location_id,
    accommodation_type_id: p.accommodation_type_id,
    duration: json(duration),
    pax_min: p.pax_min,
    pax_max: p.pax_max,
    default_start_time: p.default_start_time,
    is_private: bool(a?.is_private ?? false),
    allowed_checkin_days: json(p.allowed_checkin_days),
    is_on_timeslots: bool(p.timeslots.length > 0),
    timeslots: json(p.timeslots),
    is_promoted: bool(p.is_promoted),
    rooms: a ? a.rooms : null,
    beds_per_room: a ? a.beds_per_room : null,
    srs_charge_minor: a?.srs ? a.srs.charge_minor : null,
    srs_fixed: a?.srs ? bool(a.srs.fixed) : null,
    default_capacity: p.capacity,
    translations: json(p.translations),
    payment_policy: p.payment_policy ? json(p.payment_policy) : null,
    created_at: createdAt,
    ref: p.ref,
    archived_at: p.archived_at,
  };
}

function insert(db: D1, table: string, row: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(row);
  return db.prepare(`INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).bind(...Object.values(row));
}
function update(db: D1, table: string, row: Record<string, unknown>, where: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(row);
  const keys = Object.keys(where);
  return db
    .prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE ${keys.map((k) => `${k} = ?`).join(" AND ")}`)
    .bind(...Object.values(row), ...Object.values(where));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The statements that write a plan, in foreign-key order (what is referred to before what refers to it). */
export function planStatements(db: D1, businessId: number, plan: CatalogPlan, now: Date): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  const at = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (plan.settings) {
    const { before, after } = plan.settings;
    out.push(update(db, "businesses", { title: after.title, company_name: after.company_name, frontoffice_domain: after.frontoffice_domain, config: json(after.config) }, { id: businessId }));
    const kept = new Set(after.currencies.map((c) => c.id));
    for (const c of before.currencies) if (!kept.has(c.id)) out.push(db.prepare("DELETE FROM currencies WHERE id = ? AND business_id = ?").bind(c.id, businessId));
    for (const c of after.currencies) {
      const row = { iso_code: c.iso_code, title: c.title, symbol: c.symbol, exchange_rate: c.exchange_rate, is_default: bool(c.is_default) };
      const old = before.currencies.find((x) => x.id === c.id);
      if (!old) out.push(insert(db, "currencies", { id: c.id, business_id: businessId, ...row }));
      else if (!same({ ...old, is_default: bool(old.is_default) }, { id: c.id, ...row })) out.push(update(db, "currencies", row, { id: c.id, business_id: businessId }));
    }
  }
  for (const { kind, before, after } of plan.lookups) {
    const row: Record<string, unknown> = { ref: after.ref, archived_at: after.archived_at };
    for (const c of LOOKUP_COLUMNS[kind]) row[c] = (after as unknown as Record<string, unknown>)[c] ?? (c === "description" ? "" : null);
    out.push(before ? update(db, LOOKUP_TABLE[kind], row, { id: after.id, business_id: businessId }) : insert(db, LOOKUP_TABLE[kind], { id: after.id, business_id: businessId, ...row }));
  }
  for (const { before, after } of plan.seasons) {
    const row = { ref: after.ref, title: after.title, priority: after.priority, archived_at: after.archived_at };
    out.push(before ? update(db, "seasons", row, { id: after.id, business_id: businessId }) : insert(db, "seasons", { id: after.id, business_id: businessId, ...row }));
    const kept = new Set(after.segments.map((g) => g.id));
    for (const g of before?.segments ?? []) if (!kept.has(g.id)) out.push(db.prepare("DELETE FROM season_segments WHERE id = ? AND season_id = ?").bind(g.id, after.id));
    for (const g of after.segments) {
      const old = before?.segments.find((x) => x.id === g.id);
      if (!old) out.push(insert(db, "season_segments", { id: g.id, season_id: after.id, start_date: g.start_date, end_date: g.end_date }));
      else if (!same(old, g)) out.push(update(db, "season_segments", { start_date: g.start_date, end_date: g.end_date }, { id: g.id, season_id: after.id }));
    }
  }
  // Every product row first: packages refer to products made in the same batch.
  for (const { before, after } of plan.products) {
    const row = productRow(after, businessId, at);
    if (!before) out.push(insert(db, "products", row));
    else {
      const { created_at: _c, id: _i, business_id: _b, ...changed } = row;
      const { created_at: _c2, id: _i2, business_id: _b2, ...was } = productRow(before, businessId, at);
      if (!same(was, changed)) out.push(update(db, "products", changed, { id: after.id, business_id: businessId }));
    }
  }
  for (const { before, after } of plan.products) {
    if (!same(before?.rates ?? [], after.rates)) {
      if (before) out.push(db.prepare("DELETE FROM rates WHERE product_id = ? AND business_id = ?").bind(after.id, businessId));
      out.push(
        ...insertRowsStatements(db, "rates", { business_id: businessId, product_id: after.id }, ["season_id", "amount_minor", "unit", "per", "min_qty"], after.rates.map((r) => [r.season_id, r.amount_minor, r.unit, r.per, r.min_qty])),
      );
    }
    out.push(...packageStatements(db, businessId, before?.package ?? null, after));
  }
  for (const inv of plan.inventory) {
    if (inv.remove.length) {
      out.push(
        db
          .prepare(
            `DELETE FROM inventory WHERE product_id = ?1 AND business_id = ?2
               AND (date, slot) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?3))`,
          )
          .bind(inv.productId, businessId, json(inv.remove.map((r) => [r.date, r.slot]))),
      );
    }
    if (inv.upsert.length) {
      out.push(
        db
          .prepare(
            `INSERT INTO inventory (business_id, product_id, date, slot, capacity, blocked, override)
             SELECT ?1, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]')
               FROM json_each(?3) WHERE true
             ON CONFLICT (product_id, date, slot) DO UPDATE SET capacity = excluded.capacity, blocked = excluded.blocked, override = excluded.override`,
          )
          .bind(businessId, inv.productId, json(inv.upsert.map((r) => [r.date, r.slot, r.capacity, bool(r.blocked), bool(r.override)]))),
      );
    }
  }
  // Inventory is read live, not from the catalog snapshot, but caches of catalog answers (the
  // widget's edge cache) are kept by catalog version: an owner's change of inventory is seen at once.
  if (plan.inventory.length) out.push(db.prepare("UPDATE businesses SET catalog_version = random() WHERE id = ?").bind(businessId));
  return out;
}

function packageStatements(db: D1, businessId: number, before: ProductEntity["package"], after: ProductEntity): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  const pkg = after.package;
  if (!pkg && !before) return out;
  const groups = pkg?.groups ?? [];
  const items = pkg?.items ?? [];
  const groupId = new Map(groups.map((g) => [g.name, g.id]));
  const keptItems = new Set(items.map((i) => i.id));
  const keptGroups = new Set(groups.map((g) => g.id));
  for (const i of before?.items ?? []) if (!keptItems.has(i.id)) out.push(db.prepare("DELETE FROM package_items WHERE id = ? AND package_id = ?").bind(i.id, after.id));
  // Items that stay but leave a group that goes: out of it first (foreign key).
  for (const g of before?.groups ?? []) {
    if (!keptGroups.has(g.id)) {
      out.push(db.prepare("UPDATE package_items SET group_id = NULL WHERE group_id = ? AND package_id = ?").bind(g.id, after.id));
      out.push(db.prepare("DELETE FROM package_groups WHERE id = ? AND package_id = ?").bind(g.id, after.id));
    }
  }
  for (const g of groups) {
    const old = before?.groups.find((x) => x.id === g.id);
    const row = { name: g.name, is_configurable_dates: bool(g.is_configurable_dates) };
    if (!old) out.push(insert(db, "package_groups", { id: g.id, package_id: after.id, ...row }));
    else if (!same(old, g)) out.push(update(db, "package_groups", row, { id: g.id, package_id: after.id }));
  }
  for (const i of items) {
    const old = before?.items.find((x) => x.id === i.id);
    const row = {
      product_id: i.product_id,
      group_id: i.group === null ? null : (groupId.get(i.group) ?? null),
      role: i.role,
      qty_min: i.qty_min,
      qty_max: i.qty_max,
      qty_default: i.qty_default,
      is_configurable_dates: bool(i.is_configurable_dates),
      sort: i.sort,
    };
    if (!old) out.push(insert(db, "package_items", { id: i.id, business_id: businessId, package_id: after.id, ...row }));
    else if (!same(old, i)) out.push(update(db, "package_items", row, { id: i.id, package_id: after.id }));
  }
  const accBefore = before?.accommodation_ids ?? [];
  const accAfter = pkg?.accommodation_ids ?? [];
  if (!same([...accBefore].sort(), [...accAfter].sort())) {
    if (accBefore.length) out.push(db.prepare("DELETE FROM package_accommodations WHERE package_id = ?").bind(after.id));
    if (accAfter.length) {
      out.push(
        db
          .prepare("INSERT INTO package_accommodations (package_id, accommodation_id) SELECT ?1, value FROM json_each(?2)")
          .bind(after.id, json(accAfter)),
      );
    }
  }
  return out;
}
