/**
 * A booking's payments ledger in the private API (issue 31): the ledger, a manual payment
 * recorded, a refund. The changes are manage/payments.ts's (the back office calls the same).
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PaymentCreate, PaymentEntryEnvelope, PaymentLedger, RefundCreate } from "../../contract/payments";
import { problemResponse } from "../../contract/problem";
import { ledgerOf } from "../../db/payments";
import { bookingRow } from "../../db/bookings";
import type { AppEnv } from "../../db/request-env";
import { notFound } from "../../lib/errors";
import { idempotency } from "../../middleware/idempotency";
import { recordPayment, recordRefund } from "../../manage/payments";
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
  description: "Oldest first. Every payment and every refund is an entry of its own, never edited or deleted; only succeeded entries count towards the booking's amount_paid and amount_refunded.",
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
    "A manual payment's refund is recorded as succeeded (the business gives the money back itself). A `stripe` payment is refused with 409 `provider_refund_unavailable`: " +
    "refunds through the provider come with the Stripe integration, not built yet. Refused (422, naming the field, nothing recorded): a bad amount, a currency other than the booking's, " +
    "a payment not of this booking or not succeeded, more than the payment has left to refund.",
  middleware: [idempotency({ replay: (c, id) => replayEntry(c, id) })] as const,
  request: { params: BookingParam, headers: IdempotencyHeader, body: { required: true, content: { "application/json": { schema: RefundCreate } } } },
  responses: {
    201: json(PaymentEntryEnvelope, "The refund recorded."),
    400: problemResponse("booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    ...bodyResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("`provider_refund_unavailable`: the payment was made through Stripe; or a request with this Idempotency-Key is still running."),
    422: problemResponse("Invalid fields (errors[] names each), or an Idempotency-Key reused with another body."),
  },
});

/** One entry of a booking's ledger, as the API shows it; 404 when the booking is not the caller's. */
async function entryAnswer(c: Context<AppEnv>, bookingId: string, entryId: string) {
  const businessId = c.get("tenant").businessId;
  const entry = (await ledgerOf(c.env.DB, businessId, bookingId)).find((e) => e.id === entryId);
  if (!entry) throw notFound("The payment");
  return { data: paymentEntryView(entry) };
}

/** A retry whose first request recorded its entry but lost its answer: that entry. */
async function replayEntry(c: Context<AppEnv>, entryId: string): Promise<Response | null> {
  const bookingId = c.req.param("booking_id") ?? "";
  return c.json(await entryAnswer(c, bookingId, entryId), 201);
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
  });
