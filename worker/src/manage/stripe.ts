/**
 * Online payment through Stripe (issue 31, docs/payments.md "Stripe"), on the payments ledger:
 * a business's Stripe secrets (sealed at rest), a payment link (a hosted Checkout Session and its
 * pending ledger entry), the signed webhook that settles it, and refunds of stripe payments
 * through Stripe. Every change is one batch through write(), with its audit entry and its webhook
 * event; every call to Stripe carries an idempotency key derived from what it does, so a retry
 * never charges or refunds twice.
 */
import type { PaymentLinkCreate, StripeSettingsUpdate } from "../contract/payments";
import { paymentEvent } from "../domain/events";
import { minorDigits, toMajor } from "../domain/money";
import { exactMinor, paymentTotals } from "../domain/payments";
import { referenceOf } from "../domain/reference";
import type { Actor } from "../db/audit-log";
import { bookerRow, bookingRow, type BookingRow } from "../db/bookings";
import { businessById, businessBySlug } from "../db/businesses";
import { bookerMailTarget, emailStatements } from "../db/emails";
import { balanceReminderEmail, mailConfig, paymentLinkEmail } from "../domain/email/plan";
import { platformMail } from "../domain/email/sender";
import { idempotencyResourceStatement } from "../db/idempotency";
import { insertEntryStatement, isRefundTooLarge, ledgerOf, type EntryActor, type PaymentRow } from "../db/payments";
import {
  bookingOfEntry, entryByReference, entryIntentStatement, entryPendingGuard, entryReferenceStatement, eventSeen, isEventSeen, isSessionTaken, saveStripeAccountStatement, settleEntryStatement, stripeAccount, stripeEventStatement,
} from "../db/stripe";
import { checkoutSession, stripeFailure, stripeFor, verifiedEvent, type Stripe } from "../integrations/stripe";
import { ApiError, invalid, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { open, seal } from "../lib/secret-box";
import { isGuardFailure } from "./input";
import { receiptParts } from "./receipts";
import { write, type Store } from "./write";

/** What the Stripe slice needs of the Worker: the store, the sealing key, where Stripe is. */
export type StripeStore = Store & Partial<Pick<Env, "SECRETS_KEY" | "STRIPE_API_BASE">>;

/** Who the webhook's changes are audited as: Stripe, through the business's signed webhook. */
export const STRIPE_ACTOR: Actor = { kind: "key", id: "stripe-webhook", name: "Stripe (signed webhook)" };
/** Who a payment recorded from Stripe's event alone was made by: the guest, online. */
export const GUEST: EntryActor = { kind: "guest", id: null, name: "Guest (Stripe Checkout)" };

const SECRET_KEY = "stripe_secret_key";
const WEBHOOK_SECRET = "stripe_webhook_secret";
/** How long a payment link stays open: Stripe allows 30 minutes to 24 hours. */
const LINK_HOURS = 23;

const major = (minor: number, currency: string) => toMajor(minor, minorDigits(currency));
const shown = (minor: number, currency: string) => `${major(minor, currency).toFixed(minorDigits(currency))} ${currency}`;
const refOf = (b: BookingRow) => referenceOf(b.reference_year, b.reference_number);
const notConfigured = () =>
  new ApiError(409, "payments_not_configured", "This business has not connected Stripe (settings: its Stripe secret key). Nothing was created or changed.");

// ---------------------------------------------------------------------------------------------
// The business's Stripe secrets: write-only.

export interface StripeSettingsView {
  secret_key_set: boolean;
  webhook_secret_set: boolean;
}

export async function stripeSettings(env: StripeStore, businessId: number): Promise<StripeSettingsView> {
  const row = await stripeAccount(env.DB, businessId);
  return { secret_key_set: Boolean(row?.secret_key_sealed), webhook_secret_set: Boolean(row?.webhook_secret_sealed) };
}

/** Set or remove the secrets given (a field left out is kept), sealed; audited without them. */
export async function saveStripeSettings(env: StripeStore, actor: Actor, businessId: number, body: StripeSettingsUpdate, now: Date): Promise<StripeSettingsView> {
  const sealIf = async (field: string, v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : await seal(env.SECRETS_KEY, businessId, field, v));
  const secretKey = await sealIf(SECRET_KEY, body.secret_key);
  const webhookSecret = await sealIf(WEBHOOK_SECRET, body.webhook_secret);
  const before = await stripeSettings(env, businessId);
  const after = {
    secret_key_set: secretKey === undefined ? before.secret_key_set : secretKey !== null,
    webhook_secret_set: webhookSecret === undefined ? before.webhook_secret_set : webhookSecret !== null,
  };
  const changed = [secretKey !== undefined ? "secret key" : null, webhookSecret !== undefined ? "webhook signing secret" : null].filter(Boolean).join(" and ");
  await write(env, actor, businessId, now, {
    statements: [saveStripeAccountStatement(env.DB, businessId, { secretKey, webhookSecret }, now)],
    audit: [{ action: "stripe_settings_updated", entity: "settings", entityId: String(businessId), summary: `Stripe ${changed || "settings"} saved`, before, after }],
  });
  return after;
}

/** The business's Stripe secrets, opened (null where not set). */
async function secretsOf(env: StripeStore, businessId: number): Promise<{ secretKey: string | null; webhookSecret: string | null }> {
  const row = await stripeAccount(env.DB, businessId);
  return {
    secretKey: row?.secret_key_sealed ? await open(env.SECRETS_KEY, businessId, SECRET_KEY, row.secret_key_sealed) : null,
    webhookSecret: row?.webhook_secret_sealed ? await open(env.SECRETS_KEY, businessId, WEBHOOK_SECRET, row.webhook_secret_sealed) : null,
  };
}

export async function stripeOf(env: StripeStore, businessId: number): Promise<Stripe> {
  const { secretKey } = await secretsOf(env, businessId);
  if (!secretKey) throw notConfigured();
  return await stripeFor(secretKey, env.STRIPE_API_BASE);
}

// ---------------------------------------------------------------------------------------------
// Payment links.

export interface PaymentLink {
  url: string;
  amount_minor: number;
  currency: string;
  expires_at: string;
  payment_id: string;
  session_id: string;
  email_queued: boolean;
}

/**
 * A hosted Checkout Session for the booking's balance (default) or `amount`, and its pending
 * ledger entry (method stripe, reference = the session's id). The amount and currency are the
 * server's. The call's idempotency key is the booking, the operation, the amount and how many of
 * the booking's stripe payments are settled: the same link asked twice (a double click, a retry
 * after a lost answer) is the same session and the same entry; once a link is paid, failed or
 * expired, the next is a new one. `returnOrigin` is where Stripe sends the guest back.
 */
export async function createPaymentLink(
  env: StripeStore,
  actor: Actor,
  businessId: number,
  bookingId: string,
  body: PaymentLinkCreate,
  now: Date,
  returnOrigin: string,
  slug: string,
  options: {
    /** A balance-due reminder's link (manage/reminders.ts): the e-mail is the reminder's. */
    reminder?: LinkReminder;
    /** Where Stripe sends the guest back (a checkout's payment: the page the widget is on); default the business's hosted page. */
    returnTo?: { success: string; cancel: string };
  } = {},
): Promise<PaymentLink> {
  const { reminder, returnTo } = options;
  const db = env.DB;
  const booking = await bookingRow(db, businessId, bookingId);
  if (!booking) throw notFound("The booking");
  const currency = booking.currency;
  let minor: number;
  const ledger = await ledgerOf(db, businessId, bookingId);
  if (body.amount !== undefined) {
    const digits = minorDigits(currency);
    const exact = exactMinor(body.amount, digits);
    if (exact === null) throw invalid("amount", `must have at most ${digits} decimals in ${currency}`);
    if (exact <= 0) throw invalid("amount", "must be more than 0");
    minor = exact;
  } else {
    minor = paymentTotals(booking.total_minor, ledger).balance_due;
    if (minor <= 0) throw invalid("amount", "nothing is due on this booking: name an amount to ask for");
  }
  if (booking.status !== "confirmed") throw invalid("booking_id", "the booking is cancelled: no payment can be asked for on it");
  const stripe = await stripeOf(env, businessId);
  const settled = ledger.filter((e) => e.kind === "payment" && e.method === "stripe" && e.status !== "pending").length;
  const idempotencyKey = `payment-link:${bookingId}:${minor}:${settled}`;
  const back = `${returnOrigin}/book/${encodeURIComponent(slug)}?booking=${bookingId}`;
  const session = await checkoutSession(stripe, {
    reference: bookingId,
    currency,
    amountMinor: minor,
    name: `Booking ${refOf(booking)}`,
    metadata: { business_id: String(businessId), booking_id: bookingId },
    expiresAt: Math.floor(now.getTime() / 1000) + LINK_HOURS * 3600,
    successUrl: returnTo?.success ?? `${back}&payment=success`,
    cancelUrl: returnTo?.cancel ?? `${back}&payment=cancelled`,
    idempotencyKey,
  });
  const answer = (paymentId: string, queued: boolean): PaymentLink => ({
    url: session.url,
    amount_minor: minor,
    currency,
    expires_at: new Date(session.expires_at * 1000).toISOString(),
    payment_id: paymentId,
    session_id: session.id,
    email_queued: queued,
  });
  const known = await entryByReference(db, businessId, session.id);
  if (known && !reminder) return answer(known.id, false);
  const id = known?.id ?? newId(now.getTime());
  const expiresAt = answer(id, false).expires_at;
  // The booker's e-mail with the link, written with the entry (one per session); a reminder's is the balance-due e-mail (one per booking).
  let email = null;
  if (body.send_email) {
    const [booker, business] = await Promise.all([bookerRow(db, businessId, bookingId), businessById(db, businessId)]);
    const config = business ? mailConfig(business.config, platformMail(env)) : null;
    if (config && reminder) email = balanceReminderEmail(bookingId, bookerMailTarget(booker), config, { url: session.url, amount_minor: minor, expires_at: expiresAt, due_date: reminder.dueDate });
    else if (config) email = paymentLinkEmail(bookingId, session.id, bookerMailTarget(booker), config, { url: session.url, amount_minor: minor, expires_at: expiresAt });
  }
  if (known && reminder) {
    // A link for the same amount is open already (staff sent it): the reminder sends that one.
    await write(env, actor, businessId, now, {
      emails: email ? emailStatements(db, businessId, bookingId, [email], now) : [],
      statements: [reminder.statement(known.id)],
      audit: [reminderAudit(booking, minor, currency, known.id, session.id, email !== null, reminder.dueDate)],
    });
    return answer(known.id, email !== null);
  }
  try {
    await write(env, actor, businessId, now, {
      emails: email ? emailStatements(db, businessId, bookingId, [email], now) : [],
      statements: [
        insertEntryStatement(db, businessId, actor, { id, bookingId, kind: "payment", amountMinor: minor, currency, method: "stripe", status: "pending", reference: session.id, reason: null, refundsPaymentId: null }, now),
        ...(reminder ? [reminder.statement(id)] : []),
      ],
      audit: [
        ...(reminder ? [reminderAudit(booking, minor, currency, id, session.id, email !== null, reminder.dueDate)] : []),
        {
          action: "payment_link_created",
          entity: "booking",
          entityId: bookingId,
          summary: `Payment link for ${shown(minor, currency)} on booking ${refOf(booking)}`,
          after: { payment_id: id, amount: major(minor, currency), currency, session_id: session.id, expires_at: expiresAt, emailed: email !== null },
        },
      ],
    });
  } catch (err) {
    // the same link asked at the same moment: the first request's entry
    const first = isSessionTaken(err) ? await entryByReference(db, businessId, session.id) : null;
    if (first) return answer(first.id, false);
    throw err;
  }
  return answer(id, email !== null);
}

/**
 * A payment link sent as the balance-due reminder (manage/reminders.ts): the e-mail is the
 * reminder's, and `statement` (the record that it was sent, given the pending entry's id) rides
 * in the same batch, so it is sent once however often the upkeep runs.
 */
export interface LinkReminder {
  dueDate: string;
  statement: (paymentId: string) => D1PreparedStatement;
}

function reminderAudit(booking: BookingRow, minor: number, currency: string, paymentId: string, sessionId: string, emailed: boolean, dueDate: string) {
  return {
    action: "balance_reminder_sent",
    entity: "booking",
    entityId: booking.id,
    summary: `Balance reminder for ${shown(minor, currency)} due ${dueDate} on booking ${refOf(booking)}`,
    after: { payment_id: paymentId, amount: major(minor, currency), currency, session_id: sessionId, balance_due_date: dueDate, emailed },
  };
}

// ---------------------------------------------------------------------------------------------
// The webhook.

export type WebhookOutcome = "applied" | "duplicate" | "ignored";

/** What a cart's Checkout Session outcome becomes (manage/cart-payment.ts: a checkout paid online). */
export type CartSessionHandler = (
  env: StripeStore,
  businessId: number,
  event: Stripe.Event,
  session: Stripe.Checkout.Session,
  outcome: CheckoutOutcome,
  now: Date,
) => Promise<WebhookOutcome>;
export type CheckoutOutcome = "succeeded" | "failed" | "canceled" | "wait";

/** The Checkout events and what they make of the session's pending payment. */
function checkoutOutcome(event: Stripe.Event): CheckoutOutcome | null {
  switch (event.type) {
    case "checkout.session.completed":
      return event.data.object.payment_status === "paid" ? "succeeded" : "wait";
    case "checkout.session.async_payment_succeeded":
      return "succeeded";
    case "checkout.session.async_payment_failed":
      return "failed";
    case "checkout.session.expired":
      return "canceled";
    default:
      return null;
  }
}

export const wrongBusiness = () => new ApiError(400, "wrong_business", "This event names a booking that is not this business's: refused, nothing changed.");

/**
 * Apply one of Stripe's events to the business named by `slug`: verified with its webhook signing
 * secret (400 `invalid_signature` for a bad or old signature, nothing changed). Each event is
 * applied once: its id is recorded in the batch that applies it, and a settled entry never moves
 * again (the batch's guard), so a replay or an event arriving after another settled the payment
 * changes nothing.
 */
export async function applyStripeWebhook(env: StripeStore, slug: string, body: string, signature: string | undefined, now: Date, cartSession?: CartSessionHandler): Promise<WebhookOutcome> {
  const business = await businessBySlug(env.DB, slug);
  if (!business) throw notFound("The business");
  const businessId = business.id;
  const { webhookSecret } = await secretsOf(env, businessId);
  if (!webhookSecret) throw notConfigured();
  const event = await verifiedEvent(body, signature, webhookSecret, now);
  if (!event) throw new ApiError(400, "invalid_signature", "The Stripe-Signature header does not match this body and the business's webhook signing secret, or is older than 5 minutes. Nothing was changed.");
  const db = env.DB;
  if (await eventSeen(db, businessId, event.id)) return "duplicate";
  const seen = stripeEventStatement(db, businessId, event.id, event.type, now);
  const onlySeen = () => write(env, STRIPE_ACTOR, businessId, now, { statements: [seen] });

  let change: Parameters<typeof write>[4] | null = null;
  const outcome = checkoutOutcome(event);
  if (outcome) {
    const session = event.data.object as Stripe.Checkout.Session;
    // a checkout paid online (metadata cart_id): its cart is booked, or released, or refunded
    if (cartSession && session.metadata?.cart_id && !session.metadata?.booking_id) return await cartSession(env, businessId, event, session, outcome, now);
    change = await checkoutChange(env, businessId, session, outcome, now);
  } else if (event.type === "refund.updated" || event.type === "refund.created") {
    change = await refundChange(env, businessId, event.data.object, now);
  }
  try {
    if (!change) {
      await onlySeen();
      return "ignored";
    }
    await write(env, STRIPE_ACTOR, businessId, now, { ...change, statements: [seen, ...change.statements] });
    return "applied";
  } catch (err) {
    if (isEventSeen(err)) return "duplicate";
    // another event settled the entry meanwhile: this one is recorded, and changes nothing
    if (isGuardFailure(err)) {
      await onlySeen().catch((e) => {
        if (!isEventSeen(e)) throw e;
      });
      return "ignored";
    }
    throw err;
  }
}

type Change = Parameters<typeof write>[4];

async function checkoutChange(env: StripeStore, businessId: number, session: Stripe.Checkout.Session, outcome: "succeeded" | "failed" | "canceled" | "wait", now: Date): Promise<Change | null> {
  const db = env.DB;
  const bookingId = session.metadata?.booking_id ?? session.client_reference_id ?? "";
  if (session.metadata?.business_id !== String(businessId)) throw wrongBusiness();
  const booking = bookingId ? await bookingRow(db, businessId, bookingId) : null;
  if (!booking) throw wrongBusiness();
  if (outcome === "wait") return null;
  const entry = await entryByReference(db, businessId, session.id);
  if (entry && entry.booking_id !== bookingId) throw wrongBusiness();
  const intent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (outcome !== "succeeded") {
    if (!entry || entry.status !== "pending") return null;
    return {
      statements: [entryPendingGuard(db, businessId, entry.id), settleEntryStatement(db, businessId, entry.id, outcome, intent, now)],
      audit: [
        {
          action: "payment_failed",
          entity: "booking",
          entityId: bookingId,
          summary: `Stripe payment of ${shown(entry.amount_minor, entry.currency)} ${outcome === "failed" ? "failed" : "expired unpaid"} on booking ${refOf(booking)}`,
          after: { payment_id: entry.id, status: outcome, session_id: session.id },
        },
      ],
      events: [paymentEvent("PaymentFailed", { booking_id: bookingId, payment_id: entry.id, amount: major(entry.amount_minor, entry.currency), currency: entry.currency, method: "stripe", status: outcome })],
    };
  }
  // What Stripe took is what is recorded: the session's amount_total and currency.
  const amount = session.amount_total ?? 0;
  const currency = (session.currency ?? "").toUpperCase();
  if (currency !== booking.currency || amount <= 0) {
    throw new ApiError(400, "wrong_business", `This session was paid in ${currency || "no currency"}, not the booking's ${booking.currency}: refused, nothing changed.`);
  }
  const matches = entry && entry.status === "pending" && entry.amount_minor === amount && entry.currency === currency;
  if (entry && entry.status !== "pending") return null;
  const statements: D1PreparedStatement[] = [];
  let paymentId: string;
  if (matches) {
    paymentId = entry.id;
    // the guard aborts the batch, its receipt and receipt e-mail with it, unless this event is the one that settles the entry
    statements.push(entryPendingGuard(db, businessId, entry.id), settleEntryStatement(db, businessId, entry.id, "succeeded", intent, now));
  } else {
    // No pending entry (its write was lost), or one for another amount: the payment is recorded
    // as Stripe took it, and the other entry is closed.
    paymentId = newId(now.getTime());
    if (entry) statements.push(entryPendingGuard(db, businessId, entry.id), settleEntryStatement(db, businessId, entry.id, "canceled", null, now));
    statements.push(
      insertEntryStatement(db, businessId, GUEST, { id: paymentId, bookingId, kind: "payment", amountMinor: amount, currency, method: "stripe", status: "succeeded", reference: session.id, reason: null, refundsPaymentId: null }, now),
      entryIntentStatement(db, businessId, paymentId, intent),
    );
  }
  const receipt = await receiptParts(env, businessId, bookingId, { id: paymentId, kind: "payment" }, now);
  return {
    statements: [...statements, ...receipt.statements],
    emails: receipt.emails,
    audit: [
      {
        action: "payment_recorded",
        entity: "booking",
        entityId: bookingId,
        summary: `Payment of ${shown(amount, currency)} (stripe) on booking ${refOf(booking)}`,
        after: { payment_id: paymentId, amount: major(amount, currency), currency, method: "stripe", reference: session.id, payment_intent: intent },
      },
    ],
    events: [paymentEvent("PaymentReceived", { booking_id: bookingId, payment_id: paymentId, amount: major(amount, currency), currency, method: "stripe", status: "succeeded" })],
  };
}

async function refundChange(env: StripeStore, businessId: number, refund: Stripe.Refund, now: Date): Promise<Change | null> {
  if (refund.metadata?.business_id !== undefined && refund.metadata.business_id !== String(businessId)) throw wrongBusiness();
  if (refund.status !== "succeeded") return null;
  const entry = await entryByReference(env.DB, businessId, refund.id);
  if (!entry || entry.kind !== "refund" || entry.status !== "pending") return null;
  const ledger = await ledgerOf(env.DB, businessId, entry.booking_id);
  const row = ledger.find((e) => e.id === entry.id);
  return row ? await refundSucceeded(env, businessId, row, now) : null;
}

/**
 * A pending stripe refund that Stripe says succeeded: its status, its receipt (number and e-mail:
 * only when this batch is the one that settles it, the guard aborting any other), audit entry and
 * PaymentRefunded.
 */
async function refundSucceeded(env: StripeStore, businessId: number, r: PaymentRow, now: Date): Promise<Change> {
  const db = env.DB;
  const receipt = await receiptParts(env, businessId, r.booking_id, { id: r.id, kind: "refund" }, now);
  return {
    statements: [entryPendingGuard(db, businessId, r.id), settleEntryStatement(db, businessId, r.id, "succeeded", null, now), ...receipt.statements],
    emails: receipt.emails,
    audit: [
      {
        action: "payment_refunded",
        entity: "booking",
        entityId: r.booking_id,
        summary: `Refund of ${shown(r.amount_minor, r.currency)} (stripe) confirmed by Stripe`,
        after: { refund_id: r.id, payment_id: r.refunds_payment_id, amount: major(r.amount_minor, r.currency), currency: r.currency, reference: r.reference },
      },
    ],
    events: [
      paymentEvent("PaymentRefunded", { booking_id: r.booking_id, payment_id: r.refunds_payment_id!, refund_id: r.id, amount: major(r.amount_minor, r.currency), currency: r.currency, method: "stripe", status: "succeeded" }),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Refunds through Stripe.

/**
 * Refund `minor` of a stripe payment through Stripe. The refund is first recorded as pending (the
 * ledger's trigger reserves the money, so two refunds cannot both take it), then asked of Stripe
 * with the idempotency key `refund:<the refund's id>`, then marked succeeded when Stripe's answer
 * (or later its refund.updated event) says so. Stripe failing leaves the refund pending and
 * answers 502/503: the retry (the same Idempotency-Key, or the same refund asked again) asks
 * Stripe again with the same key, so Stripe refunds once. Answers the refund's id.
 */
export async function refundThroughStripe(
  env: StripeStore,
  actor: Actor,
  businessId: number,
  booking: BookingRow,
  payment: PaymentRow,
  minor: number,
  reason: string | null,
  now: Date,
  idempotencyKey?: string,
): Promise<string> {
  const db = env.DB;
  await stripeOf(env, businessId);
  if (!payment.provider_intent) {
    throw new ApiError(409, "provider_refund_unavailable", "Stripe has not told this payment's PaymentIntent yet (its webhook event has not arrived): nothing was refunded or recorded.");
  }
  const ledger = await ledgerOf(db, businessId, booking.id);
  // The same refund asked again while Stripe had not answered: that one, never a second.
  const unanswered = ledger.find((e) => e.kind === "refund" && e.status === "pending" && e.reference === null && e.refunds_payment_id === payment.id && e.amount_minor === minor);
  if (unanswered) {
    await askStripeToRefund(env, businessId, unanswered.id, now);
    return unanswered.id;
  }
  const id = newId(now.getTime());
  try {
    await write(env, actor, businessId, now, {
      statements: [
        insertEntryStatement(db, businessId, actor, { id, bookingId: booking.id, kind: "refund", amountMinor: minor, currency: booking.currency, method: "stripe", status: "pending", reference: null, reason, refundsPaymentId: payment.id }, now),
        ...(idempotencyKey ? [idempotencyResourceStatement(db, businessId, idempotencyKey, id)] : []),
      ],
      audit: [
        {
          action: "payment_refund_requested",
          entity: "booking",
          entityId: booking.id,
          summary: `Refund of ${shown(minor, booking.currency)} (stripe) asked of Stripe on booking ${refOf(booking)}`,
          after: { refund_id: id, payment_id: payment.id, amount: major(minor, booking.currency), currency: booking.currency, reason },
        },
      ],
    });
  } catch (err) {
    if (isRefundTooLarge(err)) throw invalid("amount", "is more than that payment has left to refund");
    throw err;
  }
  await askStripeToRefund(env, businessId, id, now);
  return id;
}

/**
 * Ask Stripe for a pending stripe refund (again: the key is the refund's own, so Stripe makes it
 * once), and record its answer: Stripe's refund id, and succeeded when Stripe says so. A refund
 * already settled is left as it is. 502/503 when Stripe fails.
 */
export async function askStripeToRefund(env: StripeStore, businessId: number, refundId: string, now: Date): Promise<void> {
  const db = env.DB;
  const entry = await entryOfId(env, businessId, refundId);
  if (!entry || entry.kind !== "refund" || entry.method !== "stripe" || entry.status !== "pending") return;
  const ledger = await ledgerOf(db, businessId, entry.booking_id);
  const payment = ledger.find((e) => e.id === entry.refunds_payment_id);
  if (!payment?.provider_intent) return;
  const stripe = await stripeOf(env, businessId);
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      { payment_intent: payment.provider_intent, amount: entry.amount_minor, metadata: { business_id: String(businessId), booking_id: entry.booking_id, refund_id: entry.id } },
      { idempotencyKey: `refund:${entry.id}` },
    );
  } catch (err) {
    throw stripeFailure(err);
  }
  const statements = [entryReferenceStatement(db, businessId, entry.id, refund.id)];
  if (refund.status === "succeeded") {
    const change = await refundSucceeded(env, businessId, { ...entry, reference: refund.id }, now);
    try {
      await write(env, STRIPE_ACTOR, businessId, now, { ...change, statements: [...statements, ...change.statements] });
    } catch (err) {
      if (!isGuardFailure(err)) throw err;
    }
  } else {
    await write(env, STRIPE_ACTOR, businessId, now, { statements });
  }
}

async function entryOfId(env: StripeStore, businessId: number, id: string): Promise<PaymentRow | null> {
  const bookingId = await bookingOfEntry(env.DB, businessId, id);
  if (!bookingId) return null;
  return (await ledgerOf(env.DB, businessId, bookingId)).find((e) => e.id === id) ?? null;
}
