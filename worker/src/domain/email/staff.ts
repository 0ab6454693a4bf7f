/**
 * The back office's e-mails to its staff: the invitation (who invited whom, with which role, and
 * the one-time link that sets a password) and the password reset (a one-time link that sets a new
 * one). Pure. The links are secrets: the outbox keeps them only until the e-mail is sent
 * (db/emails.ts), and the message kept afterwards has them removed (REDACTED_LINK).
 */
import type { ComposedMail } from "./booking";
import { esc, frame, html, type MailBrand } from "./layout";
import { fill, type MailLanguage } from "./strings";

export interface InvitationMail {
  brand: MailBrand;
  language: MailLanguage;
  /** Who invited (a staff user's name or e-mail, or the CLI). */
  inviter: string;
  role: "owner" | "manager" | "front_desk";
  /** The one-time link, with the service's origin. */
  link: string;
  /** UTC, ISO 8601. */
  expiresAt: string;
}

/** What the kept copy of an invitation shows in place of its link. */
export const REDACTED_LINK = "[sign-in link removed once sent]";

const STRINGS: Record<MailLanguage, { subject: string; heading: string; intro: string; action: string; expires: string; ignore: string; roles: Record<InvitationMail["role"], string> }> = {
  en: {
    subject: "You are invited to the back office of {business}",
    heading: "Join {business}",
    intro: "{inviter} invited you to the back office of {business} as {role}.",
    action: "Set your password with this link. It works once, until {expires} UTC:",
    expires: "",
    ignore: "If you did not expect this invitation, ignore this e-mail: nothing happens without the link.",
    roles: { owner: "owner", manager: "manager", front_desk: "front desk" },
  },
  de: {
    subject: "Einladung in das Backoffice von {business}",
    heading: "Willkommen bei {business}",
    intro: "{inviter} hat Sie in das Backoffice von {business} eingeladen, als {role}.",
    action: "Legen Sie Ihr Passwort mit diesem Link fest. Er funktioniert einmal, bis {expires} UTC:",
    expires: "",
    ignore: "Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail: ohne den Link geschieht nichts.",
    roles: { owner: "Inhaber/in", manager: "Manager/in", front_desk: "Rezeption" },
  },
  es: {
    subject: "Invitación al back office de {business}",
    heading: "Únete a {business}",
    intro: "{inviter} te ha invitado al back office de {business} como {role}.",
    action: "Elige tu contraseña con este enlace. Funciona una vez, hasta el {expires} UTC:",
    expires: "",
    ignore: "Si no esperabas esta invitación, ignora este correo: sin el enlace no pasa nada.",
    roles: { owner: "propietario/a", manager: "gerente", front_desk: "recepción" },
  },
  pt: {
    subject: "Convite para o back office de {business}",
    heading: "Junte-se a {business}",
    intro: "{inviter} enviou-lhe um convite para o back office de {business}, com a função de {role}.",
    action: "Defina a sua palavra-passe com esta ligação. Funciona uma vez, até {expires} UTC:",
    expires: "",
    ignore: "Se não estava à espera deste convite, ignore este e-mail: sem a ligação nada acontece.",
    roles: { owner: "proprietário", manager: "gestor", front_desk: "receção" },
  },
  fr: {
    subject: "Invitation au back-office de {business}",
    heading: "Rejoignez {business}",
    intro: "{inviter} vous invite à rejoindre le back-office de {business} en tant que {role}.",
    action: "Choisissez votre mot de passe avec ce lien. Il fonctionne une fois, jusqu’au {expires} UTC :",
    expires: "",
    ignore: "Si vous n’attendiez pas cette invitation, ignorez cet e-mail : sans le lien, rien ne se passe.",
    roles: { owner: "propriétaire", manager: "gérant", front_desk: "réception" },
  },
  it: {
    subject: "Invito al back office di {business}",
    heading: "Si unisca a {business}",
    intro: "{inviter} Le ha inviato un invito al back office di {business} con il ruolo di {role}.",
    action: "Imposti la Sua password con questo link. Funziona una sola volta, fino al {expires} UTC:",
    expires: "",
    ignore: "Se non si aspettava questo invito, ignori questa e-mail: senza il link non succede nulla.",
    roles: { owner: "titolare", manager: "responsabile", front_desk: "reception" },
  },
  nl: {
    subject: "Uitnodiging voor de backoffice van {business}",
    heading: "Welkom bij {business}",
    intro: "{inviter} heeft u uitgenodigd voor de backoffice van {business} als {role}.",
    action: "Stel uw wachtwoord in met deze link. Hij werkt één keer, tot {expires} UTC:",
    expires: "",
    ignore: "Als u deze uitnodiging niet verwachtte, negeer deze e-mail dan: zonder de link gebeurt er niets.",
    roles: { owner: "eigenaar", manager: "manager", front_desk: "receptie" },
  },
};

