import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../../contract/problem";
import {
  DeliveryList,
  RedeliverAccepted,
  RedeliverRequest,
  WebhookCreate,
  WebhookCreated,
  WebhookEnvelope,
  WebhookList,
} from "../../contract/private-webhooks";
import { getWebhook, listDeliveries, listWebhooks, type WebhookRow } from "../../db/webhooks";
import { notFound } from "../../lib/errors";
import { createSubscription, deleteSubscription, enableSubscription, redeliverEvent } from "../../manage/webhooks";
import { keyActor } from "./actor";
import { createRouter } from "../router";
import { authResponses, bodyResponses, json, uuidPath } from "./openapi-parts";
import { QueryReader, setPagingHeaders, uuidParam, pageParam, limitParam, enumParam } from "./query";

const DELIVERY_STATUSES = ["pending", "delivered", "failed", "gave_up"] as const;
const tags = ["Webhooks"];

const IdParam = z.object({ webhook_id: uuidPath("webhook_id") });

export const webhookView = (w: WebhookRow) => ({
  id: w.id,
  url: w.url,
  events: JSON.parse(w.events) as string[],
  status: (w.disabled_at ? "disabled" : "active") as "active" | "disabled",
  disabled_at: w.disabled_at,
  created_at: w.created_at,
});

const createHook = createRoute({
  method: "post",
  path: "/webhooks",
  operationId: "createWebhook",
  tags,
  summary: "Subscribe to events",
  description:
    "The subscription receives the events written after it was made: POST `{\"event\": name, \"data\": {...}}`, signed (see WebhookCreated). At least once: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h; any 2xx is success; 410 Gone disables the subscription. Event `data`: GuestCreated, GuestUpdated, GuestDeleted, BookerCreated and BookerUpdated carry `{person_id, booking_id}`; PersonCreated and PersonUpdated `{person_id}`; PersonDeleted `{person_id, booking_id (the most recent booking or null), booking_ids}`; BookingCreated and BookingCancelled `{booking_id}`; PaymentReceived `{booking_id, payment_id, amount, currency, method, status}` and PaymentRefunded `{booking_id, payment_id, refund_id, amount, currency, method, status}`, PaymentFailed `{booking_id, payment_id, amount, currency, method, status}` (an online payment failed, status `failed`, or its link expired unpaid, `canceled`) (amounts in major units of the booking's currency); the administration's (settings, catalog, inventory): SettingsUpdated `{fields}`, ProductCreated, ProductUpdated, ProductArchived and ProductRestored `{product_id, ref}`, InventoryUpdated `{product_id, from, to}`, CatalogUpdated `{entity, id, ref, action}` (locations, categories, accommodation types, diets, levels, seasons). One action may send several events (GuestCreated with PersonCreated, ...). Target URLs: https on a public host; plain http and loopback only where the deployment allows it for local development (ALLOW_LOOPBACK_WEBHOOKS).",
  request: { body: { content: { "application/json": { schema: WebhookCreate } }, required: true } },
  responses: { ...bodyResponses, 201: json(WebhookCreated, "Subscribed; the secret is shown only here."), 400: problemResponse("Malformed JSON."), ...authResponses, 422: problemResponse("Invalid URL or events.") },
});
const listHooks = createRoute({
  method: "get",
  path: "/webhooks",
  operationId: "listWebhooks",
  tags,
  summary: "List subscriptions",
  responses: { 200: json(WebhookList, "The business's subscriptions (secrets are not shown)."), ...authResponses },
});
const getHook = createRoute({
  method: "get",
  path: "/webhooks/{webhook_id}",
  operationId: "getWebhook",
  tags,
  summary: "Fetch a subscription",
  request: { params: IdParam },
  responses: { 200: json(WebhookEnvelope, "The subscription."), 400: problemResponse("Not a UUID."), ...authResponses, 404: problemResponse("No such subscription.") },
});
const deleteHook = createRoute({
  method: "delete",
  path: "/webhooks/{webhook_id}",
  operationId: "deleteWebhook",
  tags,
  summary: "Unsubscribe",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted; nothing more is delivered." }, 400: problemResponse("Not a UUID."), ...authResponses, 404: problemResponse("No such subscription.") },
});
const deliveries = createRoute({
  method: "get",
  path: "/webhooks/{webhook_id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags,
  summary: "Delivery log",
  description:
    "Every attempt, newest first: event id, status code, time, next retry. Filters `event_id` and `status`; `page`, `limit` (1 to 100). " +
    "Kept 30 days: settled attempts (`delivered`, `gave_up`) older than that are removed, and the events themselves once no attempt " +
    "refers to them and every subscription of the business has taken them; attempts still to be retried are never removed.",
  request: {
    params: IdParam,
    query: z.object({ event_id: z.string().optional(), status: enumParam(DELIVERY_STATUSES), page: pageParam(), limit: limitParam() }),
  },
  responses: { 200: json(DeliveryList, "One page of attempts."), 400: problemResponse("Not a UUID."), ...authResponses, 404: problemResponse("No such subscription."), 422: problemResponse("Invalid query.") },
});
const redeliver = createRoute({
  method: "post",
  path: "/webhooks/{webhook_id}/redeliver",
  operationId: "redeliverWebhookEvent",
  tags,
  summary: "Deliver one event again",
  description:
    "Starts a new series of attempts (with the usual retries) for an event this subscription receives, now. " +
    "Events are kept 30 days (see the delivery log): an older one may be gone, and is then 404.",
  request: { params: IdParam, body: { content: { "application/json": { schema: RedeliverRequest } }, required: true } },
  responses: { ...bodyResponses,
    202: json(RedeliverAccepted, "Scheduled."),
    400: problemResponse("Not a UUID, or malformed JSON."),
    ...authResponses,
    404: problemResponse("No such subscription, or no such event for it."),
    409: problemResponse("The subscription is disabled."),
    422: problemResponse("Invalid body."),
  },
});

