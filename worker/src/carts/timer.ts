import type { D1Env } from "../db/d1";
import { processMemory } from "../lib/process-memory";
/** How the cart code reaches a business's expiry alarm (durable/cart-timer.ts). */

/** The timer of a business's carts (one object per business, named by timerName). */
export const timerName = (businessId: number) => `business:${businessId}`;

/** The timer of the business's carts. */
export function cartTimerOf(env: D1Env, businessId: number) {
  return env.CART_TIMER.get(env.CART_TIMER.idFromName(timerName(businessId)));
}

/**
 * When this process last saw each business's timer set to ring (wall clock, ms). A new cart that
 * expires at or after that, while the alarm is still ahead, needs no word to the timer: when it
 * rings, the timer sweeps and sets itself for the earliest expiry still open in D1, this cart's
 * among them (the cart was written before this was asked). Kept only without the test clock
 * (ALLOW_TEST_CLOCK=1), where tests move clocks and ring alarms early, after which the alarm is
 * no longer where this process saw it. Were it moved anyway (an object reset), the cart is still
 * expired on time (an expired hold never counts): only its tidying would wait for the scheduled upkeep.
 */
const rings = processMemory(new Map<number, number>());

/** How far ahead the alarm must still be, for a clock a little off between this process and the timer's. */
const AHEAD_MS = 5_000;

/** Whether the timer must hear of a new cart of the business expiring at `expiresAtMs`. */
export function timerNeedsWord(env: Pick<Env, "ALLOW_TEST_CLOCK">, businessId: number, expiresAtMs: number): boolean {
  if (env.ALLOW_TEST_CLOCK === "1") return true;
  const at = rings.get(businessId);
  return at === undefined || at <= Date.now() + AHEAD_MS || expiresAtMs < at;
}

/** The timer answered that it rings at `at`. */
export function timerRingsAt(env: Pick<Env, "ALLOW_TEST_CLOCK">, businessId: number, at: number): void {
  if (env.ALLOW_TEST_CLOCK !== "1") rings.set(businessId, at);
}
