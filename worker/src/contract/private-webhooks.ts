import { z } from "@hono/zod-openapi";
import { EVENT_NAMES } from "./events";

export const EventNameSchema = z.enum(EVENT_NAMES);

export const WebhookCreate = z
  .object({
    url: z.string().max(2000).openapi({ example: "https://backoffice.example.com/hooks/booking" }),
    events: z.array(EventNameSchema).min(1).max(EVENT_NAMES.length).openapi({ example: ["GuestCreated", "PersonUpdated"] }),
  })
  .openapi("WebhookCreate", { description: "An https URL on a public host, and the events to receive." });

const WebhookBase = {
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  status: z.enum(["active", "disabled"]).openapi({ description: "disabled after the receiver answered 410 Gone." }),
  disabled_at: z.string().nullable(),
  created_at: z.string(),
};
export const Webhook = z.object(WebhookBase).openapi("Webhook");
export const WebhookCreated = z
  .object({ ...WebhookBase, secret: z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", description: "Shown only in this answer." }) })
  .openapi("WebhookCreated", {
    description:
      "The signing secret is `whsec_` + base64 of 32 random bytes; the HMAC key is those bytes. Every delivery carries `webhook-id` (the event id), `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<body>\">` (Standard Webhooks).",
  });
export const WebhookList = z.object({ data: z.array(Webhook) }).openapi("WebhookList");
export const WebhookEnvelope = z.object({ data: Webhook }).openapi("WebhookEnvelope");

export const Delivery = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    event: z.string(),
    series: z.number().int().openapi({ description: "1 for the automatic delivery; each redelivery asked for starts the next series." }),
    attempt: z.number().int().openapi({ description: "Attempt within its series, 1 to 10." }),
    status: z.enum(["pending", "delivered", "failed", "gave_up"]),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    attempted_at: z.string().nullable(),
    next_retry_at: z.string().nullable().openapi({ description: "When the next attempt is due (failed) or this one is due (pending)." }),
    created_at: z.string(),
  })
  .openapi("WebhookDelivery");
export const DeliveryList = z
  .object({ data: z.array(Delivery), meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }) })
  .openapi("WebhookDeliveryList");

export const RedeliverRequest = z.object({ event_id: z.string().max(64).openapi({ example: "evt_4f0c2a9e8b7d4c1f9a3e6b5d2c1f0e9a" }) }).openapi("RedeliverRequest");
export const RedeliverAccepted = z
  .object({ data: z.object({ event_id: z.string(), series: z.number().int(), status: z.literal("pending") }) })
  .openapi("RedeliverAccepted");
