/** A product as the domain rules see it (parsed from its row by db/products.ts). */
import { weekday } from "../lib/time";

export type ProductType = "package" | "accommodation" | "activity" | "rental" | "service" | "bundle" | "item";
export type Weekdays = Record<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun", boolean>;

export interface Duration {
  is_flexible: boolean;
  min: number;
  default: number;
  unit: "day" | "hour";
  variants: number[];
}

export interface Product {
  id: number;
  type: ProductType;
  title: string;
  backoffice_title: string;
  description: string;
  extended_description: string;
  image: { small: string; medium: string; large: string };
  gender: string | null;
  backoffice_category_id: number | null;
  frontoffice_category_id: number | null;
  location_id: number | null;
  accommodation_type_id: number | null;
  duration: Duration;
  pax_min: number;
  pax_max: number;
  default_start_time: string | null;
  is_private: boolean;
  allowed_checkin_days: Weekdays;
  is_on_timeslots: boolean;
  /** "HH:MM" start times when on timeslots. */
  timeslots: string[];
  is_promoted: boolean;
  rooms: number | null;
  beds_per_room: number | null;
  srs: { charge_minor: number; fixed: boolean } | null;
  /** Units per date (or per timeslot) without an inventory row; null = unlimited. */
  default_capacity: number | null;
  translations: Record<string, Partial<Record<"title" | "description" | "extended_description", string>>>;
}

/** Longest stay we accept anywhere (and the widest date window of a request). */
export const MAX_NIGHTS = 366;

/** Products sold by the hour are sessions: every date is its own booking of the product. */
export const isSession = (p: Pick<Product, "duration">) => p.duration.unit === "hour";

/** Whether a guest may start on this date (the product's allowed check-in weekdays). */
export function isCheckinDay(p: Pick<Product, "allowed_checkin_days">, date: string): boolean {
  return p.allowed_checkin_days[weekday(date)] !== false;
}

/**
 * The durations (in the product's unit) a booking may have: the variants when listed, else any
 * from `min` (up to `cap`) when flexible, else the default.
 */
export function allowedDurations(d: Duration, cap = MAX_NIGHTS): number[] {
  if (d.variants.length > 0) return [...new Set(d.variants)].filter((v) => v >= 1).sort((a, b) => a - b);
  if (d.is_flexible) {
    const out: number[] = [];
    for (let n = Math.max(1, d.min); n <= cap; n++) out.push(n);
    return out;
  }
  return [Math.max(1, d.default)];
}

export function isAllowedDuration(d: Duration, n: number): boolean {
  if (d.variants.length > 0) return d.variants.includes(n);
  if (d.is_flexible) return n >= Math.max(1, d.min) && n <= MAX_NIGHTS;
  return n === Math.max(1, d.default);
}

/** The stay a check-in must be able to hold: the default duration, or the minimum when flexible. */
export function shortestStay(d: Duration): number {
  if (d.unit === "hour") return 1;
  if (d.variants.length > 0) return Math.max(1, Math.min(...d.variants));
  return Math.max(1, d.is_flexible ? d.min : d.default);
}

/** A translated field, falling back to the default language's text. */
export function translated(p: Product, field: "title" | "description" | "extended_description", language?: string): string {
  const t = language ? p.translations[language]?.[field] : undefined;
  return typeof t === "string" && t !== "" ? t : p[field];
}
