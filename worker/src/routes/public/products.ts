import { createRoute, z } from "@hono/zod-openapi";
import { LanguageOnlyQuery, Product, ProductListQuery } from "../../contract/catalog";
import { PathId } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import { readTenant } from "../../db/tenant-read";
import { createRouter } from "../router";
import { answerLanguage, contextOf, productNotFound, productView } from "./catalog-view";
import { filterProducts } from "../../domain/catalog";
import { fromPriceMinor } from "../../domain/package-quote";

const errors = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key's scope is not public."),
  422: problemResponse("Invalid query (unknown type, malformed language code or id)."),
  429: problemResponse("Rate limit exceeded."),
};

const list = createRoute({
  method: "get",
  path: "/products",
  operationId: "listProducts",
  tags: ["Products"],
  summary: "List the products sold on the front office",
  description:
    "Only products that belong to a front-office category or are promoted, in id order. Texts are in the requested language where the business has them, " +
    "else in its default language; Content-Language says which came back. Only a malformed language code is a 422.",
  request: { query: ProductListQuery },
  responses: { 200: { description: "The products.", content: { "application/json": { schema: z.array(Product) } } }, ...errors },
});

const one = createRoute({
  method: "get",
  path: "/products/{id}",
  operationId: "getProduct",
  tags: ["Products"],
  summary: "One product",
  description: "Any product of the business, listed on the front office or not. Another business's product is a 404.",
  request: { params: PathId, query: LanguageOnlyQuery },
  responses: {
    200: { description: "The product.", content: { "application/json": { schema: Product } } },
    404: problemResponse("No such product in this business."),
    ...errors,
  },
});

export const productRoutes = createRouter()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const { snap } = await readTenant(c);
    const ctx = answerLanguage(c, contextOf(snap, q));
    const products = filterProducts(snap, { listed: true, type: q.type, location_id: q.location });
    return c.json(products.map((p) => productView(p, ctx, fromPriceMinor(snap, p))), 200);
  })
  .openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const { snap } = await readTenant(c);
    const ctx = answerLanguage(c, contextOf(snap, q));
    const product = snap.products.get(id);
    if (!product) throw productNotFound(id);
    return c.json(productView(product, ctx, fromPriceMinor(snap, product)), 200);
  });
