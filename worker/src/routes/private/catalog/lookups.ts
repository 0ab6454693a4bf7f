import { createRoute, z } from "@hono/zod-openapi";
import { AdminSeason, ArchivedQuery, LOOKUP_CREATE, LOOKUP_PATCH, LOOKUP_VIEW, PathIdParam, SeasonCreate, SeasonPatch, type LookupKind } from "../../../contract/catalog-write";
import { problemResponse } from "../../../contract/problem";
import { createRouter } from "../../router";
import { createLookup, createSeason, getLookup, getSeason, listLookups, listSeasons, updateLookup, updateSeason } from "../../../manage/catalog/lookups";
import { json } from "../openapi-parts";
import { changeResponses, keyActor, readResponses } from "./parts";

const tags = ["Catalog (administration)"];

const KINDS: { kind: LookupKind; path: string; one: string; many: string; op: string; note: string }[] = [
  { kind: "location", path: "locations", one: "location", many: "locations", op: "Location", note: "Products name their location; GET /products filters by it." },
  { kind: "category", path: "categories", one: "category", many: "categories", op: "Category", note: "kind backoffice groups products for staff; kind frontoffice lists them (GET /products shows products of a front-office category)." },
  { kind: "accommodation_type", path: "accommodation-types", one: "accommodation type", many: "accommodation types", op: "AccommodationType", note: "What a room type is (Dorm, Room, ...); shown as a product's accommodation_type." },
  { kind: "diet", path: "diets", one: "diet", many: "diets", op: "Diet", note: "Shown in the public settings; guests and persons name theirs by id." },
  { kind: "level", path: "levels", one: "level", many: "levels", op: "Level", note: "Shown in the public settings; guests name theirs by id." },
];

/** The five lookups' routes: list, create, read, change (archive and restore included). */
function lookupRoutes() {
  const router = createRouter();
  for (const k of KINDS) {
    const notFound = { 404: problemResponse(`No such ${k.one} in this business.`) };
    const One = z.object({ data: LOOKUP_VIEW[k.kind] });
    router.openapi(
      createRoute({
        method: "get",
        path: `/catalog/${k.path}`,
        operationId: `adminList${k.op}s`,
        tags,
        summary: `The business's ${k.many}`,
        description: k.note,
        request: { query: ArchivedQuery },
        responses: { 200: json(z.object({ data: z.array(LOOKUP_VIEW[k.kind]) }), `The ${k.many}.`), ...readResponses },
      }),
      async (c) => c.json({ data: await listLookups(c.env.DB, c.get("tenant").businessId, k.kind, c.req.valid("query").archived) }, 200),
    );
    router.openapi(
      createRoute({
        method: "post",
        path: `/catalog/${k.path}`,
        operationId: `adminCreate${k.op}`,
        tags,
        summary: `Make a ${k.one}`,
        description: `${k.note} The id (and, unless sent, the ref) is made by the service. Sends CatalogUpdated.`,
        request: { body: { content: { "application/json": { schema: LOOKUP_CREATE[k.kind] } }, required: true } },
        responses: { 201: json(One, `The ${k.one}.`), ...changeResponses },
      }),
      async (c) => {
        const { businessId } = c.get("tenant");
        const data = await createLookup(c.env, keyActor(c), businessId, k.kind, c.req.valid("json"), c.get("now"));
        c.header("Location", `/private/catalog/${k.path}/${data.id}`);
        return c.json({ data }, 201);
      },
    );
    router.openapi(
      createRoute({
        method: "get",
        path: `/catalog/${k.path}/{id}`,
        operationId: `adminGet${k.op}`,
        tags,
        summary: `One ${k.one}, archived or not`,
        request: { params: PathIdParam },
        responses: { 200: json(One, `The ${k.one}.`), ...readResponses, ...notFound },
      }),
      async (c) => c.json({ data: await getLookup(c.env.DB, c.get("tenant").businessId, k.kind, c.req.valid("param").id) }, 200),
    );
    router.openapi(
      createRoute({
        method: "patch",
        path: `/catalog/${k.path}/{id}`,
        operationId: `adminUpdate${k.op}`,
        tags,
        summary: `Change, archive or restore a ${k.one}`,
        description: `Only the fields sent change. archived: true archives it (409 in_use while products that are not archived use it); false restores it. Sends CatalogUpdated.`,
        request: { params: PathIdParam, body: { content: { "application/json": { schema: LOOKUP_PATCH[k.kind] } }, required: true } },
        responses: { 200: json(One, `The ${k.one} as it is now.`), ...changeResponses, ...notFound },
      }),
      async (c) => {
        const { businessId } = c.get("tenant");
        const data = await updateLookup(c.env, keyActor(c), businessId, k.kind, c.req.valid("param").id, c.req.valid("json"), c.get("now"));
        return c.json({ data }, 200);
      },
    );
  }
  return router;
}

const SeasonOne = z.object({ data: AdminSeason });
const seasonNotFound = { 404: problemResponse("No such season in this business.") };

const seasonRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/catalog/seasons",
      operationId: "adminListSeasons",
      tags,
      summary: "The business's seasons",
      request: { query: ArchivedQuery },
      responses: { 200: json(z.object({ data: z.array(AdminSeason) }), "The seasons."), ...readResponses },
    }),
    async (c) => c.json({ data: await listSeasons(c.env.DB, c.get("tenant").businessId, c.req.valid("query").archived) }, 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/catalog/seasons",
      operationId: "adminCreateSeason",
      tags,
      summary: "Make a season",
      description: "A season with its date segments (both ends included). A product's rate for a season applies on the season's dates; where seasons overlap, the higher priority wins. Sends CatalogUpdated.",
      request: { body: { content: { "application/json": { schema: SeasonCreate } }, required: true } },
      responses: { 201: json(SeasonOne, "The season."), ...changeResponses },
    }),
    async (c) => {
      const { businessId } = c.get("tenant");
      const data = await createSeason(c.env, keyActor(c), businessId, c.req.valid("json"), c.get("now"));
      c.header("Location", `/private/catalog/seasons/${data.id}`);
      return c.json({ data }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/catalog/seasons/{id}",
      operationId: "adminGetSeason",
      tags,
      summary: "One season, archived or not",
      request: { params: PathIdParam },
      responses: { 200: json(SeasonOne, "The season."), ...readResponses, ...seasonNotFound },
    }),
    async (c) => c.json({ data: await getSeason(c.env.DB, c.get("tenant").businessId, c.req.valid("param").id) }, 200),
  )
  .openapi(
    createRoute({
      method: "patch",
      path: "/catalog/seasons/{id}",
      operationId: "adminUpdateSeason",
      tags,
      summary: "Change, archive or restore a season",
      description: "Only the fields sent change; segments are replaced whole (one sent with its id keeps it). An archived season sets no prices. Bookings keep their prices. Sends CatalogUpdated.",
      request: { params: PathIdParam, body: { content: { "application/json": { schema: SeasonPatch } }, required: true } },
      responses: { 200: json(SeasonOne, "The season as it is now."), ...changeResponses, ...seasonNotFound },
    }),
    async (c) => {
      const { businessId } = c.get("tenant");
      const data = await updateSeason(c.env, keyActor(c), businessId, c.req.valid("param").id, c.req.valid("json"), c.get("now"));
      return c.json({ data }, 200);
    },
  );

export const lookupAdminRoutes = lookupRoutes();
export { seasonRoutes as seasonAdminRoutes };
