import { createRoute } from "@hono/zod-openapi";
import { Deeplink, DeeplinkQuery } from "../../contract/catalog";
import { PathId } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import { readTenant } from "../../db/tenant-read";
import { invalid } from "../../lib/errors";
import { createRouter } from "../router";
import { contextOf, productNotFound } from "./catalog-view";

const route = createRoute({
  method: "get",
  path: "/products/{id}/deeplink",
  operationId: "getProductDeeplink",
  tags: ["Deep link"],
  summary: "A link to the product in the hosted booking form",
  description:
    "The URL of the hosted booking page on this service's origin, `/book/{business}?product={id}&...`, carrying the given settings as query " +
    "parameters of the same names (start_date, end_date, duration, males, females, couples, language, currency), in that order, only those sent. " +
    "product_id is optional here (the path names the product); when sent it must equal the path's id (else 422). Currency must be one of the business's; " +
    "a language the business has no texts in links to the form in its default language (the link's language says which).",
  request: { params: PathId, query: DeeplinkQuery },
  responses: {
    200: { description: "The link.", content: { "application/json": { schema: Deeplink } } },
    401: problemResponse("Missing, malformed, unknown or revoked API key."),
    403: problemResponse("The key's scope is not public."),
    404: problemResponse("No such product in this business."),
    422: problemResponse("Invalid query."),
    429: problemResponse("Rate limit exceeded."),
  },
});

export const deeplinkRoutes = createRouter().openapi(route, async (c) => {
  const { id } = c.req.valid("param");
  const q = c.req.valid("query");
  if (q.product_id !== undefined && q.product_id !== id) throw invalid("product_id", "must equal the product id in the path");
  if (q.start_date && q.end_date && q.end_date < q.start_date) throw invalid("end_date", "must not be before start_date");
  const { snap } = await readTenant(c);
  const ctx = contextOf(snap, q);
  if (!snap.products.has(id)) throw productNotFound(id);
  const url = new URL(`/book/${encodeURIComponent(snap.business.slug)}`, new URL(c.req.url).origin);
  url.searchParams.set("product", String(id));
  for (const name of ["start_date", "end_date", "duration", "males", "females", "couples", "language", "currency"] as const) {
    // A language the business has no texts in opens the form in its default language: the link says which.
    const value = name === "language" && q.language !== undefined ? ctx.served : q[name];
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return c.json({ url: url.toString() }, 200);
});
