import { BusinessDrainer } from "./business-drainer";
import { nextAttemptAt } from "../domain/backoff";
import { isPermanentSendError, sendMessage } from "../integrations/email";
import { isoDateTime } from "../lib/time";
import { attemptFailedStatement, claimEmailStatement, dueEmails, nextEmailDueFrom, nextEmailDueStatement, recipientDayCountFrom, recipientDayCountStatement, sentStatement, type EmailRow } from "../db/emails";
import { ComposeError, composedAlone, composition, type ComposedEmail } from "../mail/compose";
import { platformMail } from "../domain/email/sender";
import { businessDb } from "../db/shards";
import type { D1 } from "../db/d1";

/** Kinds sent to an address typed at checkout: bounded per address and day. */
const BOUNDED_KINDS = new Set(["booking_confirmation", "booking_cancelled"]);

/** E-mails one run sends before it looks again (more: the alarm rings at once). */
const SEND_BATCH = 20;
/**
 * How long an attempt may take before it counts as cut off (its process died between handing the
 * message over and recording the outcome): after it, the e-mail is due again.
 */
const SEND_LEASE_MS = 10 * 60_000;
/** After a run started by a kick failed: the alarm tries again this much later. */
const RETRY_SOON_MS = 5_000;
/**
 * Should this process die during a run, the alarm comes back this soon for the e-mails not tried
 * yet (the one under way waits for its lease). It used to be the lease itself: after a crash,
 * e-mails never tried waited ten minutes.
 */
const RESUME_MS = 60_000;


/** An attempt's outcome to record: the statement that records it, for the e-mail it is of. */
interface AttemptRecord {
  emailId: string;
  statement: D1PreparedStatement;
}

/**
 * One per business: sends the business's e-mails from the outbox (db/emails.ts), at least once.
 *
 * Each due e-mail is claimed in D1 (`sending`, one attempt more, a lease of SEND_LEASE_MS), composed
 * (mail/compose.ts), handed to the `EMAIL` send_email binding, and its outcome recorded: `sent`
 * with the message as sent, or the error and the next attempt on the webhooks' backoff (5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), `failed` after the 10th or on an error no retry mends.
 *
 * Never twice for one event: the rows are unique per event and address, a claim is a guarded
 * UPDATE (two runs never take the same attempt), and a success is recorded before anything could
 * try the e-mail again. What is left is the crash between the provider accepting the message and
 * the record: the lease passes, the e-mail is sent again with the same Message-ID and
 * X-Booking-Email-Id, and `unconfirmed_attempts` says a duplicate may have gone out.
 *
 * One D1 round trip an e-mail: its claim, the day's count of e-mails to its address and what its
 * message reads go together, and its outcome rides in the next round trip (the next claim, or the
 * look at when the next e-mail is due).
 *
 * A kick (e-mails written) starts a run at once; the alarm rings at the next due e-mail (a retry,
 * or the lease of an attempt under way). Runs are serialized in memory.
 */
export class EmailDelivery extends BusinessDrainer {

  /** E-mails were written: send them now. The caller does not wait; a failed run retries from the alarm. */
  async kick(businessId: number, requestId?: string): Promise<void> {
    await this.kicked(businessId, requestId);
    this.run().catch(async (err) => {
      this.log("warn", "mail run failed", { error: String(err) });
      await this.alarmBy(Date.now() + RETRY_SOON_MS);
    });
  }

