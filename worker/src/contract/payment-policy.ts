/**
 * The business's payment policy (issue 31): whether guests pay online, the deposit, when the
 * balance is due, whether an online booking waits for its payment, and the cancellation terms.
 * One policy per business (settings: `payment_policy`); a product may set its own deposit and
 * balance due days where they differ (`ProductPaymentPolicy`). The rules that apply it are
 * domain/payment-policy.ts's.
 */
import { z } from "@hono/zod-openapi";

export const DEPOSIT_TYPES = ["none", "percent", "per_person"] as const;

/**
 * The schemas (DepositRule, CancellationRule, PaymentPolicy, ProductPaymentPolicy), built on their
 * first use rather than at the isolate's startup (as contract/config.ts's), the same objects every time.
 */
function buildSchemas() {
  const DepositRule = z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("none") }).strict(),
      z
        .object({
          type: z.literal("percent"),
          percent: z.number().gt(0, "must be more than 0").max(100, "must be at most 100").openapi({ description: "Percent of the booking's total (of the product's part of it), e.g. 30." }),
        })
        .strict(),
      z
        .object({
          type: z.literal("per_person"),
          amount: z.number().gt(0, "must be more than 0").max(1_000_000, "must be at most 1000000").openapi({ description: "Major units of the business's default currency per guest, e.g. 100; converted at the booking's rate." }),
        })
        .strict(),
    ])
    .openapi("DepositRule", {
      description: "none: no deposit (the whole amount is due by the balance due date); percent: that part of the total; per_person: that amount for each guest. A deposit is never more than the total.",
    });

  const CancellationRule = z
    .object({
      days_before: z.number().int().min(0, "must be 0 or more").max(730, "must be at most 730").openapi({ description: "Cancelled at least this many days before the start..." }),
      refund_percent: z.number().min(0, "must be 0 or more").max(100, "must be at most 100").openapi({ description: "...refunds this percent of what was paid." }),
    })
    .strict()
    .openapi("CancellationRule");

  const PaymentPolicy = z
    .object({
      online_payment: z.boolean().default(false).openapi({ description: "Guests pay online (Stripe's hosted Checkout) when they book through the widget. Needs Stripe connected (PUT /private/settings/stripe)." }),
      deposit: DepositRule.default({ type: "none" }),
      balance_due_days: z
        .number()
        .int()
        .min(0, "must be 0 or more")
        .max(365, "must be at most 365")
        .default(0)
        .openapi({ description: "The balance is due this many days before the start (0: on the first day). A booking made inside that window pays in full when it books." }),
      pay_to_confirm: z
        .boolean()
        .default(false)
        .openapi({ description: "With online_payment: a booking made online is confirmed only when its payment (the deposit, or the whole amount) succeeds; its places stay held meanwhile for payment_hold_minutes, then are released as a cart's hold is. false: confirmed at once, the payment asked for after." }),
      payment_hold_minutes: z
        .number()
        .int()
        .min(30, "must be at least 30 (Stripe's shortest Checkout session)")
        .max(1440, "must be at most 1440 (Stripe's longest Checkout session, 24 hours)")
        .default(60)
        .openapi({ description: "How long places stay held while the guest pays (pay_to_confirm): the Checkout session expires then." }),
      reminder_days: z
        .number()
        .int()
        .min(0, "must be 0 or more")
        .max(60, "must be at most 60")
        .default(3)
        .openapi({ description: "The booker is sent the balance-due e-mail with a payment link this many days before the balance due date (once; 0: on that date). Needs Stripe connected." }),
      cancellation_rules: z
        .array(CancellationRule)
        .max(10, "must have at most 10 rules")
        .default([])
        .superRefine((rules, ctx) => {
          const seen = new Set<number>();
          rules.forEach((r, i) => {
            if (seen.has(r.days_before)) ctx.addIssue({ code: "custom", path: [i, "days_before"], message: "is set by another rule already" });
            seen.add(r.days_before);
          });
        })
        .openapi({ description: "The cancellation terms, e.g. [{days_before: 30, refund_percent: 100}, {days_before: 7, refund_percent: 50}]: cancelled at least 30 days before, all back; at least 7, half; later, nothing. Empty: no terms stated (no refund is suggested)." }),
    })
    .strict()
    .openapi("PaymentPolicy");

  // A product's own deposit and balance due days, where they differ from the business's.
  const ProductPaymentPolicy = z
    .object({
      deposit: DepositRule.optional(),
      balance_due_days: PaymentPolicy.shape.balance_due_days.removeDefault().optional(),
    })
    .strict()
    .openapi("ProductPaymentPolicy", { description: "Where this product's deposit or balance due days differ from the business's payment_policy; a field left out follows the business." });
  return { DepositRule, CancellationRule, PaymentPolicy, ProductPaymentPolicy };
}

type PaymentPolicySchemas = ReturnType<typeof buildSchemas>;
let built: PaymentPolicySchemas | undefined;
export const paymentPolicySchemas = (): PaymentPolicySchemas => (built ??= buildSchemas());
export type DepositRule = z.infer<PaymentPolicySchemas["DepositRule"]>;
export type CancellationRule = z.infer<PaymentPolicySchemas["CancellationRule"]>;
export type PaymentPolicy = z.infer<PaymentPolicySchemas["PaymentPolicy"]>;
export type ProductPaymentPolicy = z.infer<PaymentPolicySchemas["ProductPaymentPolicy"]>;
