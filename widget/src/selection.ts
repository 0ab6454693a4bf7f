import { policyRefusal, unitsForParty } from "../../worker/src/domain/accommodation";
import type { AddToCartBody, Cart, DayEntry, PackageItem, PackageRoot, Product, RoomType } from "./api/client";
import { addDays, ageOn } from "./format";

/** What the guest has chosen so far; survives errors and step changes untouched. */
export interface Selection {
  productId: number | null;
  startDate: string | null;
  duration: number;
  males: number;
  females: number;
  couples: number;
  accommodationId: number | null;
  srs: boolean;
  /** package_item_id -> chosen dates ('YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' for timeslots) */
  items: Record<number, string[]>;
}

export interface GuestForm {
  first_name: string;
  last_name: string;
  email: string;
  gender: "m" | "f";
  birth_date: string;
  diet_id: string;
  level_id: string;
  /** couples' members may say their gender; the others came from the party counts */
  genderEditable: boolean;
  /** Answers to the business's questions (custom-fields.ts), by key. */
  custom_fields?: Record<string, string | boolean>;
}

/** The booker's details as typed at checkout. */
export interface CustomerForm {
  first_name: string;
  last_name: string;
  email: string;
  /** The phone number's country (ISO code), which sets phone_countrycode. */
  phone_country: string;
  /** Its calling code, digits only: what the service stores. */
  phone_countrycode: string;
  phone: string;
  address_line_1: string;
  city: string;
  zipcode: string;
  /** ISO 3166-1 alpha-2 (the service accepts a code or an English name). */
  country: string;
  /** Answers to the business's questions of the booker (custom-fields.ts), by key. */
  custom_fields?: Record<string, string | boolean>;
}

/**
 * The lengths (nights, or days) a product offers, shortest first: its variants, else every one
 * from its minimum when flexible (a month at most), else its default. A product sold by the hour
 * takes one day.
 */
export function durationChoices(product: Product): number[] {
  const d = product.duration;
  if (d.unit === "hour") return [1];
  const last = Math.min((d as { max?: number | null }).max ?? Infinity, d.min + 29);
  const list = d.variants.length ? d.variants : d.is_flexible ? Array.from({ length: Math.max(1, last - d.min + 1) }, (_, i) => d.min + i) : [d.default];
  return [...new Set(list)].filter((n) => n >= d.min && n >= 1).sort((a, b) => a - b);
}

/**
 * Whether the product is booked with a room (a package that has rooms, or a room on its own):
 * then the party is asked by gender (Men, Women, Couples) and counted in nights. Anything else
 * (an activity, a course, a rental, a package without a room) asks a number of participants,
 * kept in `males` and sent without a gender, and is counted in days.
 */
export const withRooms = (p: Product | null, roomTypes: RoomType[]) => p?.type === "accommodation" || (p?.type === "package" && roomTypes.length > 0);

export const emptyGuest = (gender: "m" | "f", genderEditable = false): GuestForm => ({
  first_name: "", last_name: "", email: "", gender, birth_date: "", diet_id: "", level_id: "", genderEditable,
});

/** The guests a party stands for: men, women, then each couple as two. */
export function partyGenders(s: Pick<Selection, "males" | "females" | "couples">): { gender: "m" | "f"; couple: boolean }[] {
  return [
    ...Array.from({ length: s.males }, () => ({ gender: "m" as const, couple: false })),
    ...Array.from({ length: s.females }, () => ({ gender: "f" as const, couple: false })),
    ...Array.from({ length: s.couples }, () => [{ gender: "m" as const, couple: true }, { gender: "f" as const, couple: true }]).flat(),
  ];
}

/** Keep what was typed for guests that remain when the party changes. */
export function resizeGuests(previous: GuestForm[], s: Pick<Selection, "males" | "females" | "couples">): GuestForm[] {
  return partyGenders(s).map((p, i) => {
    const old = previous[i];
    if (old) return { ...old, gender: p.couple ? old.gender : p.gender, genderEditable: p.couple };
    return emptyGuest(p.gender, p.couple);
  });
}

