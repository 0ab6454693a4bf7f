/**
 * The e-mails about a booking, as pure functions of its data: to the booker (confirmation,
 * cancellation, payment link, receipt) and to the business (new booking, cancelled booking). Each gives the subject, the
 * plain text and the HTML, in one language.
 */
import { esc, frame, html, type MailBrand } from "./layout";
import { fill, MAIL_STRINGS, type MailLanguage, type MailStrings } from "./strings";

export interface MailLine {
  title: string;
  qty: number;
  /** As booked: 'YYYY-MM-DD' or, for timeslots, 'YYYY-MM-DD HH:mm:ss'. */
  dates: string[];
  /** Minor units of the booking's currency. */
  price: number;
}

export interface MailGuest {
  name: string;
  /** The package's title, in the e-mail's language where the catalog has it. */
  stay: string;
  start: string;
  end: string;
  /** Minor units: the package's own price (its line). */
  stayPrice: number;
  room: string | null;
  /** Minor units: the room's line; null without a room. */
  roomPrice: number | null;
  privateRoom: boolean;
  /** Minor units: the single room supplement's line; null without one. */
  srsPrice: number | null;
  extras: MailLine[];
  /** Minor units: the guest's package, room and extras. */
  total: number;
}

export interface BookingMail {
  brand: MailBrand;
  language: MailLanguage;
  /** "2026-1001" */
  reference: string;
  currency: string;
  /** Minor digits of the currency. */
  digits: number;
  /** Minor units. */
  total: number;
  start: string;
  end: string;
  booker: { firstName: string; name: string; email: string; phone: string | null };
  guests: MailGuest[];
  /** The terms the booker accepted, in their language (null when not known). */
  terms: string | null;
  newsletter: boolean;
  /** Where the booking takes place (the first product's location), in the e-mail's language. */
  location: string | null;
  /** Who sells: the legal name (company_name, else the title) and its postal address, shown in the footer. */
  legal: { name: string; address: string | null };
  /** How the booking came: the widget, an API key (by its name) or the back office. */
  channel: { kind: "widget" } | { kind: "api"; key: string } | { kind: "back_office" };
  /** Whether a calendar file (.ics) rides with the e-mail. */
  calendar: boolean;
  /** A payment link's: where to pay, how much (minor units), until when (ISO 8601). */
  link?: { url: string; amount_minor: number; expires_at: string };
  /** The business's IANA time zone: a payment link's expiry is shown in it (default UTC). */
  timeZone?: string;
  /** A receipt's: the ledger entry it is for. */
  receipt?: MailReceipt;
  /**
   * What was paid and what is due by when (minor units; dates YYYY-MM-DD), when the business's
   * payment policy asks a deposit or a balance date (domain/booking-dues.ts); absent otherwise.
   */
  dues?: { paid_minor: number; deposit_minor: number | null; deposit_owed_minor: number | null; deposit_date: string | null; balance_minor: number; balance_date: string };
  /** A balance reminder's due date (YYYY-MM-DD). */
  due_date?: string;
}

/** What a receipt states of its ledger entry; amounts in minor units of the booking's currency. */
export interface MailReceipt {
  kind: "payment" | "refund";
  /** "2026-000123" */
  number: string;
  /** When the entry succeeded: 'YYYY-MM-DD' in the business's time zone. */
  date: string;
  amount: number;
  method: keyof MailStrings["methods"];
  /** A refund's reason, as recorded. */
  reason: string | null;
  /** A refund's payment: its receipt number (null for one from before receipts were numbered) and its date. */
  refundOf: { number: string | null; date: string } | null;
  /** The net paid (payments less refunds) once this entry counted. */
  paidNet: number;
  /** What the booking still owed once this entry counted (never below 0). */
  balance: number;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

export type BookingMailKind = "booking_confirmation" | "booking_cancelled" | "owner_new_booking" | "owner_booking_cancelled" | "payment_link" | "payment_receipt" | "refund_receipt" | "balance_reminder";

/**
 * Intl's formatters, made once per language and options in this process and used for every
 * e-mail after: making one costs far more than formatting with it (a confirmation formats a dozen
 * dates and amounts). The keys come from bounded sets (the mail languages, ISO 4217 currencies,
 * IANA zones).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formatters.get(key) as T | undefined;
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/** Amounts in the booking's currency, as the language writes them ("€1,234.50", "1.234,50 €"). */
export function money(minor: number, currency: string, digits: number, language: string): string {
  const f = formatter(`money|${language}|${currency}|${digits}`, () => new Intl.NumberFormat(language, { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits }));
  return f.format(minor / 10 ** digits);
}

/** "Sat, 5 Dec 2026, 14:00 GMT" in the language: an instant (ISO 8601) as the clock shows it in `timeZone`, the zone named. */
export function instant(iso: string, language: string, timeZone = "UTC"): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const f = formatter(`instant|${language}|${timeZone}`, () => new Intl.DateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone, timeZoneName: "short" }));
  return f.format(d);
}

