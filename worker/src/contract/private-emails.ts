import { z } from "@hono/zod-openapi";

import { EMAIL_KIND_NAMES } from "./email-kinds";

export { EMAIL_KIND_NAMES };
export const EMAIL_STATUSES = ["pending", "sending", "retrying", "sent", "failed"] as const;

export const Email = z
  .object({
    id: z.string().openapi({ example: "eml_019ab3c4d5e67f8091a2b3c4d5e6f708" }),
    kind: z.enum(EMAIL_KIND_NAMES).openapi({
      description:
        "booking_confirmation and booking_cancelled go to the booker; owner_new_booking and owner_booking_cancelled to each of the business's notification_emails; " +
        "staff_invitation to someone invited to the back office (its kept message has the sign-in link removed, and it cannot be resent: invite again); " +
        "staff_password_reset to a staff user who asked for a new password (the same: link removed once sent, never resent); " +
        "staff_sign_in_alert to a staff user whose account saw a burst of failed sign-ins (once per 15-minute window); " +
        "payment_link to the booker with a Stripe payment link; payment_receipt and refund_receipt to the booker, one for each payment or refund of the ledger that succeeded, with its receipt number; balance_reminder to the booker before the balance due date, with a payment link for the balance.",
    }),
    booking_id: z.string().nullable(),
    recipient: z.string(),
    language: z.string().openapi({ description: "The language it is written in: the booker's (the business's default for its own e-mails), else the business's default, else en." }),
    status: z.enum(EMAIL_STATUSES).openapi({
      description:
        "pending: not tried yet; sending: an attempt is under way; retrying: the last attempt failed (see last_error), the next is at next_attempt_at; " +
        "sent: Cloudflare Email Service accepted it; failed: every attempt failed, or the error was one no retry mends (see last_error). Only sent and failed e-mails can be resent.",
    }),
    message_id: z.string().openapi({ description: "Its Message-ID, fixed for the event when the e-mail was written; every attempt sends this one (and the header X-Booking-Email-Id)." }),
    subject: z.string().nullable().openapi({ description: "As last composed; null before the first attempt." }),
    sender: z.string().nullable(),
    attempts: z.number().int(),
    possible_duplicate: z.boolean().openapi({
      description: "An attempt was cut off (the service stopped) between handing the message over and recording the outcome, and it was sent again: the recipient may have it twice, with the same Message-ID.",
    }),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    resend_of: z.string().nullable().openapi({ description: "The e-mail this one sends again (POST /emails/{email_id}/resend)." }),
    created_at: z.string(),
  })
  .openapi("Email");

export const EmailWithMessage = Email.extend({
  raw: z.string().nullable().openapi({ description: "The MIME message as last handed to the provider (as sent, once sent); null before the first attempt." }),
}).openapi("EmailWithMessage");

export const EmailList = z
  .object({ data: z.array(Email), meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }) })
  .openapi("EmailList");
export const EmailEnvelope = z.object({ data: EmailWithMessage }).openapi("EmailEnvelope");
export const EmailResent = z.object({ data: Email }).openapi("EmailResent");
