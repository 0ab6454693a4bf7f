import { createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { AddToCartBody, AwaitingPayment, Booking, Cart, CartIdParam, CheckoutBody, DeleteResult, ExtendResult } from "../../contract/cart";
import { problemResponse } from "../../contract/problem";
import { cartStatement } from "../../db/carts";
import { bookedAnswer, checkoutReadStatements } from "../../carts/checkout";
import { publicOrigin } from "../../lib/origin";
import { abandonCart, addToCart, extendCart, viewCart } from "../../carts/operations";
import { batchAbortReason, type CartCall } from "../../carts/run";
import type { AppEnv } from "../../db/request-env";
import { ApiError, notFound } from "../../lib/errors";
import { waitUntil } from "../../lib/wait-until";
import { createRouter } from "../router";
import { fuseAccess, readTenant, requestSender, settleAccess, type FusedAccess } from "../../db/tenant-read";
import { keyCheck } from "../../middleware/auth";
import { idempotency } from "../../middleware/idempotency";
import { newId } from "../../lib/ids";
import { cartTimerOf, timerNeedsWord, timerRingsAt } from "../../carts/timer";
import type { D1 } from "../../db/d1";
import { deskSender, type DeskRoute } from "../../carts/desk";
import { recordingDb, type DeskFault } from "../../db/plain-statements";
import { noteDeskBookmark } from "../../middleware/session";

/**
 * Checkout's payment rules (manage/cart-payment.ts, and Stripe's through it), evaluated by an
 * isolate's first checkout rather than at its startup (docs/benchmarks.md "What loads lazily").
 */
const paying = () => import("../../manage/cart-payment");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const IdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({
    description:
      "Optional. The same key with the same body replays the first answer (header Idempotent-Replayed: true); with another body it is 422 idempotency_key_reused; " +
      "while the first request still runs it is 409 idempotency_in_progress. If the first request's change was made but its answer was lost (its process died), " +
      "a retry gets the cart or booking it made, never a second one. Keys are kept 24 hours and belong to the caller that sent them (the API key, or the widget visitor): another caller's same key is another key.",
    example: "5d0c3a5e-3c1b-4bb8-9a64-0c8f0d7f6f21",
  }),
});

/**
 * The cart routes send their D1 batches (the access check, an Idempotency-Key's claim, the cart's
 * reads and writes) through the business's cart desk (carts/desk.ts), where they meet the other
 * buyers' of the moment in one D1 batch. Their statements are built through a recording D1
 * (db/plain-statements.ts), so that they can be carried there as plain data; the answer's
 * X-D1-Bookmark is then at least the desk's commit (middleware/session.ts).
 */
const atTheDesk: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.env = { ...c.env, DB: recordingDb(c.env.DB) };
  c.set("send", deskSender(c.env, deskRoute(c)));
  await next();
};

function deskRoute(c: Context<AppEnv>, fault?: DeskFault): DeskRoute {
  return { shard: c.get("d1Session")?.shard ?? 0, businessId: c.get("tenant").businessId, onBookmark: (bookmark) => noteDeskBookmark(c, bookmark), fault };
}

/**
 * Tests only (ALLOW_TEST_CLOCK=1): `X-Test-Desk-Fault: crash-after-commit` makes the desk die
 * right after the operation's batches commit (an add to a new cart: its write), before it answers.
 */