/**
 * An e-mail whose point is one link (an invitation, a password reset): heading, why, the action
 * with the link spelt out (no button image, readable as text), and what to do if it was not asked for.
 */
function linkMail(brand: MailBrand, language: MailLanguage, s: { subject: string; heading: string; intro: string; action: string; ignore: string }, vars: Record<string, string>, link: string): ComposedMail {
  const subject = fill(s.subject, vars);
  const heading = fill(s.heading, vars);
  const [intro, action, ignore] = [fill(s.intro, vars), fill(s.action, vars), fill(s.ignore, vars)];
  const text = [heading, "", intro, "", action, link, "", ignore, ""].join("\n");
  const body =
    html.h1(heading) +
    html.p(intro) +
    html.p(action) +
    `<p style="margin:0 0 16px;overflow-wrap:anywhere"><a href="${esc(link)}" style="color:#1f2933;font-weight:700">${esc(link)}</a></p>` +
    html.small(ignore);
  return { subject, text, html: frame(brand, language, subject, intro, body, `<p style="margin:0">${esc(brand.name)}</p>`) };
}

const minutesOf = (iso: string) => iso.replace("T", " ").slice(0, 16);

export function staffInvitation(m: InvitationMail): ComposedMail {
  const s = STRINGS[m.language];
  return linkMail(m.brand, m.language, s, { business: m.brand.name, inviter: m.inviter, role: s.roles[m.role], expires: minutesOf(m.expiresAt) }, m.link);
}

export interface PasswordResetMail {
  brand: MailBrand;
  language: MailLanguage;
  /** The staff user's e-mail (the account the link is for). */
  email: string;
  /** The one-time link, with the service's origin. */
  link: string;
  /** UTC, ISO 8601. */
  expiresAt: string;
}