export const partySize = (s: Pick<Selection, "males" | "females" | "couples">) => s.males + s.females + 2 * s.couples;

type Party = Pick<Selection, "males" | "females" | "couples">;
const asRoom = (t: RoomType) => ({ ...t, srs: null });

/** Whether a room type can take the party with what is left of it (null: unlimited), by the service's own rules. */
export function roomTakes(type: RoomType, left: number | null | undefined, party: Party): boolean {
  if (left === undefined) return false;
  const units = unitsForParty(asRoom(type), party);
  return units !== null && (left === null || left >= units);
}

/**
 * Whether some room of a package's check-in day can take the party for the whole stay; true
 * when the day says nothing of rooms (not a package with accommodation). Before the guest has
 * said who comes, one guest of either gender will do: a day with no free bed or room at all
 * is not offered.
 */
export function dayTakesParty(entry: DayEntry | undefined, types: RoomType[], party: Party): boolean {
  if (!entry?.rooms || !types.length) return true;
  const left = entry.rooms;
  if (partySize(party) === 0) return types.some((t) => roomTakes(t, left[t.id], { males: 1, females: 0, couples: 0 }) || roomTakes(t, left[t.id], { males: 0, females: 1, couples: 0 }));
  return types.some((t) => roomTakes(t, left[t.id], party));
}

/** The room types the party may take by their rules but cannot on this day: sold out for it. */
export function soldOutTypes(entry: DayEntry | undefined, types: RoomType[], party: Party): RoomType[] {
  if (!entry?.rooms || partySize(party) === 0) return [];
  return types.filter((t) => !policyRefusal(asRoom(t), party) && !roomTakes(t, entry.rooms![t.id], party));
}

export function endDate(s: Selection): string | null {
  return s.startDate ? addDays(s.startDate, s.duration) : null;
}

export const allItems = (pkg: PackageRoot | null): PackageItem[] => (pkg ? [...pkg.single_items, ...pkg.groups.flatMap((g) => g.items)] : []);

const hasRoom = (v: number | string | null | undefined) => v === null || v === undefined || v === "unlimited" || (typeof v === "number" && v > 0);

/** The dates of an item one can book: every date with room (and for timeslots, a slot with room). */
export function bookableDates(item: PackageItem): PackageItem["dates"] {
  return item.dates.filter((d) => (d.timeslots ? d.timeslots.some((t) => t.available > 0) : hasRoom(d.available)));
}

/** Selecting an item "as one checkbox": all its bookable dates, at the first free time for timeslot items. */
export function wholeItemDates(item: PackageItem, time?: string): string[] {
  return bookableDates(item).map((d) => {
    if (!d.timeslots) return d.date;
    const slot = d.timeslots.find((t) => t.time === time && t.available > 0) ?? d.timeslots.find((t) => t.available > 0)!;
    return `${d.date} ${slot.time}:00`;
  });
}

/** The items payload: options, alternatives and upgrades with at least one date, and default items at the times chosen for them. */
export function itemsPayload(s: Selection, pkg: PackageRoot | null): { package_item_id: number; dates: string[] }[] {
  const known = new Set(allItems(pkg).filter((i) => i.role !== "default" || i.product.is_on_timeslots).map((i) => i.package_item_id));
  return Object.entries(s.items)
    .map(([id, dates]) => ({ package_item_id: Number(id), dates: [...dates].sort() }))
    .filter((i) => known.has(i.package_item_id) && i.dates.length > 0);
}