function operationSender(c: Context<AppEnv>): CartCall["send"] {
  const asked = c.env.ALLOW_TEST_CLOCK === "1" && c.req.header("X-Test-Desk-Fault") === "crash-after-commit";
  return asked ? deskSender(c.env, deskRoute(c, "crash-after-commit")) : requestSender(c);
}

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const common = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  429: problemResponse("Rate limit exceeded."),
  503: problemResponse(
    "`carts_unavailable`: the cart service was interrupted mid-request (Retry-After); what it was writing was written whole or not at all, and a retry with the same Idempotency-Key gets its answer.",
  ),
} as const;
/** What any request with a body may get before its route runs (worker/src/middleware/request-context.ts). */
const bodyErrors = {
  400: problemResponse("`malformed_json`: the body is not valid JSON."),
  413: problemResponse("`payload_too_large`: the body is over 256 KiB."),
  415: problemResponse("`unsupported_media_type`: the body is not application/json."),
} as const;
const cartGone = {
  404: problemResponse("No such cart (or the cart belongs to another business)."),
  409: problemResponse(
    "`cart_awaiting_payment`: the guest is paying for this cart online (checkout with the business's pay_to_confirm); it takes no change until the payment succeeds or its page expires. " +
    "`cart_not_open`: the cart was checked out or deleted. `limit_exceeded`: a business limit was reached. " +
      "`conflict`: other requests on the same cart kept changing it while this one ran (it is run again on what the cart became, a few times); nothing was done, try again.",
  ),
  410: problemResponse("`cart_expired`: the cart's expiry passed (holds released or lapsed); start a new cart."),
} as const;

