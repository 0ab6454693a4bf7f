/**
 * A staff user who forgot their password asks for a new one on the sign-in page: a one-time link,
 * e-mailed through the outbox like an invitation (docs/back-office.md, docs/email.md).
 *
 * - Every request gets the same answer, whether the e-mail belongs to someone or not; nothing
 *   tells an account apart but the e-mail that reaches its owner.
 * - Throttled before anything is looked up, in the sign-in counters (`sign_in_attempts`): 3
 *   requests per account and the sign-in's 20 per client address in 15 minutes (429 beyond).
 * - The link is a row of `staff_invites` with purpose `reset`, holding only the SHA-256 of its
 *   token, valid 1 hour. Its e-mail (kind `staff_password_reset`) is written in the same batch and
 *   keeps the link only until it is sent or fails for good. Without a sender (`email_from` null)
 *   no link is made: nothing could deliver it.
 * - Using it sets the password, spends it and every other open link of the user, and ends every
 *   session of the user (acceptInvite's batch).
 */
import { auditStatements } from "../db/audit-log";
import { businessById } from "../db/businesses";
import { emailStatements, kickMail } from "../db/emails";
import { activeStaffByEmail, insertInviteStatement, takeAttemptStatement } from "../db/staff";
import { mailConfig, staffPasswordResetEmail } from "../domain/email/plan";
import type { PlatformMail } from "../domain/email/sender";
import { normalizeStaffEmail } from "../domain/staff";
import { ApiError } from "../lib/errors";
import { sha256Hex } from "../lib/keys";
import { randomToken } from "../lib/password";
import { acceptInvite, ADDRESS_ATTEMPTS, openInvite, SIGN_IN_WINDOW_MINUTES } from "./staff";
import type { D1 } from "../db/d1";

const MINUTE = 60_000;
export const RESET_MINUTES = 60;
export const RESET_ACCOUNT_REQUESTS = 3;

/** The path of a reset link (the e-mail carries it with the service's origin in front). */
export const resetPath = (slug: string, token: string) => `/admin/${slug}/reset/${token}`;

export interface ResetRequest {
  email: string;
  /** The client's address, as sign-in counts it. */
  address: string;
  /** The service's origin, for the link. */
  origin: string;
  /** The page's language: the e-mail's when the user chose none in their account. */
  language: string | null;
  /** The operator's sending configuration (domain/email/sender.ts platformMail). */
  platform: PlatformMail;
}

/**
 * Ask for a reset link. Answers nothing (the same whether the e-mail is someone's or not) but
 * whether an e-mail was written, for the caller to tell the delivery object after answering.
 * 429 with Retry-After past the limits.
 */
export async function requestPasswordReset(db: D1, businessId: number, slug: string, input: ResetRequest, now: Date): Promise<{ mailed: boolean }> {
  const emailNorm = normalizeStaffEmail(input.email).slice(0, 255);
  const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MINUTES * MINUTE);
  const [account, address] = await db.batch<{ attempts: number; window_start: string }>([
    takeAttemptStatement(db, `reset:${businessId}:${emailNorm}`, windowStart, now),
    takeAttemptStatement(db, `address:${input.address}`, windowStart, now),
  ]);
  const over = [
    { row: account.results[0], limit: RESET_ACCOUNT_REQUESTS },
    { row: address.results[0], limit: ADDRESS_ATTEMPTS },
  ].filter((x) => x.row && x.row.attempts > x.limit);
  if (over.length) {
    const until = Math.max(...over.map((x) => Date.parse(x.row.window_start) + SIGN_IN_WINDOW_MINUTES * MINUTE));
    const seconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    throw new ApiError(429, "rate_limited", `Too many requests. Try again in ${Math.ceil(seconds / 60)} minutes.`, { headers: { "Retry-After": String(seconds) } });
  }
  const [user, business] = emailNorm ? await Promise.all([activeStaffByEmail(db, businessId, emailNorm), businessById(db, businessId)]) : [null, null];
  if (!user || !business) return { mailed: false };
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  const expiresAt = new Date(now.getTime() + RESET_MINUTES * MINUTE);
  const mail = staffPasswordResetEmail(user.id, tokenHash.slice(0, 16), user.email, user.language ?? input.language, mailConfig(business.config, input.platform), {
    link: `${input.origin}${resetPath(slug, token)}`,
    expires_at: expiresAt.toISOString(),
  });
  if (!mail) return { mailed: false };
  await db.batch([
    insertInviteStatement(db, businessId, { tokenHash, staffId: user.id, purpose: "reset", createdBy: user.email, expiresAt }, now),
    ...emailStatements(db, businessId, null, [mail], now),
    ...auditStatements(db, businessId, { kind: "staff", id: user.id, name: user.email }, [
      { action: "reset_requested", entity: "staff", entityId: user.id, summary: `A password reset link was e-mailed to ${user.email}` },
    ], now),
  ]);
  return { mailed: true };
}

/** After the answer: the business's delivery object sends the e-mail. */
export const sendResetMail = (env: Env, businessId: number, requestId?: string) => kickMail(env, businessId, requestId);

/** What a reset link shows before it is used; 404 for one unknown, used, expired, of a removed user, of another business, or an invitation. */
export async function openReset(db: D1, slug: string, token: string, now: Date) {
  const link = await openInvite(db, token, now, "reset");
  if (link.slug !== slug) throw new ApiError(404, "not_found", "This link is unknown, used or expired. Ask for a new one on the sign-in page.");
  return link;
}

/**
 * Set a new password with a reset link: the link and every other of the user is spent, every
 * session of the user ends (acceptInvite's batch, with its audit entry).
 */
export async function resetPassword(db: D1, slug: string, token: string, password: string, now: Date): Promise<{ slug: string; email: string }> {
  await openReset(db, slug, token, now);
  return acceptInvite(db, token, password, now, "reset");
}
