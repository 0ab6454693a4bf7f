/**
 * Every word of the e-mails, one table per language. `{name}` placeholders are filled by fill().
 * The widget says the same about payment (widget/src/strings/*-later.ts `done.payment`): nothing
 * is charged online and the business gets in touch about how and when to pay.
 */

export const MAIL_LANGUAGES = ["en", "de", "es", "pt", "fr", "it", "nl"] as const;
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
  /** A payment link to the booker: `{amount}`, `{expires}`. */
  paymentLink: { subject: string; heading: string; hello: string; intro: string; button: string; expires: string; amount: string };
  /**
   * A receipt for a payment or a refund of the ledger: `{number}` (the receipt number), `{amount}`.
   * Receipts, not tax invoices (those come later, per country): `notInvoice` says so.
   */
  receipt: {
    paymentSubject: string;
    refundSubject: string;
    paymentHeading: string;
    refundHeading: string;
    hello: string;
    paymentIntro: string;
    refundIntro: string;
    number: string;
    date: string;
    amountPaid: string;
    amountRefunded: string;
    method: string;
    refundOf: string;
    reason: string;
    paidFor: string;
    paidNet: string;
    balance: string;
    notInvoice: string;
  };
  /** The ledger's payment methods (contract/payments.ts PAYMENT_METHODS), as a guest reads them. */
  methods: { stripe: string; bank_transfer: string; cash: string; card_terminal: string; other: string };
  /** The balance-due reminder with a payment link (the scheduled upkeep): `{amount}`, `{due}`, `{expires}`. */
  balanceReminder: { subject: string; heading: string; hello: string; intro: string; button: string; expires: string; amount: string };
  /** What the confirmation says of payment when the policy asks a deposit or a balance date: `{amount}`, `{date}`. */
  dues: { heading: string; paid: string; deposit: string; balance: string; dueBy: string; settled: string };
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
  balanceReminder: {
    subject: "Reminder: {amount} due by {due} for your booking {reference} at {business}",
    heading: "Your balance is due soon",
    hello: "Hello,",
    intro: "the balance of your booking {reference} with {business}, {amount}, is due by {due}. You can pay it securely on Stripe's payment page.",
    button: "Pay {amount} now",
    expires: "The link works until {expires}.",
    amount: "Balance due",
  },
  dues: {
    heading: "Payment",
    paid: "Paid so far",
    deposit: "Deposit",
    balance: "Balance",
    dueBy: "{amount}, due by {date}",
    settled: "{amount}, paid",
  },
  paymentLink: {
    subject: "Pay {amount} for your booking {reference} at {business}",
    heading: "Your payment link",
    hello: "Hello,",
    intro: "{business} asks you to pay {amount} for your booking {reference}. You pay securely on Stripe's payment page.",
    button: "Pay {amount} now",
    expires: "The link works until {expires}.",
    amount: "Amount due",
  },
  receipt: {
    paymentSubject: "Receipt {number}: {amount} received for your booking {reference}",
    refundSubject: "Receipt {number}: {amount} refunded for your booking {reference}",
    paymentHeading: "Payment receipt",
    refundHeading: "Refund receipt",
    hello: "Hello,",
    paymentIntro: "{business} has received {amount} for your booking {reference}. Thank you.",
    refundIntro: "{business} has refunded {amount} of your booking {reference}.",
    number: "Receipt number",
    date: "Date",
    amountPaid: "Amount paid",
    amountRefunded: "Amount refunded",
    method: "Method",
    refundOf: "Refund of the payment",
    reason: "Reason",
    paidFor: "Paid for",
    paidNet: "Paid so far",
    balance: "Balance left to pay",
    notInvoice: "This is a receipt for your records, not a tax invoice.",
  },
  methods: { stripe: "Card (online)", bank_transfer: "Bank transfer", cash: "Cash", card_terminal: "Card (terminal)", other: "Other" },
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
  balanceReminder: {
    subject: "Erinnerung: {amount} fällig bis {due} für Ihre Buchung {reference} bei {business}",
    heading: "Ihr Restbetrag ist bald fällig",
    hello: "Hallo,",
    intro: "der Restbetrag Ihrer Buchung {reference} bei {business}, {amount}, ist bis {due} fällig. Sie können ihn sicher auf der Zahlungsseite von Stripe zahlen.",
    button: "Jetzt {amount} zahlen",
    expires: "Der Link ist bis {expires} gültig.",
    amount: "Offener Restbetrag",
  },
  dues: {
    heading: "Zahlung",
    paid: "Bisher bezahlt",
    deposit: "Anzahlung",
    balance: "Restbetrag",
    dueBy: "{amount}, fällig bis {date}",
    settled: "{amount}, bezahlt",
  },
  paymentLink: {
    subject: "Zahlen Sie {amount} für Ihre Buchung {reference} bei {business}",
    heading: "Ihr Zahlungslink",
    hello: "Hallo,",
    intro: "{business} bittet Sie, {amount} für Ihre Buchung {reference} zu zahlen. Sie zahlen sicher auf der Zahlungsseite von Stripe.",
    button: "Jetzt {amount} zahlen",
    expires: "Der Link ist bis {expires} gültig.",
    amount: "Zu zahlender Betrag",
  },
  receipt: {
    paymentSubject: "Quittung {number}: {amount} für Ihre Buchung {reference} erhalten",
    refundSubject: "Quittung {number}: {amount} für Ihre Buchung {reference} erstattet",
    paymentHeading: "Zahlungsquittung",
    refundHeading: "Erstattungsquittung",
    hello: "Hallo,",
    paymentIntro: "{business} hat {amount} für Ihre Buchung {reference} erhalten. Vielen Dank.",
    refundIntro: "{business} hat Ihnen {amount} Ihrer Buchung {reference} erstattet.",
    number: "Quittungsnummer",
    date: "Datum",
    amountPaid: "Gezahlter Betrag",
    amountRefunded: "Erstatteter Betrag",
    method: "Zahlungsart",
    refundOf: "Erstattung der Zahlung",
    reason: "Grund",
    paidFor: "Gebuchte Leistungen",
    paidNet: "Bisher bezahlt",
    balance: "Noch zu zahlen",
    notInvoice: "Dies ist eine Quittung für Ihre Unterlagen, keine Rechnung im steuerlichen Sinne.",
  },
  methods: { stripe: "Karte (online)", bank_transfer: "Banküberweisung", cash: "Bar", card_terminal: "Karte (Terminal)", other: "Sonstige" },
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
  balanceReminder: {
    subject: "Recordatorio: {amount} a pagar antes del {due} por tu reserva {reference} en {business}",
    heading: "Tu saldo vence pronto",
    hello: "Hola:",
    intro: "el saldo de tu reserva {reference} con {business}, {amount}, vence el {due}. Puedes pagarlo de forma segura en la página de pago de Stripe.",
    button: "Pagar {amount} ahora",
    expires: "El enlace funciona hasta el {expires}.",
    amount: "Saldo pendiente",
  },
  dues: {
    heading: "Pago",
    paid: "Pagado hasta ahora",
    deposit: "Depósito",
    balance: "Saldo",
    dueBy: "{amount}, a pagar antes del {date}",
    settled: "{amount}, pagado",
  },
  paymentLink: {
    subject: "Paga {amount} por tu reserva {reference} en {business}",
    heading: "Tu enlace de pago",
    hello: "Hola:",
    intro: "{business} te pide que pagues {amount} por tu reserva {reference}. Pagarás de forma segura en la página de pago de Stripe.",
    button: "Pagar {amount} ahora",
    expires: "El enlace funciona hasta el {expires}.",
    amount: "Importe a pagar",
  },
  receipt: {
    paymentSubject: "Recibo {number}: {amount} recibidos por tu reserva {reference}",
    refundSubject: "Recibo {number}: {amount} reembolsados de tu reserva {reference}",
    paymentHeading: "Recibo de pago",
    refundHeading: "Recibo de reembolso",
    hello: "Hola:",
    paymentIntro: "{business} ha recibido {amount} por tu reserva {reference}. Gracias.",
    refundIntro: "{business} te ha reembolsado {amount} de tu reserva {reference}.",
    number: "Número de recibo",
    date: "Fecha",
    amountPaid: "Importe pagado",
    amountRefunded: "Importe reembolsado",
    method: "Forma de pago",
    refundOf: "Reembolso del pago",
    reason: "Motivo",
    paidFor: "Concepto",
    paidNet: "Pagado hasta ahora",
    balance: "Saldo pendiente",
    notInvoice: "Este es un recibo para tus registros, no una factura fiscal.",
  },
  methods: { stripe: "Tarjeta (en línea)", bank_transfer: "Transferencia bancaria", cash: "Efectivo", card_terminal: "Tarjeta (terminal)", other: "Otro" },
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

