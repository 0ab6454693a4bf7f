/**
 * Moving a guest to another slot or day: one booking line of a product on timeslots, one of its
 * date-times, to another timeslot with places left. Made the same way whoever asks (the back
 * office's booking screen now, the private API later): one D1 batch with its guards, the units
 * re-allocated (the capacity trigger decides, so a move never oversells), the line's dates, and
 * the audit entry. The price is kept: a move does not re-price. No webhook event: the events of
 * the contract (contract/events.ts) have none for a changed booking yet.
 */
import { referenceOf } from "../domain/reference";
import type { Actor } from "../db/audit-log";
import { findShortages } from "../db/allocations";
import { bookingConfirmedGuard, bookingLines, bookingRow } from "../db/bookings";
import { bookingSlotAllocations, isSoldOut, moveLineStatements } from "../db/manifest";
import { snapshotAt } from "../db/tenant-read";
import type { BookingLineMove } from "../contract/private";
import { slotsOn } from "../domain/product";
import { ApiError, invalid, notFound } from "../lib/errors";
import { addDays, dateIn } from "../lib/time";
import { isGuardFailure } from "./input";
import { write, type Store } from "./write";

const TIMED = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}):00$/;

function parseDates(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The business's today in its time zone (UTC when the setting is unusable). */
function todayOf(now: Date, timeZone: string | undefined): string {
  try {
    return dateIn(now, timeZone || "UTC");
  } catch {
    return dateIn(now, "UTC");
  }
}

export interface MovedLine {
  from: string;
  to: string;
}

/**
 * Move `input.from` of line `input.line_id` of the booking to `input.date` at `input.time`.
 * 404: no such booking. 409: the booking is cancelled, or it changed while the move ran. 422 at
 * the field: not a line of the booking or not on timeslots (line_id), not a date-time of the line
 * (from), a past day or a day the line already has a time on (date), not a slot of that day, the
 * same slot, or too few places left (time). Nothing is changed when it is refused.
 */
export async function moveBookingLine(store: Store, actor: Actor, businessId: number, bookingId: string, input: BookingLineMove, now: Date): Promise<MovedLine> {
  // Another change of the booking between the read and the write (a move of another guest
  // sharing the slot's units) aborts the batch on its guard: the move is planned again on what
  // the booking became, a few times, then answered 409.
  for (let attempt = 0; attempt < 3; attempt++) {
    const moved = await moveOnce(store, actor, businessId, bookingId, input, now, attempt > 0);
    if (moved) return moved;
  }
  throw new ApiError(409, "conflict", "The booking changed while it was being moved; nothing was moved. Reload it and try again.");
}

/** One planned move; null when a guard found the booking changed since it was read. */
async function moveOnce(store: Store, actor: Actor, businessId: number, bookingId: string, input: BookingLineMove, now: Date, again: boolean): Promise<MovedLine | null> {
  const db = store.DB;
  const [booking, lines, snap] = await Promise.all([bookingRow(db, businessId, bookingId), bookingLines(db, businessId, bookingId), snapshotAt(db, businessId, undefined)]);
  if (!booking) throw notFound("The booking");
  if (booking.status !== "confirmed") throw new ApiError(409, "conflict", "A cancelled booking cannot be moved.");
  const line = lines.find((l) => l.id === input.line_id);
  if (!line) throw invalid("line_id", "is not a line of this booking");
  const product = snap.products.get(line.product_id);
  if (!product || !product.is_on_timeslots) throw invalid("line_id", "is not a line of a product on timeslots");
  const dates = parseDates(line.dates);
  const from = TIMED.exec(input.from);
  if (again && !dates.includes(input.from)) throw new ApiError(409, "conflict", "This guest was moved by someone else meanwhile; nothing else was moved. Reload the booking.");
  if (!from || !dates.includes(input.from)) throw invalid("from", `is not a date-time of this line; its dates: ${dates.join(", ")}`);
  const today = todayOf(now, snap.business.config.time_zone);
  if (input.date < today) throw invalid("date", `is in the past (today is ${today})`);
  const slots = slotsOn(product, input.date);
  if (!slots.includes(input.time)) throw invalid("time", `no timeslot at ${input.time} on ${input.date}; timeslots that day: ${slots.join(", ") || "none"}`);
  const to = `${input.date} ${input.time}:00`;
  if (to === input.from) throw invalid("time", "is the slot the guest is on already");
  if (dates.some((d) => d !== input.from && d.slice(0, 10) === input.date)) throw invalid("date", "this line has a time on that day already");

  const [fromDate, fromSlot] = [from[1], from[2]];
  const fromRows = await bookingSlotAllocations(db, businessId, bookingId, product.id, fromDate, fromSlot);
  if (fromRows.reduce((n, r) => n + r.qty, 0) < line.qty) throw new ApiError(409, "conflict", `The booking holds fewer places at ${fromSlot} on ${fromDate} than this line; nothing was moved.`);
  const datesAfter = dates.map((d) => (d === input.from ? to : d)).sort();

  // A booking of timeslot lines only (a boat dive sold on its own) spans the days of its lines:
  // moving its guest to another day moves the booking's dates (and its guests' stay) with it.
  let bookingDates: { start: string; end: string } | undefined;
  const allDates = lines.map((l) => (l.id === line.id ? datesAfter : parseDates(l.dates)));
  if (allDates.every((ds) => ds.length > 0 && ds.every((d) => TIMED.test(d)))) {
    const days = allDates.flat().map((d) => d.slice(0, 10)).sort();
    const span = { start: days[0], end: addDays(days[days.length - 1], 1) };
    if (span.start !== booking.start_date || span.end !== booking.end_date) bookingDates = span;
  }

  const reference = referenceOf(booking.reference_year, booking.reference_number);
  try {
    await write(store, actor, businessId, now, {
      statements: [
        bookingConfirmedGuard(db, businessId, bookingId),
        ...moveLineStatements(db, { businessId, bookingId, lineId: line.id, productId: product.id, datesBefore: line.dates, datesAfter, fromRows, qty: line.qty, to: { date: input.date, slot: input.time }, bookingDates }, now),
      ],
      audit: [
        {
          action: "moved",
          entity: "booking",
          entityId: bookingId,
          summary: `Moved ${product.title} of booking ${reference} from ${input.from} to ${to}`,
          before: { line_id: line.id, dates: dates, ...(bookingDates ? { start_date: booking.start_date, end_date: booking.end_date } : {}) },
          after: { line_id: line.id, dates: datesAfter, ...(bookingDates ? { start_date: bookingDates.start, end_date: bookingDates.end } : {}) },
        },
      ],
    });
  } catch (err) {
    if (isSoldOut(err)) {
      const [short] = await findShortages(db, businessId, [{ product_id: product.id, date: input.date, slot: input.time, qty: line.qty }], now);
      const left = short ? short.available : 0;
      throw invalid("time", `only ${left} place${left === 1 ? "" : "s"} left at ${input.time} on ${input.date}; ${line.qty} needed`);
    }
    if (isGuardFailure(err)) return null;
    throw err;
  }
  return { from: input.from, to };
}
