/**
 * A guest paying online at checkout (issue 31, docs/payments.md "Paying at checkout"), when the
 * business takes online payment (payment_policy.online_payment) and has connected Stripe:
 *
 * - pay_to_confirm: checkout books nothing. It checks the checkout as a booking's (terms, customer,
 *   the human check at the widget's door), opens a Checkout Session for what the policy asks at
 *   booking (computed here from the cart, never taken from the page), saves the request on the
 *   cart and holds its places until the session expires (and a grace), in one guarded batch;
 *   202 `awaiting_payment`. Stripe's signed `checkout.session.completed` then books the cart with
 *   the saved request and records the payment, in one batch; the places gone meanwhile, the payment
 *   is refunded in full. `checkout.session.expired` releases the cart.
 * - otherwise: checkout books as always, and its answer carries a payment link for what is due at
 *   booking (the booking's payment-link path, no e-mail).
 */
import type { AwaitingPayment, Booking, CheckoutBody } from "../contract/cart";
import { paymentEvent } from "../domain/events";
import { minorDigits, toMajor } from "../domain/money";
import { cartFrom, cartStatement, cartGuard, endCartPaymentStatements, awaitPaymentStatements, loadCart, visitorBookingsGuard, type CartContents } from "../db/carts";
import { insertEntryStatement } from "../db/payments";
import { receiptParts } from "./receipts";
import { entryIntentStatement, isEventSeen, stripeEventStatement } from "../db/stripe";
import { paysOnline } from "../domain/catalog";
import { checkoutCart, dueAtBooking, isPersonClash, paidCheckout, readyToCheckout } from "../carts/checkout";
import { batchAbortReason, catalogOf, isWidgetVisitor, runGuarded, sender, type CartCall } from "../carts/run";
import { transition } from "../domain/cart-state";
import { stamp } from "../db/allocations";
import { checkoutSession, stripeFailure, type Stripe } from "../integrations/stripe";
import { ApiError, invalid } from "../lib/errors";
import { newId } from "../lib/ids";
import { isGuardFailure } from "./input";
import { applyStripeWebhook, createPaymentLink, GUEST, STRIPE_ACTOR, stripeOf, wrongBusiness, type CheckoutOutcome, type StripeStore, type WebhookOutcome } from "./stripe";
import { write } from "./write";
import type { Actor } from "../db/audit-log";

/** How long past its session's expiry a paying cart keeps its places: Stripe's expired event comes within minutes. */
export const PAYMENT_HOLD_GRACE_MS = 5 * 60 * 1000;

/** Where the guest is, for the return from Stripe's page. */
export interface ReturnPlace {
  /** The Worker's public origin (PUBLIC_ORIGIN, else the request's). */
  origin: string;
  slug: string;
  /** The request's Origin header (a browser's page), if any. */
  requestOrigin: string | null;
}

export type CheckoutAnswer = { status: 200; body: Booking } | { status: 202; body: AwaitingPayment; holdUntil: Date };

const major = (minor: number, currency: string) => toMajor(minor, minorDigits(currency));
const shown = (minor: number, currency: string) => `${major(minor, currency).toFixed(minorDigits(currency))} ${currency}`;

/**
 * The page Stripe sends the guest back to, with the marker the widget reads (`bw_payment`,
 * `bw_cart`). A `return_url` sent through a browser must be on the page's own origin: nobody
 * sends a guest who paid to a page of someone else's choosing.
 */
export function returnUrls(returnUrl: string | undefined, place: ReturnPlace, cartId: string): { success: string; cancel: string } {
  let base: URL;
  if (returnUrl) {
    base = new URL(returnUrl);
    if (place.requestOrigin && place.requestOrigin !== "null" && base.origin !== place.requestOrigin) {
      throw invalid("return_url", `must be on the page's own origin (${place.requestOrigin})`);
    }
  } else base = new URL(`${place.origin}/book/${encodeURIComponent(place.slug)}`);
  const at = (outcome: string) => {
    const u = new URL(base);
    u.searchParams.delete("bw_payment");
    u.searchParams.set("bw_payment", outcome);
    u.searchParams.set("bw_cart", cartId);
    return u.toString();
  };
  return { success: at("success"), cancel: at("cancelled") };
}

/** The guest who checks out, as the ledger and the audit name them. */
const guestActor = (call: CartCall): Actor => ({ kind: "key", id: call.clientId, name: "Guest (checkout)", requestId: call.requestId });

