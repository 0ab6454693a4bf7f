/** Products: reading rows and turning them into domain Products. Every query filters on business_id. */
import { WEEKDAYS, type Duration, type Product, type ProductType, type Timeslot, type Weekdays } from "../domain/product";
import type { Weekday } from "../lib/time";
import { paymentPolicySchemas, type ProductPaymentPolicy } from "../contract/payment-policy";
import type { D1 } from "./d1";

export interface ProductRow {
  id: number;
  type: ProductType;
  title: string;
  backoffice_title: string;
  description: string;
  extended_description: string;
  image: string;
  gender: string | null;
  backoffice_category_id: number | null;
  frontoffice_category_id: number | null;
  location_id: number | null;
  accommodation_type_id: number | null;
  duration: string;
  pax_min: number;
  pax_max: number;
  default_start_time: string | null;
  is_private: number;
  allowed_checkin_days: string;
  is_on_timeslots: number;
  timeslots: string;
  is_promoted: number;
  rooms: number | null;
  beds_per_room: number | null;
  srs_charge_minor: number | null;
  srs_fixed: number | null;
  default_capacity: number | null;
  translations: string;
  /** Its own payment policy as JSON (migration 0500); NULL: as the business's. */
  payment_policy?: string | null;
}

/** A product's stored own payment policy (issue 31); null where none is set, or what is stored does not parse (it then follows the business). */
export function storedProductPolicy(text: string | null | undefined): ProductPaymentPolicy | null {
  if (!text) return null;
  try {
    const parsed = paymentPolicySchemas().ProductPaymentPolicy.safeParse(JSON.parse(text));
    return parsed.success && Object.keys(parsed.data).length ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The own payment policies of a business's products (archived ones too: bookings keep them), by id; a product without one is left out. */
export async function productPaymentPolicies(db: D1, businessId: number, ids: readonly number[]): Promise<Map<number, ProductPaymentPolicy>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .prepare("SELECT id, payment_policy FROM products WHERE business_id = ? AND payment_policy IS NOT NULL AND id IN (SELECT value FROM json_each(?))")
    .bind(businessId, JSON.stringify(unique))
    .all<{ id: number; payment_policy: string }>();
  return policiesFrom(rows);
}

/** The own payment policies of a booking's products (its lines'), as a statement for a batch that reads more. */
export function bookingPaymentPoliciesStatement(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      // The booking's lines by the booking's index: left to itself, the planner reads every line of
      // the business through (business_id, product_id), which covers the subquery's column.
      "SELECT id, payment_policy FROM products WHERE business_id = ?1 AND payment_policy IS NOT NULL AND id IN (SELECT product_id FROM booking_lines INDEXED BY booking_lines_booking WHERE booking_id = ?2 AND business_id = ?1)",
    )
    .bind(businessId, bookingId);
}

/** The policies of productPaymentPolicies's or bookingPaymentPoliciesStatement's rows. */
export function policiesFrom(rows: D1Result): Map<number, ProductPaymentPolicy> {
  const out = new Map<number, ProductPaymentPolicy>();
  for (const r of rows.results as { id: number; payment_policy: string }[]) {
    const own = storedProductPolicy(r.payment_policy);
    if (own) out.set(r.id, own);
  }
  return out;
}

function json<T>(text: string | null | undefined, fallback: T): T {
  try {
    const v = text ? JSON.parse(text) : fallback;
    return v && typeof v === "object" ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}

const allDays: Weekdays = { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true };

export function toProduct(r: ProductRow): Product {
  const d = json<Partial<Duration>>(r.duration, {});
  const duration: Duration = {
    is_flexible: Boolean(d.is_flexible),
    min: Number(d.min ?? 1),
    default: Number(d.default ?? d.min ?? 1),
    unit: d.unit === "hour" ? "hour" : "day",
    variants: Array.isArray(d.variants) ? d.variants.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [],
  };
  if (Number.isInteger(d.max) && Number(d.max) > 0) duration.max = Number(d.max);
  const image = json<Partial<Product["image"]>>(r.image, {});
  const schedule = toSchedule(r.timeslots);
  const timeslots = [...new Set(schedule.map((t) => t.time))].sort();
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    backoffice_title: r.backoffice_title,
    description: r.description,
    extended_description: r.extended_description,
    image: { small: image.small ?? "", medium: image.medium ?? "", large: image.large ?? "" },
    gender: r.gender,
    backoffice_category_id: r.backoffice_category_id,
    frontoffice_category_id: r.frontoffice_category_id,
    location_id: r.location_id,
    accommodation_type_id: r.accommodation_type_id,
    duration,
    pax_min: r.pax_min,
    pax_max: r.pax_max,
    default_start_time: r.default_start_time,
    is_private: r.is_private === 1,
    allowed_checkin_days: { ...allDays, ...json<Partial<Weekdays>>(r.allowed_checkin_days, {}) },
    is_on_timeslots: r.is_on_timeslots === 1,
    timeslots,
    schedule,
    is_promoted: r.is_promoted === 1,
    rooms: r.rooms,
    beds_per_room: r.beds_per_room,
    srs: r.srs_charge_minor === null ? null : { charge_minor: r.srs_charge_minor, fixed: r.srs_fixed === 1 },
    default_capacity: r.default_capacity,
    translations: json(r.translations, {}),
  };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A product's timeslots column as its weekly schedule: "HH:MM" strings (every day, the product's
 * capacity) and {time, capacity, days} entries (migration 0200). Anything else is left out.
 */
export function toSchedule(text: string | null | undefined): Timeslot[] {
  const out: Timeslot[] = [];
  for (const t of json<unknown[]>(text, [])) {
    if (typeof t === "string" && TIME.test(t)) out.push({ time: t, capacity: null, days: null });
    else if (t && typeof t === "object" && typeof (t as any).time === "string" && TIME.test((t as any).time)) {
      const e = t as { time: string; capacity?: unknown; days?: unknown };
      const capacity = Number.isInteger(e.capacity) && Number(e.capacity) >= 0 ? Number(e.capacity) : null;
      const days = Array.isArray(e.days) ? WEEKDAYS.filter((w) => (e.days as unknown[]).includes(w)) : null;
      out.push({ time: e.time, capacity, days: days as Weekday[] | null });
    }
  }
  return out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}
