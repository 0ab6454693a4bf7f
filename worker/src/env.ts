import type { RateLimiter } from "./durable/rate-limiter";
import type { CartTimer } from "./durable/cart-timer";
import type { WebhookDelivery } from "./durable/webhook-delivery";
import type { Access } from "./db/tenant-read";

/** Bindings and variables of the Worker (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  CACHE: KVNamespace;
  ASSETS?: Fetcher;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  CART_TIMER: DurableObjectNamespace<CartTimer>;
  WEBHOOK_DELIVERY: DurableObjectNamespace<WebhookDelivery>;
  /** HMAC secret that signs API keys (a wrangler secret; `.dev.vars` locally). */
  KEY_SIGNING_SECRET: string;
  /** "true" lets webhooks target http://127.0.0.1 and friends (local development only). */
  ALLOW_LOOPBACK_WEBHOOKS?: string;
  /** "1" in tests only: honours the X-Test-Now header so time can be driven without sleeping. */
  ALLOW_TEST_CLOCK?: string;
}

/** What a request knows once the door it came through has identified the business. */
export interface Tenant {
  businessId: number;
  slug: string;
  /** The API key's name (for logs) or "widget" for the edge proxy. */
  actor: string;
  /** Key id, or the client's address for the widget; the rate limit is kept per this. */
  clientId: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    tenant: Tenant;
    now: Date;
    /** Who may read what, settled by one D1 row (lib/tenant-read.ts). */
    access: Access;
    /** The request's Idempotency-Key, once the middleware has claimed it (middleware/idempotency.ts). */
    idempotencyKey?: string;
  };
};
