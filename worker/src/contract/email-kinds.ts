/**
 * Every kind of e-mail the service sends: one list, for the mail plan (domain/email/plan.ts) and
 * the private API's e-mails (contract/private-emails.ts). Plain data, no schema: what every isolate
 * evaluates at startup imports it, the private API's shapes are made on first use.
 */
export const EMAIL_KIND_NAMES = [
  "booking_confirmation",
  "booking_cancelled",
  "owner_new_booking",
  "owner_booking_cancelled",
  "staff_invitation",
  "staff_password_reset",
  "staff_sign_in_alert",
  "payment_link",
  "payment_receipt",
  "refund_receipt",
  "balance_reminder",
] as const;
