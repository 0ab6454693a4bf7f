/**
 * Every word of the e-mails, one table per language. `{name}` placeholders are filled by fill().
 * The widget says the same about payment (widget/src/strings/*-later.ts `done.payment`): nothing
 * is charged online and the business gets in touch about how and when to pay.
 */

export const MAIL_LANGUAGES = ["en", "de", "es"] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export interface MailStrings {
  /**
   * `hello` names nobody: the greeting is where the business speaks, and the name in it would be
   * whatever a stranger typed at checkout ("URGENT: your card was charged..."), sent from the
   * business's address to any address they chose. Names appear only as labelled data (the guests).
   */
  confirmation: { subject: string; heading: string; hello: string; intro: string };
  cancellation: { subject: string; heading: string; hello: string; intro: string; questions: string };
  ownerNew: { subject: string; heading: string; intro: string; newsletterYes: string; newsletterNo: string };
  ownerCancelled: { subject: string; heading: string; intro: string };
  reference: string;
  dates: string;
  guests: string;
  stay: string;
  room: string;
  privateRoom: string;
  extras: string;
  guestTotal: string;
  included: string;
  total: string;
  booker: string;
  nextHeading: string;
  next: string;
  termsHeading: string;
  contactHeading: string;
  replyHint: string;
  times: string;
  days: string;
  automatic: string;
}

const en: MailStrings = {
  confirmation: {
    subject: "Your booking {reference} at {business} is confirmed",
    heading: "Your booking is confirmed",
    hello: "Hello,",
    intro: "thank you for booking with {business}. Your place is confirmed; here is everything you booked.",
  },
  cancellation: {
    subject: "Your booking {reference} at {business} has been cancelled",
    heading: "Your booking has been cancelled",
    hello: "Hello,",
    intro: "your booking {reference} with {business} has been cancelled, and its places have been released.",
    questions: "If you did not expect this, or have a question about a payment, please contact {business}.",
  },
  ownerNew: {
    subject: "New booking {reference}: {booker}, from {start}",
    heading: "New booking {reference}",
    intro: "{booker} booked through the booking widget. Nothing was charged online: get in touch about payment.",
    newsletterYes: "The booker would like to receive your newsletter.",
    newsletterNo: "The booker did not ask for your newsletter.",
  },
  ownerCancelled: {
    subject: "Booking {reference} cancelled: {booker}, from {start}",
    heading: "Booking {reference} cancelled",
    intro: "The booking of {booker} has been cancelled; its places are available again.",
  },
  reference: "Booking reference",
  dates: "Dates",
  guests: "Guests",
  stay: "Stay",
  room: "Room",
  privateRoom: "private room",
  extras: "Extras",
  guestTotal: "Subtotal",
  included: "included",
  total: "Total",
  booker: "Booked by",
  nextHeading: "What happens next",
  next: "Nothing has been charged online. {business} will contact you about how and when to pay.",
  termsHeading: "The booking terms you accepted",
  contactHeading: "Contact",
  replyHint: "Reply to this e-mail to reach {business}.",
  times: "{n}×",
  days: "{n} days",
  automatic: "This e-mail was sent automatically by the booking system of {business}.",
};

