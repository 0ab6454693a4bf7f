/**
 * The back office's staff: invitations (one-time sign-in links), sign-in with e-mail and
 * password, server-side sessions, roles and removal. Used by the back office's pages and by the
 * staff CLI's first owner.
 *
 * Choices (docs/back-office.md says why):
 * - A link's token is 32 random bytes; only its SHA-256 is stored. Back-office invitations last
 *   72 hours, the CLI's first-owner link 24 hours. One use; using it spends the user's other links.
 * - Sessions: a random token in an HttpOnly cookie, its SHA-256 the row's key. Idle for 60 minutes
 *   ends a session, and none lasts more than 12 hours. Sign-out, a password change and removal end
 *   them at once (the row is read on every request).
 * - Sign-in is throttled in 15-minute windows, counted in D1 before the password is checked: per
 *   address and account (5), per address (20) and, more slowly, per account from anywhere (50), so
 *   a stranger who knows the owner's e-mail locks out only their own address. At the 10th failure
 *   of an account in a window its user is e-mailed (staff_sign_in_alert). A success clears the
 *   account's counts.
 */
import { isEmail, isRole, normalizeStaffEmail, type Role } from "../domain/staff";
import { isSafeName, UNSAFE_NAME_MESSAGE, withinMailLimits } from "../contract/common";
import { auditStatements, type Actor } from "../db/audit-log";
import {
  activeStaffByEmail,
  clearAttemptsStatement,
  endSessionsOfStatement,
  endSessionStatement,
  insertInviteStatement,
  insertSessionStatement,
  insertStaffStatement,
  inviteByTokenHash,
  inviteUsableGuard,
  ownerLeftGuard,
  removeStaffStatement,
  sessionStatement,
  setLanguageStatement,
  setPasswordStatement,
  setRoleStatement,
  spendInvitesStatement,
  staffById,
  takeAttemptStatement,
  touchSessionStatement,
  updatePendingStaffStatement,
  useInviteStatement,
  type SessionRow,
} from "../db/staff";
import { ApiError, invalid, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { sha256Hex } from "../lib/keys";
import { businessById } from "../db/businesses";
import { emailStatements } from "../db/emails";
import { mailConfig, staffInvitationEmail, staffSignInAlertEmail } from "../domain/email/plan";
import { platformMail } from "../domain/email/sender";
import { hashPassword, needsRehash, passwordProblem, randomToken, verifyPassword } from "../lib/password";
import { isGuardFailure } from "./input";
import { write, type Store } from "./write";
import type { D1 } from "../db/d1";

const MINUTE = 60_000;
export const INVITE_HOURS = 72;
export const CLI_INVITE_HOURS = 24;
export const SESSION_IDLE_MINUTES = 60;
export const SESSION_MAX_HOURS = 12;
/** A session's last_seen_at is written at most once a minute. */
const TOUCH_EVERY_MS = MINUTE;
export const SIGN_IN_WINDOW_MINUTES = 15;
/** Attempts on one account from one address in a window. */
export const PAIR_ATTEMPTS = 5;
export const ADDRESS_ATTEMPTS = 20;
/** Attempts on one account from anywhere in a window: the slower bound against many addresses. */
export const ACCOUNT_ATTEMPTS = 50;
/** The account-wide failure in a window at which the account's user is warned by e-mail. */
export const SIGN_IN_ALERT_AT = 10;

export interface Invitation {
  staffId: string;
  /** The token of the link (shown once): the link is `/admin/invite/<token>` on the service's origin. */
  token: string;
  expiresAt: Date;
  /** Where the invitation e-mail went, when one was written (a back-office invitation of a business with a sender). */
  emailedTo: string | null;
}

/** An invitation made in the back office is also e-mailed, with the link on the service's origin. */
export interface InvitationMailOptions {
  env: Env;
  /** The service's origin, e.g. "https://book.example" (the link is `<origin>/admin/invite/<token>`). */
  origin: string;
  /** The inviter's back-office language; the business's default when there are no e-mails in it. */
  language: string | null;
}

/** The path of an invitation link (an e-mail will carry the same link, with the origin in front). */
export const invitePath = (token: string) => `/admin/invite/${token}`;

/** The password rule (lib/password.ts passwordProblem), with the user's address and the business as context words. */
function checkPassword(password: string, context: (string | null | undefined)[]): void {
  const problem = passwordProblem(password, context);
  if (problem) throw invalid("password", problem);
}

/**
 * Invite someone to the business's back office with a role: a new user without a password, and a
 * one-time link that lets them set one. Someone invited before who has not accepted yet gets a new
 * link (and the new role); someone already on the staff is a 409.
 */
export async function inviteStaff(
  db: D1,
  actor: Actor,
  businessId: number,
  input: { email: string; name?: string; role: string },
  now: Date,
  hours = INVITE_HOURS,
  mail?: InvitationMailOptions,
): Promise<Invitation> {
  const email = input.email.trim();
  const name = (input.name ?? "").trim().slice(0, 120);
  if (!isEmail(email) || !withinMailLimits(email)) throw invalid("email", "must be an e-mail address");
  if (!isSafeName(name)) throw invalid("name", UNSAFE_NAME_MESSAGE);
  if (!isRole(input.role)) throw invalid("role", "must be owner, manager or front_desk");
  const role: Role = input.role;
  const emailNorm = normalizeStaffEmail(email);
  const existing = await activeStaffByEmail(db, businessId, emailNorm);
  if (existing?.password_hash) {
    throw new ApiError(409, "conflict", `${email} is on the staff already.`, { errors: [{ path: "email", message: "is on the staff already" }] });
  }
  const staffId = existing?.id ?? newId(now.getTime());
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  const expiresAt = new Date(now.getTime() + hours * 60 * MINUTE);
  // The invitation e-mail, written with the invitation (none when the business has no sender).
  const business = mail ? await businessById(db, businessId) : null;
  const invitationMail =
    mail && business
      ? staffInvitationEmail(staffId, tokenHash.slice(0, 16), email, mail.language, mailConfig(business.config, platformMail(mail.env)), {
          link: `${mail.origin}${invitePath(token)}`,
          inviter: actor.name,
          role,
          expires_at: expiresAt.toISOString(),
        })
      : null;
  try {
    // With the Worker's bindings (a back-office invitation), write() tells the mail object of the e-mail.
    await write(mail?.env ?? { DB: db }, actor, businessId, now, {
      statements: [
        existing ? updatePendingStaffStatement(db, businessId, staffId, { name, role }, now) : insertStaffStatement(db, businessId, { id: staffId, email, emailNorm, name, role }, now),
        insertInviteStatement(db, businessId, { tokenHash, staffId, purpose: "invite", createdBy: actor.name, expiresAt }, now),
      ],
      emails: emailStatements(db, businessId, null, invitationMail ? [invitationMail] : [], now),
      audit: [{ action: "invited", entity: "staff", entityId: staffId, summary: `Invited ${email} as ${role.replace("_", " ")}`, after: { email, role } }],
    });
  } catch (err) {
    if (/UNIQUE constraint failed: staff_users/.test(String(err))) throw new ApiError(409, "conflict", `${email} was invited meanwhile.`);
    throw err;
  }
  return { staffId, token, expiresAt, emailedTo: invitationMail?.recipient ?? null };
}

/** What an invitation link shows before it is used; 404 for a link that is unknown, used, expired or whose user was removed. */
export async function openInvite(db: D1, token: string, now: Date, purpose: "invite" | "reset" = "invite") {
  const invite = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await inviteByTokenHash(db, await sha256Hex(token)) : null;
  // Each link opens only its own purpose: a reset link is no invitation (and the reverse).
  if (!invite || invite.purpose !== purpose || invite.used_at || invite.removed_at || invite.expires_at <= now.toISOString()) {
    throw new ApiError(404, "not_found", "This sign-in link is unknown, used or expired. Ask an owner of the business for a new one.");
  }
  return invite;
}

/**
 * Accept an invitation: set the password. The link is spent, with every other open link of the
 * user, and any session the user had is ended. Answers the business's slug and the e-mail, for
 * the sign-in that follows.
 */
export async function acceptInvite(db: D1, token: string, password: string, now: Date, purpose: "invite" | "reset" = "invite"): Promise<{ slug: string; email: string }> {
  const invite = await openInvite(db, token, now, purpose);
  checkPassword(password, [invite.email, invite.slug]);
  const tokenHash = await sha256Hex(token);
  const hash = await hashPassword(password);
  const actor: Actor = { kind: "staff", id: invite.staff_id, name: invite.email };
  try {
    await db.batch([
      inviteUsableGuard(db, tokenHash, now),
      useInviteStatement(db, tokenHash, now),
      spendInvitesStatement(db, invite.staff_id, now),
      setPasswordStatement(db, invite.staff_id, hash, now),
      endSessionsOfStatement(db, invite.staff_id, now),
      ...auditStatements(db, invite.business_id, actor, [{ action: "accepted", entity: "staff", entityId: invite.staff_id, summary: `${invite.email} set a password (${invite.purpose})` }], now),
    ]);
  } catch (err) {
    if (isGuardFailure(err)) throw new ApiError(404, "not_found", "This sign-in link was used or expired meanwhile.");
    throw err;
  }
  return { slug: invite.slug, email: invite.email };
}

export interface NewSession {
  /** The cookie's value (shown to the browser only). */
  token: string;
  csrfToken: string;
}

async function openSession(db: D1, businessId: number, staffId: string, now: Date, extra: D1PreparedStatement[] = []): Promise<NewSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  await db.batch([
    ...extra,
    insertSessionStatement(db, { tokenHash: await sha256Hex(token), businessId, staffId, csrfToken, expiresAt: new Date(now.getTime() + SESSION_MAX_HOURS * 60 * MINUTE) }, now),
  ]);
  return { token, csrfToken };
}

