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
  /** `intro`: through which channel the booking came (widget, an API key by name, the back office). */
  ownerNew: { subject: string; heading: string; intro: { widget: string; api: string; back_office: string }; unpaid: string; newsletterYes: string; newsletterNo: string };
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
  /** The footer of the business's own notifications: why it gets them, and that a reply reaches the booker. */
  ownerFooter: string;
  location: string;
  srs: string;
  /** The calendar file attached to a confirmation. */
  calendarHint: string;
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
    intro: { widget: "{booker} booked through the booking widget on your website.", api: "{booker} booked through the API, with the key \u201c{key}\u201d.", back_office: "{booker} was booked in the back office." },
    unpaid: "Nothing was charged online: get in touch about payment.",
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
  ownerFooter: "You get this e-mail because this address is one of the notification addresses in the settings of {business}. A reply goes to the booker.",
  location: "Location",
  srs: "Single room supplement",
  calendarHint: "The attached calendar file (.ics) adds your dates to your calendar.",
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
    intro: { widget: "{booker} hat über das Buchungs-Widget auf Ihrer Website gebucht.", api: "{booker} hat über die API gebucht, mit dem Schlüssel \u201e{key}\u201c.", back_office: "{booker} wurde im Back Office gebucht." },
    unpaid: "Online wurde nichts abgebucht: Bitte melden Sie sich wegen der Zahlung.",
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
  ownerFooter: "Sie erhalten diese E-Mail, weil diese Adresse in den Einstellungen von {business} für Benachrichtigungen eingetragen ist. Eine Antwort geht an die buchende Person.",
  location: "Ort",
  srs: "Einzelzimmerzuschlag",
  calendarHint: "Mit der angehängten Kalenderdatei (.ics) tragen Sie Ihre Termine in Ihren Kalender ein.",
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
    intro: { widget: "{booker} ha reservado con el widget de reservas de tu web.", api: "{booker} ha reservado a través de la API, con la clave \u00ab{key}\u00bb.", back_office: "{booker} ha sido reservado en el back office." },
    unpaid: "No se ha cobrado nada en línea: ponte en contacto para el pago.",
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
  ownerFooter: "Recibes este correo porque esta dirección figura entre las direcciones de aviso en los ajustes de {business}. Una respuesta llega a quien ha reservado.",
  location: "Lugar",
  srs: "Suplemento de habitación individual",
  calendarHint: "El archivo de calendario adjunto (.ics) añade tus fechas a tu calendario.",
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
