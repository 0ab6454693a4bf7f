/**
 * An e-mail of the outbox as the message to send: its data read from D1 in one round trip (the
 * business, its catalog for the titles in the e-mail's language, the booking with its booker,
 * guests and lines), put into the templates of domain/email and wrapped as MIME. Composed at each
 * attempt until one succeeds, so a retry after the business fixed its sender uses the new one; the
 * Message-ID is the row's, the same every time.
 */
import { snapshotInBatch } from "../db/tenant-read";
import { bookingMailStatements, type EmailRow, type MailGuestRow } from "../db/emails";
import type { BookingRow } from "../db/bookings";
import { BOOKING_TEMPLATES, type BookingMail, type BookingMailKind, type MailGuest, type MailReceipt } from "../domain/email/booking";
import { ledgerStatement, type PaymentRow } from "../db/payments";
import { totalsAfterReceipt } from "../domain/receipts";
import { dateIn } from "../lib/time";
import { buildMime } from "../domain/email/mime";
import { calendarFile, nextDay, type CalendarEvent } from "../domain/email/ics";
import { REDACTED_LINK, staffInvitation, staffPasswordReset, staffSignInAlert } from "../domain/email/staff";
import { businessById } from "../db/businesses";
import { mailLanguage } from "../domain/email/strings";
import { replyToOf, senderOf, type PlatformMail, type Sender } from "../domain/email/sender";
import { bookedTotals, linesTotal } from "../domain/totals";
import { translated } from "../domain/product";
import { referenceOf } from "../domain/reference";
import type { CatalogSnapshot } from "../domain/catalog";
import type { D1 } from "../db/d1";
import { bookingPaymentPoliciesStatement, policiesFrom } from "../db/products";
import type { ProductPaymentPolicy } from "../contract/payment-policy";
import { bookingDues, depositOwed } from "../domain/booking-dues";
import { paymentTotals } from "../domain/payments";

export interface ComposedEmail {
  from: string;
  to: string;
  subject: string;
  /** The message to hand to the provider. */
  raw: string;
  /** The message to keep in the outbox: `raw`, or for an invitation `raw` with its link removed. */
  stored: string;
}

/** An e-mail that cannot be composed (no sender set, the booking gone): the attempt fails with this reason. */
export class ComposeError extends Error {}

const rowsOf = <T>(r: D1Result) => r.results as unknown as T[];

interface LineRow {
  guest_id: string | null;
  product_id: number;
  role: string;
  dates: string;
  qty: number;
  price_minor: number;
}

