/**
 * What checkout needs to create a booking's booker and guests with their Persons, and the
 * statements shared by the guest and booker routes.
 */
import { bookerEvent, guestEvent, personEvent, type PendingEvent } from "../domain/events";
import { callingCode } from "../contract/calling-codes";
import { changedFields, fillEmptyPersonData, mergePersonData, normalizeEmail, pickPersonData, withCallingCode, type PersonData, type PersonInput } from "../domain/persons";
import { isoDateTime } from "../lib/time";
import { outboxStatements } from "./outbox";
import { insertPersonStatement, personsByEmail, rowToData, updatePersonStatement, type PersonRow } from "./persons";
import { newId } from "../lib/ids";
import type { D1 } from "./d1";


/** INSERT of a Guest row: the Person's data as of this booking, plus booking-related data. */
export function insertGuestStatement(
  db: D1,
  businessId: number,
  guest: { id: string; bookingId: string; personId: string; snapshot: PersonData; related?: Record<string, unknown> },
  now: Date,
): D1PreparedStatement {
  const related = guest.related ?? {};
  const relatedCols = Object.keys(related);
  const cols = ["id", "business_id", "booking_id", "person_id", "person_snapshot", ...relatedCols, "created_at", "updated_at"];
  const ts = isoDateTime(now);
  return db
    .prepare(`INSERT INTO guests (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
    .bind(guest.id, businessId, guest.bookingId, guest.personId, JSON.stringify(guest.snapshot), ...relatedCols.map((c) => related[c] ?? null), ts, ts);
}

/** INSERT of the Booker row of a booking (a snapshot of its Person). */
export function insertBookerStatement(
  db: D1,
  businessId: number,
  booker: { id: string; bookingId: string; personId: string; snapshot: PersonData; companyName: string | null; taxNumber: string | null },
  now: Date,
): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare(
      `INSERT INTO bookers (id, business_id, booking_id, person_id, person_snapshot, company_name, tax_number, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(booker.id, businessId, booker.bookingId, booker.personId, JSON.stringify(booker.snapshot), booker.companyName, booker.taxNumber, ts, ts);
}

interface PersonState {
  id: string;
  data: PersonData;
  isNew: boolean;
  before: PersonData | null;
  /** The data entered for it by this booking (all its entries merged), for the snapshots. */
  entered: PersonData;
}

/**
 * Statements (to put in the caller's batch) that upsert each Person by normalized e-mail, create
 * the Booker and the Guests of bookingId, and write BookerCreated/GuestCreated/PersonCreated/
 * PersonUpdated to the outbox, after the caller's own `leading` events in the same statement.
 * Reads the existing persons first, unless the caller read them already (`known`, by normalized
 * e-mail, for every e-mail of the input); a unique-index clash at commit means a concurrent
 * creation: the caller retries once, without `known`.
 *
 * Entries sharing an e-mail (a booker who is also a guest) share one Person; later entries
 * overwrite earlier ones (the Person holds the latest data). An entry without an e-mail is a
 * new Person of its own.
 *
 * A public checkout (no key of the business's back office: an integrator's site or the widget,
 * where anyone may type anyone's e-mail) links the booking to the stored Person of that e-mail
 * but never overwrites it: only its empty fields are filled (fillEmptyPersonData), and the
 * booker's and guests' snapshots hold the data as entered.
 */
export async function bookingPeopleStatements(
  db: D1,
  businessId: number,
  bookingId: string,
  input: { booker: PersonInput & { company_name?: string | null; tax_number?: string | null }; guests: { id: string; person: PersonInput }[] },
  now: Date,
  leading: PendingEvent[] = [],
  known?: Map<string, PersonRow>,
): Promise<{ statements: D1PreparedStatement[]; bookerId: string; guestIds: string[] }> {
  const existing = known ?? (await personsByEmail(db, businessId, [input.booker.email, ...input.guests.map((g) => g.person.email)]));
  const byEmail = new Map<string, PersonState>();
  const people: PersonState[] = [];

  /** Apply one entry's data to its Person (found, already touched in this batch, or new). */
  const enter = (raw: PersonInput): { state: PersonState; snapshot: PersonData } => {
    let entered = pickPersonData(raw as Record<string, unknown>);
    if (entered.phone_country_code && !entered.phone_country_calling_code) entered = withCallingCode(entered, callingCode);
    const norm = normalizeEmail(entered.email);
    let state = norm ? byEmail.get(norm) : undefined;
    if (!state) {
      const row = norm ? existing.get(norm) : undefined;
      state = row
        ? { id: row.id, data: rowToData(row), isNew: false, before: rowToData(row), entered: {} }
        : { id: newId(), data: {}, isNew: true, before: null, entered: {} };
      if (norm) byEmail.set(norm, state);
      people.push(state);
    }
    state.entered = mergePersonData(state.entered, entered);
    state.data = state.isNew ? mergePersonData(state.data, entered) : fillEmptyPersonData(state.data, entered);
    return { state, snapshot: state.isNew ? { ...state.data } : { ...state.entered } };
  };

  const rows: D1PreparedStatement[] = [];
  const events: PendingEvent[] = [...leading];

  const { state: bookerPerson, snapshot: bookerSnapshot } = enter(input.booker);
  const bookerId = newId();
  const guestRows = input.guests.map((g) => {
    const { state: person, snapshot } = enter(g.person);
    return { id: g.id, person, snapshot };
  });

  // Persons first (guests and bookers reference them), then booker and guests.
  for (const person of people) {
    if (person.isNew) rows.push(insertPersonStatement(db, businessId, person.id, person.data, now));
    else if (changedFields(person.before ?? {}, person.data).length) rows.push(updatePersonStatement(db, businessId, person.id, person.data, now));
  }
  rows.push(
    insertBookerStatement(
      db,
      businessId,
      {
        id: bookerId,
        bookingId,
        personId: bookerPerson.id,
        snapshot: bookerSnapshot,
        companyName: input.booker.company_name ?? null,
        taxNumber: input.booker.tax_number ?? null,
      },
      now,
    ),
  );
  // The level a guest picked for this booking is booking-related data too (a skill level per stay).
  for (const g of guestRows) {
    const related = g.snapshot.level_id != null ? { level_id: g.snapshot.level_id } : undefined;
    rows.push(insertGuestStatement(db, businessId, { id: g.id, bookingId, personId: g.person.id, snapshot: g.snapshot, related }, now));
  }

  // Events: BookerCreated (PersonCreated may follow), GuestCreated with PersonCreated for a new
  // Person, PersonUpdated once for each existing Person whose data the booking changed.
  events.push(bookerEvent("BookerCreated", bookerPerson.id, bookingId));
  for (const g of guestRows) events.push(guestEvent("GuestCreated", g.person.id, bookingId));
  for (const person of people) {
    if (person.isNew) events.push(personEvent("PersonCreated", person.id));
    else if (changedFields(person.before ?? {}, person.data).length) events.push(personEvent("PersonUpdated", person.id));
  }

  return {
    statements: [...rows, ...outboxStatements(db, businessId, events, now)],
    bookerId,
    guestIds: guestRows.map((g) => g.id),
  };
}
