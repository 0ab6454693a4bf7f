/**
 * A booking's payments ledger in the private API (issue 31): the ledger, a manual payment
 * recorded, a refund. The changes are manage/payments.ts's (the back office calls the same).
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  PaymentCreate, PaymentEntryEnvelope, PaymentLedger, PaymentLinkCreate, PaymentLinkEnvelope, RefundCreate, STRIPE_EVENTS, StripeSettingsEnvelope, StripeSettingsUpdate,
} from "../../contract/payments";
import { problemResponse } from "../../contract/problem";
import { ledgerOf } from "../../db/payments";
import { bookingRow } from "../../db/bookings";
import type { AppEnv } from "../../db/request-env";
import { notFound } from "../../lib/errors";
import { idempotency } from "../../middleware/idempotency";
import { recordPayment, recordRefund } from "../../manage/payments";
import { askStripeToRefund, createPaymentLink, saveStripeSettings, stripeSettings, type PaymentLink } from "../../manage/stripe";
import { publicOrigin } from "../../lib/origin";
import { minorDigits, toMajor } from "../../domain/money";

import { keyActor } from "./actor";
import { createRouter } from "../router";
import { authResponses, bodyResponses, json, uuidPath } from "./openapi-parts";
import { uuidParam } from "./query";
import { paymentEntryView } from "./views";

const tags = ["Payments"];
const BookingParam = z.object({ booking_id: uuidPath("booking_id") });
const IdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({
    description:
      "Optional. The same key with the same body replays the first answer (header Idempotent-Replayed: true); with another body it is 422 idempotency_key_reused; " +
      "while the first request still runs it is 409 idempotency_in_progress. If the entry was recorded but the answer lost, a retry gets that entry, never a second one. Keys are kept 24 hours per API key.",
    example: "5d0c3a5e-3c1b-4bb8-9a64-0c8f0d7f6f21",
  }),
});

const listRoute = createRoute({
  method: "get",
  path: "/bookings/{booking_id}/payments",
  operationId: "listBookingPayments",
  tags,
  summary: "A booking's ledger of payments and refunds",
  description:
    "Oldest first. Every payment and every refund is an entry of its own, never edited or deleted; only succeeded entries count towards the booking's amount_paid and amount_refunded. " +
    "A succeeded entry has its `receipt_number` (sequential per business and calendar year, e.g. 2026-000123), the number of the receipt e-mailed to the booker when it succeeded.",
  request: { params: BookingParam },
  responses: { 200: json(PaymentLedger, "The ledger, oldest first."), 400: problemResponse("booking_id is not a UUID."), ...authResponses, 404: problemResponse("No such booking.") },
});

const payRoute = createRoute({
  method: "post",
  path: "/bookings/{booking_id}/payments",
  operationId: "createBookingPayment",
  tags,
  summary: "Record a manual payment",
  description:
    "A payment the business took itself (cash, card terminal, bank transfer, other), recorded as succeeded; sends PaymentReceived. " +
    "Refused (422, naming the field, nothing recorded): an amount of 0, negative or with more decimals than the currency has; a currency other than the booking's; a cancelled booking (`booking_id`).",
  middleware: [idempotency({ replay: (c, id) => replayEntry(c, id) })] as const,
  request: { params: BookingParam, headers: IdempotencyHeader, body: { required: true, content: { "application/json": { schema: PaymentCreate } } } },
  responses: {
    201: json(PaymentEntryEnvelope, "The payment recorded."),
    400: problemResponse("booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    ...bodyResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("A request with this Idempotency-Key is still running."),
    422: problemResponse("Invalid fields (errors[] names each), or an Idempotency-Key reused with another body."),
  },
});

const refundRoute = createRoute({
  method: "post",
  path: "/bookings/{booking_id}/refunds",
  operationId: "createBookingRefund",
  tags,
  summary: "Refund part or all of a payment",
  description:
    "Refunds `amount` of the payment `payment_id`, or by default of the latest succeeded payment that has that much left to refund; sends PaymentRefunded. " +
    "A manual payment's refund is recorded as succeeded (the business gives the money back itself). A `stripe` payment's refund is asked of Stripe (refunds.create, idempotency key " +
    "derived from the refund): recorded pending, then succeeded when Stripe's answer or its refund.updated event says so. Stripe unreachable: 503 `stripe_unavailable`; Stripe failing: 502 " +
    "`stripe_error`; the refund stays pending, and the same request again (the same Idempotency-Key, or the same amount of the same payment) asks Stripe again with the same key, so Stripe refunds once. " +
    "Refused (422, naming the field, nothing recorded): a bad amount, a currency other than the booking's, " +
    "a payment not of this booking or not succeeded, more than the payment has left to refund.",
  middleware: [idempotency({ replay: (c, id) => replayEntry(c, id) })] as const,
  request: { params: BookingParam, headers: IdempotencyHeader, body: { required: true, content: { "application/json": { schema: RefundCreate } } } },
  responses: {
    201: json(PaymentEntryEnvelope, "The refund recorded."),
    400: problemResponse("booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    ...bodyResponses,
    404: problemResponse("No such booking."),
    409: problemResponse(
      "`payments_not_configured`: a stripe payment, and the business's Stripe key is not set; `provider_refund_unavailable`: Stripe has not told the payment's PaymentIntent yet; or a request with this Idempotency-Key is still running.",
    ),
    422: problemResponse("Invalid fields (errors[] names each), or an Idempotency-Key reused with another body."),
    502: problemResponse("`stripe_error`: Stripe refused or failed; the refund stays pending, nothing refunded twice on a retry."),
    503: problemResponse("`stripe_unavailable`: Stripe did not answer; retry with the same Idempotency-Key."),
  },
});

const linkRoute = createRoute({
  method: "post",
  path: "/bookings/{booking_id}/payment-links",
  operationId: "createBookingPaymentLink",
  tags,
  summary: "A payment link (Stripe Checkout) for the balance or an amount",
  description:
    "Creates a Stripe hosted Checkout Session (mode payment) in the business's own Stripe account for the booking's balance due (default) or `amount` (major units of the booking's " +
    "currency, validated like a manual payment); the amount and currency are the server's. Records a `pending` ledger entry (method stripe, reference = the session's id), which the " +
    "signed webhook settles. The call to Stripe carries an idempotency key derived from the booking, the operation and the amount: the same link asked twice is the same session and entry. " +
    "`send_email` (default true) queues an e-mail with the link to the booker. Refused: no Stripe key (409 `payments_not_configured`), a cancelled booking, a bad amount, " +
    "nothing due (422, naming the field); Stripe failing: 502/503; nothing recorded.",
  request: { params: BookingParam, body: { required: false, content: { "application/json": { schema: PaymentLinkCreate } } } },
  responses: {
    201: json(PaymentLinkEnvelope, "The link, and its pending ledger entry."),
    400: problemResponse("booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    ...bodyResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("`payments_not_configured`: the business has not set its Stripe key."),
    422: problemResponse("Invalid fields (errors[] names each)."),
    502: problemResponse("`stripe_error`: Stripe refused or failed; nothing recorded."),
    503: problemResponse("`stripe_unavailable`: Stripe did not answer; nothing recorded."),
  },
});

const stripeSettingsRoute = createRoute({
  method: "get",
  path: "/settings/stripe",
  operationId: "getStripeSettings",
  tags,
  summary: "The business's Stripe connection",
  description: "Whether the Stripe key and the webhook signing secret are set (they are write-only: never answered), the webhook URL to add in Stripe, and the events to subscribe it to.",
  responses: { 200: json(StripeSettingsEnvelope, "The Stripe connection."), ...authResponses },
});

const stripeSettingsPutRoute = createRoute({
  method: "put",
  path: "/settings/stripe",
  operationId: "updateStripeSettings",
  tags,
  summary: "Connect Stripe: the key and the webhook signing secret",
  description:
    "Sets (or with null removes) the business's Stripe restricted key and its webhook endpoint's signing secret; a field left out is kept. Both are write-only, " +
    "sealed at rest (AES-256-GCM under the deployment's SECRETS_KEY) and never answered: the answer says only whether each is set.",
  request: { body: { required: true, content: { "application/json": { schema: StripeSettingsUpdate } } } },
  responses: {
    200: json(StripeSettingsEnvelope, "What is set now."),
    400: problemResponse("Malformed JSON."),
    ...authResponses,
    ...bodyResponses,
    422: problemResponse("Invalid fields (errors[] names each)."),
    503: problemResponse("`secrets_key_missing`: the deployment has no SECRETS_KEY; nothing stored."),
  },
});

/** One entry of a booking's ledger, as the API shows it; 404 when the booking is not the caller's. */
async function entryAnswer(c: Context<AppEnv>, bookingId: string, entryId: string) {
  const businessId = c.get("tenant").businessId;
  const entry = (await ledgerOf(c.env.DB, businessId, bookingId)).find((e) => e.id === entryId);
  if (!entry) throw notFound("The payment");
  return { data: paymentEntryView(entry) };
}

