import { createRoute, z } from "@hono/zod-openapi";
import { Season } from "../../contract/catalog";
import { problemResponse } from "../../contract/problem";
import { readTenant } from "../../db/tenant-read";
import { createRouter } from "../router";

const route = createRoute({
  method: "get",
  path: "/seasons",
  operationId: "listSeasons",
  tags: ["Seasons"],
  summary: "The business's seasons",
  description: "Each season with its segments in date order; segment bounds are inclusive. Where segments overlap, the season with the higher priority sets the price.",
  responses: {
    200: { description: "The seasons.", content: { "application/json": { schema: z.array(Season) } } },
    401: problemResponse("Missing, malformed, unknown or revoked API key."),
    403: problemResponse("The key's scope is not public."),
    429: problemResponse("Rate limit exceeded."),
  },
});

export const seasonRoutes = createRouter().openapi(route, async (c) => c.json((await readTenant(c)).snap.seasons, 200));
