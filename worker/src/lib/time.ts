import { processMemory } from "./process-memory";
/** Calendar arithmetic on 'YYYY-MM-DD' strings, in UTC so no time zone shifts a date. */

export function toDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

// Calendars walk the same few hundred dates over and over: each date's day number and each day
// number's text are worked out once per process (a Date parse and toISOString cost more than
// the rest of a calendar day's arithmetic).
const DAY_MS = 86_400_000;
const MAX_REMEMBERED = 20_000;
const numbers = new Map<string, number>();
const texts = new Map<number, string>();

/** Days from 1970-01-01 to `iso` (NaN when `iso` is not a date). */
function dayNumber(iso: string): number {
  let n = numbers.get(iso);
  if (n === undefined) {
    n = Math.round(toDate(iso).getTime() / DAY_MS);
    if (numbers.size >= MAX_REMEMBERED) numbers.clear();
    numbers.set(iso, n);
  }
  return n;
}
/** The date `n` days from 1970-01-01 (throws RangeError when `n` is not a number, as Date does). */
function dayText(n: number): string {
  let iso = texts.get(n);
  if (iso === undefined) {
    iso = isoDate(new Date(n * DAY_MS));
    if (texts.size >= MAX_REMEMBERED) texts.clear();
    texts.set(n, iso);
  }
  return iso;
}
export function addDays(iso: string, days: number): string {
  return dayText(dayNumber(iso) + days);
}
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
/** Every date from `from` to `to`, both included. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  const last = dayNumber(to);
  for (let n = dayNumber(from); n <= last; n++) out.push(dayText(n));
  return out;
}
const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof weekdays)[number];
export function weekday(iso: string): Weekday {
  return weekdays[toDate(iso).getUTCDay()];
}
/** ISO 8601 datetime in UTC without milliseconds, as the API shows datetimes. */
export function isoDateTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * The last date dateIn gave per time zone, with the minute it was for: a zone's date changes only
 * at a whole minute (every zone's offset is whole minutes), so within the same minute it is the
 * same. Formatting with Intl costs about 0.1 ms in workerd, on every catalog read ("today").
 */
const lastDates = processMemory(new Map<string, { minute: number; date: string }>());

/** The calendar date ('YYYY-MM-DD') of the instant `now` in the IANA time zone `timeZone`. */
export function dateIn(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastDates.get(timeZone);
  if (last && last.minute === minute) return last.date;
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (dayFormats.size >= 100) dayFormats.clear();
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const date = `${get("year").padStart(4, "0")}-${get("month")}-${get("day")}`;
  if (lastDates.size >= 100) lastDates.clear();
  lastDates.set(timeZone, { minute, date });
  return date;
}
