import { PERSON_DATA_FIELDS, normalizeEmail, type PersonData } from "../domain/persons";
import { isoDateTime } from "../lib/time";

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
export function insertPersonStatement(db: D1Database, businessId: number, id: string, data: PersonData, now: Date): D1PreparedStatement {
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
export function updatePersonStatement(db: D1Database, businessId: number, id: string, data: PersonData, now: Date): D1PreparedStatement {
  const sets = ["email_norm = ?", ...DATA_COLUMNS.map((c) => `${c} = ?`), "updated_at = ?"];
  return db
    .prepare(`UPDATE persons SET ${sets.join(", ")} WHERE id = ? AND business_id = ? AND deleted_at IS NULL`)
    .bind(normalizeEmail(data.email), ...columnValues(data), isoDateTime(now), id, businessId);
}

/** The Person (not deleted) of the business with this id. */
export async function personRow(db: D1Database, businessId: number, id: string): Promise<PersonRow | null> {
  return db.prepare("SELECT * FROM persons WHERE id = ? AND business_id = ? AND deleted_at IS NULL").bind(id, businessId).first<PersonRow>();
}

/** The Persons (not deleted) holding these e-mails, by normalized e-mail. */
export async function personsByEmail(db: D1Database, businessId: number, emails: (string | null | undefined)[]): Promise<Map<string, PersonRow>> {
  const norms = [...new Set(emails.map(normalizeEmail).filter((e): e is string => e !== null))];
  const found = new Map<string, PersonRow>();
  if (!norms.length) return found;
  const rows = await db
    .prepare(`SELECT * FROM persons WHERE business_id = ? AND deleted_at IS NULL AND email_norm IN (${norms.map(() => "?").join(", ")})`)
    .bind(businessId, ...norms)
    .all<PersonRow>();
  for (const row of rows.results) found.set(row.email_norm as string, row);
  return found;
}

/** True when a D1 error is the unique index on persons' e-mail. */
export function isEmailClash(err: unknown): boolean {
  return /UNIQUE constraint failed: persons\.business_id, persons\.email_norm|persons_email/i.test(String((err as Error)?.message ?? err));
}