const enable = createRoute({
  method: "post",
  path: "/webhooks/{webhook_id}/enable",
  operationId: "enableWebhook",
  tags,
  summary: "Enable a disabled subscription",
  description: "After a 410 Gone disabled it: delivery resumes with the events it has not received, including those written meanwhile.",
  request: { params: IdParam },
  responses: { 200: json(WebhookEnvelope, "The subscription, active."), 400: problemResponse("Not a UUID."), ...authResponses, ...bodyResponses, 404: problemResponse("No such subscription.") },
});

export const webhookRoutes = createRouter()
  .openapi(createHook, async (c) => {
    const body = c.req.valid("json");
    const { row, secret } = await createSubscription(c.env, keyActor(c), c.get("tenant").businessId, body, c.get("now"));
    c.header("Location", `/private/webhooks/${row.id}`);
    return c.json({ ...webhookView(row), secret }, 201);
  })
  .openapi(listHooks, async (c) => {
    const rows = await listWebhooks(c.env.DB, c.get("tenant").businessId);
    return c.json({ data: rows.map(webhookView) }, 200);
  })
  .openapi(getHook, async (c) => {
    const id = uuidParam(c.req.valid("param").webhook_id, "webhook_id");
    const row = await getWebhook(c.env.DB, c.get("tenant").businessId, id);
    if (!row) throw notFound("The webhook");
    return c.json({ data: webhookView(row) }, 200);
  })
  .openapi(deleteHook, async (c) => {
    const id = uuidParam(c.req.valid("param").webhook_id, "webhook_id");
    await deleteSubscription(c.env, keyActor(c), c.get("tenant").businessId, id, c.get("now"));
    return c.body(null, 204);
  })
  .openapi(deliveries, async (c) => {
    const id = uuidParam(c.req.valid("param").webhook_id, "webhook_id");
    const q = new QueryReader(c);
    const eventId = q.string("event_id", 64);
    const status = q.enumOne("status", DELIVERY_STATUSES);
    const paging = q.paging();
    q.done();
    if (!(await getWebhook(c.env.DB, c.get("tenant").businessId, id))) throw notFound("The webhook");
    const { rows, total } = await listDeliveries(c.env.DB, id, { eventId, status, ...paging });
    setPagingHeaders(c, total, paging.page, paging.limit);
    return c.json({ data: rows.map(({ webhook_id: _w, event_seq: _s, ...r }) => r), meta: { ...paging, total } }, 200);
  })
  .openapi(redeliver, async (c) => {
    const id = uuidParam(c.req.valid("param").webhook_id, "webhook_id");
    const { event_id } = c.req.valid("json");
    const { series } = await redeliverEvent(c.env, keyActor(c), c.get("tenant").businessId, id, event_id, c.get("now"));
    return c.json({ data: { event_id, series, status: "pending" as const } }, 202);
  })
  .openapi(enable, async (c) => {
    const { businessId } = c.get("tenant");
    const id = uuidParam(c.req.valid("param").webhook_id, "webhook_id");
    await enableSubscription(c.env, keyActor(c), businessId, id, c.get("now"));
    const row = (await getWebhook(c.env.DB, businessId, id)) as WebhookRow;
    return c.json({ data: webhookView(row) }, 200);
  });