const pt: MailStrings = {
  confirmation: {
    subject: "A sua reserva {reference} em {business} está confirmada",
    heading: "A sua reserva está confirmada",
    hello: "Olá,",
    intro: "obrigado por reservar com {business}. O seu lugar está confirmado; aqui está tudo o que reservou.",
  },
  cancellation: {
    subject: "A sua reserva {reference} em {business} foi cancelada",
    heading: "A sua reserva foi cancelada",
    hello: "Olá,",
    intro: "a sua reserva {reference} com {business} foi cancelada e os respetivos lugares foram libertados.",
    questions: "Se não estava à espera disto, ou se tiver alguma questão sobre um pagamento, contacte {business}.",
  },
  ownerNew: {
    subject: "Nova reserva {reference}: {booker}, a partir de {start}",
    heading: "Nova reserva {reference}",
    intro: { widget: "{booker} reservou através do widget de reservas do seu site.", api: "{booker} reservou através da API, com a chave \u201c{key}\u201d.", back_office: "{booker} foi reservado no back office." },
    unpaid: "Nada foi cobrado online: entre em contacto sobre o pagamento.",
    newsletterYes: "Quem reservou gostaria de receber a sua newsletter.",
    newsletterNo: "Quem reservou não pediu a sua newsletter.",
  },
  ownerCancelled: {
    subject: "Reserva {reference} cancelada: {booker}, a partir de {start}",
    heading: "Reserva {reference} cancelada",
    intro: "A reserva de {booker} foi cancelada; os respetivos lugares estão novamente disponíveis.",
  },
  balanceReminder: {
    subject: "Lembrete: {amount} a pagar até {due} pela sua reserva {reference} em {business}",
    heading: "O seu saldo vence em breve",
    hello: "Olá,",
    intro: "o saldo da sua reserva {reference} com {business}, {amount}, vence a {due}. Pode pagá-lo em segurança na página de pagamento da Stripe.",
    button: "Pagar {amount} agora",
    expires: "O link funciona até {expires}.",
    amount: "Saldo em dívida",
  },
  dues: {
    heading: "Pagamento",
    paid: "Pago até agora",
    deposit: "Sinal",
    balance: "Saldo",
    dueBy: "{amount}, a pagar até {date}",
    settled: "{amount}, pago",
  },
  paymentLink: {
    subject: "Pague {amount} pela sua reserva {reference} em {business}",
    heading: "O seu link de pagamento",
    hello: "Olá,",
    intro: "{business} pede-lhe que pague {amount} pela sua reserva {reference}. Paga em segurança na página de pagamento da Stripe.",
    button: "Pagar {amount} agora",
    expires: "O link funciona até {expires}.",
    amount: "Valor a pagar",
  },
  receipt: {
    paymentSubject: "Recibo {number}: {amount} recebidos pela sua reserva {reference}",
    refundSubject: "Recibo {number}: {amount} reembolsados da sua reserva {reference}",
    paymentHeading: "Recibo de pagamento",
    refundHeading: "Recibo de reembolso",
    hello: "Olá,",
    paymentIntro: "{business} recebeu {amount} pela sua reserva {reference}. Obrigado.",
    refundIntro: "{business} reembolsou {amount} da sua reserva {reference}.",
    number: "Número do recibo",
    date: "Data",
    amountPaid: "Valor pago",
    amountRefunded: "Valor reembolsado",
    method: "Forma de pagamento",
    refundOf: "Reembolso do pagamento",
    reason: "Motivo",
    paidFor: "Referente a",
    paidNet: "Pago até agora",
    balance: "Saldo por pagar",
    notInvoice: "Este é um recibo para os seus registos, não uma fatura.",
  },
  methods: { stripe: "Cartão (online)", bank_transfer: "Transferência bancária", cash: "Numerário", card_terminal: "Cartão (terminal)", other: "Outro" },
  reference: "Referência da reserva",
  dates: "Datas",
  guests: "Hóspedes",
  stay: "Estadia",
  room: "Quarto",
  privateRoom: "quarto privado",
  extras: "Extras",
  guestTotal: "Subtotal",
  included: "incluído",
  total: "Total",
  booker: "Reservado por",
  nextHeading: "Próximos passos",
  next: "Nada foi cobrado online. {business} entrará em contacto consigo sobre como e quando pagar.",
  termsHeading: "As condições de reserva que aceitou",
  contactHeading: "Contacto",
  replyHint: "Responda a este e-mail para contactar {business}.",
  ownerFooter: "Recebe este e-mail porque este endereço é um dos endereços de notificação nas definições de {business}. Uma resposta é enviada a quem reservou.",
  location: "Local",
  srs: "Suplemento de quarto individual",
  calendarHint: "O ficheiro de calendário em anexo (.ics) adiciona as suas datas ao seu calendário.",
  times: "{n}×",
  days: "{n} dias",
  automatic: "Este e-mail foi enviado automaticamente pelo sistema de reservas de {business}.",
};

