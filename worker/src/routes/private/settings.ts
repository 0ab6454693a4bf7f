import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";
import { AdminSettings, SettingsPatch } from "../../contract/settings";
import { createRouter } from "../router";
import { getSettings, updateSettings } from "../../manage/settings";
import { keyActor } from "./actor";
import { changeResponses } from "./catalog/parts";
import { authResponses, json } from "./openapi-parts";

const tags = ["Settings (administration)"];

const read = createRoute({
  method: "get",
  path: "/settings",
  operationId: "getBusinessSettings",
  tags,
  summary: "The business's settings",
  description:
    "Title, company, front-office domain, currencies with exchange rates, and every field of the configuration (languages, terms per language, " +
    "guest and customer fields, cart lifetime and limits, widget origins, notification e-mails, custom fields, ...; docs/administration.md describes each). " +
    "`problems` lists stored fields that do not parse: each works with its default, and is logged, until a PATCH sets it.",
  responses: { 200: json(AdminSettings, "The settings."), ...authResponses },
});

const patch = createRoute({
  method: "patch",
  path: "/settings",
  operationId: "updateBusinessSettings",
  tags,
  summary: "Change settings",
  description:
    "Only the fields sent change; a field sent replaces the stored one whole (lists and objects too). The settings are validated as a whole: a 422 names " +
    "every bad field (stored ones that do not parse included) and nothing changes. Takes effect at once everywhere (public API, widget, caches); " +
    "writes an audit entry and a SettingsUpdated event ({fields}).",
  request: { body: { content: { "application/json": { schema: SettingsPatch } }, required: true } },
  responses: { 200: json(AdminSettings, "The settings as they are now."), ...changeResponses, 400: problemResponse("Malformed JSON.") },
});

export const settingsAdminRoutes = createRouter()
  .openapi(read, async (c) => c.json({ data: await getSettings(c.env.DB, c.get("tenant").businessId) } as z.infer<typeof AdminSettings>, 200))
  .openapi(patch, async (c) => {
    const { businessId } = c.get("tenant");
    const data = await updateSettings(c.env, keyActor(c), businessId, c.req.valid("json"), c.get("now"));
    return c.json({ data } as z.infer<typeof AdminSettings>, 200);
  });
