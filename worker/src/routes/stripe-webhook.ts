/**
 * Stripe's webhook, one endpoint per business: POST /stripe/webhook/{slug} (issue 31,
 * docs/payments.md "Stripe"). No API key: the request is Stripe's, and the Stripe-Signature header,
 * verified with the business's webhook signing secret, is what authenticates it. The shard door
 * (middleware/shard.ts) finds the business's database by the slug in the path.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../contract/problem";
import { createRouter } from "./router";
import { bodyResponses } from "./private/openapi-parts";

const route = createRoute({
  method: "post",
  path: "/stripe/webhook/{slug}",
  operationId: "receiveStripeWebhook",
  tags: ["Payments"],
  security: [],
  summary: "Stripe's events for one business (its webhook endpoint)",
  description:
    "Add this URL as a webhook endpoint in the business's Stripe account, subscribed to checkout.session.completed, checkout.session.async_payment_succeeded, " +
    "checkout.session.async_payment_failed, checkout.session.expired and refund.updated, and save its signing secret in the business's Stripe settings. " +
    "The raw body is verified against the Stripe-Signature header (at most 5 minutes old). A paid session settles its pending payment (PaymentReceived), a failed or expired one " +
    "fails or cancels it (PaymentFailed); a succeeded refund settles a pending refund (PaymentRefunded). Each event is applied once however often it arrives, and never after another " +
    "settled the payment. Bad or old signature: 400 `invalid_signature`, nothing changed; an event naming another business's booking: 400 `wrong_business`. " +
    "A session opened by a checkout (metadata cart_id; the business's payment_policy.pay_to_confirm) books its cart with the checkout's saved request once paid, and records the payment; " +
    "expired or failed, it releases the cart; paid when the cart's places are gone, it is refunded in full through Stripe and nothing is booked (Stripe unreachable then: 503/502, Stripe sends the event again).",
  request: {
    params: z.object({ slug: z.string().openapi({ param: { name: "slug", in: "path" }, example: "demo" }) }),
    headers: z.object({ "stripe-signature": z.string().optional().openapi({ description: "Stripe's signature of the raw body." }) }),
  },
  responses: {
    200: { description: "Received: applied, or already applied, or not one this endpoint acts on.", content: { "application/json": { schema: z.object({ received: z.literal(true), outcome: z.enum(["applied", "duplicate", "ignored"]) }) } } },
    400: problemResponse("`invalid_signature`: bad or old signature; `wrong_business`: the event names another business's booking. Nothing changed."),
    404: problemResponse("No such business."),
    ...bodyResponses,
    409: problemResponse("`payments_not_configured`: the business has no webhook signing secret set."),
    502: problemResponse("`stripe_error`: a refund this event needed was refused by Stripe; nothing recorded (Stripe sends the event again)."),
    503: problemResponse("`stripe_unavailable`: a refund this event needed could not be asked of Stripe; nothing recorded (Stripe sends the event again)."),
  },
});

export const stripeWebhookRoutes = createRouter().openapi(route, async (c) => {
  // The payments' rules and shapes (manage/cart-payment.ts, manage/stripe.ts, contract/payments.ts)
  // are evaluated on the first event, not at the isolate's startup (docs/benchmarks.md "What loads lazily").
  const { applyWebhook } = await import("../manage/cart-payment");
  const outcome = await applyWebhook(c.env, c.req.valid("param").slug, await c.req.text(), c.req.header("stripe-signature"), c.get("now"));
  return c.json({ received: true as const, outcome }, 200);
});
