/**
 * The payments ledger's shapes (issue 31): a booking's payments and refunds in the private API
 * (GET/POST /private/bookings/{id}/payments, POST /private/bookings/{id}/refunds). Amounts are
 * major units of the booking's currency, as every amount of the API (29.5 is €29.50); the
 * ledger keeps them exact in minor units.
 */
import { z } from "@hono/zod-openapi";

import { BOOKING_PAYMENT_STATUSES, MANUAL_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES, REFUND_STATUSES } from "./payment-kinds";

export { BOOKING_PAYMENT_STATUSES, MANUAL_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES, REFUND_STATUSES };

const Amount = z
  .number()
  .positive("must be more than 0")
  .max(100_000_000, "must be at most 100000000")
  .openapi({ description: "Major units of the booking's currency (e.g. 150.5 for €150.50), with at most the currency's minor digits (2 for EUR, 0 for JPY).", example: 150 });
const Currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
  .transform((s) => s.toUpperCase())
  .openapi({ description: "The booking's currency (any other is refused).", example: "EUR" });

export const PaymentCreate = z
  .object({
    amount: Amount,
    currency: Currency,
    method: z.enum(MANUAL_METHODS).openapi({ description: "How the business was paid. `stripe` payments are recorded by the provider's confirmation, never by hand." }),
    reference: z.string().trim().max(200, "must be at most 200 characters").nullable().optional().openapi({ description: "The bank transfer's reference, the terminal's receipt number, ..." }),
  })
  .openapi("PaymentCreate");
export type PaymentCreate = z.infer<typeof PaymentCreate>;

export const RefundCreate = z
  .object({
    amount: Amount,
    currency: Currency,
    payment_id: z.uuid("must be the id of a payment of this booking").optional().openapi({ description: "The payment refunded. Default: the latest succeeded payment that has this amount left to refund." }),
    reason: z.string().trim().max(500, "must be at most 500 characters").nullable().optional(),
  })
  .openapi("RefundCreate");
export type RefundCreate = z.infer<typeof RefundCreate>;