/** POST /carts/{cart_id}/checkout, with the business's payment policy. */
export async function checkoutWithPolicy(env: StripeStore & CartEnv, call: CartCall, body: CheckoutBody, place: ReturnPlace): Promise<CheckoutAnswer> {
  const snap = await catalogOf(env.DB, call);
  const policy = snap.business.config.payment_policy;
  if (!paysOnline(snap.business)) {
    return { status: 200, body: (await checkoutCart(env, call, body)).body };
  }
  if (policy.pay_to_confirm) {
    const waiting = await awaitPayment(env, call, body, place, policy.payment_hold_minutes);
    if (waiting) return waiting;
  }
  // Booked at once; what is due at booking may be paid at once, through a payment link.
  const booked = (await checkoutCart(env, call, body)).body;
  const contents = await loadCart(env.DB, call.businessId, call.cartId);
  const due = contents ? await dueAtBooking(env.DB, snap, contents, call.now) : 0;
  if (due <= 0) return { status: 200, body: booked };
  try {
    const link = await createPaymentLink(
      env,
      guestActor(call),
      call.businessId,
      booked.id,
      { amount: major(due, booked.currency), send_email: false },
      call.now,
      place.origin,
      place.slug,
      { returnTo: returnUrls(body.return_url, place, call.cartId) },
    );
    return { status: 200, body: { ...booked, payment: { url: link.url, amount: major(link.amount_minor, link.currency), currency: link.currency, expires_at: link.expires_at } } };
  } catch (err) {
    // The booking stands: the guest pays later, by a link the business sends.
    console.error(JSON.stringify({ level: "warn", msg: "payment link at checkout failed", booking_id: booked.id, error: String((err as Error)?.message ?? err) }));
    return { status: 200, body: booked };
  }
}

type CartEnv = Parameters<typeof checkoutCart>[0];

const awaitingAnswer = (cart: CartContents["cart"]): AwaitingPayment => ({
  status: "awaiting_payment",
  cart_id: cart.id,
  payment: { url: cart.payment_url ?? "", amount: major(cart.payment_amount_minor ?? 0, cart.currency), currency: cart.currency, expires_at: cart.payment_expires_at ?? cart.expires_at },
});

/**
 * pay_to_confirm: the Checkout Session for what is due at booking, the request saved and the
 * places held until it expires (and a grace). A cart already waiting answers its session again.
 * Null when nothing is due at booking (a free cart books at once). Stripe failing: 503/502, the
 * cart as it was.
 */
async function awaitPayment(env: StripeStore & CartEnv, call: CartCall, body: CheckoutBody, place: ReturnPlace, holdMinutes: number): Promise<CheckoutAnswer | null> {
  const db = env.DB;
  const { businessId, cartId, now } = call;
  return runGuarded(async () => {
    const { contents, snap } = await readyToCheckout(env, call, body, { paying: true });
    const { cart } = contents;
    if (cart.payment_state === "awaiting") return { status: 202 as const, body: awaitingAnswer(cart), holdUntil: new Date(cart.expires_at) };
    const amount = await dueAtBooking(db, snap, contents, now);
    if (amount <= 0) return null;
    const back = returnUrls(body.return_url, place, cartId);
    const stripe = await stripeOf(env, businessId);
    // Stripe replays a key only with the same parameters: the minute fixes the expiry, so a retry
    // within it (a double click, a lost answer) is the same session.
    const minute = Math.floor(now.getTime() / 60_000);
    const expiresAt = (minute + 1) * 60 + holdMinutes * 60;
    const session = await checkoutSession(stripe, {
      reference: cartId,
      currency: cart.currency,
      amountMinor: amount,
      name: `Booking at ${snap.business.company_name || snap.business.title || place.slug}`,
      metadata: { business_id: String(businessId), cart_id: cartId },
      expiresAt,
      successUrl: back.success,
      cancelUrl: back.cancel,
      customerEmail: body.customer.email,
      idempotencyKey: `cart-checkout:${cartId}:${cart.revision}:${amount}:${minute}`,
    });
    const sessionExpiresAt = new Date(session.expires_at * 1000);
    const holdUntil = new Date(sessionExpiresAt.getTime() + PAYMENT_HOLD_GRACE_MS);
    const saved: CheckoutBody = { terms_accepted: true, newsletter_opt_in: body.newsletter_opt_in, customer: body.customer };
    try {
      const config = snap.business.config;
      const written = await sender(db, call)([
        cartGuard(db, businessId, cartId, now, cart.revision, { liveHolds: true }),
        // what one widget visitor may confirm, checked before the guest pays (the paid cart is booked whatever it says then)
        ...(isWidgetVisitor(cart.client_id) ? [visitorBookingsGuard(db, businessId, cart.client_id, config.max_bookings_per_visitor_per_hour, config.max_bookings_per_visitor_per_day, now)] : []),
        ...awaitPaymentStatements(db, businessId, cartId, { sessionId: session.id, url: session.url, amountMinor: amount, sessionExpiresAt, holdUntil, request: saved }, now),
        cartStatement(db, businessId, cartId),
      ]);
      return { status: 202 as const, body: awaitingAnswer(cartFrom(written)!.cart), holdUntil };
    } catch (err) {
      const reason = batchAbortReason(err);
      if (reason === "limit_visitor_bookings") {
        throw new ApiError(429, "rate_limited", "This browser has confirmed as many bookings as one visitor may (max_bookings_per_visitor_per_hour, max_bookings_per_visitor_per_day). Nothing was booked or charged.", { headers: { "Retry-After": "3600" } });
      }
      if (reason === "hold_expired") throw new ApiError(410, "cart_expired", "Some items of this cart are no longer held (their hold expired); nothing was booked or charged. Start a new cart.");
      if (reason === "cart_not_open" || reason === "cart_expired") {
        const again = await loadCart(db, businessId, cartId);
        const t = again && transition(again.cart, "checkout", stamp(now));
        if (t && !t.ok) throw new ApiError(t.refusal.status, t.refusal.code, t.refusal.detail);
      }
      throw err;
    }
  });
}