const fr: MailStrings = {
  confirmation: {
    subject: "Votre réservation {reference} chez {business} est confirmée",
    heading: "Votre réservation est confirmée",
    hello: "Bonjour,",
    intro: "merci d’avoir réservé chez {business}. Votre place est confirmée ; voici tout ce que vous avez réservé.",
  },
  cancellation: {
    subject: "Votre réservation {reference} chez {business} a été annulée",
    heading: "Votre réservation a été annulée",
    hello: "Bonjour,",
    intro: "votre réservation {reference} chez {business} a été annulée et ses places ont été libérées.",
    questions: "Si vous ne vous y attendiez pas, ou si vous avez une question sur un paiement, veuillez contacter {business}.",
  },
  ownerNew: {
    subject: "Nouvelle réservation {reference} : {booker}, à partir du {start}",
    heading: "Nouvelle réservation {reference}",
    intro: { widget: "{booker} a réservé via le widget de réservation de votre site web.", api: "{booker} a réservé via l’API, avec la clé \u00ab\u00a0{key}\u00a0\u00bb.", back_office: "{booker} a été réservé dans le back-office." },
    unpaid: "Rien n’a été débité en ligne : prenez contact pour le paiement.",
    newsletterYes: "La personne qui a réservé souhaite recevoir votre newsletter.",
    newsletterNo: "La personne qui a réservé n’a pas demandé votre newsletter.",
  },
  ownerCancelled: {
    subject: "Réservation {reference} annulée : {booker}, à partir du {start}",
    heading: "Réservation {reference} annulée",
    intro: "La réservation de {booker} a été annulée ; ses places sont de nouveau disponibles.",
  },
  balanceReminder: {
    subject: "Rappel : {amount} à régler avant le {due} pour votre réservation {reference} chez {business}",
    heading: "Votre solde arrive bientôt à échéance",
    hello: "Bonjour,",
    intro: "le solde de votre réservation {reference} chez {business}, {amount}, est dû au plus tard le {due}. Vous pouvez le régler en toute sécurité sur la page de paiement de Stripe.",
    button: "Payer {amount} maintenant",
    expires: "Le lien est valable jusqu’au {expires}.",
    amount: "Solde dû",
  },
  dues: {
    heading: "Paiement",
    paid: "Déjà payé",
    deposit: "Acompte",
    balance: "Solde",
    dueBy: "{amount}, à régler avant le {date}",
    settled: "{amount}, payé",
  },
  paymentLink: {
    subject: "Réglez {amount} pour votre réservation {reference} chez {business}",
    heading: "Votre lien de paiement",
    hello: "Bonjour,",
    intro: "{business} vous demande de régler {amount} pour votre réservation {reference}. Vous payez en toute sécurité sur la page de paiement de Stripe.",
    button: "Payer {amount} maintenant",
    expires: "Le lien est valable jusqu’au {expires}.",
    amount: "Montant dû",
  },
  receipt: {
    paymentSubject: "Reçu {number} : {amount} reçus pour votre réservation {reference}",
    refundSubject: "Reçu {number} : {amount} remboursés sur votre réservation {reference}",
    paymentHeading: "Reçu de paiement",
    refundHeading: "Reçu de remboursement",
    hello: "Bonjour,",
    paymentIntro: "{business} a bien reçu {amount} pour votre réservation {reference}. Merci.",
    refundIntro: "{business} vous a remboursé {amount} sur votre réservation {reference}.",
    number: "Numéro de reçu",
    date: "Date",
    amountPaid: "Montant payé",
    amountRefunded: "Montant remboursé",
    method: "Moyen de paiement",
    refundOf: "Remboursement du paiement",
    reason: "Motif",
    paidFor: "Objet du paiement",
    paidNet: "Payé à ce jour",
    balance: "Reste à payer",
    notInvoice: "Ceci est un reçu pour vos dossiers, pas une facture.",
  },
  methods: { stripe: "Carte (en ligne)", bank_transfer: "Virement bancaire", cash: "Espèces", card_terminal: "Carte (terminal)", other: "Autre" },
  reference: "Référence de la réservation",
  dates: "Dates",
  guests: "Participants",
  stay: "Séjour",
  room: "Chambre",
  privateRoom: "chambre privée",
  extras: "Suppléments",
  guestTotal: "Sous-total",
  included: "inclus",
  total: "Total",
  booker: "Réservé par",
  nextHeading: "Et maintenant",
  next: "Rien n’a été débité en ligne. {business} vous contactera pour vous indiquer comment et quand payer.",
  termsHeading: "Les conditions de réservation que vous avez acceptées",
  contactHeading: "Contact",
  replyHint: "Répondez à cet e-mail pour joindre {business}.",
  ownerFooter: "Vous recevez cet e-mail parce que cette adresse fait partie des adresses de notification dans les paramètres de {business}. Une réponse parvient à la personne qui a réservé.",
  location: "Lieu",
  srs: "Supplément chambre individuelle",
  calendarHint: "Le fichier de calendrier joint (.ics) ajoute vos dates à votre agenda.",
  times: "{n}×",
  days: "{n} jours",
  automatic: "Cet e-mail a été envoyé automatiquement par le système de réservation de {business}.",
};

