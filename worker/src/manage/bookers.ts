/**
 * The booker's update with the spec's three e-mail flows (private API PUT /bookings/{id}/booker,
 * and the back office's booker form): one batch with its guard, its events and its audit entry.
 */
import { referenceOf } from "../domain/reference";
import type { BookerUpdate } from "../contract/private";
import { bookerEmailFlow, bookerUpdateEvents, changedFields, mergePersonData, normalizeEmail, type PersonData } from "../domain/persons";
import type { Actor } from "../db/audit-log";
import { bookerRow, bookerStillOfStatement, bookingRow, updateBookerStatement } from "../db/bookings";
import { insertPersonStatement, isEmailClash, personsByEmail, personsWithDerivedByIds, rowToData, updatePersonStatement } from "../db/persons";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoDateTime } from "../lib/time";
import { checkRefs, isGuardFailure, personInput } from "./input";
import { write } from "./write";
import type { D1Env } from "../db/d1";

/** Which of the three e-mail flows ran (the back office says so after the change). */
export type BookerFlow = "same_person" | "change_email" | "create_new" | "merge_existing";

export async function updateBooker(env: D1Env, actor: Actor, businessId: number, bookingId: string, body: BookerUpdate, now: Date): Promise<BookerFlow> {
  const db = env.DB;
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  const booker = await bookerRow(db, businessId, bookingId);
  if (!booker) throw notFound("The booking");
  const entered = personInput(body);
  await checkRefs(db, businessId, [
    { path: "diet_id", table: "diets", id: entered.diet_id },
    { path: "level_id", table: "levels", id: entered.level_id },
  ]);
  const current = (await personsWithDerivedByIds(db, businessId, [booker.person_id])).get(booker.person_id);
  const norm = normalizeEmail(entered.email);
  const other = norm ? (await personsByEmail(db, businessId, [norm])).get(norm) : undefined;
  const flow = bookerEmailFlow({
    currentEmail: current?.email ?? null,
    newEmail: entered.email ?? undefined,
    createNew: body.create_new,
    otherPersonWithEmail: other && other.id !== booker.person_id ? other : null,
  });
  const oldSnapshot = JSON.parse(booker.person_snapshot) as PersonData;
  const snapshot = mergePersonData(oldSnapshot, entered);
  const statements: D1PreparedStatement[] = [
    // The booker still belongs to the Person read above (else a concurrent flow moved it).
    bookerStillOfStatement(db, booker.id, booker.person_id),
  ];
  let personId = booker.person_id;
  let personChanged = false;
  if (flow.kind === "create_new") {
    // The new Person starts from the booker's data with the changes; the old one is left alone.
    personId = newId();
    statements.push(insertPersonStatement(db, businessId, personId, snapshot, now));
    personChanged = true;
  } else {
    const target = flow.kind === "merge_existing" ? other : current && !current.deleted_at ? current : undefined;
    if (target) {
      personId = target.id;
      const before = rowToData(target);
      const after = mergePersonData(before, entered);
      personChanged = changedFields(before, after).length > 0;
      if (personChanged) statements.push(updatePersonStatement(db, businessId, target.id, after, now));
    }
  }
  const changed = changedFields(oldSnapshot, snapshot);
  statements.push(
    updateBookerStatement(db, businessId, booker.id, {
      personId,
      snapshot: JSON.stringify(snapshot),
      companyName: entered.company_name !== undefined ? entered.company_name : booker.company_name,
      taxNumber: entered.tax_number !== undefined ? entered.tax_number : booker.tax_number,
      updatedAt: isoDateTime(now),
    }),
  );
  const audit = [
      {
        action: "updated",
        entity: "booker",
        entityId: booker.id,
        summary: `Updated the booker of booking ${referenceOf(booking.reference_year, booking.reference_number)}${flow.kind === "same_person" ? "" : ` (${flow.kind.replaceAll("_", " ")})`}`,
        before: Object.fromEntries(changed.map((k) => [k, (oldSnapshot as Record<string, unknown>)[k] ?? null])),
        after: Object.fromEntries(changed.map((k) => [k, (snapshot as Record<string, unknown>)[k] ?? null])),
      },
  ];
  try {
    await write(env, actor, businessId, now, { statements, events: bookerUpdateEvents(flow, personId, bookingId, personChanged), audit });
  } catch (err) {
    if (isGuardFailure(err)) throw new ApiError(409, "conflict", "The booker was changed meanwhile; retry.");
    if (isEmailClash(err)) throw new ApiError(409, "email_taken", "Another person took this e-mail meanwhile; retry.");
    throw err;
  }
  return flow.kind as BookerFlow;
}
