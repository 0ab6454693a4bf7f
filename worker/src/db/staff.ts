/** SQL of the back office's staff: accounts, invitations, sessions and the sign-in throttle (migration 0300). */
import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

export type StaffRole = "owner" | "manager" | "front_desk";

export interface StaffRow {
  id: string;
  business_id: number;
  email: string;
  email_norm: string;
  name: string;
  role: StaffRole;
  language: string | null;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
}

export async function activeStaffByEmail(db: D1, businessId: number, emailNorm: string): Promise<StaffRow | null> {
  return db.prepare("SELECT * FROM staff_users WHERE business_id = ? AND email_norm = ? AND removed_at IS NULL").bind(businessId, emailNorm).first<StaffRow>();
}

export async function staffById(db: D1, businessId: number, id: string): Promise<StaffRow | null> {
  return db.prepare("SELECT * FROM staff_users WHERE id = ? AND business_id = ?").bind(id, businessId).first<StaffRow>();
}

export interface StaffListRow extends StaffRow {
  /** The newest unused, unexpired invitation's expiry (an invited user who has not accepted yet). */
  invite_expires_at: string | null;
  open_sessions: number;
}

export async function listStaff(db: D1, businessId: number, now: Date): Promise<StaffListRow[]> {
  const ts = isoDateTime(now);
  const rows = await db
    .prepare(
      `SELECT u.*,
              (SELECT MAX(i.expires_at) FROM staff_invites i WHERE i.staff_id = u.id AND i.used_at IS NULL AND i.expires_at > ?2) AS invite_expires_at,
              (SELECT COUNT(*) FROM staff_sessions s WHERE s.staff_id = u.id AND s.ended_at IS NULL AND s.expires_at > ?2) AS open_sessions
         FROM staff_users u WHERE u.business_id = ?1 AND u.removed_at IS NULL ORDER BY u.role = 'owner' DESC, u.role = 'manager' DESC, u.email_norm`,
    )
    .bind(businessId, ts)
    .all<StaffListRow>();
  return rows.results;
}

