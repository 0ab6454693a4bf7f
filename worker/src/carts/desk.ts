/**
 * How the cart operations reach their business's cart desk (durable/cart-desk.ts), which sends
 * their D1 batches together with the other buyers' of the moment (a group commit).
 */
import type { D1Env } from "../db/d1";
import { plainOf, type DeskAnswer, type DeskFault } from "../db/plain-statements";
import { ApiError } from "../lib/errors";
import { businessMoving, forgetEntriesOf } from "../db/shards";

/** The desk of a business on a shard: one object per pair. */
export const deskName = (shard: number, businessId: number) => `${shard}:${businessId}`;

export function cartDeskOf(env: Pick<D1Env, "CART_DESK">, shard: number, businessId: number) {
  return env.CART_DESK.get(env.CART_DESK.idFromName(deskName(shard, businessId)));
}

export interface DeskRoute {
  shard: number;
  businessId: number;
  /** The bookmark of each commit the desk made for the request (the answer carries the latest). */
  onBookmark?(bookmark: string): void;
  /** Tests only (the desk honours it with ALLOW_TEST_CLOCK=1). */
  fault?: DeskFault;
}

/** The desk did not answer: its object was reset mid-round, or could not be reached. */
export const deskUnavailable = () =>
  new ApiError(
    503,
    "carts_unavailable",
    "The cart service was interrupted while it handled this request. Whatever it was writing was written whole or not at all: " +
      "send the request again with the same Idempotency-Key to get its answer (without one, a retried add may open a second cart, which expires unused).",
    { headers: { "Retry-After": "1" } },
  );

/**
 * A CartCall.send (carts/run.ts) through the business's desk: the statements (made through
 * db/plain-statements.ts recordingDb) are carried as plain data and their results come back in
 * order; a batch D1 refuses throws D1's error, as db.batch would.
 */
export function deskSender(env: Pick<D1Env, "CART_DESK">, route: DeskRoute): (statements: D1PreparedStatement[]) => Promise<D1Result[]> {
  return async (statements) => {
    if (statements.length === 0) return [];
    const plain = statements.map(plainOf);
    let answer: DeskAnswer;
    try {
      answer = (await cartDeskOf(env, route.shard, route.businessId).send(route.shard, route.businessId, plain, route.fault)) as DeskAnswer;
    } catch (err) {
      console.error(JSON.stringify({ level: "error", msg: "cart desk did not answer", business_id: route.businessId, shard: route.shard, error: String(err) }));
      throw deskUnavailable();
    }
    if (!answer.ok) {
      // The shard guard: the business is leaving this shard (or has left it) since its directory entry was read.
      if (/\bbusiness_moving\b/.test(answer.error)) {
        forgetEntriesOf(route.businessId);
        throw businessMoving();
      }
      throw new Error(answer.error);
    }
    if (answer.bookmark) route.onBookmark?.(answer.bookmark);
    return answer.results;
  };
}
