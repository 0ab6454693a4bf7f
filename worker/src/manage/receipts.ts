/**
 * A ledger entry's receipt (issue 31, docs/payments.md "Receipts"), for the batch that makes the
 * entry succeeded (a manual payment or refund recorded, a stripe payment or refund that Stripe
 * confirmed): its receipt number, allocated in that batch, and the receipt e-mail to the booker,
 * written in that batch. So a crash cannot lose the e-mail or give it twice, and a change that
 * does not happen (a replayed webhook, whose guard aborts its batch) takes no number and writes no
 * e-mail. Every place that makes an entry succeeded puts these in its batch.
 */
import { bookerRow } from "../db/bookings";
import { businessById } from "../db/businesses";
import { bookerMailTarget, emailStatements } from "../db/emails";
import { receiptNumberStatements } from "../db/payments";
import { mailConfig, receiptEmail } from "../domain/email/plan";
import { platformMail } from "../domain/email/sender";
import { receiptYear } from "../domain/receipts";
import type { Store } from "./write";

export interface ReceiptParts {
  /** After the statement that makes the entry succeeded, in the same batch. */
  statements: D1PreparedStatement[];
  /** write()'s `emails`. */
  emails: D1PreparedStatement[];
}

/**
 * `booker`: whom the receipt goes to, when the booking is made in the same batch (a checkout paid
 * online: its saved request names the booker); else the stored booking's booker.
 */
export async function receiptParts(
  store: Store,
  businessId: number,
  bookingId: string,
  entry: { id: string; kind: "payment" | "refund" },
  now: Date,
  booker?: { email: string | null; language: string | null },
): Promise<ReceiptParts> {
  const db = store.DB;
  const [business, target] = await Promise.all([businessById(db, businessId), booker ?? bookerRow(db, businessId, bookingId).then(bookerMailTarget)]);
  const timeZone = business?.config.time_zone ?? "UTC";
  const email = business ? receiptEmail(entry, bookingId, target, mailConfig(business.config, platformMail(store))) : null;
  return {
    statements: receiptNumberStatements(db, businessId, entry.id, receiptYear(now, timeZone)),
    emails: email ? emailStatements(db, businessId, bookingId, [email], now) : [],
  };
}