const tooMany = (retryAfterSeconds: number) =>
  new ApiError(429, "rate_limited", `Too many sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, {
    headers: { "Retry-After": String(Math.max(1, retryAfterSeconds)) },
  });

/** One answer for every failed sign-in: a wrong e-mail and a wrong password look the same. */
export const signInFailed = () => new ApiError(401, "unauthorized", "The e-mail or the password is wrong.");

/**
 * Sign in to a business's back office. Throttled per account and per address before anything is
 * checked (429 with Retry-After); any failure is the same 401. Answers a new session.
 */
export async function signIn(
  store: D1 | Store,
  businessId: number,
  input: { email: string; password: string; address: string },
  now: Date,
): Promise<NewSession> {
  const db = "DB" in store ? store.DB : store;
  const emailNorm = normalizeStaffEmail(input.email).slice(0, 255);
  const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MINUTES * MINUTE);
  const accountKey = `account:${businessId}:${emailNorm}`;
  const pairKey = `pair:${businessId}:${emailNorm}:${input.address}`;
  const [pair, address, account] = await db.batch<{ attempts: number; window_start: string }>([
    takeAttemptStatement(db, pairKey, windowStart, now),
    takeAttemptStatement(db, `address:${input.address}`, windowStart, now),
    takeAttemptStatement(db, accountKey, windowStart, now),
  ]);
  const over = [
    { row: pair.results[0], limit: PAIR_ATTEMPTS },
    { row: address.results[0], limit: ADDRESS_ATTEMPTS },
    { row: account.results[0], limit: ACCOUNT_ATTEMPTS },
  ].filter((x) => x.row && x.row.attempts > x.limit);
  if (over.length) {
    const until = Math.max(...over.map((x) => Date.parse(x.row.window_start) + SIGN_IN_WINDOW_MINUTES * MINUTE));
    throw tooMany(Math.ceil((until - now.getTime()) / 1000));
  }
  const user = emailNorm ? await activeStaffByEmail(db, businessId, emailNorm) : null;
  // Checked against a dummy hash when there is no such user: the same work, the same answer.
  const ok = await verifyPassword(input.password.slice(0, 1024), user?.password_hash);
  if (!ok || !user) {
    const counted = account.results[0];
    if (user && counted?.attempts === SIGN_IN_ALERT_AT) await warnOfFailures(store, businessId, user, counted, now);
    throw signInFailed();
  }
  const extra = [clearAttemptsStatement(db, accountKey), clearAttemptsStatement(db, pairKey)];
  if (needsRehash(user.password_hash!)) extra.push(setPasswordStatement(db, user.id, await hashPassword(input.password), now));
  return openSession(db, businessId, user.id, now, extra);
}

/** The e-mail to a user whose account saw SIGN_IN_ALERT_AT failures in this window (once per window). */
async function warnOfFailures(
  store: D1 | Store,
  businessId: number,
  user: { id: string; email: string; language: string | null },
  counted: { attempts: number; window_start: string },
  now: Date,
): Promise<void> {
  const business = await businessById("DB" in store ? store.DB : store, businessId);
  if (!business) return;
  const mail = staffSignInAlertEmail(user.id, counted.window_start, user.email, user.language, mailConfig(business.config, platformMail("DB" in store ? store : {})), { attempts: counted.attempts, since: counted.window_start });
  if (!mail) return;
  const sink: Store = "DB" in store ? store : { DB: store };
  // No audit entry (the actor names none): the e-mail only, told to the mail object at once.
  await write(sink, { kind: "staff", id: user.id, name: user.email }, businessId, now, { statements: [], emails: emailStatements(sink.DB, businessId, null, [mail], now) });
}

export interface StaffSession extends SessionRow {
  role: Role;
}

/**
 * The open session of a cookie's token (null when none: ended, expired, idle too long, or its user
 * removed). Seen now: the idle clock restarts (written at most once a minute).
 */
export async function sessionOf(db: D1, token: string | undefined, now: Date): Promise<StaffSession | null> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const tokenHash = await sha256Hex(token);
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MINUTES * MINUTE);
  const [found] = await db.batch<SessionRow>([
    sessionStatement(db, tokenHash, now, idleSince),
    touchSessionStatement(db, tokenHash, now, new Date(now.getTime() - TOUCH_EVERY_MS), idleSince),
  ]);
  return (found.results[0] as StaffSession | undefined) ?? null;
}

export async function signOut(db: D1, token: string, now: Date): Promise<void> {
  await endSessionStatement(db, await sha256Hex(token), now).run();
}

/**
 * Change one's own password: the current one must match. Every session of the user ends, this
 * one too; the answer is a new session for this browser.
 */
export async function changePassword(db: D1, session: StaffSession, input: { current: string; password: string }, now: Date): Promise<NewSession> {
  const user = await staffById(db, session.business_id, session.staff_id);
  if (!user || user.removed_at) throw notFound("The user");
  // The current password is guessed no faster than at sign-in: a session left open on a shared
  // computer must not be a way to find it. Counted before the check; a success clears the count.
  const guessKey = `current:${user.id}`;
  const [counted] = await db.batch<{ attempts: number; window_start: string }>([takeAttemptStatement(db, guessKey, new Date(now.getTime() - SIGN_IN_WINDOW_MINUTES * MINUTE), now)]);
  const row = counted.results[0];
  if (row && row.attempts > PAIR_ATTEMPTS) throw tooMany(Math.ceil((Date.parse(row.window_start) + SIGN_IN_WINDOW_MINUTES * MINUTE - now.getTime()) / 1000));
  if (!(await verifyPassword(input.current.slice(0, 1024), user.password_hash))) throw invalid("current", "is not your current password");
  checkPassword(input.password, [user.email, session.slug]);
  const actor: Actor = { kind: "staff", id: user.id, name: user.email };
  return openSession(db, session.business_id, user.id, now, [
    setPasswordStatement(db, user.id, await hashPassword(input.password), now),
    clearAttemptsStatement(db, guessKey),
    endSessionsOfStatement(db, user.id, now),
    spendInvitesStatement(db, user.id, now),
    ...auditStatements(db, session.business_id, actor, [{ action: "password_changed", entity: "staff", entityId: user.id, summary: `${user.email} changed their password; every session ended` }], now),
  ]);
}

/** The user's language for the back office (null: the browser's). */
export async function setLanguage(db: D1, session: StaffSession, language: string | null, now: Date): Promise<void> {
  await setLanguageStatement(db, session.staff_id, language, now).run();
}

/** Change a user's role. The business keeps at least one owner (409). */
export async function changeRole(db: D1, actor: Actor, businessId: number, staffId: string, role: string, now: Date): Promise<void> {
  if (!isRole(role)) throw invalid("role", "must be owner, manager or front_desk");
  const user = await staffById(db, businessId, staffId);
  if (!user || user.removed_at) throw notFound("The user");
  if (user.role === role) return;
  try {
    await db.batch([
      setRoleStatement(db, businessId, staffId, role, now),
      ownerLeftGuard(db, businessId),
      ...auditStatements(db, businessId, actor, [
        { action: "role_changed", entity: "staff", entityId: staffId, summary: `${user.email}: ${user.role.replace("_", " ")} → ${role.replace("_", " ")}`, before: { role: user.role }, after: { role } },
      ], now),
    ]);
  } catch (err) {
    if (isGuardFailure(err)) throw new ApiError(409, "conflict", "The business must keep an owner: make someone else owner first.");
    throw err;
  }
}

/** Remove a user: they cannot sign in any more, and every open session of theirs ends at once. */
export async function removeStaff(db: D1, actor: Actor, businessId: number, staffId: string, now: Date): Promise<void> {
  const user = await staffById(db, businessId, staffId);
  if (!user || user.removed_at) throw notFound("The user");
  try {
    await db.batch([
      removeStaffStatement(db, businessId, staffId, now),
      endSessionsOfStatement(db, staffId, now),
      spendInvitesStatement(db, staffId, now),
      ownerLeftGuard(db, businessId),
      ...auditStatements(db, businessId, actor, [{ action: "removed", entity: "staff", entityId: staffId, summary: `Removed ${user.email} (${user.role.replace("_", " ")})`, before: { email: user.email, role: user.role } }], now),
    ]);
  } catch (err) {
    if (isGuardFailure(err)) throw new ApiError(409, "conflict", "The business must keep an owner: make someone else owner first.");
    throw err;
  }
}
