/**
 * Availability arithmetic, pure: capacity − live allocations per product, date and timeslot.
 *
 * Capacity comes from an inventory row when one exists, else from the product's
 * default_capacity (null = unlimited). A blocked date has no capacity. The live allocations are
 * summed by the caller's one grouped query (db/catalog.ts), bookings plus unexpired holds.
 */
import { addDays, dateRange } from "../lib/time";
import { allowedDurations, isCheckinDay, isSession, shortestStay, type Product } from "./product";

/**
 * How the availability endpoints show an unlimited capacity, where the spec types the numbers
 * as integers: the same bound the database trigger uses (allocations_capacity).
 */
export const UNLIMITED_UNITS = 1_000_000_000;

export interface InventoryEntry {
  capacity: number;
  blocked: boolean;
}

/** What the database knows about one product: inventory rows and live allocations by `date|slot`. */
export interface Ledger {
  inventory: Map<string, InventoryEntry>;
  allocated: Map<string, number>;
  /**
   * The business's today ('YYYY-MM-DD' in its time zone): a date before it has nothing
   * available (its capacity is still shown, it is not blocked). Unset: no date is past.
   */
  closedBefore?: string;
}

export const ledgerKey = (date: string, slot = "") => `${date}|${slot}`;
export const emptyLedger = (): Ledger => ({ inventory: new Map(), allocated: new Map() });

export interface SlotState {
  /** null = unlimited */
  capacity: number | null;
  /** null = unlimited */
  available: number | null;
  blocked: boolean;
}

type CapacityProduct = Pick<Product, "default_capacity" | "is_on_timeslots" | "timeslots">;

/** Capacity, availability and block of one product-date-slot. */
export function slotState(product: CapacityProduct, ledger: Ledger, date: string, slot = ""): SlotState {
  const dayBlock = slot !== "" ? ledger.inventory.get(ledgerKey(date, "")) : undefined;
  const row = ledger.inventory.get(ledgerKey(date, slot));
  if (row?.blocked || dayBlock?.blocked) return { capacity: 0, available: 0, blocked: true };
  const capacity = row ? row.capacity : product.default_capacity;
  // Nothing before today can be booked: a past date has no room, whatever its capacity.
  if (ledger.closedBefore !== undefined && date < ledger.closedBefore) return { capacity, available: 0, blocked: false };
  const taken = ledger.allocated.get(ledgerKey(date, slot)) ?? 0;
  if (capacity === null) return { capacity: null, available: null, blocked: false };
  return { capacity, available: Math.max(0, capacity - taken), blocked: false };
}

/** Whether `units` can be taken: unlimited always can. */
export const fits = (s: SlotState, units: number) => !s.blocked && (s.available === null || s.available >= units);

/** Units left on every date of `dates` (the minimum); null when all are unlimited. */
export function minAvailable(product: CapacityProduct, ledger: Ledger, dates: string[], slot = ""): number | null {
  let min: number | null = null;
  for (const d of dates) {
    const s = slotState(product, ledger, d, slot);
    if (s.available !== null) min = min === null ? s.available : Math.min(min, s.available);
  }
  return min;
}

/** The nights of a stay: the check-in date and the following ones, `nights` in all. */
export function stayDates(checkin: string, nights: number): string[] {
  return dateRange(checkin, addDays(checkin, Math.max(1, nights) - 1));
}

/** How many days before the window the checkout rule must look at (the longest stay it tries). */
export function lookbackDays(p: Pick<Product, "duration">): number {
  if (isSession(p)) return 0;
  const d = p.duration;
  if (d.variants.length > 0) return Math.max(...d.variants);
  // Any duration from min on: within 7 of them every weekday is a possible check-in.
  return d.is_flexible ? Math.max(1, d.min) + 6 : Math.max(1, d.default);
}

/** The dates a request for [start, end] must read: the lookback before and the stay after. */
export function ledgerWindow(p: Pick<Product, "duration">, start: string, end: string): { from: string; to: string } {
  return { from: addDays(start, -lookbackDays(p)), to: addDays(end, isSession(p) ? 0 : shortestStay(p.duration)) };
}