const it: MailStrings = {
  confirmation: {
    subject: "La Sua prenotazione {reference} presso {business} è confermata",
    heading: "La Sua prenotazione è confermata",
    hello: "Gentile cliente,",
    intro: "grazie per aver prenotato con {business}. Il Suo posto è confermato; ecco tutto ciò che ha prenotato.",
  },
  cancellation: {
    subject: "La Sua prenotazione {reference} presso {business} è stata cancellata",
    heading: "La Sua prenotazione è stata cancellata",
    hello: "Gentile cliente,",
    intro: "la Sua prenotazione {reference} presso {business} è stata cancellata e i relativi posti sono stati liberati.",
    questions: "Se non se lo aspettava, o ha una domanda su un pagamento, contatti {business}.",
  },
  ownerNew: {
    subject: "Nuova prenotazione {reference}: {booker}, dal {start}",
    heading: "Nuova prenotazione {reference}",
    intro: { widget: "{booker} ha prenotato tramite il widget di prenotazione del Suo sito web.", api: "{booker} ha prenotato tramite l’API, con la chiave \u00ab{key}\u00bb.", back_office: "{booker} è stato prenotato nel back office." },
    unpaid: "Non è stato addebitato nulla online: si metta in contatto per il pagamento.",
    newsletterYes: "Chi ha prenotato desidera ricevere la Sua newsletter.",
    newsletterNo: "Chi ha prenotato non ha richiesto la Sua newsletter.",
  },
  ownerCancelled: {
    subject: "Prenotazione {reference} cancellata: {booker}, dal {start}",
    heading: "Prenotazione {reference} cancellata",
    intro: "La prenotazione di {booker} è stata cancellata; i relativi posti sono di nuovo disponibili.",
  },
  balanceReminder: {
    subject: "Promemoria: {amount} da pagare entro il {due} per la tua prenotazione {reference} presso {business}",
    heading: "Il tuo saldo scade a breve",
    hello: "Ciao,",
    intro: "il saldo della tua prenotazione {reference} presso {business}, {amount}, scade il {due}. Puoi pagarlo in modo sicuro sulla pagina di pagamento di Stripe.",
    button: "Paga {amount} ora",
    expires: "Il link funziona fino al {expires}.",
    amount: "Saldo dovuto",
  },
  dues: {
    heading: "Pagamento",
    paid: "Pagato finora",
    deposit: "Acconto",
    balance: "Saldo",
    dueBy: "{amount}, da pagare entro il {date}",
    settled: "{amount}, pagato",
  },
  paymentLink: {
    subject: "Paghi {amount} per la Sua prenotazione {reference} presso {business}",
    heading: "Il Suo link di pagamento",
    hello: "Gentile cliente,",
    intro: "{business} Le chiede di pagare {amount} per la Sua prenotazione {reference}. Paga in modo sicuro sulla pagina di pagamento di Stripe.",
    button: "Paga {amount} ora",
    expires: "Il link è valido fino al {expires}.",
    amount: "Importo dovuto",
  },
  receipt: {
    paymentSubject: "Ricevuta {number}: {amount} ricevuti per la Sua prenotazione {reference}",
    refundSubject: "Ricevuta {number}: {amount} rimborsati sulla Sua prenotazione {reference}",
    paymentHeading: "Ricevuta di pagamento",
    refundHeading: "Ricevuta di rimborso",
    hello: "Gentile cliente,",
    paymentIntro: "{business} ha ricevuto {amount} per la Sua prenotazione {reference}. Grazie.",
    refundIntro: "{business} Le ha rimborsato {amount} sulla Sua prenotazione {reference}.",
    number: "Numero di ricevuta",
    date: "Data",
    amountPaid: "Importo pagato",
    amountRefunded: "Importo rimborsato",
    method: "Metodo di pagamento",
    refundOf: "Rimborso del pagamento",
    reason: "Motivo",
    paidFor: "Causale",
    paidNet: "Pagato finora",
    balance: "Saldo da pagare",
    notInvoice: "Questa è una ricevuta per i Suoi archivi, non una fattura fiscale.",
  },
  methods: { stripe: "Carta (online)", bank_transfer: "Bonifico bancario", cash: "Contanti", card_terminal: "Carta (terminale)", other: "Altro" },
  reference: "Codice di prenotazione",
  dates: "Date",
  guests: "Ospiti",
  stay: "Soggiorno",
  room: "Camera",
  privateRoom: "camera privata",
  extras: "Extra",
  guestTotal: "Subtotale",
  included: "incluso",
  total: "Totale",
  booker: "Prenotato da",
  nextHeading: "I prossimi passi",
  next: "Non è stato addebitato nulla online. {business} La contatterà per indicarLe come e quando pagare.",
  termsHeading: "Le condizioni di prenotazione che ha accettato",
  contactHeading: "Contatti",
  replyHint: "Risponda a questa e-mail per contattare {business}.",
  ownerFooter: "Riceve questa e-mail perché questo indirizzo è tra gli indirizzi per le notifiche nelle impostazioni di {business}. Una risposta arriva a chi ha prenotato.",
  location: "Luogo",
  srs: "Supplemento camera singola",
  calendarHint: "Il file di calendario allegato (.ics) aggiunge le Sue date al Suo calendario.",
  times: "{n}×",
  days: "{n} giorni",
  automatic: "Questa e-mail è stata inviata automaticamente dal sistema di prenotazione di {business}.",
};

