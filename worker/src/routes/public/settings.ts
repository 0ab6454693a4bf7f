import { createRoute } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";
import { Settings } from "../../contract/settings";
import { createRouter } from "../../lib/openapi";
import { readTenant } from "../../db/tenant-read";

const route = createRoute({
  method: "get",
  path: "/settings",
  operationId: "getSettings",
  tags: ["Settings"],
  summary: "Business settings and terms",
  responses: {
    200: { description: "The business's settings.", content: { "application/json": { schema: Settings } } },
    401: problemResponse("Missing, malformed, unknown or revoked API key."),
    429: problemResponse("Rate limit exceeded."),
  },
});

export const settingsRoutes = createRouter().openapi(route, async (c) => {
  const { business, currencyRows: currencies, diets, levels } = (await readTenant(c)).snap;
  const cfg = business.config;
  const body: Settings = {
    id: business.id,
    title: business.title,
    company_name: business.company_name,
    frontoffice_domain: business.frontoffice_domain,
    currencies: currencies.map(({ id, title, symbol, iso_code }) => ({ id, title, symbol, iso_code })),
    diets,
    levels,
    languages: cfg.languages,
    settings: { guest_fields: cfg.guest_fields, customer_fields: cfg.customer_fields },
    terms: cfg.terms,
  };
  return c.json(body, 200);
});
