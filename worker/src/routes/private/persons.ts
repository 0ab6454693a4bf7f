import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PersonCreate, PersonEnvelope, PersonList, PersonUpdate } from "../../contract/private";
import { problemResponse } from "../../contract/problem";
import type { PersonData } from "../../domain/persons";
import { listPersonsStatements, PERSON_SORT_FIELDS, personListFrom, personRow, personWithDerived } from "../../db/persons";
import { createPerson, deletePerson, updatePerson } from "../../manage/persons";
import { keyActor } from "./actor";
import type { AppEnv } from "../../db/request-env";
import { notFound } from "../../lib/errors";
import { createRouter } from "../router";
import { authResponses, bodyResponses, json, uuidPath } from "./openapi-parts";
import { checkRefs, personInput } from "./input";
import { parseSort, QueryReader, setPagingHeaders, uuidParam, pageParam, limitParam, boolParam, enumParam } from "./query";
import { personView } from "./views";
import { readTenant } from "../../db/tenant-read";
import { dietsIn } from "../../domain/catalog";

const GENDERS = ["male", "female", "nonbinary"] as const;
const DATE_OR_RANGE = "^(\\d{4}-\\d{2}-\\d{2}(\\.\\.(\\d{4}-\\d{2}-\\d{2})?)?|\\.\\.\\d{4}-\\d{2}-\\d{2})$";
const tags = ["Persons"];

const PersonIdParam = z.object({ person_id: uuidPath("person_id") });


