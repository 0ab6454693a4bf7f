/**
 * A booking as a calendar file (iCalendar, RFC 5545), attached to its confirmation so that the
 * guest's calendar holds the dates. Pure: the events come from the booking's lines.
 *
 * - A stay or a multi-day product is an all-day event: `DTSTART;VALUE=DATE` on its first day and
 *   an exclusive `DTEND;VALUE=DATE` (a stay ends on its check-out day, which it does not occupy;
 *   days booked one by one end the day after the last).
 * - A timeslot (a line booked as 'YYYY-MM-DD HH:mm:ss') is an event at that local time, written
 *   as floating time (no zone): "09:00 at the dive centre" stays 09:00 wherever the guest's phone is.
 * - Each event has a `UID` stable for the booking (the same on every attempt and resend, so a
 *   calendar updates rather than duplicates it) and a `DTSTAMP` in UTC.
 */
import { utf8Octets } from "../../contract/utf8";

export interface CalendarEvent {
  /** Unique within the booking, e.g. "stay-1" or "slot-2026-12-07T0900-401". */
  key: string;
  title: string;
  /** 'YYYY-MM-DD' (all day) or 'YYYY-MM-DD HH:mm:ss' (a timeslot). */
  start: string;
  /** All-day events: the exclusive end day 'YYYY-MM-DD'. Timeslots: none. */
  end?: string;
}

export interface Calendar {
  /** The booking's id: every UID is "<key>.<bookingId>@<domain>". */
  bookingId: string;
  domain: string;
  location: string | null;
  description: string;
  events: CalendarEvent[];
  now: Date;
}

/** TEXT values escaped as RFC 5545 3.3.11 says. */
const text = (v: string) => v.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/** A content line folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  // Most lines are short ASCII: nothing to fold.
  if (line.length <= 75 && /^[\x00-\x7f]*$/.test(line)) return line;
  const out: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of line) {
    const n = utf8Octets(ch.codePointAt(0)!);
    if (size + n > (out.length ? 74 : 75)) {
      out.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join("\r\n ");
}

const compactDate = (d: string) => d.slice(0, 10).replaceAll("-", "");
const utcStamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** The day after 'YYYY-MM-DD'. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export function calendarFile(c: Calendar): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-platform//bookings//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"];
  for (const e of c.events) {
    lines.push("BEGIN:VEVENT", `UID:${e.key}.${c.bookingId}@${c.domain}`, `DTSTAMP:${utcStamp(c.now)}`);
    if (e.start.length > 10) {
      lines.push(`DTSTART:${compactDate(e.start)}T${e.start.slice(11, 19).replaceAll(":", "")}`);
    } else {
      lines.push(`DTSTART;VALUE=DATE:${compactDate(e.start)}`, `DTEND;VALUE=DATE:${compactDate(e.end ?? nextDay(e.start))}`);
    }
    lines.push(`SUMMARY:${text(e.title)}`);
    if (c.location) lines.push(`LOCATION:${text(c.location)}`);
    lines.push(`DESCRIPTION:${text(c.description)}`, "TRANSP:OPAQUE", "END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(fold).join("\r\n") + "\r\n";
}
