import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One per business: drains the outbox and delivers signed webhooks (see the private API issue). */
export class WebhookDelivery extends DurableObject<Env> {}
