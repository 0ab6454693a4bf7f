/**
 * Which e-mails an event gives, to whom, in which language, under which Message-ID. Pure: the
 * statements that store them are db/emails.ts, in the batch of the change itself.
 *
 * One e-mail per event and recipient: its `event_key` names both (unique per business in D1), and
 * its Message-ID is `<event_key@sender's domain>`, fixed when the row is written, so every attempt
 * and any duplicate a crash could cause carries the same one.
 */
import type { BusinessConfig } from "../../contract/config";
import { mailLanguage, type MailLanguage } from "./strings";
import { shortHash } from "./mime";
import { EMAIL_KIND_NAMES } from "../../contract/email-kinds";
import { senderOf, type PlatformMail } from "./sender";

/** Kinds whose params hold a secret (a sign-in link): kept only until the e-mail is sent or fails, never resent. */
export const SECRET_KINDS: readonly EmailKind[] = ["staff_invitation", "staff_password_reset"];
/** Every kind of e-mail the service sends (contract/email-kinds.ts). */
export type EmailKind = (typeof EMAIL_KIND_NAMES)[number];

export interface PlannedEmail {
  kind: EmailKind;
  eventKey: string;
  messageId: string;
  recipient: string;
  language: MailLanguage;
  params: Record<string, unknown>;
}

/** The settings that decide who gets what; `email_from` is the sender the e-mails go from (mailConfig). */
export type MailConfig = Pick<BusinessConfig, "email_from" | "notification_emails" | "default_language" | "terms" | "terms_translations">;

/**
 * The business's settings with the sender its e-mails actually go from (domain/email/sender.ts):
 * its own `email_from` on a listed domain, else the platform's sender, else null (none are sent).
 */
export function mailConfig<C extends MailConfig>(config: C, platform: PlatformMail): C {
  return { ...config, email_from: senderOf(config.email_from, platform)?.address ?? null };
}

/**
 * The terms a guest accepted: in `language` (the booking's, as the widget showed them) where the
 * business wrote them, else its default terms.
 */
