import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

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
