import type { Access } from "./access";
import type { BusinessConfig } from "../contract/config";

export type { Access };

// `Env`, the Worker's bindings and variables, is generated from wrangler.toml by `npm run types`
// (worker/worker-configuration.d.ts; `npm test` checks it is current). This file adds what a
// request carries: the business it is for and how it may read it from D1 (db/access.ts), so it
// lives in db/; lib/ and domain/ never import it, and lib's helpers take the little of a context
// they need.

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
    /** Who may read what, settled by one D1 row (db/tenant-read.ts). */
    access: Access;
    /** The widget door's verdict on the request's Origin (middleware/widget.ts). */
    originAllowed?: boolean;
    /** The business's configuration as the widget door read it (middleware/widget.ts): the human check's keys. */
    widgetConfig?: BusinessConfig;
    /** The business's catalog version as the widget door knew it (at most half a second old): the key of what the widget proxy keeps. */
    widgetVersion?: number;
    /** The request's Idempotency-Key, once the middleware has claimed it (middleware/idempotency.ts). */
    idempotencyKey?: string;
  };
};
