import { DurableObject } from "cloudflare:workers";

export interface RateVerdict {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * One per rate-limited client. A fixed window counter held in memory: losing it on eviction
 * only forgives a few requests, and keeping it out of storage keeps every API call cheap.
 */
export class RateLimiter extends DurableObject {
  private windowStart = 0;
  private count = 0;

  take(limit: number, windowMs: number, nowMs: number): RateVerdict {
    const start = nowMs - (nowMs % windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.count = 0;
    }
    if (this.count >= limit) {
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) };
    }
    this.count += 1;
    return { allowed: true, remaining: limit - this.count, retryAfterSeconds: 0 };
  }
}
