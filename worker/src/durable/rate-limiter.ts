import { DurableObject } from "cloudflare:workers";

export interface RateVerdict {
  /** Requests granted now: 0 (over the limit) up to the number asked for. */
  granted: number;
  /** What is left of the window's budget after this grant. */
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * One per rate-limited client. A fixed window counter held in memory: losing it on eviction
 * only forgives a few requests, and keeping it out of storage keeps every API call cheap.
 * A caller may ask for several requests at once (a lease, see middleware/rate-limit.ts): the
 * counter hands out at most `limit` per window, however they are split between processes.
 */
export class RateLimiter extends DurableObject {
  /** The readiness check's call (routes/health.ts /readyz): the namespace answers; nothing is read or kept. */
  ready(): "ok" {
    return "ok";
  }

  private windowStart = 0;
  private count = 0;

  take(limit: number, windowMs: number, nowMs: number, want = 1): RateVerdict {
    const start = nowMs - (nowMs % windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.count = 0;
    }
    const granted = Math.max(0, Math.min(Math.floor(want), limit - this.count));
    this.count += granted;
    return {
      granted,
      remaining: Math.max(0, limit - this.count),
      retryAfterSeconds: granted > 0 ? 0 : Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)),
    };
  }
}
