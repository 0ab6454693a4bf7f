/**
 * How deliveries that failed are tried again: webhooks (durable/webhook-delivery.ts) and e-mails
 * (durable/email-delivery.ts) wait the same, growing times. Pure.
 */

/** Seconds to wait after failed attempt n (1-based) before attempt n + 1; 10 attempts in all, over about 3.5 days. */
export const RETRY_BACKOFF_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_SECONDS.length + 1;

/** When attempt `attempt` + 1 is due after attempt `attempt` (1-based) failed at `now`; null after the last. */
export function nextAttemptAt(attempt: number, now: Date): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_BACKOFF_SECONDS[Math.max(0, attempt - 1)] * 1000);
}