/** "Sat, 5 Dec 2026" in the language. */
export function day(iso: string, language: string): string {
  const f = formatter(`day|${language}`, () => new Intl.DateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }));
  return f.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
}

function slot(date: string, language: string): string {
  const d = new Date(`${date.slice(0, 10)}T${date.slice(11, 19) || "00:00:00"}Z`);
  const f = formatter(`slot|${language}`, () => new Intl.DateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }));
  return f.format(d);
}

const range = (start: string, end: string, language: string) => `${day(start, language)} – ${day(end, language)}`;

/** What one extra says beside its title: its timeslots, or how many. */
function lineDetail(l: MailLine, s: MailStrings, language: string): string {
  const timed = l.dates.filter((d) => d.length > 10);
  if (timed.length) return timed.map((d) => slot(d, language)).join(", ");
  return l.qty > 1 ? fill(s.times, { n: l.qty }) : "";
}

interface Parts {
  s: MailStrings;
  m: BookingMail;
  amount: (minor: number) => string;
  /** An extra's price: "included" when it costs nothing of its own. */
  price: (minor: number) => string;
  vars: Record<string, string>;
}

function partsOf(m: BookingMail): Parts {
  const s = MAIL_STRINGS[m.language];
  return {
    s,
    m,
    amount: (minor) => money(minor, m.currency, m.digits, m.language),
    price: (minor) => (minor === 0 ? s.included : money(minor, m.currency, m.digits, m.language)),
    vars: { business: m.brand.name, reference: m.reference, booker: m.booker.name, start: day(m.start, m.language), key: m.channel.kind === "api" ? m.channel.key : "" },
  };
}

/** The guests with their stay, room and extras: as text lines and as HTML cards. */
function guestsBlock({ s, m, amount, price }: Parts, withPrices: boolean): { text: string[]; html: string } {
  const text: string[] = [];
  let cards = "";
  for (const g of m.guests) {
    const room = g.room ? `${g.room}${g.privateRoom ? ` (${s.privateRoom})` : ""}` : null;
    const withPrice = (label: string, minor: number | null) => (withPrices && minor !== null ? `${label}: ${price(minor)}` : label);
    text.push(`* ${g.name}`, `  ${s.stay}: ${withPrice(`${g.stay}, ${range(g.start, g.end, m.language)}`, g.stayPrice)}`);
    if (room) text.push(`  ${s.room}: ${withPrice(room, g.roomPrice)}`);
    if (g.srsPrice !== null) text.push(`  + ${withPrice(s.srs, g.srsPrice)}`);
    for (const e of g.extras) {
      const detail = lineDetail(e, s, m.language);
      text.push(`  + ${e.title}${detail ? ` (${detail})` : ""}${withPrices ? `: ${price(e.price)}` : ""}`);
    }
    if (withPrices) text.push(`  ${s.guestTotal}: ${amount(g.total)}`);
    text.push("");
    const rows: [string, string, boolean?][] = [];
    if (withPrices) rows.push([g.stay, price(g.stayPrice)]);
    if (withPrices && room && g.roomPrice !== null) rows.push([`${s.room}: ${room}`, price(g.roomPrice)]);
    if (withPrices && g.srsPrice !== null) rows.push([s.srs, price(g.srsPrice)]);
    for (const e of g.extras) {
      const detail = lineDetail(e, s, m.language);
      rows.push([`${e.title}${detail ? ` (${detail})` : ""}`, withPrices ? price(e.price) : ""]);
    }
    if (withPrices) rows.push([s.guestTotal, amount(g.total), true]);
    cards += html.card(
      `<p style="margin:0 0 4px;font-weight:700">${esc(g.name)}</p>` +
        `<p style="margin:0 0 4px">${esc(g.stay)} · ${esc(range(g.start, g.end, m.language))}</p>` +
        (room ? `<p style="margin:0 0 8px">${esc(s.room)}: ${esc(room)}</p>` : "") +
        (g.extras.length ? `<p style="margin:8px 0 0;font-size:14px;color:#52606d">${esc(s.extras)}</p>` : "") +
        (rows.length ? html.rows(rows) : ""),
    );
  }
  return { text, html: cards };
}

