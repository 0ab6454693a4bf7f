import type { MiddlewareHandler } from "hono";
import { problem } from "../lib/problem";
import { businessBySlug } from "../db/businesses";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { businessAccess } from "../db/tenant-read";
import { corsPreflightHeaders, corsResponseHeaders, isOriginAllowed, withHeaders, type CorsOptions } from "./cors";
import { takeRequest } from "./rate-limit";
import { type Business } from "../domain/catalog";

export interface WidgetDoorOptions {
  /** Name of the path parameter holding the business slug (default "business"). */
  param?: string;
  cors?: CorsOptions;
}

/** The client a widget request comes from: the visitor's address as Cloudflare saw it. */
export function widgetClientAddress(req: Request): string {
  return req.headers.get("CF-Connecting-IP") ?? req.headers.get("X-Real-IP") ?? "local";
}

/**
 * The widget's door: no secret, so the business comes from the path, and what protects it is
 * the Origin allowlist of its settings plus a rate limit per visitor.
 *
 * - Unknown business: 404. Origin not allowed: 403 `origin_not_allowed` (with CORS headers, so
 *   the widget on that page can read why and say so in the console).
 * - A request without Origin (curl, a server) is let through: an Origin can be forged by any
 *   non-browser client anyway, so the allowlist is about which web pages may embed the widget.
 * - Preflights are answered here, before the rate limit (browsers cache them for 10 minutes).
 * - Every response, errors included, carries the CORS headers for an allowed origin.
 */
/**
 * The door's view of businesses by slug, kept by the process for a few seconds: a visitor's
 * request answered from the edge cache then costs no database read at all. A change to a
 * business's widget_origins or rate limit reaches the door within DOOR_TTL_MS; an unknown slug
 * is never remembered (a new business is found at once).
 */
const DOOR_TTL_MS = 5_000;
const doorBusinesses = new Map<string, { business: Business; until: number }>();

async function doorBusiness(db: D1Database, slug: string): Promise<Business | null> {
  const now = Date.now();
  const known = doorBusinesses.get(slug);
  if (known && known.until > now) return known.business;
  const business = await businessBySlug(db, slug);
  if (doorBusinesses.size >= 1_000) doorBusinesses.clear();
  if (business) doorBusinesses.set(slug, { business, until: now + DOOR_TTL_MS });
  else doorBusinesses.delete(slug);
  return business;
}

export function widgetDoor(options: WidgetDoorOptions = {}): MiddlewareHandler<AppEnv> {
  const param = options.param ?? "business";
  return async (c, next) => {
    const origin = c.req.header("Origin");
    let cors: Record<string, string> = {};
    try {
      const slug = c.req.param(param) ?? "";
      const business: Business | null = /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await doorBusiness(c.env.DB, slug) : null;
      if (!business) throw new ApiError(404, "not_found", `No business with the slug '${slug}'.`);
      if (origin !== undefined) {
        const rules = {
          origins: business.config.widget_origins,
          allowLoopback: business.config.widget_allow_loopback,
          selfOrigin: new URL(c.req.url).origin,
        };
        if (!isOriginAllowed(origin, rules)) {
          cors = origin === "null" ? {} : corsResponseHeaders(origin, options.cors);
          throw new ApiError(403, "origin_not_allowed", `The origin ${origin} may not use the booking widget of '${slug}'. Add it to the business's widget_origins.`);
        }
        if (c.req.method === "OPTIONS") {
          return c.body(null, 204, corsPreflightHeaders(origin, options.cors));
        }
        cors = corsResponseHeaders(origin, options.cors);
      } else if (c.req.method === "OPTIONS") {
        return c.body(null, 204, { Allow: "GET, POST, PUT, DELETE, OPTIONS" });
      }
      c.set("tenant", {
        businessId: business.id,
        slug: business.slug,
        actor: "widget",
        clientId: `widget:${widgetClientAddress(c.req.raw)}`,
      });
      c.set("access", businessAccess(business.id));
      const rate = await takeRequest(c.env, c.get("tenant").clientId, business.config.rate_limit_per_minute, c.get("now").getTime());
      await next();
      c.res = withHeaders(c.res, { ...rate, ...cors });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return withHeaders(problem(c, err), cors);
    }
  };
}
