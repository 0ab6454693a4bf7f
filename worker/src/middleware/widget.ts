import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { rememberedBusiness } from "../db/business-memo";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { businessAccess } from "../db/tenant-read";
import { isOriginAllowed, WIDGET_CORS } from "./cors";
import { takeRequest } from "./rate-limit";
import { visitorKey } from "./visitor";
import { withHeaders } from "../lib/response";

export interface WidgetDoorOptions {
  /** Name of the path parameter holding the business slug (default "business"). */
  param?: string;
}

/**
 * The widget's door: no secret, so the business comes from the path, and what protects it is
 * the Origin allowlist of its settings plus a rate limit per visitor.
 *
 * - The business comes from the process's memory of it (db/business-memo.ts), read again from D1
 *   when that is older than half a second: its widget_origins and limits apply within that time,
 *   and a request served from what the proxy keeps (routes/widget.ts) reads nothing from D1.
 * - CORS through hono/cors: an allowed Origin is echoed (with Vary: Origin). Every other origin,
 *   `null` (a sandboxed frame) included, gets the fixed, non-credential `*`, on preflights too, so
 *   that the widget on such a page can read the refusal that follows and tell the guest; no
 *   foreign origin is ever echoed, and nothing is answered but the refusal.
 * - Unknown business: 404. Origin not allowed: 403 `origin_not_allowed`.
 * - A request without Origin (curl, a server) is let through: an Origin can be forged by any
 *   non-browser client anyway, so the allowlist is about which web pages may embed the widget.
 * - Preflights are answered before the rate limit (browsers cache them for 10 minutes).
 */
export function widgetDoor(options: WidgetDoorOptions = {}): MiddlewareHandler<AppEnv> {
  const param = options.param ?? "business";
  const corsCheck = cors({ ...WIDGET_CORS, origin: (origin, c: Context<AppEnv>) => (c.get("originAllowed") ? origin : "*") });
  return async (c, next) => {
    const slug = c.req.param(param) ?? "";
    const known = /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await rememberedBusiness(c.env.DB, slug, c.get("now").getTime()) : null;
    const business = known?.business ?? null;
    const origin = c.req.header("Origin");
    const allowed =
      !!business &&
      origin !== undefined &&
      isOriginAllowed(origin, { origins: business.config.widget_origins, allowLoopback: business.config.widget_allow_loopback, selfOrigin: new URL(c.req.url).origin });
    c.set("originAllowed", allowed);
    return corsCheck(c, async () => {
      if (!business) throw new ApiError(404, "not_found", `No business with the slug '${slug}'.`);
      if (origin !== undefined && !allowed) {
        throw new ApiError(403, "origin_not_allowed", `The origin ${origin} may not use the booking widget of '${slug}'. Add it to the business's widget_origins.`);
      }
      c.set("tenant", { businessId: business.id, slug: business.slug, actor: "widget", clientId: `widget:${visitorKey(c.req.raw, c.env)}` });
      c.set("access", businessAccess(business.id));
      c.set("widgetConfig", business.config);
      c.set("widgetVersion", known!.version);
      const rate = await takeRequest(c.env, c.get("tenant").clientId, business.config.rate_limit_per_minute, c.get("now").getTime());
      await next();
      c.res = withHeaders(c.res, rate);
    });
  };
}
