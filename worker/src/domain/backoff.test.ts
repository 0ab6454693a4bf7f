import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_BACKOFF_SECONDS } from "./backoff";

// How a failed webhook delivery or e-mail is tried again (docs/webhooks.md, docs/email.md): 10
// attempts in all, at growing intervals, over a little more than three days; none after the last.
const at = new Date("2026-11-21T10:00:00.000Z");
const after = (attempt: number) => {
  const next = nextAttemptAt(attempt, at);
  return next === null ? null : (next.getTime() - at.getTime()) / 1000;
};

describe("nextAttemptAt", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after failed attempts 1 to 9", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(after)).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]);
  });

  it("makes 10 attempts in all: none after the 10th, or any later one", () => {
    expect(MAX_ATTEMPTS).toBe(10);
    expect(after(10)).toBeNull();
    expect(after(11)).toBeNull();
  });

  it("spreads the attempts over 3 days, 3 h 35 min (a receiver down for a long weekend still gets them)", () => {
    const total = RETRY_BACKOFF_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBe(3 * 86_400 + 3 * 3600 + 35 * 60 + 5);
  });

  it("never waits less than the first interval, even for an attempt number below 1", () => {
    expect(after(0)).toBe(5);
    expect(after(1)).toBe(5);
  });
});