const RESET: Record<MailLanguage, { subject: string; heading: string; intro: string; action: string; ignore: string }> = {
  en: {
    subject: "Reset your password for {business}",
    heading: "A new password for {business}",
    intro: "Someone asked to reset the password of {email} in the back office of {business}.",
    action: "Set a new password with this link. It works once, until {expires} UTC, and ends every open session of the account:",
    ignore: "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  },
  de: {
    subject: "Passwort für {business} zurücksetzen",
    heading: "Ein neues Passwort für {business}",
    intro: "Jemand hat verlangt, das Passwort von {email} im Backoffice von {business} zurückzusetzen.",
    action: "Legen Sie mit diesem Link ein neues Passwort fest. Er funktioniert einmal, bis {expires} UTC, und beendet alle offenen Sitzungen des Kontos:",
    ignore: "Wenn Sie das nicht verlangt haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.",
  },
  es: {
    subject: "Restablece tu contraseña de {business}",
    heading: "Una contraseña nueva para {business}",
    intro: "Alguien ha pedido restablecer la contraseña de {email} en el back office de {business}.",
    action: "Elige una contraseña nueva con este enlace. Funciona una vez, hasta el {expires} UTC, y cierra todas las sesiones abiertas de la cuenta:",
    ignore: "Si no lo has pedido tú, ignora este correo: tu contraseña sigue igual.",
  },
  pt: {
    subject: "Redefinir a sua palavra-passe de {business}",
    heading: "Uma nova palavra-passe para {business}",
    intro: "Alguém pediu para redefinir a palavra-passe de {email} no back office de {business}.",
    action: "Defina uma nova palavra-passe com esta ligação. Funciona uma vez, até {expires} UTC, e termina todas as sessões abertas da conta:",
    ignore: "Se não fez este pedido, ignore este e-mail: a sua palavra-passe mantém-se.",
  },
  fr: {
    subject: "Réinitialisez votre mot de passe pour {business}",
    heading: "Un nouveau mot de passe pour {business}",
    intro: "Quelqu’un a demandé à réinitialiser le mot de passe de {email} dans le back-office de {business}.",
    action: "Choisissez un nouveau mot de passe avec ce lien. Il fonctionne une fois, jusqu’au {expires} UTC, et ferme toutes les sessions ouvertes du compte :",
    ignore: "Si vous n’avez rien demandé, ignorez cet e-mail : votre mot de passe reste inchangé.",
  },
  it: {
    subject: "Reimposti la Sua password per {business}",
    heading: "Una nuova password per {business}",
    intro: "Qualcuno ha chiesto di reimpostare la password di {email} nel back office di {business}.",
    action: "Imposti una nuova password con questo link. Funziona una sola volta, fino al {expires} UTC, e chiude tutte le sessioni aperte dell’account:",
    ignore: "Se non l’ha chiesto Lei, ignori questa e-mail: la Sua password resta invariata.",
  },
  nl: {
    subject: "Uw wachtwoord voor {business} opnieuw instellen",
    heading: "Een nieuw wachtwoord voor {business}",
    intro: "Iemand heeft gevraagd het wachtwoord van {email} in de backoffice van {business} opnieuw in te stellen.",
    action: "Stel met deze link een nieuw wachtwoord in. Hij werkt één keer, tot {expires} UTC, en beëindigt alle open sessies van het account:",
    ignore: "Als u dit niet hebt gevraagd, negeer deze e-mail dan: uw wachtwoord blijft zoals het is.",
  },
};

export function staffPasswordReset(m: PasswordResetMail): ComposedMail {
  return linkMail(m.brand, m.language, RESET[m.language], { business: m.brand.name, email: m.email, expires: minutesOf(m.expiresAt) }, m.link);
}

export interface SignInAlertMail {
  brand: MailBrand;
  language: MailLanguage;
  /** The account's e-mail. */
  email: string;
  /** Failed sign-ins counted so far in the window. */
  attempts: number;
  /** UTC, ISO 8601: when the window began. */
  since: string;
}

const ALERT: Record<MailLanguage, { subject: string; heading: string; intro: string; held: string; advice: string }> = {
  en: {
    subject: "Failed sign-ins to your account at {business}",
    heading: "Someone is trying to sign in as you",
    intro: "{attempts} sign-ins to the back office of {business} as {email} failed since {since} UTC.",
    held: "None of them got in: the password they tried was wrong. Each address that keeps trying is stopped for 15 minutes; you can still sign in from yours.",
    advice: "If it was not you, choose a long password you use nowhere else (Account, in the back office). If it was you, there is nothing to do.",
  },
  de: {
    subject: "Fehlgeschlagene Anmeldungen bei Ihrem Konto von {business}",
    heading: "Jemand versucht, sich als Sie anzumelden",
    intro: "Seit {since} UTC sind {attempts} Anmeldungen im Backoffice von {business} als {email} fehlgeschlagen.",
    held: "Keine war erfolgreich: Das versuchte Passwort war falsch. Jede Adresse, die es weiter versucht, wird 15 Minuten gesperrt; Sie selbst können sich weiter anmelden.",
    advice: "Wenn Sie es nicht waren, wählen Sie ein langes Passwort, das Sie sonst nirgends verwenden (Konto, im Backoffice). Wenn Sie es waren, ist nichts zu tun.",
  },
  es: {
    subject: "Inicios de sesión fallidos en tu cuenta de {business}",
    heading: "Alguien intenta entrar con tu cuenta",
    intro: "Desde las {since} UTC han fallado {attempts} inicios de sesión en el back office de {business} como {email}.",
    held: "Ninguno ha entrado: la contraseña probada era incorrecta. Cada dirección que sigue intentándolo queda bloqueada 15 minutos; tú puedes seguir entrando desde la tuya.",
    advice: "Si no has sido tú, elige una contraseña larga que no uses en ningún otro sitio (Cuenta, en el back office). Si has sido tú, no hay nada que hacer.",
  },
  pt: {
    subject: "Inícios de sessão falhados na sua conta de {business}",
    heading: "Alguém está a tentar iniciar sessão com a sua conta",
    intro: "Desde as {since} UTC falharam {attempts} inícios de sessão no back office de {business} como {email}.",
    held: "Nenhum teve êxito: a palavra-passe tentada estava errada. Cada endereço que continua a tentar é bloqueado durante 15 minutos; pode continuar a iniciar sessão a partir do seu.",
    advice: "Se não reconhece estas tentativas, escolha uma palavra-passe longa que não use em mais nenhum lado (Conta, no back office). Se foram suas, não há nada a fazer.",
  },
  fr: {
    subject: "Connexions échouées à votre compte chez {business}",
    heading: "Quelqu’un essaie de se connecter à votre place",
    intro: "Depuis {since} UTC, {attempts} connexions au back-office de {business} en tant que {email} ont échoué.",
    held: "Aucune n’a abouti : le mot de passe essayé était faux. Chaque adresse qui persiste est bloquée 15 minutes ; vous pouvez toujours vous connecter depuis la vôtre.",
    advice: "Si ce n’était pas vous, choisissez un long mot de passe que vous n’utilisez nulle part ailleurs (Compte, dans le back-office). Si c’était vous, il n’y a rien à faire.",
  },
  it: {
    subject: "Accessi non riusciti al Suo account presso {business}",
    heading: "Qualcuno sta cercando di accedere al Suo posto",
    intro: "Dalle {since} UTC non sono riusciti {attempts} accessi al back office di {business} come {email}.",
    held: "Nessuno è entrato: la password provata era sbagliata. Ogni indirizzo che continua a provare viene bloccato per 15 minuti; Lei può continuare ad accedere dal Suo.",
    advice: "Se non è stato Lei, scelga una password lunga che non usa altrove (Account, nel back office). Se è stato Lei, non deve fare nulla.",
  },
  nl: {
    subject: "Mislukte inlogpogingen bij uw account van {business}",
    heading: "Iemand probeert als u in te loggen",
    intro: "Sinds {since} UTC zijn {attempts} inlogpogingen bij de backoffice van {business} als {email} mislukt.",
    held: "Geen enkele is gelukt: het geprobeerde wachtwoord was onjuist. Elk adres dat het blijft proberen, wordt 15 minuten geblokkeerd; u kunt vanaf uw eigen adres gewoon blijven inloggen.",
    advice: "Was u het niet, kies dan een lang wachtwoord dat u nergens anders gebruikt (Account, in de backoffice). Was u het wel, dan hoeft u niets te doen.",
  },
};

export function staffSignInAlert(m: SignInAlertMail): ComposedMail {
  const s = ALERT[m.language];
  const vars = { business: m.brand.name, email: m.email, attempts: String(m.attempts), since: minutesOf(m.since) };
  const [subject, heading, intro, held, advice] = [s.subject, s.heading, s.intro, s.held, s.advice].map((x) => fill(x, vars));
  const text = [heading, "", intro, "", held, "", advice, ""].join("\n");
  const body = html.h1(heading) + html.p(intro) + html.p(held) + html.p(advice);
  return { subject, text, html: frame(m.brand, m.language, subject, intro, body, `<p style="margin:0">${esc(m.brand.name)}</p>`) };
}
