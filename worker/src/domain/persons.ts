/**
 * Person merge rules (spec section 2 and the booker e-mail flows of section 4), as pure functions.
 * The db layer reads rows, asks these functions what to write and which events to emit, and
 * writes both in one batch.
 */
import { bookerEvent, guestEvent, personEvent, type PendingEvent } from "./events";

/** The Person's own data: every stored, writable field (ids, totals and timestamps are not). */
export const PERSON_DATA_FIELDS = [
  "email",
  "first_name",
  "last_name",
  "salutation",
  "gender",
  "birth_date",
  "language_code",
  "nationality_code",
  "phone_country_calling_code",
  "phone_country_code",
  "phone",
  "country_code",
  "state",
  "city",
  "zip_code",
  "address_line_1",
  "address_line_2",
  "address_line_3",
  "id_type",
  "id_number",
  "id_expiry_date",
  "company_name",
  "tax_number",
  "company_address_line_1",
  "company_address_line_2",
  "custom_fields",
  "diet_id",
  "level_id",
  "guest_group_id",
] as const;
export type PersonField = (typeof PERSON_DATA_FIELDS)[number];

export type PersonData = {
  [K in PersonField]?: K extends "custom_fields" ? Record<string, unknown> : K extends "diet_id" | "level_id" | "guest_group_id" ? number | null : string | null;
};

/** A Person is unique per business by this: trimmed, lower case; empty means "no e-mail". */
export function normalizeEmail(email: string | null | undefined): string | null {
  const norm = (email ?? "").trim().toLowerCase();
  return norm === "" ? null : norm;
}

/** Keep only Person data fields that were given (undefined = not entered, null = cleared). */
export function pickPersonData(input: Record<string, unknown>): PersonData {
  const out: Record<string, unknown> = {};
  for (const field of PERSON_DATA_FIELDS) {
    if (input[field] !== undefined) out[field] = input[field];
  }
  if (typeof out.email === "string") out.email = out.email.trim();
  return out as PersonData;
}

/**
 * The Person after data was entered for it (spec rule 2: the Person holds the latest data).
 * Fields entered overwrite, fields not entered keep their value; custom fields merge by key.
 */
export function mergePersonData(current: PersonData, entered: PersonData): PersonData {
  const next: PersonData = { ...current };
  for (const field of PERSON_DATA_FIELDS) {
    const value = entered[field];
    if (value === undefined) continue;
    if (field === "custom_fields") {
      next.custom_fields = { ...(current.custom_fields ?? {}), ...((value as Record<string, unknown>) ?? {}) };
    } else {
      (next as Record<string, unknown>)[field] = value;
    }
  }
  return next;
}

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * A stored Person after a booking made without the business's key (a public checkout) entered
 * data for it: only fields that were empty take the entered value, custom fields only keys it did
 * not have. Whoever knows an e-mail address must not rewrite that person's name, phone or
 * address; what they entered stays with the booking's booker and guests.
 */
export function fillEmptyPersonData(current: PersonData, entered: PersonData): PersonData {
  const next: PersonData = { ...current };
  for (const field of PERSON_DATA_FIELDS) {
    const value = entered[field];
    if (isEmpty(value)) continue;
    if (field === "custom_fields") {
      const stored = current.custom_fields ?? {};
      const added = Object.entries(value as Record<string, unknown>).filter(([k]) => !Object.prototype.hasOwnProperty.call(stored, k) || isEmpty(stored[k]));
      if (added.length) next.custom_fields = { ...stored, ...Object.fromEntries(added) };
    } else if (isEmpty(current[field])) {
      (next as Record<string, unknown>)[field] = value;
    }
  }
  return next;
}

/** Names of the fields whose value differs (custom fields compared as JSON). */
export function changedFields(before: PersonData, after: PersonData): PersonField[] {
  return PERSON_DATA_FIELDS.filter((field) => {
    const a = before[field] ?? null;
    const b = after[field] ?? null;
    if (field === "custom_fields") return JSON.stringify(a ?? {}) !== JSON.stringify(b ?? {});
    return a !== b;
  });
}

/**
 * The phone calling code that goes with a phone country: PUT sets both (spec: "also updates
 * the phone calling code accordingly"). `lookup` maps ISO alpha-2 to the calling code.
 */
export function withCallingCode(data: PersonData, lookup: (country: string) => string | undefined): PersonData {
  if (data.phone_country_code === undefined) return data;
  if (data.phone_country_code === null) return { ...data, phone_country_calling_code: null };
  const code = lookup(data.phone_country_code.toUpperCase());
  return { ...data, phone_country_code: data.phone_country_code.toUpperCase(), phone_country_calling_code: code ?? null };
}

