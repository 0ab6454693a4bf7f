/**
 * Persons as the private API changes them (POST, PUT, DELETE /private/persons): each change is
 * one batch with its webhook event, written through write(), which tells the delivery object once
 * it committed. (Persons carry no audit entries: the booking changes that touch them do.)
 */
import { personDeletedEvent, personEvent } from "../domain/events";
import { changedFields, mergePersonData, normalizeEmail, type PersonData } from "../domain/persons";
import { insertPersonStatement, isEmailClash, personBookingIds, personExistsGuard, personRow, personsByEmail, rowToData, softDeletePersonStatement, updatePersonStatement } from "../db/persons";
import type { Actor } from "../db/audit-log";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isGuardFailure } from "./input";
import { write, type Store } from "./write";

const emailTaken = () => new ApiError(409, "email_taken", "Another person already has this e-mail address.");

/**
 * Create a person, or update the one that has the entered e-mail already (PersonCreated or
 * PersonUpdated; nothing when the update changes nothing). Answers its id and whether it is new.
 */
export async function createPerson(store: Store, actor: Actor, businessId: number, entered: PersonData, now: Date): Promise<{ id: string; created: boolean }> {
  const db = store.DB;
  // A concurrent creation of the same e-mail makes the INSERT clash: then it is an update.
  for (let attempt = 0; ; attempt++) {
    const existing = (await personsByEmail(db, businessId, [entered.email])).get(normalizeEmail(entered.email) as string);
    try {
      if (existing) {
        const before = rowToData(existing);
        const after = mergePersonData(before, entered);
        if (changedFields(before, after).length) {
          await write(store, actor, businessId, now, {
            statements: [personExistsGuard(db, businessId, existing.id), updatePersonStatement(db, businessId, existing.id, after, now)],
            events: [personEvent("PersonUpdated", existing.id)],
          });
        }
        return { id: existing.id, created: false };
      }
      const id = newId();
      await write(store, actor, businessId, now, { statements: [insertPersonStatement(db, businessId, id, mergePersonData({}, entered), now)], events: [personEvent("PersonCreated", id)] });
      return { id, created: true };
    } catch (err) {
      if (attempt === 0 && (isEmailClash(err) || isGuardFailure(err))) continue;
      throw err;
    }
  }
}

/** Update a person (PersonUpdated when something changed). 404 for no such person, 409 for another person's e-mail. */
export async function updatePerson(store: Store, actor: Actor, businessId: number, id: string, entered: PersonData, now: Date): Promise<void> {
  const db = store.DB;
  const row = await personRow(db, businessId, id);
  if (!row) throw notFound("The person");
  const norm = normalizeEmail(entered.email);
  if (norm && norm !== row.email_norm) {
    const other = (await personsByEmail(db, businessId, [norm])).get(norm);
    if (other && other.id !== id) throw emailTaken();
  }
  const before = rowToData(row);
  const after = mergePersonData(before, entered);
  if (!changedFields(before, after).length) return;
  try {
    await write(store, actor, businessId, now, {
      statements: [personExistsGuard(db, businessId, id), updatePersonStatement(db, businessId, id, after, now)],
      events: [personEvent("PersonUpdated", id)],
    });
  } catch (err) {
    if (isEmailClash(err)) throw emailTaken();
    if (isGuardFailure(err)) throw notFound("The person");
    throw err;
  }
}

/** Delete a person (soft: bookings keep their snapshots). PersonDeleted with its bookings. 404 for no such person. */
export async function deletePerson(store: Store, actor: Actor, businessId: number, id: string, now: Date): Promise<void> {
  const db = store.DB;
  if (!(await personRow(db, businessId, id))) throw notFound("The person");
  const bookings = await personBookingIds(db, businessId, id);
  try {
    await write(store, actor, businessId, now, {
      statements: [personExistsGuard(db, businessId, id), softDeletePersonStatement(db, businessId, id, now)],
      events: [personDeletedEvent(id, bookings)],
    });
  } catch (err) {
    if (isGuardFailure(err)) throw notFound("The person");
    throw err;
  }
}