const nl: MailStrings = {
  confirmation: {
    subject: "Uw boeking {reference} bij {business} is bevestigd",
    heading: "Uw boeking is bevestigd",
    hello: "Beste gast,",
    intro: "hartelijk dank voor uw boeking bij {business}. Uw plaats is bevestigd; hieronder vindt u alles wat u hebt geboekt.",
  },
  cancellation: {
    subject: "Uw boeking {reference} bij {business} is geannuleerd",
    heading: "Uw boeking is geannuleerd",
    hello: "Beste gast,",
    intro: "uw boeking {reference} bij {business} is geannuleerd en de plaatsen zijn vrijgegeven.",
    questions: "Als u dit niet verwachtte, of als u een vraag hebt over een betaling, neem dan contact op met {business}.",
  },
  ownerNew: {
    subject: "Nieuwe boeking {reference}: {booker}, vanaf {start}",
    heading: "Nieuwe boeking {reference}",
    intro: { widget: "{booker} heeft geboekt via de boekingswidget op uw website.", api: "{booker} heeft geboekt via de API, met de sleutel \u2018{key}\u2019.", back_office: "{booker} is geboekt in de backoffice." },
    unpaid: "Er is online niets afgeschreven: neem contact op over de betaling.",
    newsletterYes: "De boeker wil graag uw nieuwsbrief ontvangen.",
    newsletterNo: "De boeker heeft niet om uw nieuwsbrief gevraagd.",
  },
  ownerCancelled: {
    subject: "Boeking {reference} geannuleerd: {booker}, vanaf {start}",
    heading: "Boeking {reference} geannuleerd",
    intro: "De boeking van {booker} is geannuleerd; de plaatsen zijn weer beschikbaar.",
  },
  balanceReminder: {
    subject: "Herinnering: {amount} te betalen voor {due} voor je boeking {reference} bij {business}",
    heading: "Je restbedrag vervalt binnenkort",
    hello: "Hallo,",
    intro: "het restbedrag van je boeking {reference} bij {business}, {amount}, moet uiterlijk {due} betaald zijn. Je betaalt het veilig op de betaalpagina van Stripe.",
    button: "Nu {amount} betalen",
    expires: "De link werkt tot {expires}.",
    amount: "Openstaand restbedrag",
  },
  dues: {
    heading: "Betaling",
    paid: "Tot nu toe betaald",
    deposit: "Aanbetaling",
    balance: "Restbedrag",
    dueBy: "{amount}, te betalen voor {date}",
    settled: "{amount}, betaald",
  },
  paymentLink: {
    subject: "Betaal {amount} voor uw boeking {reference} bij {business}",
    heading: "Uw betaallink",
    hello: "Beste gast,",
    intro: "{business} vraagt u {amount} te betalen voor uw boeking {reference}. U betaalt veilig op de betaalpagina van Stripe.",
    button: "Nu {amount} betalen",
    expires: "De link werkt tot {expires}.",
    amount: "Te betalen bedrag",
  },
  receipt: {
    paymentSubject: "Kwitantie {number}: {amount} ontvangen voor uw boeking {reference}",
    refundSubject: "Kwitantie {number}: {amount} terugbetaald van uw boeking {reference}",
    paymentHeading: "Betalingskwitantie",
    refundHeading: "Kwitantie van terugbetaling",
    hello: "Beste gast,",
    paymentIntro: "{business} heeft {amount} ontvangen voor uw boeking {reference}. Dank u wel.",
    refundIntro: "{business} heeft u {amount} van uw boeking {reference} terugbetaald.",
    number: "Kwitantienummer",
    date: "Datum",
    amountPaid: "Betaald bedrag",
    amountRefunded: "Terugbetaald bedrag",
    method: "Betaalwijze",
    refundOf: "Terugbetaling van de betaling",
    reason: "Reden",
    paidFor: "Omschrijving",
    paidNet: "Tot nu toe betaald",
    balance: "Nog te betalen",
    notInvoice: "Dit is een kwitantie voor uw administratie, geen factuur.",
  },
  methods: { stripe: "Kaart (online)", bank_transfer: "Bankoverschrijving", cash: "Contant", card_terminal: "Kaart (terminal)", other: "Anders" },
  reference: "Boekingsnummer",
  dates: "Data",
  guests: "Gasten",
  stay: "Verblijf",
  room: "Kamer",
  privateRoom: "privékamer",
  extras: "Extra's",
  guestTotal: "Subtotaal",
  included: "inbegrepen",
  total: "Totaal",
  booker: "Geboekt door",
  nextHeading: "Hoe het verder gaat",
  next: "Er is online niets afgeschreven. {business} neemt contact met u op over hoe en wanneer u betaalt.",
  termsHeading: "De boekingsvoorwaarden die u hebt geaccepteerd",
  contactHeading: "Contact",
  replyHint: "Beantwoord deze e-mail om {business} te bereiken.",
  ownerFooter: "U ontvangt deze e-mail omdat dit adres een van de meldingsadressen is in de instellingen van {business}. Een antwoord gaat naar de boeker.",
  location: "Locatie",
  srs: "Toeslag eenpersoonskamer",
  calendarHint: "Met het bijgevoegde agendabestand (.ics) zet u uw data in uw agenda.",
  times: "{n}×",
  days: "{n} dagen",
  automatic: "Deze e-mail is automatisch verzonden door het boekingssysteem van {business}.",
};

export const MAIL_STRINGS: Record<MailLanguage, MailStrings> = { en, de, es, pt, fr, it, nl };

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