function contactLines({ m }: Parts): string[] {
  return [m.legal.name, m.legal.address, m.brand.contactEmail, m.brand.contactPhone].filter((x): x is string => !!x);
}

/** The contact block; `toOwner`: the business's own notification (a reply reaches the booker, not the business). */
function footer(p: Parts, toOwner: boolean): { text: string[]; html: string } {
  const { s, m } = p;
  const contact = contactLines(p);
  const hint = fill(toOwner ? s.ownerFooter : s.replyHint, p.vars);
  const auto = fill(s.automatic, p.vars);
  const mail = m.brand.contactEmail;
  return {
    text: ["--", `${s.contactHeading}: ${contact.join(" · ")}`, hint, auto],
    html:
      `<p style="margin:0 0 6px"><strong>${esc(s.contactHeading)}:</strong> ${esc(m.legal.name)}` +
      (m.legal.address ? ` · ${esc(m.legal.address)}` : "") +
      (mail ? ` · <a href="mailto:${esc(mail)}" style="color:#1f2933">${esc(mail)}</a>` : "") +
      (m.brand.contactPhone ? ` · ${esc(m.brand.contactPhone)}` : "") +
      `</p><p style="margin:0 0 6px">${esc(hint)}</p><p style="margin:0">${esc(auto)}</p>`,
  };
}

function render(p: Parts, subject: string, heading: string, preheader: string, textBody: string[], htmlBody: string, toOwner = false): ComposedMail {
  const foot = footer(p, toOwner);
  return {
    subject,
    text: [heading, "", ...textBody, ...foot.text].join("\n") + "\n",
    html: frame(p.m.brand, p.m.language, subject, preheader, html.h1(heading) + htmlBody, foot.html),
  };
}

/** The summary rows every booking e-mail starts with. */
function summary({ s, m, amount }: Parts, withTotal: boolean): { text: string[]; html: string } {
  const rows: [string, string, boolean?][] = [
    [s.reference, m.reference, true],
    [s.dates, range(m.start, m.end, m.language)],
    ...(m.location ? [[s.location, m.location] as [string, string]] : []),
    ...(withTotal ? [[s.total, amount(m.total), true] as [string, string, boolean]] : []),
  ];
  return { text: rows.map(([k, v]) => `${k}: ${v}`), html: html.rows(rows) };
}

/** To the booker, when the booking is made. */
export function bookingConfirmation(m: BookingMail): ComposedMail {
  const p = partsOf(m);
  const { s, vars } = p;
  const top = summary(p, true);
  const guests = guestsBlock(p, true);
  const next = fill(s.next, vars);
  // With a deposit or a balance date, what was paid and what is due by when replaces "nothing charged, we will contact you".
  const dues = m.dues ? duesRows(p, m.dues) : null;
  const text = [
    fill(s.confirmation.hello, vars),
    fill(s.confirmation.intro, vars),
    "",
    ...top.text,
    "",
    `${s.guests}:`,
    ...guests.text,
    `${s.total}: ${p.amount(m.total)}`,
    "",
    ...(dues ? [`${s.dues.heading}:`, ...dues.map(([k, v]) => `${k}: ${v}`)] : [`${s.nextHeading}:`, next]),
    "",
    ...(m.terms ? [`${s.termsHeading}:`, m.terms, ""] : []),
    ...(m.calendar ? [s.calendarHint, ""] : []),
  ];
  const body =
    html.p(fill(s.confirmation.hello, vars)) +
    html.p(fill(s.confirmation.intro, vars)) +
    top.html +
    html.h2(s.guests) +
    guests.html +
    html.rows([[s.total, p.amount(m.total), true]]) +
    (dues ? html.h2(s.dues.heading) + html.rows(dues.map(([k, v]) => [k, v, false])) : html.h2(s.nextHeading) + html.p(next)) +
    (m.terms ? html.h2(s.termsHeading) + html.small(m.terms) : "") +
    (m.calendar ? html.p(s.calendarHint) : "");
  const subject = fill(s.confirmation.subject, vars);
  return render(p, subject, s.confirmation.heading, `${m.reference} · ${p.amount(m.total)}`, text, body);
}

