/** A product as the domain rules see it (parsed from its row by db/products.ts). */
import { weekday, type Weekday } from "../lib/time";

export type ProductType = "package" | "accommodation" | "activity" | "rental" | "service" | "bundle" | "item";
export type Weekdays = Record<Weekday, boolean>;
export const WEEKDAYS: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

export interface Duration {
  is_flexible: boolean;
  min: number;
  /** The longest stay (in the unit) a flexible duration allows; null: up to MAX_NIGHTS. Not shown by the public API. */
  max?: number | null;
  default: number;
  unit: "day" | "hour";
  variants: number[];
}

/**
 * One entry of a product's weekly timeslot schedule: a start time offered on some weekdays
 * (null: every day), with its own capacity per slot (null: the product's default_capacity).
 */
export interface Timeslot {
  time: string;
  capacity: number | null;
  days: Weekday[] | null;
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
  /** Every "HH:MM" start time of the schedule, sorted (the slots of a given date: slotsOn()). */
  timeslots: string[];
  /** The weekly timeslot schedule (see Timeslot). */
  schedule: Timeslot[];
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
    const last = Math.min(cap, d.max ?? MAX_NIGHTS);
    for (let n = Math.max(1, d.min); n <= last; n++) out.push(n);
    return out;
  }
  return [Math.max(1, d.default)];
}

export function isAllowedDuration(d: Duration, n: number): boolean {
  if (d.variants.length > 0) return d.variants.includes(n);
  if (d.is_flexible) return n >= Math.max(1, d.min) && n <= Math.min(MAX_NIGHTS, d.max ?? MAX_NIGHTS);
  return n === Math.max(1, d.default);
}

/** Words for the durations a product offers (in 422 messages). */
export function durationsText(d: Duration): string {
  if (d.variants.length) return d.variants.join(" or ");
  if (!d.is_flexible) return String(Math.max(1, d.default));
  return d.max ? `${d.min} to ${d.max}` : `at least ${d.min}`;
}

/** The start times a timeslot product offers on `date` (its weekday's part of the schedule), sorted. */
export function slotsOn(p: Pick<Product, "schedule">, date: string): string[] {
  const day = weekday(date);
  const out = new Set<string>();
  for (const t of p.schedule) if (!t.days || t.days.includes(day)) out.add(t.time);
  return [...out].sort();
}

/**
 * The capacity of a slot on `date` when no inventory row says otherwise: the schedule entry's
 * own, else the product's default (null = unlimited); `undefined` when the product is on
 * timeslots and the slot is not on its schedule that weekday (it has no capacity). A product
 * not on timeslots (or slot '') has its default capacity. The SQL twin is the
 * allocations_capacity trigger (migration 0200) and db/catalog-write.ts's capacity guard.
 */
export function scheduledCapacity(p: Pick<Product, "schedule" | "is_on_timeslots" | "default_capacity">, date: string, slot: string): number | null | undefined {
  if (slot === "" || !p.is_on_timeslots) return p.default_capacity;
  const day = weekday(date);
  const entry = p.schedule.find((t) => t.time === slot && (!t.days || t.days.includes(day)));
  if (!entry) return undefined;
  return entry.capacity ?? p.default_capacity;
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
