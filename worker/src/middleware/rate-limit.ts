import { ApiError } from "../lib/errors";
import { processMemory } from "../lib/process-memory";
import type { D1Env } from "../db/d1";

const WINDOW_MS = 60_000;

interface Lease {
  windowStart: number;
  limit: number;
  /** Requests of the lease not used yet. */
  left: number;
  /** The counter's remaining budget when the lease was granted. */
  remaining: number;
  /** The counter granted nothing: the window's budget is spent (a fixed window gives none back). */
  spent: boolean;
}

/** Leases this process holds, per client (plain numbers: no request waits on another's work). */
const leases = processMemory(new Map<string, Lease>());
const MAX_LEASES = 10_000;

/**
 * Requests a process takes from the counter at once: 1% of the limit (at least 1). A limit is
 * never exceeded, since the counter hands out no more than the limit per window; the price is
 * that a client may be refused up to 1% early for each process that still holds part of a lease.
 * Small limits are exact.
 */
export const leaseSize = (limit: number) => Math.max(1, Math.floor(limit / 100));

const rateLimited = (limit: number, retryAfterSeconds: number, headers: Record<string, string>) =>
  new ApiError(429, "rate_limited", `Too many requests: the limit is ${limit} per minute. Retry after ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds), ...headers },
  });

/**
 * Counts one request against a client (an API key, or a widget visitor) and answers the
 * RateLimit-* headers to send. The counter is a Durable Object per client, exact across
 * processes (unlike KV); a request that finds no lease left asks it for a lease of requests for
 * this process, so most requests cost no round trip at all. Requests that ask at the same moment
 * each ask for themselves (none awaits another's question) and their grants add up. Over the
 * limit: 429 with Retry-After in seconds.
 */
export async function takeRequest(env: D1Env, clientId: string, limit: number, nowMs: number): Promise<Record<string, string>> {
  const windowStart = nowMs - (nowMs % WINDOW_MS);
  const headers = (remaining: number) => ({ "RateLimit-Limit": String(limit), "RateLimit-Remaining": String(remaining) });
  const refused = () => rateLimited(limit, Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000)), headers(0));
  const current = () => {
    const lease = leases.get(clientId);
    return lease && lease.windowStart === windowStart && lease.limit === limit ? lease : undefined;
  };
  const held = current();
  if (held && held.left > 0) {
    held.left -= 1;
    return headers(held.remaining + held.left);
  }
  if (held?.spent) throw refused();

  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(clientId));
  const verdict = await stub.take(limit, WINDOW_MS, nowMs, leaseSize(limit));
  if (leases.size >= MAX_LEASES) {
    for (const [id, l] of leases) if (l.windowStart !== windowStart) leases.delete(id);
    if (leases.size >= MAX_LEASES) leases.clear();
  }
  if (verdict.granted === 0) {
    // The window's budget is spent (a fixed window gives none back): say so without asking again.
    const lease = current();
    if (lease && lease.left > 0) {
      lease.left -= 1;
      return headers(lease.remaining + lease.left);
    }
    leases.set(clientId, { windowStart, limit, left: 0, remaining: 0, spent: true });
    throw refused();
  }
  // One of the granted requests is this one; the rest join what this process holds.
  const lease = current();
  const left = (lease && !lease.spent ? lease.left : 0) + verdict.granted - 1;
  leases.set(clientId, { windowStart, limit, left, remaining: verdict.remaining, spent: false });
  return headers(verdict.remaining + left);
}
