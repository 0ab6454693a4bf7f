/**
 * The e-mail outbox (migration 0400, docs/email.md): the rows a change writes in its own batch,
 * how the delivery object (durable/email-delivery.ts) claims and records each attempt, and the
 * reads of the private API's /emails and the scheduled upkeep.
 */
import { SECRET_KINDS, type PlannedEmail } from "../domain/email/plan";
import { newId } from "../lib/ids";
import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

/** A new e-mail's id. */
export const newEmailId = (now = Date.now()) => `eml_${newId(now).replaceAll("-", "")}`;

export type EmailStatus = "pending" | "sending" | "retrying" | "sent" | "failed";

export interface EmailRow {
  id: string;
  business_id: number;
  kind: string;
  event_key: string;
  message_id: string;
  booking_id: string | null;
  recipient: string;
  language: string;
  params: string;
  resend_of: string | null;
  status: EmailStatus;
  attempts: number;
  unconfirmed_attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  sender: string | null;
  subject: string | null;
  raw: string | null;
  provider_message_id: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** When the scheduled upkeep removed its message (retention, db/maintenance.ts); null while kept. */
  body_removed_at?: string | null;
}

/**
 * The INSERT of the e-mails an event gives, due at once. Put it in the same batch as the change
 * (a booking, a cancellation): a change that fails writes no e-mail, one that commits always has
 * its e-mails. OR IGNORE: an event's e-mail to an address that is already there (the same event
 * twice) is not written again.
 */
export function emailStatements(db: D1, businessId: number, bookingId: string | null, emails: PlannedEmail[], now: Date): D1PreparedStatement[] {
  const ts = isoDateTime(now);
  return emails.map((e) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO emails (id, business_id, kind, event_key, message_id, booking_id, recipient, language, params, status, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .bind(newEmailId(now.getTime()), businessId, e.kind, e.eventKey, e.messageId, bookingId, e.recipient, e.language, JSON.stringify(e.params), ts, ts, ts),
  );
}

/** The business's EmailDelivery Durable Object (one per business). */
export function mailStub(env: Pick<Env, "EMAIL_DELIVERY">, businessId: number) {
  return env.EMAIL_DELIVERY.get(env.EMAIL_DELIVERY.idFromName(`business:${businessId}`));
}

/**
 * After a batch that wrote e-mails committed: the business's delivery object sends them now (the
 * caller does not wait for the sending). Never throws: the e-mails are safe in D1, and a lost
 * kick is made up by the next one or by the scheduled upkeep.
 */
export async function kickMail(env: Pick<Env, "EMAIL_DELIVERY">, businessId: number, requestId?: string): Promise<void> {
  try {
    await mailStub(env, businessId).kick(businessId, requestId);
  } catch (err) {
    console.error(JSON.stringify({ level: "warn", msg: "mail kick failed", business: businessId, request_id: requestId, error: String(err) }));
  }
}

// --- the delivery object's work -------------------------------------------------------------

/** Up to `limit` e-mails of the business due at `now` (an attempt cut off counts once its lease passed), oldest first. */
export async function dueEmails(db: D1, businessId: number, now: string, limit: number): Promise<EmailRow[]> {
  const rows = await db
    .prepare("SELECT * FROM emails WHERE business_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?")
    .bind(businessId, now, limit)
    .all<EmailRow>();
  return rows.results;
}

/**
 * Takes an e-mail for one attempt: `sending`, one more attempt, and a lease until `leaseUntil`
 * (past it, an attempt whose outcome was never recorded is made again). Changes nothing, and the
 * caller skips the e-mail, when it is no longer due as read (another run took it, or it was sent).
 * An e-mail taken while `sending` was cut off: that attempt is counted as unconfirmed.
 */
export function claimEmailStatement(db: D1, e: EmailRow, now: string, leaseUntil: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE emails SET status = 'sending', attempts = attempts + 1,
              unconfirmed_attempts = unconfirmed_attempts + (status = 'sending'),
              next_attempt_at = ?, updated_at = ?
        WHERE id = ? AND status = ? AND attempts = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?`,
    )
    .bind(leaseUntil, now, e.id, e.status, e.attempts, now);
}

/** Settled (sent, or failed for good): an e-mail whose params hold a secret (an invitation's link) forgets them. */
const FORGET_SECRETS = `params = CASE WHEN kind IN (${SECRET_KINDS.map((k) => `'${k}'`).join(", ")}) THEN '{}' ELSE params END`;

/** The provider accepted the message: it is sent, with the message as kept (an invitation's without its link). */
export function sentStatement(db: D1, id: string, m: { sender: string; subject: string; raw: string; providerId: string | null }, now: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE emails SET status = 'sent', sent_at = ?, next_attempt_at = NULL, last_error = NULL,
              sender = ?, subject = ?, raw = ?, provider_message_id = ?, updated_at = ?, ${FORGET_SECRETS}
        WHERE id = ? AND status = 'sending'`,
    )
    .bind(now, m.sender, m.subject, m.raw, m.providerId, now, id);
}

