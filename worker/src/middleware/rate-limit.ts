import type { Env } from "../env";
import { ApiError } from "../lib/errors";

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

/** Leases this process holds, per client, and the lease requests under way. */
const leases = new Map<string, Lease>();
const asking = new Map<string, { waiting: number; done: Promise<void> }>();
/** Per client: how many requests the last lease left waiting (the next lease asks for them too). */
const shortfall = new Map<string, number>();
const MAX_LEASES = 10_000;

/**
 * Requests a process takes from the counter at once: 1% of the limit (at least 1), or as many as
 * are waiting. A limit is never exceeded, since the counter hands out no more than the limit per
 * window; the price is that a client may be refused up to 1% early for each process that still
 * holds part of a lease. Small limits are exact.
 */
export const leaseSize = (limit: number) => Math.max(1, Math.floor(limit / 100));

const rateLimited = (limit: number, retryAfterSeconds: number, headers: Record<string, string>) =>
  new ApiError(429, "rate_limited", `Too many requests: the limit is ${limit} per minute. Retry after ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds), ...headers },
  });

/**
 * Counts one request against a client (an API key, or a widget visitor) and answers the
 * RateLimit-* headers to send. The counter is a Durable Object per client, exact across
 * processes (unlike KV); a process asks it for a lease of requests at a time, one question in
 * flight per client however many requests arrive together, so most requests cost no round
 * trip at all. Over the limit: 429 with Retry-After in seconds.
 */
export async function takeRequest(env: Env, clientId: string, limit: number, nowMs: number): Promise<Record<string, string>> {
  const windowStart = nowMs - (nowMs % WINDOW_MS);
  const headers = (remaining: number) => ({ "RateLimit-Limit": String(limit), "RateLimit-Remaining": String(remaining) });
  for (;;) {
    const lease = leases.get(clientId);
    if (lease && lease.windowStart === windowStart && lease.limit === limit) {
      if (lease.left > 0) {
        lease.left -= 1;
        return headers(lease.remaining + lease.left);
      }
      if (lease.spent) throw rateLimited(limit, Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000)), headers(0));
    }
    const inFlight = asking.get(clientId);
    if (inFlight) {
      inFlight.waiting += 1;
      await inFlight.done;
      continue;
    }
    let finish!: () => void;
    const question = { waiting: 1, done: new Promise<void>((resolve) => (finish = resolve)) };
    asking.set(clientId, question);
    try {
      const want = Math.max(leaseSize(limit), shortfall.get(clientId) ?? 0);
      const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(clientId));
      const verdict = await stub.take(limit, WINDOW_MS, nowMs, want);
      if (leases.size >= MAX_LEASES) {
        for (const [id, l] of leases) if (l.windowStart !== windowStart) leases.delete(id);
        if (leases.size >= MAX_LEASES) leases.clear();
        shortfall.clear();
      }
      const short = question.waiting - verdict.granted;
      if (short > 0) shortfall.set(clientId, short);
      else shortfall.delete(clientId);
      leases.set(clientId, { windowStart, limit, left: verdict.granted, remaining: verdict.remaining, spent: verdict.granted === 0 });
    } finally {
      asking.delete(clientId);
      finish();
    }
  }
}