/** To the booker, when the booking is cancelled. */
export function bookingCancellation(m: BookingMail): ComposedMail {
  const p = partsOf(m);
  const { s, vars } = p;
  const top = summary(p, false);
  const guests = guestsBlock(p, false);
  const text = [fill(s.cancellation.hello, vars), fill(s.cancellation.intro, vars), "", ...top.text, "", `${s.guests}:`, ...guests.text, fill(s.cancellation.questions, vars), ""];
  const body =
    html.p(fill(s.cancellation.hello, vars)) +
    html.p(fill(s.cancellation.intro, vars)) +
    top.html +
    html.h2(s.guests) +
    guests.html +
    html.p(fill(s.cancellation.questions, vars));
  return render(p, fill(s.cancellation.subject, vars), s.cancellation.heading, m.reference, text, body);
}

function bookerLines({ s, m }: Parts): { text: string[]; html: string } {
  const parts = [m.booker.name, m.booker.email, m.booker.phone].filter((x): x is string => !!x);
  return {
    text: [`${s.booker}: ${parts.join(" · ")}`],
    html:
      `<p style="margin:12px 0"><strong>${esc(s.booker)}:</strong> ${esc(m.booker.name)} · ` +
      `<a href="mailto:${esc(m.booker.email)}" style="color:#1f2933">${esc(m.booker.email)}</a>` +
      (m.booker.phone ? ` · ${esc(m.booker.phone)}` : "") +
      "</p>",
  };
}

/** To the business's notification addresses, when a booking is made. */
export function ownerNewBooking(m: BookingMail): ComposedMail {
  const p = partsOf(m);
  const { s, vars } = p;
  const top = summary(p, true);
  const who = bookerLines(p);
  const guests = guestsBlock(p, true);
  const newsletter = m.newsletter ? s.ownerNew.newsletterYes : s.ownerNew.newsletterNo;
  const intro = fill(s.ownerNew.intro[m.channel.kind], vars);
  const unpaid = s.ownerNew.unpaid;
  const text = [intro, unpaid, "", ...top.text, ...who.text, "", `${s.guests}:`, ...guests.text, `${s.total}: ${p.amount(m.total)}`, newsletter, ""];
  const body = html.p(`${intro} ${unpaid}`) + top.html + who.html + html.h2(s.guests) + guests.html + html.rows([[s.total, p.amount(m.total), true]]) + html.p(newsletter);
  return render(p, fill(s.ownerNew.subject, vars), fill(s.ownerNew.heading, vars), intro, text, body, true);
}

/** To the business's notification addresses, when a booking is cancelled. */
export function ownerBookingCancelled(m: BookingMail): ComposedMail {
  const p = partsOf(m);
  const { s, vars } = p;
  const top = summary(p, true);
  const who = bookerLines(p);
  const guests = guestsBlock(p, false);
  const intro = fill(s.ownerCancelled.intro, vars);
  const text = [intro, "", ...top.text, ...who.text, "", `${s.guests}:`, ...guests.text];
  const body = html.p(intro) + top.html + who.html + html.h2(s.guests) + guests.html;
  return render(p, fill(s.ownerCancelled.subject, vars), fill(s.ownerCancelled.heading, vars), intro, text, body, true);
}

/** To the booker: a payment link (manage/stripe.ts), its amount and until when it works. */
export function paymentLinkMail(m: BookingMail): ComposedMail {
  return linkMail(m, (s) => s.paymentLink);
}

/**
 * A link to pay with what it is for: the payment link e-mail (staff or the API sent it), and the
 * balance-due reminder (the scheduled upkeep), which also says by when (`{due}`).
 */
function linkMail(m: BookingMail, texts: (s: MailStrings) => MailStrings["paymentLink"], more: Record<string, string> = {}): ComposedMail {
  const p = partsOf(m);
  const { s } = p;
  const t = texts(s);
  const link = m.link ?? { url: "", amount_minor: 0, expires_at: "" };
  // until when, as the business's clock shows it (the time zone named): where the guest usually is
  const vars = { ...p.vars, ...more, amount: p.amount(link.amount_minor), expires: link.expires_at ? instant(link.expires_at, m.language, m.timeZone) : "" };
  const top = summary(p, true);
  const guests = guestsBlock(p, true);
  const button = fill(t.button, vars);
  const text = [
    fill(t.hello, vars),
    fill(t.intro, vars),
    "",
    ...top.text,
    "",
    ...(m.guests.length ? [`${s.guests}:`, ...guests.text] : []),
    `${t.amount}: ${vars.amount}`,
    "",
    `${button}: ${link.url}`,
    fill(t.expires, vars),
    "",
  ];
  const body =
    html.p(fill(t.hello, vars)) +
    html.p(fill(t.intro, vars)) +
    top.html +
    (m.guests.length ? html.h2(s.guests) + guests.html : "") +
    html.rows([[t.amount, vars.amount, true]]) +
    `<p style="margin:16px 0"><a href="${esc(link.url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${esc(m.brand.color)};color:#ffffff;text-decoration:none;font-weight:bold">${esc(button)}</a></p>` +
    html.p(fill(t.expires, vars));
  return render(p, fill(t.subject, vars), t.heading, `${m.reference} · ${vars.amount}`, text, body);
}