function parseJson<T>(text: string | null | undefined, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

const fullName = (p: Record<string, unknown>) => [p.first_name, p.last_name].filter((x) => typeof x === "string" && x).join(" ");

function guestsOf(snap: CatalogSnapshot, guests: MailGuestRow[], lines: LineRow[], booking: BookingRow, language: string): MailGuest[] {
  const title = (id: number) => {
    const p = snap.products.get(id);
    return p ? translated(p, "title", language) : `#${id}`;
  };
  return guests.map((g) => {
    const person = parseJson<Record<string, unknown>>(g.person_snapshot, {});
    const own = lines.filter((l) => l.guest_id === g.id);
    const pkg = own.find((l) => l.role === "package");
    const room = own.find((l) => l.role === "accommodation");
    const extras = own.filter((l) => !["package", "accommodation", "srs"].includes(l.role));
    const srs = own.filter((l) => l.role === "srs");
    return {
      name: fullName(person),
      stay: title(g.package_id ?? pkg?.product_id ?? 0),
      start: g.start_date ?? g.arrives_on ?? booking.start_date,
      end: g.end_date ?? g.departs_on ?? booking.end_date,
      stayPrice: pkg?.price_minor ?? 0,
      room: room ? title(room.product_id) : null,
      roomPrice: room ? room.price_minor : null,
      privateRoom: srs.length > 0,
      srsPrice: srs.length ? linesTotal(srs) : null,
      extras: extras.map((l) => ({ title: title(l.product_id), qty: l.qty, dates: parseJson<string[]>(l.dates, []), price: l.price_minor })),
      total: linesTotal(own),
    };
  });
}

/**
 * The events of a booking's calendar file: each guest's stay (all day, check-in to check-out) once
 * per distinct stay, and each timeslot booked (at its local time) once per product and time.
 */
function calendarEvents(guests: MailGuest[], lines: LineRow[], title: (id: number) => string): CalendarEvent[] {
  const events = new Map<string, CalendarEvent>();
  for (const g of guests) {
    const key = `stay-${g.start}-${g.end}-${g.stay}`;
    // A stay ends on its check-out day, which it does not occupy; a single day ends the day after.
    if (!events.has(key)) events.set(key, { key: `stay-${events.size + 1}`, title: g.stay, start: g.start, end: g.end > g.start ? g.end : nextDay(g.start) });
  }
  for (const l of lines) {
    for (const d of parseJson<string[]>(l.dates, [])) {
      if (d.length <= 10) continue;
      const key = `slot-${l.product_id}-${d}`;
      if (!events.has(key)) events.set(key, { key: `slot-${l.product_id}-${d.replace(/\D/g, "")}`, title: title(l.product_id), start: d });
    }
  }
  return [...events.values()];
}

/**
 * What a receipt states of its entry (params.entry_id) in the booking's ledger: its number, its
 * date in the business's time zone, and what was paid and owed once it counted (its place in the
 * receipt series, not what the ledger says now: a later payment does not change an earlier receipt).
 */
function receiptOf(ledger: PaymentRow[], entryId: string | undefined, total: number, timeZone: string): MailReceipt {
  const entry = ledger.find((e) => e.id === entryId);
  if (!entry || entry.status !== "succeeded" || !entry.receipt_number) throw new ComposeError(`the receipt's ledger entry ${entryId ?? ""} is not a succeeded entry with a receipt number`);
  const localDate = (iso: string) => dateIn(new Date(iso), timeZone);
  const paid = entry.refunds_payment_id ? ledger.find((e) => e.id === entry.refunds_payment_id) : undefined;
  const after = totalsAfterReceipt(total, ledger, entry.receipt_number);
  return {
    kind: entry.kind,
    number: entry.receipt_number,
    date: localDate(entry.updated_at),
    amount: entry.amount_minor,
    method: entry.method,
    reason: entry.reason,
    refundOf: paid ? { number: paid.receipt_number, date: localDate(paid.updated_at) } : null,
    paidNet: after.net_paid,
    balance: after.balance_due,
  };
}

/** Who the business's e-mails go from now: its own sender on a listed domain, else the platform's. */
function senderOrFail(config: { email_from: string | null }, platform: PlatformMail): Sender {
  const sender = senderOf(config.email_from, platform);
  if (!sender) throw new ComposeError("the business has no sender address (settings: email_from) and the platform none (EMAIL_DEFAULT_FROM)");
  return sender;
}

/** The MIME message of a composed e-mail, with its stable Message-ID and the headers every e-mail carries. */
function mime(
  email: EmailRow,
  from: string,
  name: string,
  replyTo: string | null,
  language: string,
  mail: { subject: string; text: string; html: string },
  now: Date,
  attachments: { filename: string; type: string; content: string }[] = [],
): string {
  return buildMime({
    from: { email: from, name },
    to: email.recipient,
    replyTo,
    subject: mail.subject,
    messageId: email.message_id,
    date: now,
    language,
    text: mail.text,
    html: mail.html,
    // Survives a provider that writes its own Message-ID: the same on every attempt of this e-mail.
    headers: { "X-Booking-Email-Id": email.id, "X-Booking-Email-Event": email.event_key },
    attachments,
  });
}

/** A back-office invitation: from the business's settings and the link the outbox keeps until it is sent. */
async function composeInvitation(db: D1, email: EmailRow, now: Date, platform: PlatformMail): Promise<ComposedEmail> {
  const business = await businessById(db, email.business_id);
  if (!business) throw new ComposeError("the business no longer exists");
  const config = business.config;
  const sender = senderOrFail(config, platform);
  const from = sender.address;
  const p = parseJson<{ link?: string; inviter?: string; role?: string; expires_at?: string }>(email.params, {});
  if (!p.link) throw new ComposeError("the invitation's link is no longer kept: invite the person again");
  const language = mailLanguage(email.language, config.default_language);
  const role = p.role === "owner" || p.role === "manager" ? p.role : "front_desk";
  const mail = staffInvitation({
    brand: { name: business.title, color: config.brand_color, contactEmail: config.contact_email, contactPhone: config.contact_phone },
    language,
    inviter: p.inviter ?? business.title,
    role,
    link: p.link,
    expiresAt: p.expires_at ?? "",
  });
  const raw = mime(email, from, business.title, replyToOf(config, sender), language, mail, now);
  const redacted = { ...mail, text: mail.text.replaceAll(p.link, REDACTED_LINK), html: mail.html.replaceAll(p.link, REDACTED_LINK) };
  return { from, to: email.recipient, subject: mail.subject, raw, stored: mime(email, from, business.title, replyToOf(config, sender), language, redacted, now) };
}

/** A back-office password reset: from the business's settings and the link the outbox keeps until it is sent. */
async function composePasswordReset(db: D1, email: EmailRow, now: Date, platform: PlatformMail): Promise<ComposedEmail> {
  const business = await businessById(db, email.business_id);
  if (!business) throw new ComposeError("the business no longer exists");
  const config = business.config;
  const sender = senderOrFail(config, platform);
  const from = sender.address;
  const p = parseJson<{ link?: string; expires_at?: string }>(email.params, {});
  if (!p.link) throw new ComposeError("the reset link is no longer kept: ask for a new one");
  const language = mailLanguage(email.language, config.default_language);
  const mail = staffPasswordReset({
    brand: { name: business.title, color: config.brand_color, contactEmail: config.contact_email, contactPhone: config.contact_phone },
    language,
    email: email.recipient,
    link: p.link,
    expiresAt: p.expires_at ?? "",
  });
  const raw = mime(email, from, business.title, replyToOf(config, sender), language, mail, now);
  const redacted = { ...mail, text: mail.text.replaceAll(p.link, REDACTED_LINK), html: mail.html.replaceAll(p.link, REDACTED_LINK) };
  return { from, to: email.recipient, subject: mail.subject, raw, stored: mime(email, from, business.title, replyToOf(config, sender), language, redacted, now) };
}

/** A warning of failed sign-ins to a staff user's account. */
async function composeSignInAlert(db: D1, email: EmailRow, now: Date, platform: PlatformMail): Promise<ComposedEmail> {
  const business = await businessById(db, email.business_id);
  if (!business) throw new ComposeError("the business no longer exists");
  const config = business.config;
  const sender = senderOrFail(config, platform);
  const from = sender.address;
  const p = parseJson<{ attempts?: number; since?: string }>(email.params, {});
  const language = mailLanguage(email.language, config.default_language);
  const mail = staffSignInAlert({
    brand: { name: business.title, color: config.brand_color, contactEmail: config.contact_email, contactPhone: config.contact_phone },
    language,
    email: email.recipient,
    attempts: p.attempts ?? 0,
    since: p.since ?? "",
  });
  const raw = mime(email, from, business.title, replyToOf(config, sender), language, mail, now);
  return { from, to: email.recipient, subject: mail.subject, raw, stored: raw };
}

/**
 * How `email` is composed: the reads it needs (`statements`, for the caller to send in a batch of
 * its own choosing, e.g. with the attempt's claim) and `finish`, which makes the message from
 * their results. A booking's e-mail reads all it needs in those statements (the catalog, one
 * statement when this process remembers it; the booking; the ledger or the products' own
 * policies for a receipt or the confirmation's dues); a staff e-mail reads its business itself.
 * `finish` throws ComposeError when the e-mail cannot be composed.
 */
export interface Composition {
  statements: D1PreparedStatement[];
  finish(results: D1Result[]): Promise<ComposedEmail>;
}

export function composition(db: D1, email: EmailRow, now: Date, platform: PlatformMail): Composition {
  const own = (compose: typeof composeInvitation): Composition => ({ statements: [], finish: () => compose(db, email, now, platform) });
  if (email.kind === "staff_invitation") return own(composeInvitation);
  if (email.kind === "staff_password_reset") return own(composePasswordReset);
  if (email.kind === "staff_sign_in_alert") return own(composeSignInAlert);
  const bookingId = email.booking_id;
  if (!bookingId) return { statements: [], finish: () => Promise.reject(new ComposeError(`no template for an e-mail of kind ${email.kind}`)) };
  const isReceipt = email.kind === "payment_receipt" || email.kind === "refund_receipt";
  const isConfirmation = email.kind === "booking_confirmation";
  const catalog = snapshotInBatch(db, email.business_id);
  return {
    statements: [
      ...catalog.statements,
      ...bookingMailStatements(db, email.business_id, bookingId),
      ...(isReceipt || isConfirmation ? [ledgerStatement(db, email.business_id, bookingId)] : []),
      ...(isConfirmation ? [bookingPaymentPoliciesStatement(db, email.business_id, bookingId)] : []),
    ],
    finish: async (results) => {
      const snap = await catalog.take(results.slice(0, catalog.statements.length));
      if (!snap) throw new ComposeError("the business no longer exists");
      return composeBooking(email, now, platform, snap, results.slice(catalog.statements.length), { isReceipt, isConfirmation });
    },
  };
}

/** The message of a composition, its reads sent as a round trip of their own. */
export async function composedAlone(db: D1, c: Composition): Promise<ComposedEmail> {
  return c.finish(c.statements.length ? await db.batch(c.statements) : []);
}

/** The message of `email` as it would be sent now, read in one round trip. Throws ComposeError when it cannot be. */
export const composeEmail = (db: D1, email: EmailRow, now: Date, platform: PlatformMail): Promise<ComposedEmail> => composedAlone(db, composition(db, email, now, platform));

/** A booking's e-mail from its reads (bookingMailStatements' results, then the ledger's and the policies' when asked). */
function composeBooking(
  email: EmailRow,
  now: Date,
  platform: PlatformMail,
  snap: CatalogSnapshot,
  reads: D1Result[],
  { isReceipt, isConfirmation }: { isReceipt: boolean; isConfirmation: boolean },
): ComposedEmail {
  const [bookingRes, bookerRes, guestsRes, linesRes, channelRes, ledgerRes, policiesRes] = reads;
  const booking = rowsOf<BookingRow>(bookingRes)[0];
  if (!booking) throw new ComposeError(`booking ${email.booking_id} not found`);
  const config = snap.business.config;
  const sender = senderOrFail(config, platform);
  const from = sender.address;
  const language = mailLanguage(email.language, config.default_language);
  const booker = parseJson<Record<string, unknown>>(rowsOf<{ person_snapshot: string }>(bookerRes)[0]?.person_snapshot, {});
  const phone = typeof booker.phone === "string" ? `${booker.phone_country_calling_code ? `+${booker.phone_country_calling_code} ` : ""}${booker.phone}` : null;
  const params = parseJson<{ terms?: string; url?: string; amount_minor?: number; expires_at?: string; entry_id?: string; due_date?: string }>(email.params, {});
  const lines = rowsOf<LineRow>(linesRes);
  const totals = bookedTotals(booking, snap.currencies, lines);
  const guests = guestsOf(snap, rowsOf<MailGuestRow>(guestsRes), lines, booking, language);
  const client = rowsOf<{ client_id: string; key_name: string | null }>(channelRes)[0];
  const channel: BookingMail["channel"] = !client ? { kind: "back_office" } : client.key_name ? { kind: "api", key: client.key_name } : { kind: "widget" };
  const firstProduct = snap.products.get(rowsOf<MailGuestRow>(guestsRes)[0]?.package_id ?? lines[0]?.product_id ?? 0);
  const location = firstProduct?.location_id ? (snap.lookups.locations.get(firstProduct.location_id) ?? null) : null;
  const toOwner = email.kind === "owner_new_booking" || email.kind === "owner_booking_cancelled";
  const bookerEmail = String(booker.email ?? email.recipient);
  // The confirmation carries the booking's dates as a calendar file.
  const ics =
    email.kind === "booking_confirmation"
      ? calendarFile({
          bookingId: booking.id,
          domain: from.slice(from.lastIndexOf("@") + 1),
          location,
          description: `${snap.business.title} · ${referenceOf(booking.reference_year, booking.reference_number)}`,
          events: calendarEvents(guests, lines, (id) => {
            const p = snap.products.get(id);
            return p ? translated(p, "title", language) : `#${id}`;
          }),
          now,
        })
      : null;
  const dues = isConfirmation ? confirmationDues(snap, booking, lines, totals.total, policiesFrom(policiesRes), rowsOf<PaymentRow>(ledgerRes)) : undefined;
  const data: BookingMail = {
    brand: { name: snap.business.title, color: config.brand_color, contactEmail: config.contact_email, contactPhone: config.contact_phone },
    language,
    reference: referenceOf(booking.reference_year, booking.reference_number),
    currency: totals.currency,
    digits: totals.digits,
    total: totals.total,
    start: booking.start_date,
    end: booking.end_date,
    booker: { firstName: String(booker.first_name ?? ""), name: fullName(booker), email: bookerEmail, phone },
    guests,
    terms: params.terms ?? null,
    newsletter: booking.newsletter_opt_in === 1,
    location,
    legal: { name: snap.business.company_name || snap.business.title, address: config.company_address },
    channel,
    calendar: ics !== null,
    link:
      email.kind === "payment_link" || email.kind === "balance_reminder"
        ? { url: String(params.url ?? ""), amount_minor: Number(params.amount_minor ?? 0), expires_at: String(params.expires_at ?? "") }
        : undefined,
    timeZone: config.time_zone,
    receipt: isReceipt ? receiptOf(ledgerRes ? rowsOf<PaymentRow>(ledgerRes) : [], params.entry_id, totals.total, config.time_zone) : undefined,
    ...(dues ? { dues } : {}),
    ...(email.kind === "balance_reminder" && params.due_date ? { due_date: String(params.due_date) } : {}),
  };
  const template = BOOKING_TEMPLATES[email.kind as BookingMailKind];
  if (!template) throw new ComposeError(`no template for an e-mail of kind ${email.kind}`);
  const mail = template(data);
  // The business's own notification is answered to the booker; the booker's to the business.
  const replyTo = toOwner ? (bookerEmail.includes("@") ? bookerEmail : null) : replyToOf(config, sender);
  const files = ics ? [{ filename: `booking-${data.reference}.ics`, type: "text/calendar; method=PUBLISH", content: ics }] : [];
  const raw = mime(email, from, snap.business.title, replyTo, language, mail, now, files);
  return { from, to: email.recipient, subject: mail.subject, raw, stored: raw };
}

/**
 * What the confirmation says of payment (issue 31): what was paid when it is composed, the
 * deposit and the balance with their dates (domain/booking-dues.ts). Only when the payment policy
 * asks a deposit or a balance due date before the start; otherwise none (the e-mail is as before).
 */
function confirmationDues(
  snap: CatalogSnapshot,
  booking: BookingRow,
  lines: LineRow[],
  total: number,
  own: Map<number, ProductPaymentPolicy>,
  ledger: PaymentRow[],
): BookingMail["dues"] {
  const config = snap.business.config;
  const defaultCurrency = snap.currencies.find((c) => c.is_default)?.iso_code ?? booking.currency;
  const d = bookingDues(config.payment_policy, booking, lines, own, config.time_zone, defaultCurrency);
  if (d.deposit_due === null && d.balance_due_date === booking.start_date) return undefined;
  const paid = paymentTotals(total, ledger);
  return {
    paid_minor: paid.net_paid,
    deposit_minor: d.deposit_due,
    deposit_owed_minor: depositOwed(d, paid.net_paid),
    deposit_date: d.deposit_due_date,
    balance_minor: paid.balance_due,
    balance_date: d.balance_due_date,
  };
}
