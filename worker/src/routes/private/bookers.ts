import { createRoute, z } from "@hono/zod-openapi";
import { BookerEnvelope, BookerUpdate } from "../../contract/private";
import { problemResponse } from "../../contract/problem";
import { bookerEmailFlow, bookerUpdateEvents, changedFields, mergePersonData, normalizeEmail, type PersonData } from "../../domain/persons";
import { bookerRow, bookerStillOfStatement, bookingRow, updateBookerStatement } from "../../db/bookings";
import { kickDelivery, outboxStatements } from "../../db/outbox";
import { insertPersonStatement, isEmailClash, personsByEmail, personsWithDerivedByIds, rowToData, updatePersonStatement } from "../../db/persons";
import { ApiError, notFound } from "../../lib/errors";
import { isoDateTime } from "../../lib/time";
import { createRouter } from "../../lib/openapi";
import { readTenant } from "../../db/tenant-read";
import { authResponses, bodyResponses, uuidPath } from "./openapi-parts";
import { checkRefs, isGuardFailure, personInput } from "./input";
import { uuidParam } from "./query";
import { bookerView } from "./views";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { newId } from "../../lib/ids";
import { dietsIn } from "../../domain/catalog";

const tags = ["Bookers"];

const BookingParam = z.object({ booking_id: uuidPath("booking_id") });
const ok = { description: "The booker.", content: { "application/json": { schema: BookerEnvelope } } };

const getRoute = createRoute({
  method: "get",
  path: "/bookings/{booking_id}/booker",
  operationId: "getBooker",
  tags,
  summary: "Fetch the booker of a booking",
  request: { params: BookingParam },
  responses: { 200: ok, 400: problemResponse("booking_id is not a UUID."), ...authResponses, 404: problemResponse("No such booking.") },
});
const putRoute = createRoute({
  method: "put",
  path: "/bookings/{booking_id}/booker",
  operationId: "updateBooker",
  tags,
  summary: "Update the booker and its person",
  description:
    "E-mail flows: a new e-mail no other Person holds changes the e-mail of the booker and its Person (create_new missing, null or false), or with create_new true attaches the booker to a new Person (the old Person is left as it was); an e-mail another Person holds merges the booker into that Person whatever create_new says. Sends BookerUpdated, with PersonCreated or PersonUpdated.",
  request: { params: BookingParam, body: { content: { "application/json": { schema: BookerUpdate } }, required: true } },
  responses: { ...bodyResponses,
    200: ok,
    400: problemResponse("booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("A concurrent change took the e-mail; retry."),
    422: problemResponse("Invalid fields."),
  },
});

async function respond(c: Context<AppEnv>, bookingId: string) {
  const { businessId } = c.get("tenant");
  const row = await bookerRow(c.env.DB, businessId, bookingId);
  if (!row) throw notFound("The booking");
  const persons = await personsWithDerivedByIds(c.env.DB, businessId, [row.person_id]);
  const diets = dietsIn((await readTenant(c)).snap);
  return { data: bookerView(row, persons.get(row.person_id)!, diets) };
}

export const bookerRoutes = createRouter()
  .openapi(getRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    return c.json(await respond(c, bookingId), 200);
  })
  .openapi(putRoute, async (c) => {
    const { businessId } = c.get("tenant");
    const now = c.get("now");
    const db = c.env.DB;
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const body = c.req.valid("json");
    if (!(await bookingRow(db, businessId, bookingId))) throw notFound("The booking");
    const booker = await bookerRow(db, businessId, bookingId);
    if (!booker) throw notFound("The booking");
    const entered = personInput(body);
    await checkRefs(c, [
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
    const ts = isoDateTime(now);
    statements.push(
      updateBookerStatement(db, businessId, booker.id, {
        personId,
        snapshot: JSON.stringify(snapshot),
        companyName: entered.company_name !== undefined ? entered.company_name : booker.company_name,
        taxNumber: entered.tax_number !== undefined ? entered.tax_number : booker.tax_number,
        updatedAt: ts,
      }),
      ...outboxStatements(db, businessId, bookerUpdateEvents(flow, personId, bookingId, personChanged), now),
    );
    try {
      await db.batch(statements);
    } catch (err) {
      if (isGuardFailure(err)) throw new ApiError(409, "conflict", "The booker was changed meanwhile; retry.");
      if (isEmailClash(err)) throw new ApiError(409, "email_taken", "Another person took this e-mail meanwhile; retry.");
      throw err;
    }
    await kickDelivery(c.env, businessId);
    return c.json(await respond(c, bookingId), 200);
  });

