/**
 * Cloudflare Email Service, as this service uses it: one message handed to the `EMAIL` send_email
 * binding, and which of its errors no retry mends. The one place that knows the provider; only
 * the delivery object (durable/email-delivery.ts) sends.
 *
 * Why the raw-MIME `EmailMessage` and not the structured builder (`send({ from, to, subject, ... })`)
 * the documentation recommends: the message carries its own Message-ID, fixed for the event when
 * the e-mail was written, so that a retry after a crash is recognisably the same e-mail (the
 * builder lets the provider write one), and the raw message is what the Outbox keeps and shows.
 * The pinned local runtime runs both, but for the builder it writes only the text, the HTML and
 * the attachments to files, so the tests could not read back the headers they check (Reply-To,
 * Message-ID, Content-Language). docs/email.md says so too.
 */
import { EmailMessage } from "cloudflare:email";

/** Hand one message to the binding; answers the provider's id for it when it gives one. */
export async function sendMessage(binding: SendEmail, message: { from: string; to: string; raw: string }): Promise<string | null> {
  const result = await binding.send(new EmailMessage(message.from, message.to, message.raw));
  return result?.messageId ?? null;
}

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
