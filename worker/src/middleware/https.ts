import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";

import { isLoopbackHost } from "../lib/origin";

export { isLoopbackHost };

/**
 * Refuses plain HTTP with a problem+json 403 (no redirect: an API client that sent a key over
 * plain HTTP must learn of it, not be silently moved). Loopback hosts are exempt so local
 * development works. Behind Cloudflare the scheme the client used is in the URL itself.
 */
export function httpsOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
      throw new ApiError(403, "https_required", `Plain HTTP is refused; call https://${url.host}${url.pathname} instead.`);
    }
    await next();
  };
}
