import type { MiddlewareHandler } from "hono";
import { problem } from "../app";
import { businessBySlug, type Business } from "../db/businesses";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { corsPreflightHeaders, corsResponseHeaders, isOriginAllowed, withHeaders, type CorsOptions } from "./cors";
import { enforceRateLimit } from "./rate-limit";

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
export function widgetDoor(options: WidgetDoorOptions = {}): MiddlewareHandler<AppEnv> {
  const param = options.param ?? "business";
  return async (c, next) => {
    const origin = c.req.header("Origin");
    let cors: Record<string, string> = {};
    try {
      const slug = c.req.param(param) ?? "";
      const business: Business | null = /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await businessBySlug(c.env.DB, slug) : null;
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
      await enforceRateLimit(c, business.config.rate_limit_per_minute);
      const rate = rateHeaders(c.res.headers);
      await next();
      c.res = withHeaders(c.res, { ...rate, ...cors });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return withHeaders(problem(c, err), { ...rateHeaders(c.res.headers), ...cors });
    }
  };
}

/** The rate-limit headers enforceRateLimit() set, to carry onto whatever response goes out. */
function rateHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["RateLimit-Limit", "RateLimit-Remaining"]) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
