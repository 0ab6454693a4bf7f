import { createRoute } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";
import { Settings } from "../../contract/settings";
import { createRouter } from "../router";
import { readTenant } from "../../db/tenant-read";
import { LanguageOnlyQuery } from "../../contract/catalog";
import { invalid } from "../../lib/errors";
import { localizedFields } from "../../domain/custom-fields";

const route = createRoute({
  method: "get",
  path: "/settings",
  operationId: "getSettings",
  tags: ["Settings"],
  summary: "Business settings and terms",
  description: "`language` (one of `languages`): the terms and the custom fields' titles and options in that language where the business wrote them, else in its default language.",
  request: { query: LanguageOnlyQuery },
  responses: {
    200: { description: "The business's settings.", content: { "application/json": { schema: Settings } } },
    401: problemResponse("Missing, malformed, unknown or revoked API key."),
    422: problemResponse("A language the business does not offer."),
    429: problemResponse("Rate limit exceeded."),
  },
});

export const settingsRoutes = createRouter().openapi(route, async (c) => {
  const { business, currencyRows: currencies, diets, levels } = (await readTenant(c)).snap;
  const cfg = business.config;
  const { language } = c.req.valid("query");
  if (language !== undefined && !cfg.languages.includes(language)) {
    throw invalid("language", `unknown language ${JSON.stringify(language)}; this business offers ${cfg.languages.join(", ")}`);
  }
  const body: Settings = {
    id: business.id,
    title: business.title,
    company_name: business.company_name,
    frontoffice_domain: business.frontoffice_domain,
    currencies: currencies.map(({ id, title, symbol, iso_code }) => ({ id, title, symbol, iso_code })),
    diets,
    levels,
    languages: cfg.languages,
    settings: { guest_fields: cfg.guest_fields, customer_fields: cfg.customer_fields, custom_fields: localizedFields(cfg.custom_fields, language) },
    terms: (language && cfg.terms_translations[language]) || cfg.terms,
  };
  return c.json(body, 200);
});
