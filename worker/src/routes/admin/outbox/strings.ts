/**
 * The back office's strings: the Outbox's, in English (the source) and in German and Spanish,
 * typed by the English: a missing or misspelt key fails the build.
 */
const en = {
  emails: {
    title: "Outbox",
    intro: "Every e-mail sent to your guests and to you. Locally nothing leaves the machine: the messages are kept here as they were handed over.",
    created: "Written",
    kind: "E-mail",
    recipient: "To",
    subject: "Subject",
    status: "Status",
    notComposed: "(not written yet)",
    kinds: { staff_password_reset: "Password reset", staff_invitation: "Back-office invitation", booking_confirmation: "Booking confirmation", booking_cancelled: "Cancellation", owner_new_booking: "New booking (to you)", owner_booking_cancelled: "Cancelled booking (to you)", staff_sign_in_alert: "Failed sign-ins warning" } as Record<string, string>,
    statuses: { pending: "Waiting", sending: "Sending", retrying: "Will retry", sent: "Sent", failed: "Failed" } as Record<string, string>,
    reason: "Why",
    nextAttempt: (at: string) => `Next attempt ${at} UTC`,
    attempts: (n: number) => `${n} attempt(s)`,
    duplicate: "A sending attempt was cut off and made again: the recipient may have this e-mail twice (with the same Message-ID).",
    message: "The message as sent",
    raw: "The whole message (MIME)",
    resend: "Send again",
    resent: "The e-mail will be sent again.",
    resendOf: "A resend of",
    booking: "Booking",
    all: "All",
  },
};

const de: typeof en = {
  emails: {
    title: "Postausgang",
    intro: "Jede E-Mail an Ihre Gäste und an Sie. Lokal verlässt nichts den Rechner: die Nachrichten stehen hier so, wie sie übergeben wurden.",
    created: "Erstellt",
    kind: "E-Mail",
    recipient: "An",
    subject: "Betreff",
    status: "Status",
    notComposed: "(noch nicht geschrieben)",
    kinds: { staff_password_reset: "Passwort zurücksetzen", staff_invitation: "Einladung ins Backoffice", booking_confirmation: "Buchungsbestätigung", booking_cancelled: "Stornierung", owner_new_booking: "Neue Buchung (an Sie)", owner_booking_cancelled: "Stornierte Buchung (an Sie)", staff_sign_in_alert: "Warnung: fehlgeschlagene Anmeldungen" } as Record<string, string>,
    statuses: { pending: "Wartet", sending: "Wird gesendet", retrying: "Neuer Versuch folgt", sent: "Gesendet", failed: "Fehlgeschlagen" } as Record<string, string>,
    reason: "Grund",
    nextAttempt: (at: string) => `Nächster Versuch ${at} UTC`,
    attempts: (n: number) => `${n} Versuch(e)`,
    duplicate: "Ein Sendeversuch wurde unterbrochen und wiederholt: die Empfängerin hat diese E-Mail vielleicht zweimal (mit derselben Message-ID).",
    message: "Die Nachricht, wie sie gesendet wurde",
    raw: "Die ganze Nachricht (MIME)",
    resend: "Erneut senden",
    resent: "Die E-Mail wird erneut gesendet.",
    resendOf: "Erneut gesendet von",
    booking: "Buchung",
    all: "Alle",
  },
};

const es: typeof en = {
  emails: {
    title: "Bandeja de salida",
    intro: "Cada correo enviado a tus huéspedes y a ti. En local nada sale del equipo: los mensajes se guardan aquí tal como se entregaron.",
    created: "Escrito",
    kind: "Correo",
    recipient: "Para",
    subject: "Asunto",
    status: "Estado",
    notComposed: "(aún no escrito)",
    kinds: { staff_password_reset: "Restablecer contraseña", staff_invitation: "Invitación al back office", booking_confirmation: "Confirmación de reserva", booking_cancelled: "Cancelación", owner_new_booking: "Nueva reserva (para ti)", owner_booking_cancelled: "Reserva cancelada (para ti)", staff_sign_in_alert: "Aviso: inicios de sesión fallidos" } as Record<string, string>,
    statuses: { pending: "En espera", sending: "Enviando", retrying: "Se reintentará", sent: "Enviado", failed: "Fallido" } as Record<string, string>,
    reason: "Motivo",
    nextAttempt: (at: string) => `Próximo intento ${at} UTC`,
    attempts: (n: number) => `${n} intento(s)`,
    duplicate: "Un intento de envío se cortó y se repitió: puede que el destinatario tenga este correo dos veces (con el mismo Message-ID).",
    message: "El mensaje tal como se envió",
    raw: "El mensaje completo (MIME)",
    resend: "Enviar de nuevo",
    resent: "El correo se enviará de nuevo.",
    resendOf: "Reenvío de",
    booking: "Reserva",
    all: "Todos",
  },
};

export const outboxStrings = { en, de, es };
