import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../router";
import { listAuditLog } from "../../manage/audit";
import { problemResponse } from "../../contract/problem";
import { authResponses, json } from "./openapi-parts";
import { QueryReader, rangeParam, setPagingHeaders, pageParam, limitParam, enumListParam } from "./query";

const ENTITIES = ["settings", "product", "inventory", "season", "location", "category", "accommodation_type", "diet", "level"] as const;
const ACTIONS = ["created", "updated", "archived", "restored", "deleted"] as const;

const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string().openapi({ description: "When, ISO 8601 UTC." }),
    actor: z.object({ kind: z.enum(["key", "staff", "cli"]), id: z.string(), name: z.string().openapi({ description: "The API key's name, the staff user's, or the CLI's (e.g. \"keys CLI\")." }) }),
    action: z.string(),
    entity: z.string(),
    entity_id: z.string().nullable(),
    summary: z.string(),
    before: z.unknown().openapi({ description: "The entity before the change (null for a creation)." }),
    after: z.unknown().openapi({ description: "The entity after it." }),
  })
  .openapi("AuditEntry");

const route = createRoute({
  method: "get",
  path: "/audit",
  operationId: "listAuditLog",
  tags: ["Audit log"],
  summary: "Who changed what in settings and catalog",
  description:
    "Every change of settings, catalog and inventory, newest first: who (the API key's name, a staff user, or a CLI), what, before and after. " +
    "Filters: entity, entity_id, action, actor (a name or id), at (a date or datetime range from..to); page and limit (1 to 100, default 10), " +
    "with X-Total-Count and Link headers.",
  request: {
    query: z.object({
      entity: enumListParam(ENTITIES),
      entity_id: z.string().optional(),
      action: enumListParam(ACTIONS),
      actor: z.string().optional(),
      at: rangeParam("When.", "datetime"),
      page: pageParam(),
      limit: limitParam(),
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(AuditEntry), meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }) }), "One page of the log."),
    ...authResponses,
    422: problemResponse("Invalid query."),
  },
});

export const auditRoutes = createRouter().openapi(route, async (c) => {
  const q = new QueryReader(c);
  const entity = q.enums("entity", ENTITIES);
  const entityId = q.string("entity_id", 64);
  const action = q.enums("action", ACTIONS);
  const actor = q.string("actor", 100);
  const at = q.range("at", "datetime");
  const paging = q.paging();
  q.done();
  const range = at?.kind === "range" ? at : undefined;
  const { entries, total } = await listAuditLog(c.env.DB, c.get("tenant").businessId, { entity, entityId, action, actor, from: range?.from, to: range?.to, ...paging });
  setPagingHeaders(c, total, paging.page, paging.limit);
  return c.json({ data: entries, meta: { ...paging, total } }, 200);
});