/**
 * To the booker: the receipt of a payment or a refund of the ledger. Its number, date, the booking,
 * the amount and how it was paid (or, for a refund, what was refunded: which payment, why), what the
 * booking's lines are (what was paid for), and what is paid and still due once it counted.
 */
export function receiptMail(m: BookingMail): ComposedMail {
  const p = partsOf(m);
  const { s, amount } = p;
  const r: MailReceipt = m.receipt ?? { kind: "payment", number: "", date: m.start, amount: 0, method: "other", reason: null, refundOf: null, paidNet: 0, balance: m.total };
  const t = s.receipt;
  const vars = { ...p.vars, number: r.number, amount: amount(r.amount) };
  const refund = r.kind === "refund";
  const rows: [string, string, boolean?][] = [
    [t.number, r.number, true],
    [t.date, day(r.date, m.language)],
    [s.reference, m.reference],
    [refund ? t.amountRefunded : t.amountPaid, amount(r.amount), true],
    [t.method, s.methods[r.method] ?? r.method],
    ...(r.refundOf ? [[t.refundOf, [r.refundOf.number, day(r.refundOf.date, m.language)].filter(Boolean).join(", ")] as [string, string]] : []),
    ...(refund && r.reason ? [[t.reason, r.reason] as [string, string]] : []),
  ];
  const after: [string, string, boolean?][] = [
    [s.total, amount(m.total)],
    [t.paidNet, amount(r.paidNet)],
    [t.balance, amount(r.balance), true],
  ];
  const guests = guestsBlock(p, true);
  const intro = fill(refund ? t.refundIntro : t.paymentIntro, vars);
  const text = [
    t.hello,
    intro,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    `${t.paidFor}:`,
    `${s.dates}: ${range(m.start, m.end, m.language)}`,
    ...guests.text,
    ...after.map(([k, v]) => `${k}: ${v}`),
    "",
    t.notInvoice,
    "",
  ];
  const body =
    html.p(t.hello) +
    html.p(intro) +
    html.rows(rows) +
    html.h2(t.paidFor) +
    html.rows([[s.dates, range(m.start, m.end, m.language)]]) +
    guests.html +
    html.rows(after) +
    html.small(t.notInvoice);
  const subject = fill(refund ? t.refundSubject : t.paymentSubject, vars);
  return render(p, subject, refund ? t.refundHeading : t.paymentHeading, `${r.number} · ${vars.amount}`, text, body);
}

/** The confirmation's payment rows: paid so far, the deposit and the balance, each with its date. */
function duesRows(p: Parts, d: NonNullable<BookingMail["dues"]>): [string, string][] {
  const { s, m } = p;
  const when = (amount: number, date: string | null) => (amount > 0 && date ? fill(s.dues.dueBy, { amount: p.amount(amount), date: day(date, m.language) }) : fill(s.dues.settled, { amount: p.amount(amount) }));
  const rows: [string, string][] = [];
  if (d.paid_minor > 0) rows.push([s.dues.paid, p.amount(d.paid_minor)]);
  if (d.deposit_minor !== null) rows.push([s.dues.deposit, d.deposit_owed_minor ? when(d.deposit_owed_minor, d.deposit_date) : fill(s.dues.settled, { amount: p.amount(d.deposit_minor) })]);
  rows.push([s.dues.balance, d.balance_minor > 0 ? when(d.balance_minor, d.balance_date) : fill(s.dues.settled, { amount: p.amount(0) })]);
  return rows;
}

/** To the booker: the balance-due reminder (the scheduled upkeep), with a payment link for the balance and the date it is due. */
export function balanceReminderMail(m: BookingMail): ComposedMail {
  return linkMail(m, (s) => s.balanceReminder, { due: m.due_date ? day(m.due_date, m.language) : "" });
}

export const BOOKING_TEMPLATES: Record<BookingMailKind, (m: BookingMail) => ComposedMail> = {
  balance_reminder: balanceReminderMail,
  payment_link: paymentLinkMail,
  booking_confirmation: bookingConfirmation,
  booking_cancelled: bookingCancellation,
  owner_new_booking: ownerNewBooking,
  owner_booking_cancelled: ownerBookingCancelled,
  payment_receipt: receiptMail,
  refund_receipt: receiptMail,
};
