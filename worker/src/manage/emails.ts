/**
 * The business's own action on its e-mails, the same whoever asks (the private API, the back
 * office's Outbox): a resend, in one batch with its audit entry.
 */
import type { Actor } from "../db/audit-log";
import { emailById, emailByIdStatement, newEmailId, resendStatements, type EmailRow } from "../db/emails";
import { SECRET_KINDS, type EmailKind } from "../domain/email/plan";
import { ApiError, notFound } from "../lib/errors";
import { isGuardFailure } from "./input";
import { write } from "./write";
import type { D1Env } from "../db/d1";

const inFlight = () => new ApiError(409, "conflict", "The e-mail is still on its way (pending, sending or retrying); it can be resent once it is sent or has failed.");

/**
 * Send an e-mail again: a new e-mail of the same kind, booking, recipient and language, composed
 * now, under a Message-ID of its own. 404 for no such e-mail (or another business's), 409 while
 * the original is still on its way. Answers the new e-mail.
 */
export async function resendEmail(env: D1Env, actor: Actor, businessId: number, emailId: string, now: Date): Promise<EmailRow> {
  const db = env.DB;
  const original = await emailById(db, businessId, emailId);
  if (!original) throw notFound("The e-mail");
  if (SECRET_KINDS.includes(original.kind as EmailKind)) {
    throw new ApiError(409, "conflict", "An invitation's sign-in link is used once and not kept: invite the person again for a new link.");
  }
  if (original.status !== "sent" && original.status !== "failed") throw inFlight();
  const id = newEmailId(now.getTime());
  let results: D1Result[];
  try {
    // The resent e-mail is the batch's e-mail: write() tells the mail object once it committed.
    // The batch ends by reading it back: the answer shows it as queued, whatever the mail object,
    // told at once, has done with it since.
    results = await write(env, actor, businessId, now, {
      statements: [],
      emails: [...resendStatements(db, original, id, now), emailByIdStatement(db, businessId, id)],
      audit: [{ action: "resent", entity: "email", entityId: original.id, summary: `Resent the ${original.kind.replaceAll("_", " ")} e-mail to ${original.recipient}`, after: { email_id: id } }],
    });
  } catch (err) {
    if (isGuardFailure(err)) throw inFlight();
    throw err;
  }
  return (results.at(-1)!.results as EmailRow[])[0];
}
