/** Prices and dates formatted with Intl, in the guest's language. */
export function formatPrice(value: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: "currency", currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** A price without cents when it has none (calendar cells are small). */
export function formatShortPrice(value: number, currency: string, language: string): string {
  try {
    const whole = Number.isInteger(value);
    return new Intl.NumberFormat(language, { style: "currency", currency, maximumFractionDigits: whole ? 0 : 2, minimumFractionDigits: whole ? 0 : 2 }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

const utc = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`);

export function formatDate(iso: string, language: string, style: "long" | "medium" | "short" = "medium"): string {
  const opts: Intl.DateTimeFormatOptions =
    style === "long" ? { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }
    : style === "short" ? { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }
    : { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
  return new Intl.DateTimeFormat(language, opts).format(utc(iso));
}

export function formatMonth(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(utc(iso));
}

/** Mon..Sun narrow names for the calendar header, in the guest's language. */
export function weekdayNames(language: string, width: "short" | "long" = "short"): string[] {
  const f = new Intl.DateTimeFormat(language, { weekday: width, timeZone: "UTC" });
  // 2024-01-01 was a Monday
  return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

export function formatWeekdayList(days: string[], language: string): string {
  const index: Record<string, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };
  const names = weekdayNames(language, "long");
  const list = days.map((d) => names[index[d]]);
  try {
    return new Intl.ListFormat(language, { type: "conjunction" }).format(list);
  } catch {
    return list.join(", ");
  }
}

export function formatTime(date: Date, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" }).format(date);
}

/** m:ss */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function addDays(iso: string, days: number): string {
  const d = utc(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function ageOn(birth: string, on: string): number {
  const b = utc(birth);
  const o = utc(on);
  let age = o.getUTCFullYear() - b.getUTCFullYear();
  if (o.getUTCMonth() < b.getUTCMonth() || (o.getUTCMonth() === b.getUTCMonth() && o.getUTCDate() < b.getUTCDate())) age--;
  return age;
}

/** A language's own name for itself ("Deutsch", "Español"), capitalised; the code when Intl does not know it. */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : code;
  } catch {
    return code;
  }
}