export interface DayEntry {
  available_for_checkin: boolean;
  available_for_checkout: boolean;
  blocked: boolean;
  available: number;
  capacity: number;
  timeslots: null;
}
export interface TimeslotEntry {
  blocked: boolean;
  timeslots: { time: string; available: number; capacity: number }[];
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const shown = (n: number | null) => (n === null ? UNLIMITED_UNITS : n);

/** Whether one guest can check in on `date` and stay the shortest allowed stay. */
export function availableForCheckin(p: Product, ledger: Ledger, date: string): boolean {
  if (!isCheckinDay(p, date)) return false;
  const nights = isSession(p) ? [date] : stayDates(date, shortestStay(p.duration));
  return nights.every((d) => fits(slotState(p, ledger, d), 1));
}

/**
 * Whether one guest can check out on `date`: some allowed duration d ends here, its check-in
 * (date − d) is an allowed weekday, and every night in between has room.
 */
export function availableForCheckout(p: Product, ledger: Ledger, date: string): boolean {
  if (isSession(p)) return availableForCheckin(p, ledger, date);
  const longest = lookbackDays(p);
  let run = 0; // nights with room, counting back from the night before `date`
  while (run < longest && fits(slotState(p, ledger, addDays(date, -(run + 1))), 1)) run++;
  for (const d of allowedDurations(p.duration, longest)) {
    if (d > run) break;
    if (isCheckinDay(p, addDays(date, -d))) return true;
  }
  return false;
}

/**
 * The availability entries of one product for every date of [start, end]. The same answers as
 * availableForCheckin() and availableForCheckout() per date (a property test holds them equal),
 * computed in one pass over the window: each night's room is worked out once, then runs of
 * nights with room are counted forwards and backwards, so a date costs a few array reads
 * instead of a stay's worth of date arithmetic.
 */
export function availabilityCalendar(p: Product, ledger: Ledger, start: string, end: string): Record<string, DayEntry | TimeslotEntry> {
  const out: Record<string, DayEntry | TimeslotEntry> = {};
  if (p.is_on_timeslots) {
    for (const date of dateRange(start, end)) {
      const dayBlocked = ledger.inventory.get(ledgerKey(date, ""))?.blocked ?? false;
      out[date] = {
        blocked: dayBlocked,
        timeslots: dayBlocked
          ? []
          : p.timeslots.map((time) => {
              const s = slotState(p, ledger, date, time);
              return { time, available: shown(s.available), capacity: shown(s.capacity) };
            }),
      };
    }
    return out;
  }
  const session = isSession(p);
  const back = session ? 0 : lookbackDays(p);
  const stay = session ? 1 : shortestStay(p.duration);
  const days = dateRange(addDays(start, -back), addDays(end, stay));
  const n = days.length;
  const states = days.map((d) => slotState(p, ledger, d));
  const room = states.map((st) => fits(st, 1));
  const firstWeekday = new Date(`${days[0]}T00:00:00Z`).getUTCDay();
  const checkinDay = (i: number) => p.allowed_checkin_days[WEEKDAYS[(firstWeekday + i) % 7]] !== false;
  // ahead[i]: nights with room from night i on; behind[i]: nights with room just before night i.
  const ahead = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) ahead[i] = room[i] ? ahead[i + 1] + 1 : 0;
  const behind = new Array<number>(n).fill(0);
  for (let i = 1; i < n; i++) behind[i] = room[i - 1] ? behind[i - 1] + 1 : 0;
  const durations = session ? [] : allowedDurations(p.duration, back);
  const last = n - 1 - stay; // index of `end`
  for (let i = back; i <= last; i++) {
    const checkin = checkinDay(i) && ahead[i] >= stay;
    let checkout = checkin;
    if (!session) {
      const run = Math.min(behind[i], back);
      checkout = false;
      for (const d of durations) {
        if (d > run) break;
        if (checkinDay(i - d)) {
          checkout = true;
          break;
        }
      }
    }
    const s = states[i];
    out[days[i]] = {
      available_for_checkin: checkin,
      available_for_checkout: checkout,
      blocked: s.blocked,
      available: shown(s.available),
      capacity: shown(s.capacity),
      timeslots: null,
    };
  }
  return out;
}