/** An attempt failed: the next is due at `retryAt`, or none (`failed`) when `retryAt` is null. */
export function attemptFailedStatement(
  db: D1,
  id: string,
  error: string,
  m: { sender: string | null; subject: string | null; raw: string | null },
  retryAt: string | null,
  now: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE emails SET status = ?, next_attempt_at = ?, last_error = ?,
              sender = COALESCE(?, sender), subject = COALESCE(?, subject), raw = COALESCE(?, raw), updated_at = ?
              ${retryAt ? "" : `, ${FORGET_SECRETS}`}
        WHERE id = ? AND status = 'sending'`,
    )
    .bind(retryAt ? "retrying" : "failed", retryAt, error.slice(0, 1000), m.sender, m.subject, m.raw, now, id);
}

/** When the business's next e-mail is due (an in-flight one's lease included), or null: the statement, and its answer from its result. */
export function nextEmailDueStatement(db: D1, businessId: number): D1PreparedStatement {
  return db.prepare("SELECT MIN(next_attempt_at) AS at FROM emails WHERE business_id = ? AND next_attempt_at IS NOT NULL").bind(businessId);
}
export const nextEmailDueFrom = (r: D1Result): string | null => (r.results[0] as { at: string | null } | undefined)?.at ?? null;

export async function nextEmailDue(db: D1, businessId: number): Promise<string | null> {
  return nextEmailDueFrom(await nextEmailDueStatement(db, businessId).all());
}

/** Businesses with an e-mail due before `now` (a kick lost with its process), for the upkeep. */
export async function businessesWithDueEmails(db: D1, now: string, limit: number): Promise<number[]> {
  const rows = await db
    // INDEXED BY: for DISTINCT the planner would rather walk emails_due (every pending row of
    // every business, in business order) than sort the few overdue ones it finds by due time.
    .prepare("SELECT DISTINCT business_id FROM emails INDEXED BY emails_due_all WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? LIMIT ?")
    .bind(now, limit)
    .all<{ business_id: number }>();
  return rows.results.map((r) => r.business_id);
}

// --- what a booking's e-mail is written from ------------------------------------------------

export interface MailGuestRow {
  id: string;
  person_snapshot: string;
  package_id: number | null;
  start_date: string | null;
  end_date: string | null;
  arrives_on: string | null;
  departs_on: string | null;
}

/** The booking, its booker, its guests (with their cart stay) and its lines, as four statements. */
export function bookingMailStatements(db: D1, businessId: number, bookingId: string): D1PreparedStatement[] {
  return [
    db.prepare("SELECT * FROM bookings WHERE id = ? AND business_id = ?").bind(bookingId, businessId),
    db.prepare("SELECT person_snapshot FROM bookers WHERE booking_id = ? AND business_id = ?").bind(bookingId, businessId),
    db
      .prepare(
        // By the booking (the planner would otherwise walk every guest of the business in
        // created_at order to spare a sort of a booking's few).
        `SELECT g.id, g.person_snapshot, cg.package_id, cg.start_date, cg.end_date, g.arrives_on, g.departs_on
           FROM guests g INDEXED BY guests_business_booking LEFT JOIN cart_guests cg ON cg.id = g.id
          WHERE g.booking_id = ? AND g.business_id = ? ORDER BY g.created_at, g.rowid`,
      )
      .bind(bookingId, businessId),
    db
      .prepare("SELECT guest_id, product_id, role, dates, qty, price_minor FROM booking_lines WHERE booking_id = ? AND business_id = ? ORDER BY id")
      .bind(bookingId, businessId),
    // How the booking came: the cart's client (a widget visitor, or an API key and its name); none: the back office.
    db
      .prepare(
        `SELECT c.client_id, (SELECT k.name FROM api_keys k WHERE substr(c.client_id, 1, 4) = 'key:' AND k.id = substr(c.client_id, 5)) AS key_name
           FROM bookings b JOIN carts c ON c.id = b.cart_id WHERE b.id = ? AND b.business_id = ?`,
      )
      .bind(bookingId, businessId),
  ];
}

// --- the private API's /emails -----------------------------------------------------------------

export interface EmailQuery {
  status?: string[];
  kind?: string[];
  bookingId?: string;
  page: number;
  limit: number;
}

const LIST_COLUMNS =
  "id, business_id, kind, event_key, message_id, booking_id, recipient, language, params, resend_of, status, attempts, unconfirmed_attempts, next_attempt_at, last_error, sender, subject, NULL AS raw, provider_message_id, created_at, updated_at, sent_at";

/** One page of the business's e-mails, newest first (without the messages), and how many match. */
export async function listEmails(db: D1, businessId: number, q: EmailQuery): Promise<{ rows: EmailRow[]; total: number }> {
  const where = ["business_id = ?"];
  const params: (string | number)[] = [businessId];
  if (q.status?.length) {
    where.push(`status IN (${q.status.map(() => "?").join(", ")})`);
    params.push(...q.status);
  }
  if (q.kind?.length) {
    where.push(`kind IN (${q.kind.map(() => "?").join(", ")})`);
    params.push(...q.kind);
  }
  if (q.bookingId) {
    where.push("booking_id = ?");
    params.push(q.bookingId);
  }
  const sql = where.join(" AND ");
  const [page, count] = await db.batch([
    db.prepare(`SELECT ${LIST_COLUMNS} FROM emails WHERE ${sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).bind(...params, q.limit, (q.page - 1) * q.limit),
    db.prepare(`SELECT COUNT(*) AS n FROM emails WHERE ${sql}`).bind(...params),
  ]);
  return { rows: page.results as unknown as EmailRow[], total: (count.results[0] as { n: number }).n };
}

