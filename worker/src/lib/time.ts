/** Calendar arithmetic on 'YYYY-MM-DD' strings, in UTC so no time zone shifts a date. */

export function toDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
export function addDays(iso: string, days: number): string {
  const d = toDate(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}
export function daysBetween(from: string, to: string): number {
  return Math.round((toDate(to).getTime() - toDate(from).getTime()) / 86_400_000);
}
/** Every date from `from` to `to`, both included. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  const d = toDate(from);
  for (let day = from; day <= to; ) {
    out.push(day);
    d.setUTCDate(d.getUTCDate() + 1);
    day = isoDate(d);
  }
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
