import type { Access } from "./access";
import type { BusinessConfig } from "../contract/config";
import type { D1Env } from "./d1";

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

/**
 * A request's bindings: the Worker's, with `DB` being the business's shard as this request reads it,
 * a D1 session (db/session.ts) once a door has found the business, so only what a session has.
 */
export type RequestBindings = D1Env;

/** Which D1 session a request reads through (middleware/session.ts, docs/design.md "D1 sessions"). */
export type SessionKind = "unconstrained" | "bookmark" | "primary";

/** The request's D1 session, once a door opened it on the business's shard. */
export interface RequestSession {
  kind: SessionKind;
  shard: number;
  session: Pick<D1DatabaseSession, "getBookmark">;
  /** The bookmark the request came with, when its session started from it. */
  given?: string;
  /** The latest bookmark of a commit the business's cart desk made for the request (carts/desk.ts). */
  desk?: string;
}

export type AppEnv = {
  Bindings: RequestBindings;
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
    /** The request's D1 session (middleware/session.ts): its kind, for the log line, and its bookmark, for the answer. */
    d1Session?: RequestSession;
    /** The request's Idempotency-Key, once the middleware has claimed it (middleware/idempotency.ts). */
    idempotencyKey?: string;
    /**
     * How this request sends its D1 batches, when not on its own (db/tenant-read.ts requestSender):
     * the cart routes send theirs through the business's cart desk (carts/desk.ts).
     */
    send?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>;
  };
};