/** What happens to a Person when a guest is added: match by e-mail, create or update. */
export type GuestPersonPlan =
  | { kind: "create"; data: PersonData; events: PendingEvent[] }
  | { kind: "update"; personId: string; data: PersonData; changed: PersonField[]; events: PendingEvent[] };

/**
 * Adding a guest: a known e-mail reuses that Person and writes the entered data to it; otherwise
 * a new Person. GuestCreated always; PersonCreated with a new Person, PersonUpdated when an
 * existing Person's data changed.
 */
export function planGuestAdd(args: {
  entered: PersonData;
  existing: { id: string; data: PersonData } | null;
  newPersonId: string;
  bookingId: string;
}): GuestPersonPlan & { personId: string } {
  const { entered, existing, newPersonId, bookingId } = args;
  if (!existing) {
    return {
      kind: "create",
      personId: newPersonId,
      data: mergePersonData({}, entered),
      events: [guestEvent("GuestCreated", newPersonId, bookingId), personEvent("PersonCreated", newPersonId)],
    };
  }
  const data = mergePersonData(existing.data, entered);
  const changed = changedFields(existing.data, data);
  const events = [guestEvent("GuestCreated", existing.id, bookingId)];
  if (changed.length) events.push(personEvent("PersonUpdated", existing.id));
  return { kind: "update", personId: existing.id, data, changed, events };
}

/**
 * Updating a guest updates its Person too (spec rule 3); GuestUpdated always comes with
 * PersonUpdated ("is sent at the same time"). A guest's e-mail change that names another
 * Person moves the guest to that Person (the same merge as for bookers).
 */
export function planGuestUpdate(args: {
  personId: string;
  bookingId: string;
}): PendingEvent[] {
  return [guestEvent("GuestUpdated", args.personId, args.bookingId), personEvent("PersonUpdated", args.personId)];
}

/** The three e-mail flows of PUT /bookings/{id}/booker, plus "no e-mail change". */
export type BookerEmailFlow =
  /** no e-mail given, or the same e-mail (normalized): update the booker and its Person */
  | { kind: "same_person" }
  /** new e-mail unused, create_new missing/null/false: change the e-mail of Booker and Person */
  | { kind: "change_email"; email: string }
  /** new e-mail unused, create_new true: a new Person; the booker leaves its old Person */
  | { kind: "create_new"; email: string }
  /** new e-mail used by another Person: create_new has no effect; merge into that Person */
  | { kind: "merge_existing"; email: string; personId: string };

export function bookerEmailFlow(args: {
  currentEmail: string | null;
  newEmail: string | null | undefined;
  createNew: boolean | null | undefined;
  /** the Person (not deleted) that already has the new e-mail, other than the booker's own */
  otherPersonWithEmail: { id: string } | null;
}): BookerEmailFlow {
  const next = normalizeEmail(args.newEmail);
  if (args.newEmail === undefined || next === null || next === normalizeEmail(args.currentEmail)) return { kind: "same_person" };
  const email = (args.newEmail as string).trim();
  if (args.otherPersonWithEmail) return { kind: "merge_existing", email, personId: args.otherPersonWithEmail.id };
  if (args.createNew === true) return { kind: "create_new", email };
  return { kind: "change_email", email };
}

/**
 * Events of a booker update: BookerUpdated always; PersonCreated for the new Person of
 * create_new; PersonUpdated for the Person whose data the update changed (its own or the one
 * merged into).
 */
export function bookerUpdateEvents(flow: BookerEmailFlow, personId: string, bookingId: string, personChanged: boolean): PendingEvent[] {
  const events = [bookerEvent("BookerUpdated", personId, bookingId)];
  if (flow.kind === "create_new") events.push(personEvent("PersonCreated", personId));
  else if (personChanged) events.push(personEvent("PersonUpdated", personId));
  return events;
}

/** Two-letter initials from the names ("Ana María López" gives "AL"), empty when no names. */
export function initials(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const first = (firstName ?? "").trim().charAt(0);
  const last = (lastName ?? "").trim().charAt(0);
  return (first + last).toUpperCase();
}

/** A person's fields as a booking or an API call enters them (null clears, missing keeps). */
export interface PersonInput {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  salutation?: string | null;
  gender?: "male" | "female" | "nonbinary" | null;
  birth_date?: string | null;
  language_code?: string | null;
  nationality_code?: string | null;
  phone?: string | null;
  phone_country_code?: string | null;
  phone_country_calling_code?: string | null;
  address_line_1?: string | null;
  address_line_2?: string | null;
  address_line_3?: string | null;
  city?: string | null;
  state?: string | null;
  zip_code?: string | null;
  country_code?: string | null;
  id_type?: string | null;
  id_number?: string | null;
  id_expiry_date?: string | null;
  company_name?: string | null;
  tax_number?: string | null;
  custom_fields?: Record<string, unknown>;
  diet_id?: number | null;
  level_id?: number | null;
  guest_group_id?: number | null;
}
