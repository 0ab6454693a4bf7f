/** Products: reading rows and turning them into domain Products. Every query filters on business_id. */
import type { Duration, Product, ProductType, Weekdays } from "../domain/product";

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
  const image = json<Partial<Product["image"]>>(r.image, {});
  const timeslots = json<unknown[]>(r.timeslots, []).filter((t): t is string => typeof t === "string").sort();
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
    is_promoted: r.is_promoted === 1,
    rooms: r.rooms,
    beds_per_room: r.beds_per_room,
    srs: r.srs_charge_minor === null ? null : { charge_minor: r.srs_charge_minor, fixed: r.srs_fixed === 1 },
    default_capacity: r.default_capacity,
    translations: json(r.translations, {}),
  };
}

/** What the product lists filter on (db/catalog-snapshot.ts filterProducts()). */
