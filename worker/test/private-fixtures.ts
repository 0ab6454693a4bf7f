import { env } from "cloudflare:test";
import { bookingPeopleStatements } from "../src/db/booking-people";
import { DEMO_BUSINESS_ID, dbOf } from "./helpers";
import { type PersonInput } from "../src/domain/persons";

let reference = 1000;

export interface FixtureBooking {
  bookingId: string;
  bookerId: string;
  guestIds: string[];
}

/**
 * A confirmed booking with its booker and guests, created the way checkout does: the booking
 * row plus bookingPeopleStatements in one batch (Persons upserted, events in the outbox).
 */
export async function createBookingFixture(
  options: {
    businessId?: number;
    booker: PersonInput & { company_name?: string | null; tax_number?: string | null };
    guests?: PersonInput[];
    start?: string;
    end?: string;
    status?: "confirmed" | "cancelled";
    createdAt?: string;
    totalMinor?: number;
    /** `guest`: the index of the guest the line is of (default the first); `role` default 'package'. */
    lines?: { product_id: number; product_type: string; dates: string[]; qty?: number; price_minor: number; guest?: number; role?: string }[];
  },
): Promise<FixtureBooking> {
  const businessId = options.businessId ?? DEMO_BUSINESS_ID;
  const bookingId = crypto.randomUUID();
  const created = options.createdAt ?? "2026-11-01T10:00:00Z";
  const now = new Date(created);
  const guests = (options.guests ?? []).map((person) => ({ id: crypto.randomUUID(), person }));
  const db = await dbOf(businessId);
  const people = await bookingPeopleStatements(db, businessId, bookingId, { booker: options.booker, guests }, now);
  const start = options.start ?? "2026-12-05";
  const end = options.end ?? "2026-12-12";
  const statements = [
    db.prepare(
      `INSERT INTO bookings (id, business_id, reference_number, reference_year, status, currency, total_minor, total_default_minor,
         start_date, end_date, location_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'EUR', ?, ?, ?, ?, 1, ?, ?)`,
    ).bind(bookingId, businessId, ++reference, start.slice(0, 4), options.status ?? "confirmed", options.totalMinor ?? 0, options.totalMinor ?? 0, start, end, created, created),
    ...(options.lines ?? []).map((line) =>
      db.prepare(
        "INSERT INTO booking_lines (booking_id, business_id, guest_id, product_id, product_type, role, dates, qty, price_minor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).bind(bookingId, businessId, guests[line.guest ?? 0]?.id ?? null, line.product_id, line.product_type, line.role ?? "package", JSON.stringify(line.dates), line.qty ?? 1, line.price_minor),
    ),
    ...people.statements,
  ];
  await db.batch(statements);
  return { bookingId, bookerId: people.bookerId, guestIds: people.guestIds };
}

/** Events written to the outbox for a business, oldest first (optionally after a seq). */
export async function outboxEvents(businessId = DEMO_BUSINESS_ID, afterSeq = 0) {
  const rows = await (await dbOf(businessId)).prepare("SELECT seq, id, event, data FROM outbox WHERE business_id = ? AND seq > ? ORDER BY seq")
    .bind(businessId, afterSeq)
    .all<{ seq: number; id: string; event: string; data: string }>();
  return rows.results.map((r) => ({ seq: r.seq, id: r.id, event: r.event, data: JSON.parse(r.data) as Record<string, any> }));
}

export async function lastOutboxSeq(): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM outbox").first<{ seq: number }>();
  return row?.seq ?? 0;
}

/** A fresh e-mail address for one test. */
export function uniqueEmail(prefix = "guest"): string {
  return `${prefix}.${crypto.randomUUID().slice(0, 8)}@example.com`;
}