/**
 * DELETE of a cart whose guest is paying: its Checkout Session expired at Stripe first (so it can
 * no longer be paid), then the cart abandoned and its places released. A session Stripe says is
 * already complete cannot be canceled: 409 `cart_awaiting_payment` (its webhook books the cart).
 */
export async function cancelCartPayment(env: StripeStore, businessId: number, cartId: string, now: Date): Promise<void> {
  const db = env.DB;
  const contents = await loadCart(db, businessId, cartId);
  const cart = contents?.cart;
  if (!cart || cart.payment_state !== "awaiting" || !cart.payment_session) return;
  const stripe = await stripeOf(env, businessId);
  try {
    await stripe.checkout.sessions.expire(cart.payment_session, {}, { idempotencyKey: `cart-expire:${cart.payment_session}` });
  } catch (err) {
    const e = err as { type?: string };
    if (e?.type === "StripeInvalidRequestError") {
      throw new ApiError(409, "cart_awaiting_payment", "The guest has paid for this cart (Stripe's payment page is complete): it is being booked and cannot be deleted.");
    }
    throw stripeFailure(err);
  }
  await db.batch(endCartPaymentStatements(db, businessId, cartId, cart.payment_session, "canceled", "deleted", now));
}

// ---------------------------------------------------------------------------------------------
// Stripe's events about a cart's session.

/** Stripe's webhook, with a checkout paid online among what it applies (routes/stripe-webhook.ts). */
export function applyWebhook(env: StripeStore & CartEnv, slug: string, body: string, signature: string | undefined, now: Date): Promise<WebhookOutcome> {
  return applyStripeWebhook(env, slug, body, signature, now, (_store, ...rest) => cartSessionEvent(env, ...rest));
}

const intentOf = (session: Stripe.Checkout.Session) => (typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null));