export const PaymentEntry = z
  .object({
    id: z.uuid(),
    booking_id: z.uuid(),
    type: z.enum(["payment", "refund"]),
    amount: z.number().openapi({ description: "Major units of `currency`; always positive (a refund gives it back)." }),
    currency: z.string(),
    method: z.enum(PAYMENT_METHODS).openapi({ description: "A refund has its payment's method." }),
    status: z.enum(PAYMENT_STATUSES).openapi({ description: "A payment: pending, succeeded, failed or canceled. A refund: pending or succeeded. Only succeeded entries count." }),
    reference: z.string().nullable().openapi({ description: "The provider's reference, or the one recorded with a manual payment." }),
    reason: z.string().nullable().openapi({ description: "A refund's reason." }),
    payment_id: z.uuid().nullable().openapi({ description: "A refund's payment; null for a payment." }),
    receipt_number: z
      .string()
      .nullable()
      .openapi({
        description:
          "The receipt number of a succeeded payment or refund, `YYYY-NNNNNN` (e.g. 2026-000123): sequential per business and calendar year in the business's time zone, " +
          "shared by payments and refunds, gap-free and never reused, given when the entry succeeds (the receipt e-mailed to the booker carries it). null while pending, for a failed or canceled entry, " +
          "and for an entry that succeeded before receipts were numbered.",
        example: "2026-000123",
      }),
    created_by: z
      .object({ type: z.enum(["guest", "staff", "api_key", "cli"]), id: z.string().nullable(), name: z.string() })
      .openapi({ description: "Who made the entry: the guest (online), a staff user, an API key (by its name), a command-line tool." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("PaymentEntry", { description: "One entry of a booking's ledger. Entries are never edited or deleted: a mistake is corrected by a new entry." });

export const PaymentEntryEnvelope = z.object({ data: PaymentEntry }).openapi("PaymentEntryEnvelope");
export const PaymentLedger = z.object({ data: z.array(PaymentEntry) }).openapi("PaymentLedger", { description: "The booking's ledger, oldest first." });

/** What a booking's detail says of its money (GET /private/bookings/{id}), beside its `total`. */
export const BookingPayments = {
  amount_paid: z.number().openapi({ description: "The succeeded payments, major units of the booking's currency." }),
  amount_refunded: z.number().openapi({ description: "The succeeded refunds." }),
  balance_due: z.number().openapi({ description: "total − (amount_paid − amount_refunded), never below 0." }),
  payment_status: z.enum(BOOKING_PAYMENT_STATUSES).openapi({
    description:
      "unpaid: nothing paid; deposit_paid: something paid, less than the total, nothing refunded (any part payment: whether it covers the deposit, compare with deposit_due); paid: the total paid (also a booking of 0); " +
      "partially_refunded: something refunded, some of the total still paid; refunded: all that was paid refunded; overpaid: more than the total paid.",
  }),
  deposit_due: z.number().nullable().openapi({
    description:
      "The deposit the payment policy asks (settings payment_policy.deposit, or the product's own), major units of the booking's currency: a percent of each product's part, or an amount per guest converted at the booking's rate, never more than the total; the whole total when the booking was made on or after its balance due date. null: the policy asks no deposit.",
  }),
  deposit_due_date: z.string().nullable().openapi({ description: "YYYY-MM-DD: the deposit is due on the day the booking was made (in the business's time zone); null without a deposit." }),
  suggested_refund: z.number().nullable().openapi({
    description:
      "A cancelled booking: the refund the business's cancellation terms (settings payment_policy.cancellation_rules) suggest of what was paid net when it was cancelled, by the day it was cancelled in the business's time zone, major units. null: not cancelled, or no terms stated. Nothing is refunded automatically: POST /bookings/{booking_id}/refunds does it.",
  }),
  balance_due_date: z.string().nullable().openapi({
    description: "YYYY-MM-DD: the balance (the total less what was paid) is due balance_due_days before the start (the most days of the booking's products); the day it was booked when that date had passed already.",
  }),
};

export const PaymentLinkCreate = z
  .object({
    amount: Amount.optional().openapi({ description: "Major units of the booking's currency. Default: the booking's balance due." }),
    send_email: z.boolean().default(true).openapi({ description: "E-mail the link to the booker (default true)." }),
  })
  .openapi("PaymentLinkCreate");
export type PaymentLinkCreate = z.infer<typeof PaymentLinkCreate>;

export const PaymentLink = z
  .object({
    url: z.url().openapi({ description: "Stripe's hosted Checkout page: send the guest there." }),
    amount: z.number().openapi({ description: "Major units of `currency`: what the link asks for." }),
    currency: z.string(),
    expires_at: z.string().openapi({ description: "When the link stops taking payments (ISO 8601)." }),
    payment_id: z.uuid().openapi({ description: "The pending ledger entry the link's payment settles (method stripe)." }),
    session_id: z.string().openapi({ description: "Stripe's Checkout Session id (the entry's reference)." }),
    email_queued: z.boolean().openapi({ description: "Whether an e-mail with the link was queued to the booker." }),
  })
  .openapi("PaymentLink");
export const PaymentLinkEnvelope = z.object({ data: PaymentLink }).openapi("PaymentLinkEnvelope");

const StripeSecret = (pattern: RegExp, what: string) =>
  z.string().trim().regex(pattern, `must be ${what}`).max(255, "must be at most 255 characters").nullable().optional();

export const StripeSettingsUpdate = z
  .object({
    secret_key: StripeSecret(/^(rk|sk)_(test|live)_[A-Za-z0-9_]{8,}$/, "a Stripe restricted key (rk_live_...) or secret key (sk_...)").openapi({
      description: "Write-only: never answered. A restricted key with write access to Checkout Sessions and Refunds. null removes it; left out, it is kept.",
    }),
    webhook_secret: StripeSecret(/^whsec_[A-Za-z0-9_]{8,}$/, "a Stripe webhook signing secret (whsec_...)").openapi({
      description: "Write-only: never answered. The signing secret of the webhook endpoint this business added in Stripe for its webhook URL. null removes it; left out, it is kept.",
    }),
  })
  // A field of another name is a mistake (a typo would otherwise save nothing and say 200).
  .strict()
  .openapi("StripeSettingsUpdate");
export type StripeSettingsUpdate = z.infer<typeof StripeSettingsUpdate>;

export const StripeSettings = z
  .object({
    secret_key_set: z.boolean().openapi({ description: "Whether a Stripe key is set (the key itself is never answered)." }),
    webhook_secret_set: z.boolean().openapi({ description: "Whether a webhook signing secret is set." }),
    webhook_url: z.string().openapi({ description: "The URL to add as the webhook endpoint in this business's Stripe account." }),
    webhook_events: z.array(z.string()).openapi({ description: "The events to subscribe that endpoint to." }),
  })
  .openapi("StripeSettings");
export const StripeSettingsEnvelope = z.object({ data: StripeSettings }).openapi("StripeSettingsEnvelope");

/** The Stripe events a business's webhook endpoint is subscribed to (docs/payments.md). */
export const STRIPE_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "refund.updated",
] as const;
