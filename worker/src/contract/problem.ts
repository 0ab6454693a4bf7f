import { z } from "@hono/zod-openapi";

/** Stable, machine-readable error codes. Clients may switch on these; never rename one. */
export const ErrorCode = z.enum([
  "unauthorized",
  "forbidden",
  "origin_not_allowed",
  "https_required",
  "not_found",
  "method_not_allowed",
  "validation_failed",
  "malformed_json",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "sold_out",
  "cart_not_open",
  "cart_expired",
  "limit_exceeded",
  "conflict",
  "email_taken",
  "idempotency_key_reused",
  "idempotency_in_progress",
  "terms_not_accepted",
  "invalid_id",
  "capacity_below_used",
  "in_use",
  "internal_error",
  "not_configured",
  "human_check_failed",
  "not_arrived",
  "provider_refund_unavailable",
  "business_moving",
  "payments_not_configured",
  "stripe_unavailable",
  "stripe_error",
  "secrets_key_missing",
  "invalid_signature",
  "wrong_business",
  "cart_awaiting_payment",
  "carts_unavailable",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** RFC 9457 problem details, as every error of every route is answered. */
export const Problem = z
  .object({
    type: z.string().openapi({ example: "https://booking.example/problems/validation_failed" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: ErrorCode,
    instance: z.string().optional(),
    request_id: z.string().optional(),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "One entry per invalid field (validation errors only)." }),
  })
  .openapi("Problem");
export type Problem = z.infer<typeof Problem>;

/** The response entry that every route lists for an error status. */
export function problemResponse(description: string) {
  return { description, content: { "application/problem+json": { schema: Problem } } } as const;
}