  protected async drain(): Promise<void> {
    const businessId = await this.business();
    if (businessId === undefined) return;
    const db = await businessDb(this.env, businessId);
    const offset = await this.clockOffset();
    const now = new Date(Date.now() + offset);
    const due = await dueEmails(db, businessId, isoDateTime(now), SEND_BATCH);
    // Each attempt's record (sent, or failed) rides in the next round trip: the next e-mail's
    // claim and reads, or the look at when the next one is due. One round trip an e-mail.
    let record: AttemptRecord | null = null;
    if (due.length) {
      // Should this process die while sending, the alarm comes back within a minute for the rest.
      await this.alarmBy(Date.now() + RESUME_MS);
      for (const email of due) {
        try {
          record = await this.attempt(db, email, now, record);
        } catch (err) {
          // The last outcome is recorded whatever stopped the run (a record applies once: it changes
          // only an e-mail still `sending`, so one already made changes nothing).
          if (record) await this.together(db, record, []);
          throw err;
        }
      }
    }
    if (due.length === SEND_BATCH) {
      if (record) await this.together(db, record, []);
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    const [nextRes] = await this.together(db, record, [nextEmailDueStatement(db, businessId)]);
    const next = nextEmailDueFrom(nextRes);
    if (next) await this.ctx.storage.setAlarm(Math.max(Date.now(), Date.parse(next) - offset));
    else await this.ctx.storage.deleteAlarm();
  }

  /**
   * `statements` in one batch after `record`, the previous attempt's outcome (first, so that what
   * follows sees it: the next claim, the day's count of e-mails to an address). Answers the
   * results of `statements`. Should that batch fail, the record is tried alone, up to three times
   * (a sent e-mail whose record never lands goes again once its lease passes, counted as
   * unconfirmed, with the same Message-ID), and `statements` are sent after it.
   */
  private async together(db: D1, record: AttemptRecord | null, statements: D1PreparedStatement[]): Promise<D1Result[]> {
    if (!record) return statements.length ? db.batch(statements) : [];
    try {
      return (await db.batch([record.statement, ...statements])).slice(1);
    } catch (err) {
      for (let i = 1; ; i++) {
        try {
          await record.statement.run();
          break;
        } catch (again) {
          if (i === 3) {
            this.log("error", "mail attempt not recorded", { email: record.emailId, error: String(again), first_error: String(err) });
            break;
          }
        }
      }
      return statements.length ? db.batch(statements) : [];
    }
  }

  /**
   * One attempt of one e-mail: claimed, with what its message reads, in one round trip (after the
   * previous attempt's record); composed; handed to the provider. Answers the statement that
   * records its outcome (the caller sends it with its next round trip), or null when the e-mail
   * was no longer due as read (another run has it).
   */
  private async attempt(db: D1, email: EmailRow, now: Date, record: AttemptRecord | null): Promise<AttemptRecord | null> {
    const at = isoDateTime(now);
    const attempt = email.attempts + 1;
    // A booker's address is whatever was typed at checkout: a day's bound per address.
    const bounded = BOUNDED_KINDS.has(email.kind);
    const composing = composition(db, email, now, platformMail(this.env));
    const claim = [
      claimEmailStatement(db, email, at, isoDateTime(new Date(now.getTime() + SEND_LEASE_MS))),
      ...(bounded ? [recipientDayCountStatement(db, email.business_id, email.recipient, isoDateTime(new Date(now.getTime() - 86_400_000)))] : []),
    ];
    let results: D1Result[];
    let reads: D1Result[] | null;
    try {
      results = await this.together(db, record, [...claim, ...composing.statements]);
      reads = results.slice(claim.length);
    } catch {
      // Refused whole, so nothing was claimed: the claim alone (a failure of it fails the run, as a
      // D1 that refuses every write would), then the message's reads as its own round trip, whose
      // failure is this attempt's, recorded with its reason and tried again on the backoff.
      results = await db.batch(claim);
      reads = null;
    }
    if (!results[0].meta.changes) return null; // no longer due as read: another run has it
    if (bounded) {
      const { sent, max } = recipientDayCountFrom(results[1]);
      if (sent >= max) {
        const reason = `recipient_daily_limit: ${sent} e-mails were sent to this address in the last 24 hours (max_emails_per_recipient_per_day ${max}); this one is not sent`;
        return { emailId: email.id, statement: attemptFailedStatement(db, email.id, reason, { sender: null, subject: null, raw: null }, null, at) };
      }
    }
    let message: ComposedEmail | null = null;
    let providerId: string | null;
    try {
      message = reads ? await composing.finish(reads) : await composedAlone(db, composing);
      providerId = await sendMessage(this.env.EMAIL, message);
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      const permanent = isPermanentSendError(err);
      const reason = err instanceof ComposeError ? `cannot compose: ${err.message}` : `${typeof code === "string" ? `${code}: ` : ""}${String((err as Error)?.message ?? err)}`;
      const retry = permanent ? null : nextAttemptAt(attempt, now);
      const as = { sender: message?.from ?? null, subject: message?.subject ?? null, raw: message?.stored ?? null };
      return { emailId: email.id, statement: attemptFailedStatement(db, email.id, reason, as, retry && isoDateTime(retry), at) };
    }
    // Accepted: its record goes with the next round trip, before anything could try this e-mail
    // again (the claim's lease still holds it).
    return { emailId: email.id, statement: sentStatement(db, email.id, { sender: message.from, subject: message.subject, raw: message.stored, providerId }, at) };
  }
}
