/**
 * Errors of Cloudflare Email Service that no retry can mend (docs: Email Service, Workers API,
 * error codes): the e-mail fails at once and the Outbox shows why. Every other error (a sender
 * domain not verified yet, a rate limit, the service unavailable) is tried again on the backoff.
 * E_RECIPIENT_NOT_ALLOWED (an account that may send only to verified addresses) mends itself only
 * by a change of account, never by waiting, so it is permanent too.
 */
const PERMANENT = new Set([
  "E_RECIPIENT_NOT_ALLOWED", "E_RECIPIENT_SUPPRESSED", "E_VALIDATION_ERROR", "E_FIELD_MISSING", "E_TOO_MANY_RECIPIENTS", "E_CONTENT_TOO_LARGE",
  "E_HEADER_NOT_ALLOWED", "E_HEADER_USE_API_FIELD", "E_HEADER_VALUE_INVALID", "E_HEADER_VALUE_TOO_LONG", "E_HEADER_NAME_INVALID",
  "E_HEADERS_TOO_LARGE", "E_HEADERS_TOO_MANY",
]);

/** Whether the binding's error (its `code`) is one no retry mends. */
export function isPermanentSendError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && PERMANENT.has(code);
}
