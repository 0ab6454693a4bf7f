import { policyRefusal, unitsForParty } from "../../worker/src/domain/accommodation";
import type { DayEntry, PackageItem, PackageRoot, Product, RoomType } from "./api/client";
import { addDays } from "./format";

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

export type FieldErrors = Record<string, string>;

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
