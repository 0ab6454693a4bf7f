import { createRoute, z } from "@hono/zod-openapi";
import { BookerEnvelope, BookerUpdate } from "../../contract/private";
import { problemResponse } from "../../contract/problem";
import { bookerRow } from "../../db/bookings";
import { personsWithDerivedByIds } from "../../db/persons";
import { notFound } from "../../lib/errors";
import { updateBooker } from "../../manage/bookers";
import { keyActor } from "./actor";
import { createRouter } from "../router";
import { readTenant } from "../../db/tenant-read";
import { authResponses, bodyResponses, uuidPath } from "./openapi-parts";
import { uuidParam } from "./query";
import { bookerView } from "./views";
import type { Context } from "hono";
import type { AppEnv } from "../../db/request-env";
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
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    await updateBooker(c.env, keyActor(c), c.get("tenant").businessId, bookingId, c.req.valid("json"), c.get("now"));
    return c.json(await respond(c, bookingId), 200);
  });