const addRoute = createRoute({
  method: "post",
  path: "/bookings/add",
  operationId: "addToCart",
  tags: ["Carts"],
  summary: "Add guests with their packages to a cart (opens one without cart_id)",
  description:
    "Without `cart_id` a new cart is opened (201) with the business's cart lifetime (cart_lifetime_seconds, default 600 s); with it, the guests are added (200). " +
    "Every unit of the request (each night, item and guest) is held in one transaction: all or nothing. " +
    "Limits (409 `limit_exceeded`): max_items_per_cart (default 40, counted as the cart's guests: a party of 8 with every option is 8), " +
    "max_open_carts_per_client (default 5 open carts per widget visitor; an API key, which serves an integrator's whole site, is not limited in open carts), " +
    "max_guests_held_per_visitor (default 10 guests held at once over a widget visitor's open carts). A widget visitor's cart holds for at most " +
    "max_hold_seconds_per_visitor from its opening (default 1800 s), its lifetime included. " +
    "409 `sold_out` names what is sold out on which date. Default items are added automatically; default items sent are ignored.",
  middleware: [atTheDesk, keyCheck.byHandler, idempotency({ replay: (c, cartId, text) => replayAdd(c, cartId, text) })] as const,
  request: { headers: IdempotencyHeader, body: { required: true, content: { "application/json": { schema: AddToCartBody } } } },
  responses: {
    200: json(Cart, "Guests added; the whole cart."),
    201: json(Cart, "A new cart was opened; the whole cart, with its cart_id."),
    ...common,
    ...bodyErrors,
    ...cartGone,
    422: problemResponse("Invalid body or selection (errors[] names each field), or an Idempotency-Key reused with another body."),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/carts/{cart_id}",
  operationId: "getCart",
  tags: ["Carts"],
  summary: "A cart's contents",
  description: "Guests, items with prices (major units), totals, currency, status and expiry. An open cart past its expiry is shown as abandoned (abandon_reason expired).",
  middleware: [atTheDesk] as const,
  request: { params: CartIdParam },
  responses: { 200: json(Cart, "The cart."), ...common, 404: cartGone[404] },
});

const extendRoute = createRoute({
  method: "put",
  path: "/carts/{cart_id}/extend",
  middleware: [atTheDesk, keyCheck.byHandler] as const,
  operationId: "extendCart",
  tags: ["Carts"],
  summary: "Extend an open cart's expiry to 10 minutes after the request",
  description:
    "The holds are extended with the cart. Limited by the business's max_extensions_per_cart (default 6), and for a widget visitor's cart by " +
    "max_hold_seconds_per_visitor from its opening (default 1800 s): beyond either, 409 `limit_exceeded` and the expiry stays.",
  request: { params: CartIdParam },
  responses: { 200: json(ExtendResult, "The new expiry (UTC)."), ...common, 413: bodyErrors[413], 415: bodyErrors[415], ...cartGone },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/carts/{cart_id}",
  middleware: [atTheDesk, keyCheck.byHandler] as const,
  operationId: "abandonCart",
  tags: ["Carts"],
  summary: "Abandon a cart; its units are available to others at once",
  description:
    "Idempotent: deleting an abandoned (or expired) cart answers success again. A checked-out cart answers 409 `cart_not_open`. " +
    "A cart whose guest is paying online (checkout answered 202 `awaiting_payment`): its Stripe payment page is expired first (it can no longer be paid), then the cart is abandoned; " +
    "a payment Stripe already completed cannot be canceled (409 `cart_awaiting_payment`: its webhook books the cart); Stripe unreachable 503 `stripe_unavailable`, nothing changed.",
  request: { params: CartIdParam },
  responses: {
    200: json(DeleteResult, "The cart is abandoned."),
    ...common,
    404: cartGone[404],
    409: cartGone[409],
    502: problemResponse("`stripe_error`: Stripe refused to cancel the cart's payment page; nothing changed."),
    503: problemResponse("`stripe_unavailable`: Stripe did not answer; nothing changed, try again."),
  },
});

const checkoutRoute = createRoute({
  method: "post",
  path: "/carts/{cart_id}/checkout",
  operationId: "checkoutCart",
  tags: ["Carts"],
  summary: "Check out: the cart becomes a booking with its booker and guests",
  description:
    "In one transaction: every hold must still be live (otherwise 410 `cart_expired` and nothing is booked), the booking gets the next reference number of its business and year, " +
    "the holds become the booking's units, the customer becomes the Booker and each guest a Guest, and the events " +
    "(BookingCreated, BookerCreated, GuestCreated, PersonCreated/PersonUpdated) are written to the outbox. A new e-mail makes a new Person with the data entered; " +
    "an e-mail of a stored Person links the Booker or Guest to that Person but never overwrites it (anyone may type anyone's e-mail): only its empty fields are filled, " +
    "and the data entered stays with the booking's Booker and Guests. `terms_accepted` not true: 422 `terms_not_accepted`, nothing changes. " +
    "A cart opened by a widget visitor (through /widget/v1, not with an API key) is refused with 429 `rate_limited` and `Retry-After` when that visitor " +
    "already confirmed max_bookings_per_visitor_per_hour bookings in the last hour (default 5) or max_bookings_per_visitor_per_day in the last day (default 10); nothing is booked. " +
    "Through /widget/v1, a business that turned on its human check (settings turnstile_site_key and turnstile_secret) also needs the visitor's Cloudflare Turnstile token " +
    "in the header `X-Turnstile-Token`, else 403 `human_check_failed` and nothing is booked; an API key is never asked for one. " +
    "**Paying online** (the business's settings payment_policy.online_payment with Stripe connected; the spec leaves checkout's answer open here): " +
    "with payment_policy.pay_to_confirm, nothing is booked yet: the answer is 202 `{status: \"awaiting_payment\", cart_id, payment: {url, amount, currency, expires_at}}`, " +
    "the request is saved on the cart and its places held until the payment page expires (payment_hold_minutes, and a 5-minute grace); the guest pays on `payment.url` (Stripe's hosted Checkout) " +
    "and Stripe's signed webhook books the cart with this request (GET /carts/{cart_id} then shows it checked out with its booking; a page that expired unpaid abandons the cart). " +
    "The amount is what the payment policy asks at booking (the deposit, else the whole), computed from the cart by the server: no field of the body sets it. " +
    "The same checkout sent again while the guest pays answers the same payment page; add, extend and a second checkout with other data change nothing (409 `cart_awaiting_payment`). " +
    "Stripe unreachable: 503 `stripe_unavailable` (Stripe refusing: 502 `stripe_error`), nothing booked and the cart as it was: send it again. " +
    "Without pay_to_confirm the booking is made at once (200) and, when something is due at booking, its answer carries `payment`, a payment page for it (paying it is optional; nothing is e-mailed).",
  middleware: [atTheDesk, keyCheck.byHandler, idempotency({ replay: (c, bookingId, text) => replayCheckout(c, bookingId, text) })] as const,
  request: { params: CartIdParam, headers: IdempotencyHeader, body: { required: true, content: { "application/json": { schema: CheckoutBody } } } },
  responses: {
    200: json(Booking, "The booking created."),
    202: json(AwaitingPayment, "Nothing booked yet: the guest pays first (payment_policy.pay_to_confirm); Stripe's webhook books the cart once paid."),
    ...common,
    ...bodyErrors,
    ...cartGone,
    502: problemResponse("`stripe_error`: Stripe refused to open the payment page; nothing booked, the cart as it was."),
    503: problemResponse("`stripe_unavailable`: Stripe did not answer; nothing booked, the cart as it was. Send the checkout again."),
    422: problemResponse("`terms_not_accepted`, or an invalid customer (`validation_failed`, errors[] names each field), or an Idempotency-Key reused with another body."),
  },
});

/**
 * Who asks about which cart, at what time. The access is settled first (the key's record, or for
 * the widget the business): a revoked key reaches no cart, and the catalog version it reads lets
 * the operation use this process's catalog snapshot instead of reading the catalog again. An
 * operation on an existing cart names what it reads first (`first`): those statements ride in the
 * round trip that settles the access (db/tenant-read.ts) and the operation takes their results.
 */
async function cartCall(
  c: Context<AppEnv>,
  cartId: string,
  first?: (db: D1, businessId: number) => D1PreparedStatement[],
  fused?: FusedAccess,
): Promise<CartCall> {
  const read = first ? (await readTenant(c, () => first(c.env.DB, c.get("tenant").businessId))).results : undefined;
  // With a fused check the access is settled by the write itself, at the snapshot's version.
  const catalogVersion = fused ? fused.version : await settleAccess(c);
  const tenant = c.get("tenant");
  return {
    businessId: tenant.businessId,
    clientId: tenant.clientId,
    cartId,
    now: c.get("now"),
    catalogVersion,
    idempotencyKey: c.get("idempotencyKey"),
    requestId: c.get("requestId"),
    read,
    access: fused,
    // Through the business's cart desk (atTheDesk).
    send: operationSender(c),
    after: (work) => waitUntil(c, work),
  };
}

/** The first read of an operation on an existing cart: the cart itself. */
const theCart = (cartId: string) => (db: D1, businessId: number) => [cartStatement(db, businessId, cartId)];

/** A path cart_id: a UUID (any case) or no such cart. */
function cartIdOf(raw: string): string {
  if (!UUID.test(raw)) throw notFound(`Cart ${raw}`);
  return raw.toLowerCase();
}

/**
 * A new cart's expiry goes to its business's timer (durable/cart-timer.ts), after the answer: the
 * cart is stored and its holds lapse on time whether or not the timer hears of it (the timer only
 * tidies up, and the scheduled upkeep sweeps what it missed).
 */
function armTimer(c: Context<AppEnv>, call: CartCall, expiresAt: Date): void {
  // Nothing to tell when it already rings before this cart expires (carts/timer.ts).
  if (!timerNeedsWord(c.env, call.businessId, expiresAt.getTime())) return;
  const timer = cartTimerOf(c.env, call.businessId);
  waitUntil(
    c,
    timer
      .due(call.businessId, call.now.getTime(), expiresAt.getTime())
      .then((at) => timerRingsAt(c.env, call.businessId, at))
      .catch((err: unknown) => {
        console.error(JSON.stringify({ level: "warn", msg: "cart timer not armed", cart_id: call.cartId, error: String(err) }));
      }),
  );
}

/**
 * A retried add whose first attempt made its change but died before its answer was recorded:
 * the cart as it stands (201 when the request opened it).
 */
async function replayAdd(c: Context<AppEnv>, cartId: string, requestText: string): Promise<Response> {
  const opened = (JSON.parse(requestText) as { cart_id?: unknown }).cart_id === undefined;
  const { body } = await viewCart(c.env, await cartCall(c, cartId, theCart(cartId)));
  return c.json(body, opened ? 201 : 200);
}

/** A retried checkout whose first attempt booked the cart but died before its answer was recorded. */
async function replayCheckout(c: Context<AppEnv>, bookingId: string, requestText: string): Promise<Response | null> {
  const cartId = cartIdOf(c.req.param("cart_id") ?? "");
  const answer = await bookedAnswer(c.env, await cartCall(c, cartId), bookingId, JSON.parse(requestText) as CheckoutBody);
  return answer && c.json(answer, 200);
}

export const cartRoutes = createRouter()
  .openapi(addRoute, async (c) => {
    const body = c.req.valid("json");
    if (body.cart_id === undefined) {
      const cartId = newId();
      // The cart's write is its first round trip: the access check rides in it when it can.
      const access = await fuseAccess(c);
      let call: CartCall;
      let opened: Awaited<ReturnType<typeof addToCart>>;
      try {
        call = await cartCall(c, cartId, undefined, access ?? undefined);
        opened = await addToCart(c.env, call, body, true);
      } catch (err) {
        if (!access || batchAbortReason(err) !== "access_refused") throw err;
        // Refused inside the write (nothing written): the usual check says why, or the catalog
        // changed since this process's snapshot and the cart is opened on the new one.
        call = await cartCall(c, cartId);
        opened = await addToCart(c.env, call, body, true);
      }
      armTimer(c, call, opened.expiresAt!);
      return c.json(opened.body, 201);
    }
    const cartId = body.cart_id.toLowerCase();
    const { body: cart } = await addToCart(c.env, await cartCall(c, cartId, theCart(cartId)), { ...body, cart_id: cartId }, false);
    return c.json(cart, 200);
  })
  .openapi(getRoute, async (c) => {
    const cartId = cartIdOf(c.req.valid("param").cart_id);
    return c.json((await viewCart(c.env, await cartCall(c, cartId, theCart(cartId)))).body, 200);
  })
  .openapi(extendRoute, async (c) => {
    const cartId = cartIdOf(c.req.valid("param").cart_id);
    return c.json((await extendCart(c.env, await cartCall(c, cartId, theCart(cartId)))).body, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const cartId = cartIdOf(c.req.valid("param").cart_id);
    const call = await cartCall(c, cartId, theCart(cartId));
    try {
      return c.json((await abandonCart(c.env, call)).body, 200);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "cart_awaiting_payment") throw err;
      // The guest is paying: the payment page is expired at Stripe first, then the cart abandoned.
      const { cancelCartPayment } = await paying();
      await cancelCartPayment(c.env, call.businessId, cartId, call.now);
      return c.json({ success: true }, 200);
    }
  })
  .openapi(
    checkoutRoute,
    async (c) => {
      const cartId = cartIdOf(c.req.valid("param").cart_id);
      const body = c.req.valid("json");
      const call = await cartCall(c, cartId, (db, businessId) => checkoutReadStatements(db, businessId, cartId, body));
      const place = { origin: publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url), slug: c.get("tenant").slug, requestOrigin: c.req.header("origin") ?? null };
      const { checkoutWithPolicy } = await paying();
      const answer = await checkoutWithPolicy(c.env, call, body, place);
      if (answer.status === 202) {
        armTimer(c, call, answer.holdUntil);
        return c.json(answer.body, 202);
      }
      return c.json(answer.body, 200);
    },
    (result) => {
      // Like the router's default hook, but a terms_accepted that is not true has its own code.
      if (result.success) return;
      const errors = result.error.issues.map((issue) => ({ path: issue.path.map(String).join(".") || result.target, message: issue.message }));
      const summary = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
      if (result.target === "json" && errors.some((e) => e.path === "terms_accepted")) {
        throw new ApiError(422, "terms_not_accepted", `Checkout needs terms_accepted: true (the business's terms, GET /settings). Nothing was booked. ${summary}`, { errors });
      }
      throw new ApiError(422, "validation_failed", `The ${result.target} is invalid: ${summary}`, { errors });
    },
  );
