import { createRoute } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";
import { Settings } from "../../contract/settings";
import { createRouter } from "../router";
import { readTenant } from "../../db/tenant-read";
import { LanguageOnlyQuery } from "../../contract/catalog";
import { localizedFields } from "../../domain/custom-fields";

const route = createRoute({
  method: "get",
  path: "/settings",
  operationId: "getSettings",
  tags: ["Settings"],
  summary: "Business settings and terms",
  description:
    "`language`: the terms and the custom fields' titles and options in that language where the business wrote them, else in its default language " +
    "(a language the business does not offer falls back to the default, as every catalog operation does; Content-Language says which was served).",
  request: { query: LanguageOnlyQuery },
  responses: {
    200: { description: "The business's settings.", content: { "application/json": { schema: Settings } } },
    401: problemResponse("Missing, malformed, unknown or revoked API key."),
    422: problemResponse("A malformed language code."),
    429: problemResponse("Rate limit exceeded."),
  },
});

export const settingsRoutes = createRouter().openapi(route, async (c) => {
  const { business, currencyRows: currencies, diets, levels } = (await readTenant(c)).snap;
  const cfg = business.config;
  const asked = c.req.valid("query").language;
  // an unknown language falls back to the default, as the catalog's answers do
  const language = asked !== undefined && cfg.languages.includes(asked) ? asked : undefined;
  c.header("Content-Language", language ?? cfg.default_language);
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
