/**
 * The back office's string tables: each area's strings live in its folder (`<area>/strings.ts`,
 * the other languages typed by the English), put together here into one table per language. A
 * screen reads `stringsOf(c)` (kit.tsx): the whole table, so a screen may use a shared word or
 * another area's (Today names a booking's status as Bookings does).
 */
import { auditStrings } from "./audit/strings";
import { authStrings } from "./auth/strings";
import { bookingsStrings } from "./bookings/strings";
import { catalogStrings } from "./catalog/strings";
import { developersStrings } from "./developers/strings";
import { frontDeskStrings } from "./front-desk/strings";
import { guestsStrings } from "./guests/strings";
import { kitStrings } from "./kit/strings";
import { moneyStrings } from "./money/strings";
import { outboxStrings } from "./outbox/strings";
import { pricesStrings } from "./prices/strings";
import { settingsStrings } from "./settings/strings";
import { staffStrings } from "./staff/strings";

const en = {
  ...kitStrings.en,
  ...authStrings.en,
  ...frontDeskStrings.en,
  ...bookingsStrings.en,
  ...moneyStrings.en,
  ...guestsStrings.en,
  ...catalogStrings.en,
  ...pricesStrings.en,
  ...settingsStrings.en,
  ...outboxStrings.en,
  ...developersStrings.en,
  ...staffStrings.en,
  ...auditStrings.en,
};
export type Strings = typeof en;

const de: Strings = {
  ...kitStrings.de,
  ...authStrings.de,
  ...frontDeskStrings.de,
  ...bookingsStrings.de,
  ...moneyStrings.de,
  ...guestsStrings.de,
  ...catalogStrings.de,
  ...pricesStrings.de,
  ...settingsStrings.de,
  ...outboxStrings.de,
  ...developersStrings.de,
  ...staffStrings.de,
  ...auditStrings.de,
};
const es: Strings = {
  ...kitStrings.es,
  ...authStrings.es,
  ...frontDeskStrings.es,
  ...bookingsStrings.es,
  ...moneyStrings.es,
  ...guestsStrings.es,
  ...catalogStrings.es,
  ...pricesStrings.es,
  ...settingsStrings.es,
  ...outboxStrings.es,
  ...developersStrings.es,
  ...staffStrings.es,
  ...auditStrings.es,
};

const pt: Strings = {
  ...kitStrings.pt,
  ...authStrings.pt,
  ...frontDeskStrings.pt,
  ...bookingsStrings.pt,
  ...moneyStrings.pt,
  ...guestsStrings.pt,
  ...catalogStrings.pt,
  ...pricesStrings.pt,
  ...settingsStrings.pt,
  ...outboxStrings.pt,
  ...developersStrings.pt,
  ...staffStrings.pt,
  ...auditStrings.pt,
};
const fr: Strings = {
  ...kitStrings.fr,
  ...authStrings.fr,
  ...frontDeskStrings.fr,
  ...bookingsStrings.fr,
  ...moneyStrings.fr,
  ...guestsStrings.fr,
  ...catalogStrings.fr,
  ...pricesStrings.fr,
  ...settingsStrings.fr,
  ...outboxStrings.fr,
  ...developersStrings.fr,
  ...staffStrings.fr,
  ...auditStrings.fr,
};
const it: Strings = {
  ...kitStrings.it,
  ...authStrings.it,
  ...frontDeskStrings.it,
  ...bookingsStrings.it,
  ...moneyStrings.it,
  ...guestsStrings.it,
  ...catalogStrings.it,
  ...pricesStrings.it,
  ...settingsStrings.it,
  ...outboxStrings.it,
  ...developersStrings.it,
  ...staffStrings.it,
  ...auditStrings.it,
};
const nl: Strings = {
  ...kitStrings.nl,
  ...authStrings.nl,
  ...frontDeskStrings.nl,
  ...bookingsStrings.nl,
  ...moneyStrings.nl,
  ...guestsStrings.nl,
  ...catalogStrings.nl,
  ...pricesStrings.nl,
  ...settingsStrings.nl,
  ...outboxStrings.nl,
  ...developersStrings.nl,
  ...staffStrings.nl,
  ...auditStrings.nl,
};

/**
 * The back office's languages: the one list the language detector, the sign-in page's switcher,
 * the account's choice and the tables below follow. Its order is the switcher's.
 */
export const ADMIN_LANGUAGES = ["en", "de", "es", "pt", "fr", "it", "nl"] as const;
export type Lang = (typeof ADMIN_LANGUAGES)[number];
export const isLang = (value: string | null | undefined): value is Lang => (ADMIN_LANGUAGES as readonly string[]).includes(value ?? "");
export const LANGS: Record<Lang, Strings> = { en, de, es, pt, fr, it, nl };
