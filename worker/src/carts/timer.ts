import type { D1Env } from "../db/d1";
/** How the cart code reaches a business's expiry alarm (durable/cart-timer.ts). */

/** The timer of a business's carts (one object per business, named by timerName). */
export const timerName = (businessId: number) => `business:${businessId}`;

/** The timer of the business's carts. */
export function cartTimerOf(env: D1Env, businessId: number) {
  return env.CART_TIMER.get(env.CART_TIMER.idFromName(timerName(businessId)));
}