async function cartSessionEvent(env: StripeStore & CartEnv, businessId: number, event: Stripe.Event, session: Stripe.Checkout.Session, outcome: CheckoutOutcome, now: Date): Promise<WebhookOutcome> {
  const db = env.DB;
  if (session.metadata?.business_id !== String(businessId)) throw wrongBusiness();
  const cartId = session.metadata?.cart_id ?? "";
  const contents = await loadCart(db, businessId, cartId);
  if (!contents) throw wrongBusiness();
  const { cart } = contents;
  const seen = stripeEventStatement(db, businessId, event.id, event.type, now);
  const once = async (change: Parameters<typeof write>[4], outcomeIfApplied: WebhookOutcome = "applied"): Promise<WebhookOutcome> => {
    try {
      await write(env, STRIPE_ACTOR, businessId, now, { ...change, statements: [seen, ...change.statements] });
      return outcomeIfApplied;
    } catch (err) {
      if (isEventSeen(err)) return "duplicate";
      throw err;
    }
  };
  const ignored = () => once({ statements: [] }, "ignored");
  // Another session of the cart (one never shown to the guest), or a delayed method still running.
  if (cart.payment_session !== session.id || outcome === "wait") return ignored();
  const amount = cart.payment_amount_minor ?? 0;

  if (outcome !== "succeeded") {
    if (cart.payment_state !== "awaiting" || cart.booking_id) return ignored();
    return once({
      statements: endCartPaymentStatements(db, businessId, cartId, session.id, "expired", "expired", now),
      audit: [{ action: "cart_payment_expired", entity: "cart", entityId: cartId, summary: `Online payment of ${shown(amount, cart.currency)} at checkout ${outcome === "failed" ? "failed" : "expired unpaid"}: the cart's places released`, after: { session_id: session.id, status: outcome } }],
    });
  }

  if (cart.booking_id || cart.payment_state === "paid" || cart.payment_state === "refunded") return ignored();
  const paid = session.amount_total ?? 0;
  const currency = (session.currency ?? "").toUpperCase();
  if (cart.payment_state !== "awaiting") return refundCart(env, businessId, cart, session, seen, now, "the payment page had been canceled or had expired");
  if (paid !== amount || currency !== cart.currency) return refundCart(env, businessId, cart, session, seen, now, `Stripe took ${shown(paid, currency || cart.currency)}, not the ${shown(amount, cart.currency)} asked`);

  for (let attempt = 1; ; attempt++) {
    const plan = await paidCheckout(env, businessId, cartId, session.id, now, attempt === 1);
    if (!plan) return refundCart(env, businessId, cart, session, seen, now, "the cart has nothing to book");
    const paymentId = newId(now.getTime());
    const intent = intentOf(session);
    // the receipt (its number and its e-mail) in the batch that books the cart and records the payment
    const receipt = await receiptParts(env, businessId, plan.bookingId, { id: paymentId, kind: "payment" }, now, plan.booker);
    try {
      return await once({
        statements: [
          ...plan.statements,
          insertEntryStatement(db, businessId, GUEST, { id: paymentId, bookingId: plan.bookingId, kind: "payment", amountMinor: paid, currency, method: "stripe", status: "succeeded", reference: session.id, reason: null, refundsPaymentId: null }, now),
          entryIntentStatement(db, businessId, paymentId, intent),
          ...receipt.statements,
        ],
        emails: [...plan.emails, ...receipt.emails],
        audit: [
          {
            action: "payment_recorded",
            entity: "booking",
            entityId: plan.bookingId,
            summary: `Payment of ${shown(paid, currency)} (stripe) at checkout: the booking confirmed`,
            after: { payment_id: paymentId, amount: major(paid, currency), currency, method: "stripe", reference: session.id, payment_intent: intent, cart_id: cartId },
          },
        ],
        events: [paymentEvent("PaymentReceived", { booking_id: plan.bookingId, payment_id: paymentId, amount: major(paid, currency), currency, method: "stripe", status: "succeeded" })],
      });
    } catch (err) {
      // another event for this session booked it meanwhile (or ended it): nothing twice
      if (isGuardFailure(err)) return ignored();
      if (batchAbortReason(err) === "sold_out") return refundCart(env, businessId, cart, session, seen, now, "its places were taken after its hold lapsed");
      if (attempt === 1 && isPersonClash(err)) continue;
      throw err;
    }
  }
}

/**
 * A paid session whose cart cannot be booked: the whole payment refunded through Stripe (the key
 * is the session's, so however often this runs Stripe refunds once), then the cart abandoned with
 * its places released, recorded and audited. Stripe failing: 503/502 to Stripe's webhook, which
 * sends the event again later; nothing is recorded until the refund is asked.
 */
async function refundCart(env: StripeStore, businessId: number, cart: CartContents["cart"], session: Stripe.Checkout.Session, seen: D1PreparedStatement, now: Date, why: string): Promise<WebhookOutcome> {
  const intent = intentOf(session);
  const paid = session.amount_total ?? 0;
  const currency = (session.currency ?? cart.currency).toUpperCase();
  if (!intent || paid <= 0) return "ignored";
  const stripe = await stripeOf(env, businessId);
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      { payment_intent: intent, amount: paid, metadata: { business_id: String(businessId), cart_id: cart.id } },
      { idempotencyKey: `cart-refund:${session.id}` },
    );
  } catch (err) {
    throw stripeFailure(err);
  }
  try {
    await write(env, STRIPE_ACTOR, businessId, now, {
      statements: [seen, ...endCartPaymentStatements(env.DB, businessId, cart.id, session.id, "refunded", "expired", now, refund.id)],
      audit: [
        {
          action: "cart_payment_refunded",
          entity: "cart",
          entityId: cart.id,
          summary: `Online payment of ${shown(paid, currency)} at checkout refunded in full (${why}); nothing booked`,
          after: { session_id: session.id, payment_intent: intent, refund_id: refund.id, refund_status: refund.status, amount: major(paid, currency), currency },
        },
      ],
    });
  } catch (err) {
    if (isEventSeen(err)) return "duplicate";
    throw err;
  }
  return "applied";
}