const listRoute = createRoute({
  method: "get",
  path: "/persons",
  operationId: "listPersons",
  tags,
  summary: "List persons",
  description:
    "Persons not deleted, one page at a time. `query` searches names, e-mail, phone, city and company (every word must appear, as a substring, in any case); `first_name`, `last_name` and `email` are contains-matches. `birth_date` takes a date or a range from..to. `sort_by` may end in ,asc or ,desc. Pagination: `page` (from 1) and `limit` (1 to 100, default 10; other values are a 422); `X-Total-Count` and `Link` headers. Answer: `{data: Person[], meta: {page, limit, total}}`; the other persons routes answer `{data: Person}`. Read-only fields sent in a body (id, totals, is_guest, is_booker, created_at, ...) are ignored.",
  request: {
    query: z.object({
      query: z.string().optional(),
      first_name: z.string().optional(),
      last_name: z.string().optional(),
      gender: enumParam(GENDERS),
      birth_date: z.string().optional().openapi({ pattern: DATE_OR_RANGE, description: "A date (YYYY-MM-DD, a real calendar date) or a range from..to, from.. or ..to, both ends included; other values are a 422." }),
      email: z.string().optional(),
      is_guest: boolParam(),
      is_booker: boolParam(),
      sort_by: z.string().optional().openapi({ pattern: "^(first_name|last_name|full_name|country|birth_date)(,(asc|desc))?$", description: "first_name, last_name, full_name, country or birth_date, optionally with ,asc or ,desc; other values are a 422." }),
      language_code: twoLetterParam("ISO 639-1 language"),
      nationality_code: twoLetterParam("ISO 3166-1 alpha-2 country"),
      country_code: twoLetterParam("ISO 3166-1 alpha-2 country"),
      phone_country_code: twoLetterParam("ISO 3166-1 alpha-2 country"),
      page: pageParam(),
      limit: limitParam(),
    }),
  },
  responses: {
    200: json(PersonList, "One page of persons."),
    ...authResponses,
    422: problemResponse("An invalid query parameter."),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/persons/{person_id}",
  operationId: "getPerson",
  tags,
  summary: "Fetch a person",
  request: { params: PersonIdParam },
  responses: { 200: json(PersonEnvelope, "The person."), 400: problemResponse("person_id is not a UUID."), ...authResponses, 404: problemResponse("No such person (or deleted).") },
});

const createRoutePersons = createRoute({
  method: "post",
  path: "/persons",
  operationId: "createPerson",
  tags,
  summary: "Create a person (or update the one with that e-mail)",
  request: { body: { content: { "application/json": { schema: PersonCreate } }, required: true } },
  responses: { ...bodyResponses,
    200: json(PersonEnvelope, "A person with that e-mail existed and was updated."),
    201: json(PersonEnvelope, "The person was created."),
    ...authResponses,
    400: problemResponse("Malformed JSON."),
    422: problemResponse("Invalid fields."),
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/persons/{person_id}",
  operationId: "updatePerson",
  tags,
  summary: "Update a person",
  description: "Guests and bookers keep their snapshots. phone_country_code also sets phone_country_calling_code.",
  request: { params: PersonIdParam, body: { content: { "application/json": { schema: PersonUpdate } }, required: true } },
  responses: { ...bodyResponses,
    200: json(PersonEnvelope, "The updated person."),
    400: problemResponse("person_id is not a UUID, or malformed JSON."),
    ...authResponses,
    404: problemResponse("No such person (or deleted)."),
    409: problemResponse("Another person has this e-mail."),
    422: problemResponse("Invalid fields."),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/persons/{person_id}",
  operationId: "deletePerson",
  tags,
  summary: "Delete a person (soft delete)",
  description: "The person disappears from the persons endpoints; bookings keep their guest and booker snapshots. Sends PersonDeleted.",
  request: { params: PersonIdParam },
  responses: { 204: { description: "Deleted." }, 400: problemResponse("person_id is not a UUID."), ...authResponses, 404: problemResponse("No such person (or deleted).") },
});

/** Person data from a request body: aliases resolved, calling code set, references checked. */
async function enteredData(c: Context<AppEnv>, body: Record<string, unknown>): Promise<PersonData> {
  const input = { ...body };
  for (const [alias, field] of [["phone_country_id", "phone_country_code"], ["country_id", "country_code"], ["nationality_id", "nationality_code"]]) {
    if (input[alias] !== undefined && input[field] === undefined) input[field] = input[alias];
  }
  const data = personInput(input);
  await checkRefs(c, [
    { path: "diet_id", table: "diets", id: data.diet_id },
    { path: "level_id", table: "levels", id: data.level_id },
  ]);
  return data;
}

async function respondPerson(c: Context<AppEnv>, id: string) {
  const { businessId } = c.get("tenant");
  const row = await personWithDerived(c.env.DB, businessId, id);
  const diets = dietsIn((await readTenant(c)).snap);
  if (!row) throw notFound("The person");
  return { data: personView(row, diets) };
}


export const personRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const { businessId } = c.get("tenant");
    const q = new QueryReader(c);
    const birth = q.range("birth_date", "date");
    const filters = {
      query: q.string("query", 200),
      first_name: q.string("first_name"),
      last_name: q.string("last_name"),
      email: q.string("email"),
      gender: q.enumOne("gender", GENDERS),
      birth_date: birth?.kind === "range" ? birth : undefined,
      is_guest: q.bool("is_guest"),
      is_booker: q.bool("is_booker"),
      language_code: twoLetters(q, "language_code"),
      nationality_code: twoLetters(q, "nationality_code"),
      country_code: twoLetters(q, "country_code"),
      phone_country_code: twoLetters(q, "phone_country_code"),
      order: parseSort(q, PERSON_SORT_FIELDS),
      ...q.paging(),
    };
    q.done();
    // The page, its count and the key's check in one round trip (db/tenant-read.ts).
    const { snap, results } = await readTenant(c, () => listPersonsStatements(c.env.DB, businessId, filters));
    const { rows, total } = personListFrom(results);
    const diets = dietsIn(snap);
    setPagingHeaders(c, total, filters.page, filters.limit);
    return c.json({ data: rows.map((r) => personView(r, diets)), meta: { page: filters.page, limit: filters.limit, total } }, 200);
  })
  .openapi(getRoute, async (c) => {
    const id = uuidParam(c.req.valid("param").person_id, "person_id");
    return c.json(await respondPerson(c, id), 200);
  })
  .openapi(createRoutePersons, async (c) => {
    const entered = await enteredData(c, c.req.valid("json"));
    const { id, created } = await createPerson(c.env, keyActor(c), c.get("tenant").businessId, entered, c.get("now"));
    if (!created) return c.json(await respondPerson(c, id), 200);
    c.header("Location", `/private/persons/${id}`);
    return c.json(await respondPerson(c, id), 201);
  })
  .openapi(updateRoute, async (c) => {
    const id = uuidParam(c.req.valid("param").person_id, "person_id");
    // The 404 comes before the body's own checks, as it did.
    if (!(await personRow(c.env.DB, c.get("tenant").businessId, id))) throw notFound("The person");
    const entered = await enteredData(c, c.req.valid("json"));
    await updatePerson(c.env, keyActor(c), c.get("tenant").businessId, id, entered, c.get("now"));
    return c.json(await respondPerson(c, id), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const id = uuidParam(c.req.valid("param").person_id, "person_id");
    await deletePerson(c.env, keyActor(c), c.get("tenant").businessId, id, c.get("now"));
    return c.body(null, 204);
  });

/** A two-letter code filter: any two letters are taken (a code no person has matches none), in any case. */
function twoLetterParam(what: string) {
  return z.string().optional().openapi({ pattern: "^[A-Za-z]{2}$", description: `An ${what} code (two letters, any case); other values are a 422.` });
}

function twoLetters(q: QueryReader, name: string): string | undefined {
  const v = q.one(name);
  if (v === undefined) return undefined;
  if (!/^[A-Za-z]{2}$/.test(v)) return q.fail(name, "must be a two-letter code");
  return v;
}
