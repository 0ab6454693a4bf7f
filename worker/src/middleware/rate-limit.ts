import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

const WINDOW_MS = 60_000;

/**
 * Counts the request against the tenant's client (an API key, or a widget visitor) in a
 * Durable Object of its own: exact across isolates, unlike KV. Over the limit: 429 with
 * Retry-After in seconds. The limit is per minute, set per business.
 */
export async function enforceRateLimit(c: Context<AppEnv>, perMinute: number): Promise<void> {
  const clientId = c.get("tenant").clientId;
  const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(clientId));
  const verdict = await stub.take(perMinute, WINDOW_MS, c.get("now").getTime());
  c.header("RateLimit-Limit", String(perMinute));
  c.header("RateLimit-Remaining", String(verdict.remaining));
  if (!verdict.allowed) {
    throw new ApiError(429, "rate_limited", `Too many requests: the limit is ${perMinute} per minute. Retry after ${verdict.retryAfterSeconds} s.`, {
      headers: { "Retry-After": String(verdict.retryAfterSeconds) },
    });
  }
}