/** One e-mail of the business, the message included. */
export async function emailById(db: D1, businessId: number, id: string): Promise<EmailRow | null> {
  return emailByIdStatement(db, businessId, id).first<EmailRow>();
}

/** The e-mail's row, as a statement: read inside a batch, it shows the row as that batch left it. */
export function emailByIdStatement(db: D1, businessId: number, id: string): D1PreparedStatement {
  return db.prepare("SELECT * FROM emails WHERE id = ? AND business_id = ?").bind(id, businessId);
}

/**
 * A resend of `original`, asked for by the business: a new e-mail of the same kind, booking,
 * recipient and language, due now, with a Message-ID of its own (it is a new message, which the
 * recipient's mail service must not drop as a duplicate of the first). Its batch aborts
 * ('guard_failed') when the original is not settled (still pending, sending or retrying): that one
 * is on its way already.
 */
export function resendStatements(db: D1, original: EmailRow, newId: string, now: Date): D1PreparedStatement[] {
  const ts = isoDateTime(now);
  const domain = original.message_id.slice(original.message_id.lastIndexOf("@") + 1, -1);
  return [
    db.prepare("INSERT INTO batch_guard (reason, ok) SELECT 'email_in_flight', status IN ('sent', 'failed') FROM emails WHERE id = ?").bind(original.id),
    db
      .prepare(
        `INSERT INTO emails (id, business_id, kind, event_key, message_id, booking_id, recipient, language, params, resend_of, status, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .bind(
        newId,
        original.business_id,
        original.kind,
        `resend.${newId}`,
        `<resend.${newId}@${domain}>`,
        original.booking_id,
        original.recipient,
        original.language,
        original.params,
        original.id,
        ts,
        ts,
        ts,
      ),
  ];
}

/** The address a booking's confirmation was written to (its first one, not a resend); no row when none was. */
export function confirmationRecipientStatement(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db
    .prepare("SELECT recipient FROM emails WHERE business_id = ? AND booking_id = ? AND kind = 'booking_confirmation' AND resend_of IS NULL ORDER BY created_at LIMIT 1")
    .bind(businessId, bookingId);
}

/** Where a booker's e-mail goes, from the booker's snapshot: its address and language. */
export function bookerMailTarget(booker: { person_snapshot: string } | null): { email: string | null; language: string | null } {
  if (!booker) return { email: null, language: null };
  try {
    const p = JSON.parse(booker.person_snapshot) as { email?: unknown; language_code?: unknown };
    return { email: typeof p.email === "string" && p.email ? p.email : null, language: typeof p.language_code === "string" ? p.language_code : null };
  } catch {
    return { email: null, language: null };
  }
}

/**
 * How many e-mails the business sent to `recipient` (any case) since `since`, and how many it may
 * send in a day (settings max_emails_per_recipient_per_day; its default when unset). One read,
 * through the index of migration 0411.
 */
export function recipientDayCountStatement(db: D1, businessId: number, recipient: string, since: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM emails WHERE business_id = ?1 AND recipient = ?2 COLLATE NOCASE AND status = 'sent' AND updated_at > ?3) AS sent,
              json_extract(config, '$.max_emails_per_recipient_per_day') AS max
         FROM businesses WHERE id = ?1`,
    )
    .bind(businessId, recipient, since);
}
/** recipientDayCountStatement's answer, from its result. */
export function recipientDayCountFrom(r: D1Result): { sent: number; max: number } {
  const row = r.results[0] as { sent: number; max: number | null } | undefined;
  return { sent: row?.sent ?? 0, max: row?.max ?? RECIPIENT_DAY_DEFAULT };
}
/** BusinessConfig's default of max_emails_per_recipient_per_day. */
export const RECIPIENT_DAY_DEFAULT = 5;

/** An e-mail of any business as the mail CLI lists it, with its business's slug. */
export interface ListedEmailRow {
  id: string;
  slug: string;
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  unconfirmed_attempts: number;
  subject: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
}

/** The newest e-mails of every business (or of one, by slug), for the mail CLI. */
export async function listEmailsOfAll(db: D1, f: { slug?: string; status?: string; bookingId?: string; limit: number }): Promise<ListedEmailRow[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  for (const [condition, value] of [["b.slug = ?", f.slug], ["e.status = ?", f.status], ["e.booking_id = ?", f.bookingId]] as const) {
    if (value === undefined) continue;
    where.push(condition);
    params.push(value);
  }
  const rows = await db
    .prepare(
      `SELECT e.id, b.slug, e.kind, e.recipient, e.status, e.attempts, e.unconfirmed_attempts, e.subject, e.last_error, e.next_attempt_at, e.created_at, e.sent_at
         FROM emails e JOIN businesses b ON b.id = e.business_id
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    )
    .bind(...params, f.limit)
    .all<ListedEmailRow>();
  return rows.results;
}

/** One e-mail of any business as it was sent (its MIME message), for the mail CLI. */
export async function sentEmailById(db: D1, id: string): Promise<{ id: string; status: string; raw: string | null; last_error: string | null; body_removed_at: string | null } | null> {
  return db.prepare("SELECT id, status, raw, last_error, body_removed_at FROM emails WHERE id = ?").bind(id).first();
}
