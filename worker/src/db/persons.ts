import { PERSON_DATA_FIELDS, normalizeEmail, type PersonData } from "../domain/persons";
import { isoDateTime } from "../lib/time";
import { orderSql, type Sort } from "./list-filters";
import { paidAsBookerColumns } from "./payments";
import type { D1 } from "./d1";

/** A persons row as D1 returns it. */
export interface PersonRow {
  id: string;
  business_id: number;
  email: string | null;
  email_norm: string | null;
  first_name: string | null;
  last_name: string | null;
  salutation: string | null;
  gender: string | null;
  birth_date: string | null;
  language_code: string | null;
  nationality_code: string | null;
  phone_country_calling_code: string | null;
  phone_country_code: string | null;
  phone: string | null;
  country_code: string | null;
  state: string | null;
  city: string | null;
  zip_code: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  address_line_3: string | null;
  id_type: string | null;
  id_number: string | null;
  id_expiry_date: string | null;
  company_name: string | null;
  tax_number: string | null;
  company_address_line_1: string | null;
  company_address_line_2: string | null;
  custom_fields: string;
  diet_id: number | null;
  level_id: number | null;
  guest_group_id: number | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The Person data of a row (custom fields parsed). */
export function rowToData(row: PersonRow): PersonData {
  const data: Record<string, unknown> = {};
  for (const field of PERSON_DATA_FIELDS) {
    data[field] = field === "custom_fields" ? parseJsonObject(row.custom_fields) : (row as unknown as Record<string, unknown>)[field] ?? null;
  }
  return data as PersonData;
}

const DATA_COLUMNS = PERSON_DATA_FIELDS;

function columnValues(data: PersonData): (string | number | null)[] {
  return DATA_COLUMNS.map((field) => {
    const value = data[field];
    if (field === "custom_fields") return JSON.stringify(value ?? {});
    return (value ?? null) as string | number | null;
  });
}

/** INSERT of a new Person with every data field (missing ones null). */
export function insertPersonStatement(db: D1, businessId: number, id: string, data: PersonData, now: Date): D1PreparedStatement {
  const cols = ["id", "business_id", "email_norm", ...DATA_COLUMNS, "created_at", "updated_at"];
  const ts = isoDateTime(now);
  return db
    .prepare(`INSERT INTO persons (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
    .bind(id, businessId, normalizeEmail(data.email), ...columnValues(data), ts, ts);
}

/**
 * UPDATE of a Person's whole data (computed by the merge rules) when it is not deleted. The
 * unique index on (business_id, email_norm) refuses an e-mail another Person holds.
 */
export function updatePersonStatement(db: D1, businessId: number, id: string, data: PersonData, now: Date): D1PreparedStatement {
  const sets = ["email_norm = ?", ...DATA_COLUMNS.map((c) => `${c} = ?`), "updated_at = ?"];
  return db
    .prepare(`UPDATE persons SET ${sets.join(", ")} WHERE id = ? AND business_id = ? AND deleted_at IS NULL`)
    .bind(normalizeEmail(data.email), ...columnValues(data), isoDateTime(now), id, businessId);
}

/** The Person (not deleted) of the business with this id. */
export async function personRow(db: D1, businessId: number, id: string): Promise<PersonRow | null> {
  return db.prepare("SELECT * FROM persons WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(id, businessId).first<PersonRow>();
}

/** The Persons (not deleted) holding these e-mails, by normalized e-mail. */
export async function personsByEmail(db: D1, businessId: number, emails: (string | null | undefined)[]): Promise<Map<string, PersonRow>> {
  const norms = [...new Set(emails.map(normalizeEmail).filter((e): e is string => e !== null))];
  if (!norms.length) return new Map();
  const rows = await db
    // One parameter for the whole list (D1 binds at most 100 per statement; a cart may hold more guests).
    .prepare("SELECT * FROM persons WHERE business_id = ? AND deleted_at IS NULL AND email_norm IN (SELECT value FROM json_each(?))")
    .bind(businessId, JSON.stringify(norms))
    .all<PersonRow>();
  return personsByNorm(rows);
}

/** Persons read by e-mail, by their normalized e-mail. */
export function personsByNorm(rows: D1Result): Map<string, PersonRow> {
  return new Map((rows.results as unknown as PersonRow[]).map((row) => [row.email_norm as string, row]));
}

/**
 * The persons a checkout of the cart meets (personsByEmail of the customer's e-mail and the cart's
 * guests' e-mails), to read in the same round trip as the cart itself. The guests' e-mails are
 * normalized in SQL as normalizeEmail does (trim, lower case): the same for every e-mail the API
 * accepts, which are ASCII without spaces.
 */
export function checkoutPersonsStatement(db: D1, businessId: number, cartId: string, customerEmail: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT * FROM persons WHERE business_id = ?1 AND deleted_at IS NULL AND email_norm IN (
         SELECT lower(trim(json_extract(g.data, '$.email'))) FROM cart_guests g WHERE g.cart_id = ?2 AND g.business_id = ?1
         UNION ALL SELECT ?3)`,
    )
    .bind(businessId, cartId, normalizeEmail(customerEmail));
}

/** True when a D1 error is the unique index on persons' e-mail. */
export function isEmailClash(err: unknown): boolean {
  return /UNIQUE constraint failed: persons\.business_id, persons\.email_norm|persons_email/i.test(String((err as Error)?.message ?? err));
}

/**
 * Columns derived from bookings on every read (never stored, so never stale): bookings as guest
 * and as booker, bookings where both, and the latest booking time of each. (What was paid as
 * booker is not derived from bookings: a booking's price is not a payment; views.ts.)
 */
export function derivedColumns(p = "p"): string {
  return `
    (SELECT COUNT(DISTINCT g.booking_id) FROM guests g WHERE g.person_id = ${p}.id) AS t_guest,
    (SELECT COUNT(*) FROM bookers k WHERE k.person_id = ${p}.id) AS t_booker,
    (SELECT COUNT(*) FROM bookers k WHERE k.person_id = ${p}.id
        AND EXISTS (SELECT 1 FROM guests g WHERE g.booking_id = k.booking_id AND g.person_id = ${p}.id)) AS t_both,
    (SELECT MAX(b.created_at) FROM guests g JOIN bookings b ON b.id = g.booking_id WHERE g.person_id = ${p}.id) AS t_last_guest,
    (SELECT MAX(b.created_at) FROM bookers k JOIN bookings b ON b.id = k.booking_id WHERE k.person_id = ${p}.id) AS t_last_booker,
    ${paidAsBookerColumns(p)}`;
}

export interface Derived {
  t_guest: number;
  t_booker: number;
  t_both: number;
  t_last_guest: string | null;
  t_last_booker: string | null;
  /** JSON: the bookings as booker with ledger entries (db/payments.ts paidAsBookerColumns); null when none. */
  t_paid_booker: string | null;
  t_default_currency: string | null;
}
export type PersonWithDerived = PersonRow & Derived;

/** One Person (not deleted) with its derived totals. */
export async function personWithDerived(db: D1, businessId: number, id: string): Promise<PersonWithDerived | null> {
  return db
    .prepare(`SELECT p.*, ${derivedColumns("p")} FROM persons p WHERE p.id = ? AND p.business_id = ? AND p.deleted_at IS NULL`)
    .bind(id, businessId)
    .first<PersonWithDerived>();
}

/** The fields GET /private/persons sorts by (`sort_by`), and their columns. */
export const PERSON_SORT_FIELDS = ["first_name", "last_name", "full_name", "country", "birth_date"] as const;
export type PersonSortField = (typeof PERSON_SORT_FIELDS)[number];
const PERSON_SORT_COLUMNS: Record<PersonSortField, string> = {
  first_name: "p.first_name COLLATE NOCASE",
  last_name: "p.last_name COLLATE NOCASE",
  full_name: "(COALESCE(p.first_name, '') || ' ' || COALESCE(p.last_name, '')) COLLATE NOCASE",
  country: "p.country_code",
  birth_date: "p.birth_date",
};

export interface PersonFilters {
  query?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  gender?: string;
  birth_date?: { from?: string; to?: string };
  is_guest?: boolean;
  is_booker?: boolean;
  language_code?: string;
  nationality_code?: string;
  country_code?: string;
  phone_country_code?: string;
  order: Sort<PersonSortField>[];
  page: number;
  limit: number;
}

/** `LIKE` pattern for a contains-match, with the wildcards of the value escaped. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** The columns a search's words are matched on (persons_fts also holds each row's `tenant`). */
const SEARCHABLE = ["first_name", "last_name", "email", "phone", "city", "company_name"];

/**
 * The full-text condition of `query` in one business: every word (split at spaces and control
 * characters) must appear (as a substring, any case) in one of names, e-mail, phone, city or
 * company. The index is asked for the
 * business's rows and the words of three or more characters together (migration 0110), so it
 * answers this business's matches only; shorter words (which a trigram index cannot hold) are
 * matched on those rows' columns.
 */
export function fullTextCondition(businessId: number, query: string): { sql: string; params: string[] } | null {
  // Control characters separate words like spaces: none is ever searched for, and a NUL would
  // end the index's query text in the middle of a quoted word.
  const words = query
    .split(/[\s\u0000-\u001f\u007f]+/)
    .map((w) => w.replace(/^\+/, ""))
    .filter((w) => w !== "")
    .slice(0, 10);
  if (!words.length) return null;
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  const phrase = (w: string) => `"${w.replaceAll('"', '""')}"`;
  let match = `tenant : "~${Math.trunc(businessId)}~"`;
  if (long.length) match += ` AND {${SEARCHABLE.join(" ")}} : (${long.map(phrase).join(" AND ")})`;
  const conditions = ["persons_fts MATCH ?"];
  const params = [match];
  for (const w of short) {
    conditions.push(`(${SEARCHABLE.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(" OR ")})`);
    params.push(...SEARCHABLE.map(() => containsPattern(w)));
  }
  return { sql: `p.rowid IN (SELECT rowid FROM persons_fts WHERE ${conditions.join(" AND ")})`, params };
}

/** One page of a business's Persons (not deleted) and the total count of the filtered list. */
/** The page and the count of a persons list, to put in a batch; personListFrom() reads them. */
export function listPersonsStatements(db: D1, businessId: number, f: PersonFilters): D1PreparedStatement[] {
  const base = ["p.business_id = ?", "p.deleted_at IS NULL"];
  const where = [...base];
  const params: (string | number)[] = [businessId];
  if (f.query) {
    const ft = fullTextCondition(businessId, f.query);
    if (ft) {
      where.push(ft.sql);
      params.push(...ft.params);
    }
  }
  // Contains-matches by instr(), not LIKE: D1 refuses a LIKE pattern over 50 bytes ("LIKE or
  // GLOB pattern too complex"), and a filter value may be 255 characters. lower() folds ASCII
  // case as LIKE did; the value's % and _ are plain characters.
  for (const field of ["first_name", "last_name", "email"] as const) {
    const value = f[field];
    if (value) {
      where.push(`instr(lower(p.${field}), lower(?)) > 0`);
      params.push(value);
    }
  }
  for (const field of ["gender", "language_code", "nationality_code", "country_code", "phone_country_code"] as const) {
    const value = f[field];
    if (value) {
      where.push(`p.${field} = ? COLLATE NOCASE`);
      params.push(value);
    }
  }
  if (f.birth_date?.from) {
    where.push("p.birth_date >= ?");
    params.push(f.birth_date.from);
  }
  if (f.birth_date?.to) {
    where.push("p.birth_date <= ?");
    params.push(f.birth_date.to);
  }
  if (f.is_guest !== undefined) where.push(`${f.is_guest ? "" : "NOT "}EXISTS (SELECT 1 FROM guests g WHERE g.person_id = p.id)`);
  if (f.is_booker !== undefined) where.push(`${f.is_booker ? "" : "NOT "}EXISTS (SELECT 1 FROM bookers k WHERE k.person_id = p.id)`);
  const order = [...orderSql(f.order, PERSON_SORT_COLUMNS), "p.created_at ASC", "p.id ASC"].join(", ");
  const whereSql = where.join(" AND ");
  return [
    db
      .prepare(`SELECT p.*, ${derivedColumns("p")} FROM persons p WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .bind(...params, f.limit, (f.page - 1) * f.limit),
    // Without filters the total is the business's kept count (migration 0080), not a count of
    // every Person on every page.
    where.length === base.length
      ? db.prepare("SELECT COALESCE((SELECT live FROM person_counts WHERE business_id = ?), 0) AS n").bind(businessId)
      : db.prepare(`SELECT COUNT(*) AS n FROM persons p WHERE ${whereSql}`).bind(...params),
  ];
}

export function personListFrom([page, count]: D1Result[]): { rows: PersonWithDerived[]; total: number } {
  return { rows: page.results as unknown as PersonWithDerived[], total: (count.results[0] as { n: number }).n };
}

/** The bookings a Person took part in (as guest or booker), most recent first. */
export async function personBookingIds(db: D1, businessId: number, personId: string): Promise<string[]> {
  const rows = await db
    .prepare(
      `SELECT b.id FROM bookings b WHERE b.business_id = ?1 AND b.id IN
         (SELECT booking_id FROM guests WHERE person_id = ?2 UNION SELECT booking_id FROM bookers WHERE person_id = ?2)
       ORDER BY b.created_at DESC, b.id`,
    )
    .bind(businessId, personId)
    .all<{ id: string }>();
  return rows.results.map((r) => r.id);
}

/** Soft delete: the row stays for the bookings' snapshots; the e-mail becomes free again. */
export function softDeletePersonStatement(db: D1, businessId: number, id: string, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db.prepare("UPDATE persons SET deleted_at = ?, updated_at = ? WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(ts, ts, id, businessId);
}

/** Batch guard: the Person still exists (not deleted) when the batch commits. */
export function personExistsGuard(db: D1, businessId: number, id: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO batch_guard (reason, ok) SELECT 'person_gone', EXISTS (SELECT 1 FROM persons WHERE id = ? AND business_id = ? AND deleted_at IS NULL)")
    .bind(id, businessId);
}

export interface DietRow {
  id: number;
  title: string;
  abbreviation: string | null;
}

/** Which referenced ids (diets, levels, locations) do not belong to the business. */
export async function missingRefs(
  db: D1,
  businessId: number,
  refs: { path: string; table: "diets" | "levels" | "locations"; id: number | null | undefined }[],
): Promise<{ path: string; message: string }[]> {
  const wanted = refs.filter((r) => typeof r.id === "number");
  if (!wanted.length) return [];
  const results = await db.batch(
    wanted.map((r) => db.prepare(`SELECT COUNT(*) AS n FROM ${r.table} WHERE id = ? AND business_id = ?`).bind(r.id as number, businessId)),
  );
  return wanted.flatMap((r, i) => ((results[i].results[0] as { n: number }).n ? [] : [{ path: r.path, message: `no ${r.table.replace(/s$/, "")} ${r.id}` }]));
}

/** Persons by id with derived totals, deleted ones included (guests and bookers keep pointing at them). */
export async function personsWithDerivedByIds(db: D1, businessId: number, ids: string[]): Promise<Map<string, PersonWithDerived>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, PersonWithDerived>();
  for (let i = 0; i < unique.length; i += 90) {
    const chunk = unique.slice(i, i + 90);
    const rows = await db
      .prepare(`SELECT p.*, ${derivedColumns("p")} FROM persons p WHERE p.business_id = ? AND p.id IN (${chunk.map(() => "?").join(", ")})`)
      .bind(businessId, ...chunk)
      .all<PersonWithDerived>();
    for (const r of rows.results) out.set(r.id, r);
  }
  return out;
}
