/**
 * The ledger's names (issue 31): its methods and statuses. Plain data, no schema: the ledger's
 * rules (domain/payments.ts), which the e-mails evaluated at startup use, import it; the private
 * API's shapes (contract/payments.ts) are made on first use.
 */
export const PAYMENT_METHODS = ["stripe", "bank_transfer", "cash", "card_terminal", "other"] as const;
/** The methods a business records by hand: refunded by recording the refund. */
export const MANUAL_METHODS = ["bank_transfer", "cash", "card_terminal", "other"] as const;
export const PAYMENT_STATUSES = ["pending", "succeeded", "failed", "canceled"] as const;
export const REFUND_STATUSES = ["pending", "succeeded"] as const;
export const BOOKING_PAYMENT_STATUSES = ["unpaid", "deposit_paid", "paid", "partially_refunded", "refunded", "overpaid"] as const;
