/**
 * Changes to the guests of a booking, made the same way whoever asks (the private API, the back
 * office's check-in and check-out): the person rules of the spec, one batch with its guard, its
 * webhook events and its audit entry.
 */
import { referenceOf } from "../domain/reference";
import type { z } from "@hono/zod-openapi";
import type { BookingRelatedWrite, GuestCreate, GuestUpdate } from "../contract/private";
import { guestEvent } from "../domain/events";
import { bookerEmailFlow, changedFields, mergePersonData, normalizeEmail, planGuestAdd, planGuestUpdate, type PersonData } from "../domain/persons";
import type { Actor } from "../db/audit-log";
import { bookingConfirmedGuard, bookingRow } from "../db/bookings";
import { deleteGuestStatement, guestExistsGuard, guestRow, updateGuestStatement } from "../db/guests";
import { insertGuestStatement } from "../db/booking-people";
import { insertPersonStatement, isEmailClash, personsByEmail, personsWithDerivedByIds, rowToData, updatePersonStatement } from "../db/persons";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { dateIn, isoDateTime } from "../lib/time";
import { businessById } from "../db/businesses";
import { checkRefs, isGuardFailure, isGuestPersonTaken, personInput, type Ref } from "./input";
import { write } from "./write";
import type { D1Env } from "../db/d1";

function relatedRefs(r: z.infer<typeof BookingRelatedWrite> | undefined, person: PersonData): Ref[] {
  return [
    { path: "person.diet_id", table: "diets", id: person.diet_id },
    { path: "person.level_id", table: "levels", id: person.level_id },
    { path: "booking_related_data.level_id", table: "levels", id: r?.level_id },
    { path: "booking_related_data.arrival_location_id", table: "locations", id: r?.arrival_location_id },
    { path: "booking_related_data.departure_location_id", table: "locations", id: r?.departure_location_id },
  ];
}

const guestPersonTaken = () =>
  new ApiError(409, "conflict", "This person is already a guest of this booking: a person is a guest of a booking once. Update that guest instead.");

const nameOf = (p: PersonData) => [p.first_name, p.last_name].filter(Boolean).join(" ") || p.email || "a guest";

/**
 * Add a guest to a confirmed booking: the entered data is written to its Person (a known e-mail
 * reuses that Person). GuestCreated, with PersonCreated or PersonUpdated. Answers the guest's id.
 */
export async function addGuest(env: D1Env, actor: Actor, businessId: number, bookingId: string, body: GuestCreate, now: Date): Promise<string> {
  const db = env.DB;
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  if (booking.status !== "confirmed") throw new ApiError(409, "conflict", "The booking is cancelled; guests cannot be added.");
  const entered = personInput(body.person);
  await checkRefs(db, businessId, relatedRefs(body.booking_related_data, entered));
  const guestId = newId();
  for (let attempt = 0; ; attempt++) {
    const norm = normalizeEmail(entered.email);
    const existingRow = norm ? (await personsByEmail(db, businessId, [norm])).get(norm) : undefined;
    const plan = planGuestAdd({
      entered,
      existing: existingRow ? { id: existingRow.id, data: rowToData(existingRow) } : null,
      newPersonId: newId(),
      bookingId,
    });
    const personStatement =
      plan.kind === "create"
        ? [insertPersonStatement(db, businessId, plan.personId, plan.data, now)]
        : plan.changed.length
          ? [updatePersonStatement(db, businessId, plan.personId, plan.data, now)]
          : [];
    try {
      await write(env, actor, businessId, now, {
        statements: [
          bookingConfirmedGuard(db, businessId, bookingId),
          ...personStatement,
          insertGuestStatement(db, businessId, { id: guestId, bookingId, personId: plan.personId, snapshot: plan.data, related: body.booking_related_data ?? {} }, now),
        ],
        events: plan.events,
        audit: [{ action: "created", entity: "guest", entityId: guestId, summary: `Added ${nameOf(plan.data)} to booking ${referenceOf(booking.reference_year, booking.reference_number)}`, after: { booking_id: bookingId, person_id: plan.personId } }],
      });
      break;
    } catch (err) {
      if (isGuardFailure(err)) throw new ApiError(409, "conflict", "The booking was cancelled meanwhile.");
      if (isGuestPersonTaken(err)) throw guestPersonTaken();
      if (attempt === 0 && isEmailClash(err)) continue;
      throw err;
    }
  }
  return guestId;
}

/**
 * Update a guest and its Person (GuestUpdated with PersonUpdated). A person e-mail another Person
 * holds moves the guest to that Person; an unused one changes the Person's e-mail. `summary`
 * names the change in the audit log (default: "Updated guest ...").
 */