const de: MailStrings = {
  confirmation: {
    subject: "Ihre Buchung {reference} bei {business} ist bestätigt",
    heading: "Ihre Buchung ist bestätigt",
    hello: "Hallo,",
    intro: "vielen Dank für Ihre Buchung bei {business}. Ihr Platz ist bestätigt; hier ist alles, was Sie gebucht haben.",
  },
  cancellation: {
    subject: "Ihre Buchung {reference} bei {business} wurde storniert",
    heading: "Ihre Buchung wurde storniert",
    hello: "Hallo,",
    intro: "Ihre Buchung {reference} bei {business} wurde storniert, die Plätze sind freigegeben.",
    questions: "Wenn Sie das nicht erwartet haben oder eine Frage zu einer Zahlung haben, wenden Sie sich bitte an {business}.",
  },
  ownerNew: {
    subject: "Neue Buchung {reference}: {booker}, ab {start}",
    heading: "Neue Buchung {reference}",
    intro: "{booker} hat über das Buchungs-Widget gebucht. Online wurde nichts abgebucht: Bitte melden Sie sich wegen der Zahlung.",
    newsletterYes: "Die buchende Person möchte Ihren Newsletter erhalten.",
    newsletterNo: "Die buchende Person hat keinen Newsletter bestellt.",
  },
  ownerCancelled: {
    subject: "Buchung {reference} storniert: {booker}, ab {start}",
    heading: "Buchung {reference} storniert",
    intro: "Die Buchung von {booker} wurde storniert; die Plätze sind wieder verfügbar.",
  },
  reference: "Buchungsnummer",
  dates: "Zeitraum",
  guests: "Gäste",
  stay: "Aufenthalt",
  room: "Zimmer",
  privateRoom: "Privatzimmer",
  extras: "Extras",
  guestTotal: "Zwischensumme",
  included: "inklusive",
  total: "Gesamt",
  booker: "Gebucht von",
  nextHeading: "Wie es weitergeht",
  next: "Online wurde nichts abgebucht. {business} meldet sich bei Ihnen, wie und wann Sie bezahlen.",
  termsHeading: "Die Buchungsbedingungen, die Sie akzeptiert haben",
  contactHeading: "Kontakt",
  replyHint: "Antworten Sie auf diese E-Mail, um {business} zu erreichen.",
  times: "{n}×",
  days: "{n} Tage",
  automatic: "Diese E-Mail wurde automatisch vom Buchungssystem von {business} gesendet.",
};

const es: MailStrings = {
  confirmation: {
    subject: "Tu reserva {reference} en {business} está confirmada",
    heading: "Tu reserva está confirmada",
    hello: "Hola:",
    intro: "gracias por reservar con {business}. Tu plaza está confirmada; aquí tienes todo lo que has reservado.",
  },
  cancellation: {
    subject: "Tu reserva {reference} en {business} ha sido cancelada",
    heading: "Tu reserva ha sido cancelada",
    hello: "Hola:",
    intro: "tu reserva {reference} con {business} ha sido cancelada y sus plazas han quedado libres.",
    questions: "Si no lo esperabas o tienes una pregunta sobre un pago, ponte en contacto con {business}.",
  },
  ownerNew: {
    subject: "Nueva reserva {reference}: {booker}, desde el {start}",
    heading: "Nueva reserva {reference}",
    intro: "{booker} ha reservado con el widget de reservas. No se ha cobrado nada en línea: ponte en contacto para el pago.",
    newsletterYes: "La persona que reserva quiere recibir tu boletín.",
    newsletterNo: "La persona que reserva no ha pedido tu boletín.",
  },
  ownerCancelled: {
    subject: "Reserva {reference} cancelada: {booker}, desde el {start}",
    heading: "Reserva {reference} cancelada",
    intro: "La reserva de {booker} ha sido cancelada; sus plazas vuelven a estar disponibles.",
  },
  reference: "Referencia de la reserva",
  dates: "Fechas",
  guests: "Huéspedes",
  stay: "Estancia",
  room: "Habitación",
  privateRoom: "habitación privada",
  extras: "Extras",
  guestTotal: "Subtotal",
  included: "incluido",
  total: "Total",
  booker: "Reservado por",
  nextHeading: "Qué pasa ahora",
  next: "No se ha cobrado nada en línea. {business} te dirá cómo y cuándo pagar.",
  termsHeading: "Las condiciones de reserva que aceptaste",
  contactHeading: "Contacto",
  replyHint: "Responde a este correo para contactar con {business}.",
  times: "{n}×",
  days: "{n} días",
  automatic: "Este correo lo ha enviado automáticamente el sistema de reservas de {business}.",
};

export const MAIL_STRINGS: Record<MailLanguage, MailStrings> = { en, de, es };

export const isMailLanguage = (value: string | null | undefined): value is MailLanguage =>
  (MAIL_LANGUAGES as readonly string[]).includes(value ?? "");

/**
 * The language of an e-mail: the one asked for (the booker's) when there are e-mails in it, else
 * the business's default when there are, else English.
 */
export function mailLanguage(requested: string | null | undefined, businessDefault: string): MailLanguage {
  if (isMailLanguage(requested)) return requested;
  if (isMailLanguage(businessDefault)) return businessDefault;
  return "en";
}

/** `text` with each `{key}` replaced by its value (one fill for the widget's texts and these). */
export { fill } from "../../contract/fill";
