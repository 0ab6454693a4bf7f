/**
 * The back office's string tables: each area's strings live in its folder (`<area>/strings.ts`,
 * German and Spanish typed by the English), put together here into one table per language. A
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
import { outboxStrings } from "./outbox/strings";
import { pricesStrings } from "./prices/strings";
import { settingsStrings } from "./settings/strings";
import { staffStrings } from "./staff/strings";

const en = {
  ...kitStrings.en,
  ...authStrings.en,
  ...frontDeskStrings.en,
  ...bookingsStrings.en,
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
  ...guestsStrings.es,
  ...catalogStrings.es,
  ...pricesStrings.es,
  ...settingsStrings.es,
  ...outboxStrings.es,
  ...developersStrings.es,
  ...staffStrings.es,
  ...auditStrings.es,
};

export type Lang = "en" | "de" | "es";
export const LANGS: Record<Lang, Strings> = { en, de, es };
