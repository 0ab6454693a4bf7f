import { DurableObject } from "cloudflare:workers";
import type { AddToCartBody, Booking, Cart, CheckoutBody } from "../contract/cart";
import type { ErrorCode } from "../contract/problem";
import type { Env } from "../env";
import { ApiError, type FieldError } from "../lib/errors";
import { checkoutCart } from "./cart-checkout";
import { abandonCart, addToCart, expireCart, extendCart, viewCart, type CartCall, type Outcome } from "./cart-operations";

/** A cart operation's request as it crosses the RPC boundary (a Date travels as epoch ms). */
export interface CartRequest {
  businessId: number;
  clientId: string;
  cartId: string;
  nowMs: number;
  /** The catalog version the request's key check saw (lib/tenant-read.ts). */
  catalogVersion?: number;
  /** The request's Idempotency-Key, when it has one (middleware/idempotency.ts). */
  idempotencyKey?: string;
}

/** An operation's answer across RPC. Errors are values: RPC keeps only an Error's message. */
export type CartReply<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; code: ErrorCode; detail: string; errors?: FieldError[]; headers?: Record<string, string> };

/** What the alarm needs to know about its cart, kept in the object's storage. */
interface TimerState {
  cartId: string;
  businessId: number;
  /** Request clock minus wall clock (tests only, ALLOW_TEST_CLOCK=1; 0 otherwise). */
  offsetMs: number;
}

/**
 * One per cart (named by its cart_id). Serializes the cart's operations: each RPC runs only
 * after the previous one finished, including their D1 round trips (an input gate alone would let
 * them interleave while awaiting D1). Owns the cart's one expiry alarm, which abandons the cart
 * and releases its holds; the alarm is idempotent and only tidies up, since an expired hold never
 * counts toward availability anyway.
 *
 * Tests drive time with X-Test-Now; the alarm runs on the wall clock, so in test mode the object
 * remembers the last request's offset and decides with the same clock as the requests.
 */
export class CartTimer extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  private timer: TimerState | null | undefined;

  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async state(): Promise<TimerState | null> {
    if (this.timer === undefined) this.timer = (await this.ctx.storage.get<TimerState>("timer")) ?? null;
    return this.timer;
  }

  /** Remember the cart and the request's clock offset (written only when it changed). */
  private async remember(req: CartRequest): Promise<TimerState> {
    const offsetMs = this.env.ALLOW_TEST_CLOCK === "1" ? req.nowMs - Date.now() : 0;
    const current = await this.state();
    // Within a second counts as the same clock: no storage write for every request.
    if (current && current.cartId === req.cartId && Math.abs(current.offsetMs - offsetMs) < 1000) return current;
    const next = { cartId: req.cartId, businessId: req.businessId, offsetMs };
    await this.ctx.storage.put("timer", next);
    this.timer = next;
    return next;
  }

  private async run<T>(req: CartRequest, op: (call: CartCall) => Promise<Outcome<T>>): Promise<CartReply<T>> {
    return this.serialize(async () => {
      const call: CartCall = { businessId: req.businessId, clientId: req.clientId, cartId: req.cartId, now: new Date(req.nowMs), catalogVersion: req.catalogVersion, idempotencyKey: req.idempotencyKey };
      let outcome: Outcome<T>;
      try {
        outcome = await op(call);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return { ok: false, status: err.status, code: err.code, detail: err.message, errors: err.extra.errors, headers: err.extra.headers };
      }
      if (outcome.closed) {
        await this.ctx.storage.deleteAlarm();
        await this.ctx.storage.deleteAll();
        this.timer = null;
      } else {
        const state = await this.remember(req);
        if (outcome.expiresAt) await this.ctx.storage.setAlarm(outcome.expiresAt.getTime() - state.offsetMs);
      }
      return { ok: true, status: outcome.status, body: outcome.body };
    });
  }

  /** POST /bookings/add to an existing cart. */
  add(req: CartRequest, body: AddToCartBody): Promise<CartReply<Cart>> {
    return this.run(req, (call) => addToCart(this.env, call, body, false));
  }

  /**
   * Takes charge of a cart just opened by the Worker: remembers it and sets its expiry alarm.
   * (A new cart is written without this object: nobody else knows its id before the answer, so
   * there is nothing to serialize, and the buyers who lose a race never create an object.)
   */
  track(req: CartRequest, expiresAtMs: number): Promise<void> {
    return this.serialize(async () => {
      const state = await this.remember(req);
      await this.ctx.storage.setAlarm(expiresAtMs - state.offsetMs);
    });
  }

  view(req: CartRequest): Promise<CartReply<Cart>> {
    return this.run(req, (call) => viewCart(this.env, call));
  }

  extend(req: CartRequest): Promise<CartReply<{ cart_id: string; expiry_date: string }>> {
    return this.run(req, (call) => extendCart(this.env, call));
  }

  abandon(req: CartRequest): Promise<CartReply<{ success: boolean }>> {
    return this.run(req, (call) => abandonCart(this.env, call));
  }

  checkout(req: CartRequest, body: CheckoutBody): Promise<CartReply<Booking>> {
    return this.run(req, (call) => checkoutCart(this.env, call, body));
  }

  /** The expiry sweep. Runs at least once and is retried on throw: idempotent by construction. */
  async alarm(): Promise<void> {
    await this.serialize(async () => {
      const state = await this.state();
      if (!state) return;
      const now = new Date(Date.now() + state.offsetMs);
      const result = await expireCart(this.env, state.businessId, state.cartId, now);
      if (result.open && result.expiresAt) {
        await this.ctx.storage.setAlarm(result.expiresAt.getTime() - state.offsetMs);
      } else {
        await this.ctx.storage.deleteAll();
        this.timer = null;
      }
    });
  }
}
