/**
 * How a cart operation runs: who asks (CartCall), how it reads the cart and the catalog and sends
 * its batches, and the revision guard's retry. A write that decided on what it read of a cart
 * guards on the cart's revision, and is run again on what the cart became when another request
 * changed it in between (runGuarded): two operations on one cart, from two tabs say, take effect
 * one after the other, as if run one at a time.
 */
import { cartFrom, cartStatement, type CartContents, type CartRow } from "../db/carts";
import { snapshotAt, type FusedAccess } from "../db/tenant-read";
import { type CatalogSnapshot } from "../domain/catalog";
import { ApiError, notFound } from "../lib/errors";
import type { D1 } from "../db/d1";

/** Who asks, about which cart, at what time (the request's clock). */
export interface CartCall {
  businessId: number;
  clientId: string;
  cartId: string;
  now: Date;
  catalogVersion?: number;
  /** The request's id (X-Request-Id): the delivery objects' log lines of the work it causes carry it. */
  requestId?: string;
  /** The request's Idempotency-Key: the write batch records on it what the request made. */
  idempotencyKey?: string;
  /**
   * The cart as read in the round trip that settled the request's access (the routes' cartRead:
   * the statements of the operation's first read, cartStatement's last). The operation's first
   * read takes it; a retry reads again.
   */
  read?: D1Result[];
  /** How the operation sends its batches (the routes pass the request's sender), else db.batch. */
  send?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>;
  /** The request's access check, to make inside a new cart's write (db/tenant-read.ts fuseAccess). */
  access?: FusedAccess;
  /** Work to finish after the answer (the request's waitUntil); without it, the work is awaited. */
  after?: (work: Promise<unknown>) => void;
}

/** The operation's way of sending a batch (CartCall.send, else db.batch). */
export function sender(db: D1, call: CartCall): (statements: D1PreparedStatement[]) => Promise<D1Result[]> {
  return call.send ?? ((statements) => db.batch(statements));
}

/** The request's first read of the cart, once (takeRead), else null: the caller reads itself. */
export function takeRead(call: CartCall): D1Result[] | null {
  const read = call.read ?? null;
  call.read = undefined;
  return read;
}

/** An operation's answer; a new cart's expiry, for its business's timer (durable/cart-timer.ts). */
export interface Outcome<T> {
  status: number;
  body: T;
  expiresAt?: Date;
}

/** Whether a cart's client is a widget visitor (an address), not an API key: the visitor bounds apply. */
export const isWidgetVisitor = (clientId: string) => clientId.startsWith("widget:");

/** Why a batch was aborted: the trigger's or a guard's message, if it is one of ours. */
export function batchAbortReason(err: unknown): string | null {
  const m = /\b(sold_out|cart_not_open|cart_expired|hold_expired|limit_open_carts|limit_items|limit_visitor_guests|limit_visitor_bookings|cart_changed|access_refused|guard_failed)\b/.exec(String((err as Error)?.message ?? err));
  return m ? m[1] : null;
}

/**
 * A cart whose guest is paying online (checkout sent them to Stripe) takes no change until the
 * payment ends: 409 `cart_awaiting_payment`. DELETE first expires the payment's session
 * (manage/cart-payment.ts), then abandons it.
 */
export function refuseWhilePaying(cart: Pick<CartRow, "status" | "payment_state">): void {
  if (cart.status === "open" && cart.payment_state === "awaiting") {
    throw new ApiError(
      409,
      "cart_awaiting_payment",
      "The guest is paying for this cart online (checkout sent them to Stripe's payment page): it takes no change until the payment succeeds or its session expires. DELETE cancels the payment and abandons the cart.",
    );
  }
}

/** How many times an operation is run when the cart keeps changing under it. */
const CHANGE_ATTEMPTS = 5;

/**
 * Runs a cart operation, and runs it again (reading the cart again) when its batch found the cart
 * changed since it was read ('cart_changed': another request on the same cart wrote in between).
 * Each run decides afresh on what it reads, so the answer is what running it after the other
 * request gives: a checkout after an add books the added guest too; an add after a checkout is
 * refused (cart_not_open).
 */
export async function runGuarded<T>(op: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (batchAbortReason(err) !== "cart_changed") throw err;
      if (attempt >= CHANGE_ATTEMPTS) {
        throw new ApiError(409, "conflict", "The cart kept changing while this request ran (other requests on the same cart): nothing was done. Try again.");
      }
    }
  }
}

/** The business's catalog as of the request (its config, diets, levels, products and rates). */
export async function catalogOf(db: D1, call: CartCall): Promise<CatalogSnapshot> {
  try {
    return await snapshotAt(db, call.businessId, call.catalogVersion);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound("The business");
    throw err;
  }
}

/** The cart (the request's first read, else read now), or 404 exactly like a cart of another business. */
export async function requireCart(db: D1, call: CartCall): Promise<CartContents> {
  const read = takeRead(call);
  const contents = cartFrom(read ?? (await sender(db, call)([cartStatement(db, call.businessId, call.cartId)])));
  if (!contents) throw notFound(`Cart ${call.cartId}`);
  return contents;
}
