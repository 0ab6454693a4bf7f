/**
 * Stripe, through its own SDK's Workers build (fetch HTTP client, SubtleCrypto signatures): the one
 * place that talks to Stripe (issue 31, docs/payments.md). Each business's calls use its own
 * restricted key. Where Stripe is comes from the Worker's STRIPE_API_BASE (empty: Stripe's own
 * https://api.stripe.com); the tests point it at a loopback stand-in (worker/test/stripe-standin.ts),
 * which the real SDK then talks HTTP to, as to Stripe.
 */
import type Stripe from "stripe";
import { ApiError } from "../lib/errors";

export type { Stripe };

/**
 * The SDK (760 kB of the bundle), loaded when first used: the bundler keeps it in the one file,
 * but a dynamic import leaves its module's evaluation to the first request that needs Stripe,
 * not every isolate's startup.
 */
const sdk = async (): Promise<typeof Stripe> => (await import("stripe")).default;

/** The SDK for one business's key, talking to STRIPE_API_BASE (or Stripe). No retries of its own: the caller's Idempotency-Key is the retry. */
export async function stripeFor(secretKey: string, apiBase: string | undefined): Promise<Stripe> {
  const Stripe = await sdk();
  const config: ConstructorParameters<typeof Stripe>[1] = { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 0, timeout: 15_000 };
  if (apiBase) {
    const url = new URL(apiBase);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === "http:" ? "80" : "443");
    config.protocol = url.protocol === "http:" ? "http" : "https";
  }
  return new Stripe(secretKey, config);
}

/** A Stripe event from its webhook, verified against the endpoint's signing secret; null for a bad or old signature (tolerance 300 s, measured at `now`). */
export async function verifiedEvent(body: string, signature: string | undefined, webhookSecret: string, now: Date): Promise<Stripe.Event | null> {
  if (!signature) return null;
  const Stripe = await sdk();
  try {
    return await Stripe.webhooks.constructEventAsync(body, signature, webhookSecret, 300, Stripe.createSubtleCryptoProvider(), now.getTime());
  } catch {
    return null;
  }
}

/**
 * What a failed call to Stripe becomes: Stripe unreachable or too slow → 503 `stripe_unavailable`
 * (Retry-After); Stripe's own 5xx → 502 `stripe_error`; a key Stripe refuses → 409
 * `payments_not_configured`; anything else Stripe refused → 502 `stripe_error` with its message.
 */
export function stripeFailure(err: unknown): ApiError {
  const e = err as { type?: string; statusCode?: number; message?: string };
  if (e?.type === "StripeConnectionError" || e?.type === "StripeTimeoutError" || e?.statusCode === 503) {
    return new ApiError(503, "stripe_unavailable", "Stripe did not answer in time. Nothing was charged or refunded twice: send the same request again (with the same Idempotency-Key) shortly.", { headers: { "Retry-After": "5" } });
  }
  if (e?.type === "StripeAuthenticationError" || e?.type === "StripePermissionError") {
    return new ApiError(409, "payments_not_configured", "Stripe refused this business's key (it is wrong, revoked, or lacks a permission this needs). Check the Stripe settings.");
  }
  return new ApiError(502, "stripe_error", `Stripe refused the request: ${e?.message ?? "unknown error"}. Send it again shortly, with the same Idempotency-Key.`);
}

/** A hosted Checkout Session for one amount: what the business's payment asks of Stripe. */
export interface CheckoutAsk {
  /** The booking's or the cart's id: the session's client_reference_id. */
  reference: string;
  /** ISO 4217, any case. */
  currency: string;
  amountMinor: number;
  /** The line the guest reads on Stripe's page. */
  name: string;
  /** Names the business and the booking or cart: on the session and its payment intent. */
  metadata: Record<string, string>;
  /** Seconds since the epoch. */
  expiresAt: number;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
  /** Derived from what is asked, so a retry is the same session (Stripe replays a key only with the same parameters). */
  idempotencyKey: string;
}

/**
 * Stripe's hosted Checkout page for `ask` (mode payment, one line): the guest pays there (Elements
 * cannot mount in the widget's shadow root). A failure is stripeFailure's problem; a session
 * without a page to send the guest to is one too.
 */
export async function checkoutSession(stripe: Stripe, ask: CheckoutAsk): Promise<Stripe.Checkout.Session & { url: string }> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        ui_mode: "hosted_page",
        client_reference_id: ask.reference,
        ...(ask.customerEmail ? { customer_email: ask.customerEmail } : {}),
        line_items: [{ quantity: 1, price_data: { currency: ask.currency.toLowerCase(), unit_amount: ask.amountMinor, product_data: { name: ask.name } } }],
        metadata: ask.metadata,
        payment_intent_data: { metadata: ask.metadata },
        expires_at: ask.expiresAt,
        success_url: ask.successUrl,
        cancel_url: ask.cancelUrl,
      },
      { idempotencyKey: ask.idempotencyKey },
    );
  } catch (err) {
    throw stripeFailure(err);
  }
  if (!session.url) throw stripeFailure(new Error("the Checkout Session has no url"));
  return session as Stripe.Checkout.Session & { url: string };
}