export function termsIn(config: MailConfig, language: string | null): string {
  return (language && config.terms_translations[language]) || config.terms;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** `<event_key@domain>`: the domain of the sender the e-mail is written with. */
export function messageIdFor(eventKey: string, from: string): string {
  return `<${eventKey}@${domainOf(from)}>`;
}

function planned(kind: EmailKind, event: string, recipient: string, language: MailLanguage, from: string, params: Record<string, unknown> = {}): PlannedEmail {
  // The address in the key (hashed: a key names no person) keeps one e-mail per event and address.
  const eventKey = `${event}.${shortHash(recipient.trim().toLowerCase())}`;
  return { kind, eventKey, messageId: messageIdFor(eventKey, from), recipient: recipient.trim(), language, params };
}

/**
 * A booking made (`booked`) or cancelled: the booker's e-mail in their language (the business's
 * default when there are no e-mails in theirs) and one to each notification address in the
 * business's default language. None when the business has no sender (mailConfig: neither its own nor the platform's).
 */
export function bookingEmails(
  event: "booked" | "cancelled",
  bookingId: string,
  booker: { email: string | null; language: string | null },
  config: MailConfig,
): PlannedEmail[] {
  const from = config.email_from;
  if (!from) return [];
  const out: PlannedEmail[] = [];
  const toBooker: EmailKind = event === "booked" ? "booking_confirmation" : "booking_cancelled";
  const toOwner: EmailKind = event === "booked" ? "owner_new_booking" : "owner_booking_cancelled";
  if (booker.email) {
    const language = mailLanguage(booker.language, config.default_language);
    // The terms as the booker accepted them: the business may change them after.
    const params = event === "booked" ? { terms: termsIn(config, booker.language ?? language) } : {};
    out.push(planned(toBooker, `${toBooker.replaceAll("_", "-")}.${bookingId}`, booker.email, language, from, params));
  }
  const ownerLanguage = mailLanguage(config.default_language, config.default_language);
  const seen = new Set<string>();
  for (const address of config.notification_emails) {
    const norm = address.trim().toLowerCase();
    if (seen.has(norm)) continue;
    seen.add(norm);
    out.push(planned(toOwner, `${toOwner.replaceAll("_", "-")}.${bookingId}`, address, ownerLanguage, from));
  }
  return out;
}

/** The address the booker's confirmation goes to, when one is sent. */
export function confirmationAddress(emails: PlannedEmail[]): string | null {
  return emails.find((e) => e.kind === "booking_confirmation")?.recipient ?? null;
}

/**
 * A back-office invitation (manage/staff.ts): to the person invited, with the one-time link, in
 * `language` (the inviter's back office's, else the business's default). None without a sender.
 * One per invitation link: `linkKey` names it (a prefix of the stored hash of its token).
 */
export function staffInvitationEmail(
  staffId: string,
  linkKey: string,
  recipient: string,
  language: string | null,
  config: MailConfig,
  params: { link: string; inviter: string; role: string; expires_at: string },
): PlannedEmail | null {
  if (!config.email_from) return null;
  return planned("staff_invitation", `staff-invitation.${staffId}.${linkKey}`, recipient, mailLanguage(language, config.default_language), config.email_from, params);
}

/**
 * A back-office password reset (manage/password-reset.ts): to the staff user, with the one-time
 * link, in `language` (the user's back-office language, else the page's, else the business's
 * default). None without a sender. One per link: `linkKey` names it (a prefix of its stored hash).
 */
export function staffPasswordResetEmail(
  staffId: string,
  linkKey: string,
  recipient: string,
  language: string | null,
  config: MailConfig,
  params: { link: string; expires_at: string },
): PlannedEmail | null {
  if (!config.email_from) return null;
  return planned("staff_password_reset", `staff-password-reset.${staffId}.${linkKey}`, recipient, mailLanguage(language, config.default_language), config.email_from, params);
}

/**
 * A warning to a staff user whose account saw a burst of failed sign-ins (manage/staff.ts): how
 * many, since when, and that the password held. One per account and window (`windowStart`).
 */
export function staffSignInAlertEmail(
  staffId: string,
  windowStart: string,
  recipient: string,
  language: string | null,
  config: MailConfig,
  params: { attempts: number; since: string },
): PlannedEmail | null {
  if (!config.email_from) return null;
  return planned("staff_sign_in_alert", `staff-sign-in-alert.${staffId}.${windowStart}`, recipient, mailLanguage(language, config.default_language), config.email_from, params);
}

/**
 * A payment link (manage/stripe.ts): to the booker, in their language (the business's default when
 * there are no e-mails in theirs), with the link, its amount and until when it works. One per
 * Checkout Session. None without a sender or a booker's address.
 */
export function paymentLinkEmail(
  bookingId: string,
  sessionId: string,
  booker: { email: string | null; language: string | null },
  config: MailConfig,
  params: { url: string; amount_minor: number; expires_at: string },
): PlannedEmail | null {
  if (!config.email_from || !booker.email) return null;
  return planned("payment_link", `payment-link.${bookingId}.${sessionId}`, booker.email, mailLanguage(booker.language, config.default_language), config.email_from, params);
}

/**
 * A receipt (manage/receipts.ts): to the booker, in their language as their confirmation is (the
 * business's default when there are no e-mails in theirs), for a payment or a refund of the
 * ledger that became succeeded. One per entry (its event key names it): written in the batch that
 * makes the entry succeeded, so a replayed event, which cannot make it succeeded again, writes none.
 * None without a sender or a booker's address.
 */
export function receiptEmail(
  entry: { id: string; kind: "payment" | "refund" },
  bookingId: string,
  booker: { email: string | null; language: string | null },
  config: MailConfig,
): PlannedEmail | null {
  if (!config.email_from || !booker.email) return null;
  const kind: EmailKind = entry.kind === "payment" ? "payment_receipt" : "refund_receipt";
  return planned(kind, `receipt.${entry.id}`, booker.email, mailLanguage(booker.language, config.default_language), config.email_from, { entry_id: entry.id });
}

/**
 * The balance-due reminder (manage/reminders.ts, the scheduled upkeep): to the booker, in their
 * language, with a payment link for the balance and the date it is due. One per booking (its
 * event key names only the booking). None without a sender or a booker's address.
 */
export function balanceReminderEmail(
  bookingId: string,
  booker: { email: string | null; language: string | null },
  config: MailConfig,
  params: { url: string; amount_minor: number; expires_at: string; due_date: string },
): PlannedEmail | null {
  if (!config.email_from || !booker.email) return null;
  return planned("balance_reminder", `balance-reminder.${bookingId}`, booker.email, mailLanguage(booker.language, config.default_language), config.email_from, params);
}