/**
 * A retry whose first request recorded its entry but lost its answer: that entry. A stripe refund
 * Stripe had not answered is asked of Stripe again first, with the same idempotency key.
 */
async function replayEntry(c: Context<AppEnv>, entryId: string): Promise<Response | null> {
  const bookingId = c.req.param("booking_id") ?? "";
  await askStripeToRefund(c.env, c.get("tenant").businessId, entryId, c.get("now"));
  return c.json(await entryAnswer(c, bookingId, entryId), 201);
}

const linkView = (l: PaymentLink) => {
  const { amount_minor, ...rest } = l;
  return { ...rest, amount: toMajor(amount_minor, minorDigits(l.currency)) };
};

async function stripeSettingsView(c: Context<AppEnv>) {
  const set = await stripeSettings(c.env, c.get("tenant").businessId);
  let origin = "";
  try {
    origin = publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url);
  } catch {
    origin = "https://<PUBLIC_ORIGIN>";
  }
  return { data: { ...set, webhook_url: `${origin}/stripe/webhook/${c.get("tenant").slug}`, webhook_events: [...STRIPE_EVENTS] } };
}

export const paymentRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const businessId = c.get("tenant").businessId;
    const [booking, ledger] = await Promise.all([bookingRow(c.env.DB, businessId, bookingId), ledgerOf(c.env.DB, businessId, bookingId)]);
    if (!booking) throw notFound("The booking");
    return c.json({ data: ledger.map(paymentEntryView) }, 200);
  })
  .openapi(payRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const id = await recordPayment(c.env, keyActor(c), c.get("tenant").businessId, bookingId, c.req.valid("json"), c.get("now"), c.get("idempotencyKey"));
    return c.json(await entryAnswer(c, bookingId, id), 201);
  })
  .openapi(refundRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const id = await recordRefund(c.env, keyActor(c), c.get("tenant").businessId, bookingId, c.req.valid("json"), c.get("now"), c.get("idempotencyKey"));
    return c.json(await entryAnswer(c, bookingId, id), 201);
  })
  .openapi(linkRoute, async (c) => {
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const body = PaymentLinkCreate.parse(c.req.valid("json") ?? {});
    const tenant = c.get("tenant");
    const link = await createPaymentLink(c.env, keyActor(c), tenant.businessId, bookingId, body, c.get("now"), publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url), tenant.slug);
    return c.json({ data: linkView(link) }, 201);
  })
  .openapi(stripeSettingsRoute, async (c) => c.json(await stripeSettingsView(c), 200))
  .openapi(stripeSettingsPutRoute, async (c) => {
    await saveStripeSettings(c.env, keyActor(c), c.get("tenant").businessId, c.req.valid("json"), c.get("now"));
    return c.json(await stripeSettingsView(c), 200);
  });