export function insertStaffStatement(db: D1, businessId: number, u: { id: string; email: string; emailNorm: string; name: string; role: StaffRole }, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare("INSERT INTO staff_users (id, business_id, email, email_norm, name, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(u.id, businessId, u.email, u.emailNorm, u.name, u.role, ts, ts);
}

/** A pending (never signed-up) user invited again: the role and name of the new invitation. */
export function updatePendingStaffStatement(db: D1, businessId: number, id: string, u: { name: string; role: StaffRole }, now: Date): D1PreparedStatement {
  return db
    .prepare("UPDATE staff_users SET name = ?, role = ?, updated_at = ? WHERE id = ? AND business_id = ? AND password_hash IS NULL AND removed_at IS NULL")
    .bind(u.name, u.role, isoDateTime(now), id, businessId);
}

export function insertInviteStatement(
  db: D1,
  businessId: number,
  invite: { tokenHash: string; staffId: string; purpose: "invite" | "reset"; createdBy: string; expiresAt: Date },
  now: Date,
): D1PreparedStatement {
  return db
    .prepare("INSERT INTO staff_invites (token_hash, business_id, staff_id, purpose, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(invite.tokenHash, businessId, invite.staffId, invite.purpose, invite.createdBy, isoDateTime(now), isoDateTime(invite.expiresAt));
}

export interface InviteRow {
  token_hash: string;
  business_id: number;
  staff_id: string;
  purpose: "invite" | "reset";
  expires_at: string;
  used_at: string | null;
  email: string;
  name: string;
  role: StaffRole;
  removed_at: string | null;
  slug: string;
  title: string;
}

export async function inviteByTokenHash(db: D1, tokenHash: string): Promise<InviteRow | null> {
  return db
    .prepare(
      `SELECT i.token_hash, i.business_id, i.staff_id, i.purpose, i.expires_at, i.used_at, u.email, u.name, u.role, u.removed_at, b.slug, b.title
         FROM staff_invites i JOIN staff_users u ON u.id = i.staff_id JOIN businesses b ON b.id = i.business_id
        WHERE i.token_hash = ?`,
    )
    .bind(tokenHash)
    .first<InviteRow>();
}

/** Batch guard: the link is unused, unexpired, and its user not removed, when the batch commits. */
export function inviteUsableGuard(db: D1, tokenHash: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO batch_guard (reason, ok) SELECT 'invite_usable', EXISTS (
         SELECT 1 FROM staff_invites i JOIN staff_users u ON u.id = i.staff_id
          WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ? AND u.removed_at IS NULL)`,
    )
    .bind(tokenHash, isoDateTime(now));
}

export function useInviteStatement(db: D1, tokenHash: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL").bind(isoDateTime(now), tokenHash);
}

/** Every other open link of the user is spent too (a link used is the last one that works). */
export function spendInvitesStatement(db: D1, staffId: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_invites SET used_at = ? WHERE staff_id = ? AND used_at IS NULL").bind(isoDateTime(now), staffId);
}

export function setPasswordStatement(db: D1, staffId: string, hash: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_users SET password_hash = ?, updated_at = ? WHERE id = ? AND removed_at IS NULL").bind(hash, isoDateTime(now), staffId);
}

export function setRoleStatement(db: D1, businessId: number, staffId: string, role: StaffRole, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_users SET role = ?, updated_at = ? WHERE id = ? AND business_id = ? AND removed_at IS NULL").bind(role, isoDateTime(now), staffId, businessId);
}

export function setLanguageStatement(db: D1, staffId: string, language: string | null, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_users SET language = ?, updated_at = ? WHERE id = ?").bind(language, isoDateTime(now), staffId);
}

export function removeStaffStatement(db: D1, businessId: number, staffId: string, now: Date): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db.prepare("UPDATE staff_users SET removed_at = ?, updated_at = ? WHERE id = ? AND business_id = ? AND removed_at IS NULL").bind(ts, ts, staffId, businessId);
}

/**
 * Batch guard: after the batch's changes, the business still has an owner who can sign in (or is
 * invited to). Put it AFTER the change in the batch: it sees the batch's own writes.
 */
export function ownerLeftGuard(db: D1, businessId: number): D1PreparedStatement {
  return db
    .prepare("INSERT INTO batch_guard (reason, ok) SELECT 'owner_left', EXISTS (SELECT 1 FROM staff_users WHERE business_id = ? AND role = 'owner' AND removed_at IS NULL)")
    .bind(businessId);
}

// ---- Sessions ----

export function insertSessionStatement(
  db: D1,
  s: { tokenHash: string; businessId: number; staffId: string; csrfToken: string; expiresAt: Date },
  now: Date,
): D1PreparedStatement {
  const ts = isoDateTime(now);
  return db
    .prepare("INSERT INTO staff_sessions (token_hash, business_id, staff_id, csrf_token, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(s.tokenHash, s.businessId, s.staffId, s.csrfToken, ts, ts, isoDateTime(s.expiresAt));
}

export interface SessionRow {
  token_hash: string;
  business_id: number;
  staff_id: string;
  csrf_token: string;
  last_seen_at: string;
  email: string;
  name: string;
  role: StaffRole;
  language: string | null;
  slug: string;
  title: string;
  /** The business's time zone setting (its "today"); null when not set. */
  time_zone: string | null;
}

/**
 * The open session of a token, with its user and business: none when it was ended, is past its
 * absolute limit, was idle since `idleSince`, or its user was removed.
 */
export function sessionStatement(db: D1, tokenHash: string, now: Date, idleSince: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT s.token_hash, s.business_id, s.staff_id, s.csrf_token, s.last_seen_at, u.email, u.name, u.role, u.language, b.slug, b.title,
              json_extract(b.config, '$.time_zone') AS time_zone
         FROM staff_sessions s JOIN staff_users u ON u.id = s.staff_id JOIN businesses b ON b.id = s.business_id
        WHERE s.token_hash = ? AND s.ended_at IS NULL AND s.expires_at > ? AND s.last_seen_at > ? AND u.removed_at IS NULL AND u.business_id = s.business_id`,
    )
    .bind(tokenHash, isoDateTime(now), isoDateTime(idleSince));
}

/**
 * The open session was seen now: written only when last seen before `staleBefore` (one write a
 * minute at most), and never for a session already idle since `idleSince` or past its limit.
 */
export function touchSessionStatement(db: D1, tokenHash: string, now: Date, staleBefore: Date, idleSince: Date): D1PreparedStatement {
  return db
    .prepare("UPDATE staff_sessions SET last_seen_at = ?1 WHERE token_hash = ?2 AND ended_at IS NULL AND last_seen_at < ?3 AND last_seen_at > ?4 AND expires_at > ?1")
    .bind(isoDateTime(now), tokenHash, isoDateTime(staleBefore), isoDateTime(idleSince));
}

export function endSessionStatement(db: D1, tokenHash: string, now: Date): D1PreparedStatement {
  return db.prepare("UPDATE staff_sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL").bind(isoDateTime(now), tokenHash);
}

/** End every open session of a user (removal, password change), but `keep` if given. */
export function endSessionsOfStatement(db: D1, staffId: string, now: Date, keep = ""): D1PreparedStatement {
  return db.prepare("UPDATE staff_sessions SET ended_at = ? WHERE staff_id = ? AND ended_at IS NULL AND token_hash <> ?").bind(isoDateTime(now), staffId, keep);
}

// ---- The sign-in throttle ----

/**
 * Take one sign-in attempt for `key` in a fixed window: the count restarts when the window that
 * holds it began before `windowStart`. RETURNING the attempts of the window, this one included.
 * One statement, so parallel attempts each take their own slot.
 */
export function takeAttemptStatement(db: D1, key: string, windowStart: Date, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO sign_in_attempts (key, window_start, attempts) VALUES (?1, ?2, 1)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN window_start < ?3 THEN 1 ELSE attempts + 1 END,
         window_start = CASE WHEN window_start < ?3 THEN ?2 ELSE window_start END
       RETURNING attempts, window_start`,
    )
    .bind(key, isoDateTime(now), isoDateTime(windowStart));
}

export function clearAttemptsStatement(db: D1, key: string): D1PreparedStatement {
  return db.prepare("DELETE FROM sign_in_attempts WHERE key = ?").bind(key);
}