/** The body of POST /bookings/add for the party and its details. */
export function addToCartBody(s: Selection, pkg: PackageRoot | null, guests: GuestForm[], currency: string, language: string, cartId?: string, rooms = true): AddToCartBody {
  const end = endDate(s)!;
  const items = itemsPayload(s, pkg);
  return {
    currency,
    ...(cartId ? { cart_id: cartId } : {}),
    guests: guests.map((g) => ({
      first_name: g.first_name.trim(),
      last_name: g.last_name.trim(),
      ...(g.email.trim() ? { email: g.email.trim() } : {}),
      ...(rooms ? { gender: g.gender } : {}),
      language_code: language,
      ...(g.birth_date ? { birth_date: g.birth_date } : {}),
      ...(g.diet_id ? { diet_id: Number(g.diet_id) } : {}),
      ...(g.level_id ? { level_id: Number(g.level_id) } : {}),
      package: {
        id: s.productId!,
        start_date: s.startDate!,
        end_date: end,
        ...(s.accommodationId ? { accommodation_id: s.accommodationId } : {}),
        ...(s.srs ? { srs: true } : {}),
        ...(items.length ? { items } : {}),
      },
    })),
  } as AddToCartBody;
}

/** The same holds again, from what the server shows of a cart (after it expired). */
export function rebuildBody(cart: Cart): AddToCartBody {
  return {
    currency: cart.currency,
    guests: cart.guests.map((g) => ({
      first_name: g.first_name,
      last_name: g.last_name,
      ...(g.email ? { email: g.email } : {}),
      ...(g.gender ? { gender: g.gender } : {}),
      ...(g.language_code ? { language_code: g.language_code } : {}),
      ...(g.birth_date ? { birth_date: g.birth_date } : {}),
      ...(g.custom_fields && Object.keys(g.custom_fields).length ? { custom_fields: g.custom_fields } : {}),
      package: {
        id: g.package.id,
        start_date: g.package.start_date,
        end_date: g.package.end_date,
        ...(g.package.accommodation_id ? { accommodation_id: g.package.accommodation_id } : {}),
        ...(g.package.srs ? { srs: true } : {}),
        items: g.items
          // chosen items, and default items at the times chosen for them
          .filter((i) => i.package_item_id !== null && (["option", "alternative", "upgrade"].includes(i.role) || (i.role === "default" && i.dates.some((d) => d.length > 10))))
          .map((i) => ({ package_item_id: i.package_item_id!, dates: i.dates })),
      },
    })),
  };
}

export type FieldErrors = Record<string, string>;

/** Client-side checks of the guests' details, keyed like the server's paths ("guests.0.first_name"). */
export function validateGuests(
  guests: GuestForm[],
  rules: { birthdayRequired: boolean; minimumAge: number; startDate: string },
  msg: { required: string; tooYoung: string; invalidEmail: string },
): FieldErrors {
  const errors: FieldErrors = {};
  const emailRe = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  guests.forEach((g, i) => {
    if (!g.first_name.trim()) errors[`guests.${i}.first_name`] = msg.required;
    if (!g.last_name.trim()) errors[`guests.${i}.last_name`] = msg.required;
    if (g.email.trim() && !emailRe.test(g.email.trim())) errors[`guests.${i}.email`] = msg.invalidEmail;
    if (!g.birth_date && rules.birthdayRequired) errors[`guests.${i}.birth_date`] = msg.required;
    if (g.birth_date && rules.minimumAge > 0 && ageOn(g.birth_date, rules.startDate) < rules.minimumAge) errors[`guests.${i}.birth_date`] = msg.tooYoung;
  });
  return errors;
}

export interface CalendarCell {
  date: string;
  inMonth: boolean;
}

/** Six weeks (Monday first) around the month of `monthIso`: always six, so months never change the height. */
export function monthGrid(monthIso: string): CalendarCell[][] {
  const first = `${monthIso.slice(0, 7)}-01`;
  const offset = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const start = addDays(first, -offset);
  const weeks: CalendarCell[][] = [];
  for (let w = 0; w < 6; w++) {
    const week = Array.from({ length: 7 }, (_, d) => {
      const date = addDays(start, w * 7 + d);
      return { date, inMonth: date.slice(0, 7) === first.slice(0, 7) };
    });
    weeks.push(week);
  }
  return weeks;
}