export async function updateGuest(
  env: D1Env,
  actor: Actor,
  businessId: number,
  bookingId: string,
  guestId: string,
  body: GuestUpdate,
  now: Date,
  audit: { action: string; summary?: string } = { action: "updated" },
): Promise<void> {
  const db = env.DB;
  const guest = await guestRow(db, businessId, bookingId, guestId);
  if (!guest) throw notFound("The guest");
  const entered = personInput(body.person);
  await checkRefs(db, businessId, relatedRefs(body.booking_related_data, entered));

  const current = (await personsWithDerivedByIds(db, businessId, [guest.person_id])).get(guest.person_id);
  const norm = normalizeEmail(entered.email);
  const other = norm ? (await personsByEmail(db, businessId, [norm])).get(norm) : undefined;
  // The same e-mail rules as for bookers (without create_new): another Person's e-mail merges into it.
  const flow = bookerEmailFlow({
    currentEmail: current?.email ?? null,
    newEmail: entered.email ?? undefined,
    createNew: false,
    otherPersonWithEmail: other && other.id !== guest.person_id ? other : null,
  });
  const target = flow.kind === "merge_existing" && other ? other : current && !current.deleted_at ? current : null;
  const statements: D1PreparedStatement[] = [guestExistsGuard(db, businessId, guestId)];
  const personId = target?.id ?? guest.person_id;
  if (target) {
    const before = rowToData(target);
    const after = mergePersonData(before, entered);
    if (changedFields(before, after).length) statements.push(updatePersonStatement(db, businessId, target.id, after, now));
  }
  const oldSnapshot = JSON.parse(guest.person_snapshot) as PersonData;
  const snapshot = mergePersonData(oldSnapshot, entered);
  const related = body.booking_related_data ?? {};
  statements.push(updateGuestStatement(db, businessId, guestId, { personId, snapshot: JSON.stringify(snapshot), related }, now));
  const events = target ? planGuestUpdate({ personId, bookingId }) : [guestEvent("GuestUpdated", personId, bookingId)];
  const before = Object.fromEntries(Object.keys(related).map((k) => [k, (guest as unknown as Record<string, unknown>)[k] ?? null]));
  const entry = { action: audit.action, entity: "guest", entityId: guestId, summary: audit.summary ?? `Updated guest ${nameOf(snapshot)}`, before, after: { ...related, ...(body.person ? { person: body.person } : {}) } };
  try {
    await write(env, actor, businessId, now, { statements, events, audit: [entry] });
  } catch (err) {
    if (isGuardFailure(err)) throw notFound("The guest");
    if (isGuestPersonTaken(err)) throw guestPersonTaken();
    if (isEmailClash(err)) throw new ApiError(409, "email_taken", "Another person took this e-mail meanwhile; retry.");
    throw err;
  }
}

/** Check a guest in (now) or out (now): the guest update the private API makes with checked_in_at / checked_out_at. */
export async function checkGuest(env: D1Env, actor: Actor, businessId: number, bookingId: string, guestId: string, what: "in" | "out", now: Date): Promise<void> {
  const guest = await guestRow(env.DB, businessId, bookingId, guestId);
  if (!guest) throw notFound("The guest");
  const name = nameOf(JSON.parse(guest.person_snapshot) as PersonData);
  if (what === "in") {
    if (guest.checked_in_at) throw new ApiError(409, "conflict", "The guest is checked in already.");
    // Check-in opens on the guest's arrival day (in the business's time zone), not before: a
    // guest checked in the day before would show as in house on a day they are not there.
    const business = await businessById(env.DB, businessId);
    const today = dateIn(now, business?.config.time_zone ?? "UTC");
    if (guest.arrives_on && guest.arrives_on > today) {
      throw new ApiError(409, "not_arrived", `${name} arrives on ${guest.arrives_on}: check-in opens that day (today is ${today}).`);
    }
    await updateGuest(env, actor, businessId, bookingId, guestId, { booking_related_data: { checked_in_at: isoDateTime(now) } }, now, { action: "checked_in", summary: `Checked in ${name}` });
  } else {
    if (guest.checked_out_at) throw new ApiError(409, "conflict", "The guest is checked out already.");
    await updateGuest(env, actor, businessId, bookingId, guestId, { booking_related_data: { checked_out_at: isoDateTime(now) } }, now, { action: "checked_out", summary: `Checked out ${name}` });
  }
}

/** Remove a guest from a booking; the Person is not deleted. GuestDeleted. */
export async function deleteGuest(env: D1Env, actor: Actor, businessId: number, bookingId: string, guestId: string, now: Date): Promise<void> {
  const db = env.DB;
  const guest = await guestRow(db, businessId, bookingId, guestId);
  if (!guest) throw notFound("The guest");
  try {
    await write(env, actor, businessId, now, {
      statements: [guestExistsGuard(db, businessId, guestId), deleteGuestStatement(db, businessId, guestId)],
      events: [guestEvent("GuestDeleted", guest.person_id, bookingId)],
      audit: [{ action: "deleted", entity: "guest", entityId: guestId, summary: `Removed guest ${nameOf(JSON.parse(guest.person_snapshot) as PersonData)}`, before: { booking_id: bookingId, person_id: guest.person_id } }],
    });
  } catch (err) {
    if (isGuardFailure(err)) throw notFound("The guest");
    throw err;
  }
}
