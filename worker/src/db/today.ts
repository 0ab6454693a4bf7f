import type { D1 } from "./d1";
/** The back office's Today screen: arrivals, departures, who is in house and new bookings, in ONE batch. */
import { NET_PAID_SQL } from "./payments";

export interface TodayGuest {
  guest_id: string;
  booking_id: string;
  reference: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  arrives_on: string | null;
  departs_on: string | null;
  checked_in_at: string | null;
  checked_out_at: string | null;
  /** What the guest's booking still owes (its total less what succeeded payments brought net), in its currency's minor units. */
  balance_minor: number;
  currency: string;
}

export interface TodayBooking {
  id: string;
  reference: string;
  status: string;
  start_date: string;
  end_date: string;
  created_at: string;
  total_minor: number;
  currency: string;
  booker_first_name: string | null;
  booker_last_name: string | null;
  guest_count: number;
}

const GUEST_COLUMNS = `g.id AS guest_id, g.booking_id, printf('%s-%05d', b.reference_year, b.reference_number) AS reference,
  json_extract(g.person_snapshot, '$.first_name') AS first_name, json_extract(g.person_snapshot, '$.last_name') AS last_name,
  json_extract(g.person_snapshot, '$.email') AS email, g.arrives_on, g.departs_on, g.checked_in_at, g.checked_out_at,
  b.total_minor - ${NET_PAID_SQL} AS balance_minor, b.currency`;
const CONFIRMED = "JOIN bookings b ON b.id = g.booking_id AND b.business_id = g.business_id AND b.status = 'confirmed'";
/** Each list shows this many; the counts count all. */
export const TODAY_LIST_LIMIT = 200;

export async function todayRows(db: D1, businessId: number, today: string, newSince: string) {
  const list = (where: string, ...params: unknown[]) =>
    db.prepare(`SELECT ${GUEST_COLUMNS} FROM guests g ${CONFIRMED} WHERE g.business_id = ? AND ${where} ORDER BY last_name, first_name, g.id LIMIT ${TODAY_LIST_LIMIT}`).bind(businessId, ...params);
  const count = (where: string, ...params: unknown[]) => db.prepare(`SELECT COUNT(*) AS n FROM guests g ${CONFIRMED} WHERE g.business_id = ? AND ${where}`).bind(businessId, ...params);
  const arrivals = "g.arrives_on = ?";
  const departures = "g.departs_on = ?";
  const inHouse = "g.checked_in_at IS NOT NULL AND g.checked_out_at IS NULL";
  const results = await db.batch([
    list(arrivals, today),
    count(arrivals, today),
    list(departures, today),
    count(departures, today),
    list(inHouse),
    count(inHouse),
    db
      .prepare(
        `SELECT b.id, printf('%s-%05d', b.reference_year, b.reference_number) AS reference, b.status, b.start_date, b.end_date, b.created_at, b.total_minor, b.currency,
                json_extract(k.person_snapshot, '$.first_name') AS booker_first_name, json_extract(k.person_snapshot, '$.last_name') AS booker_last_name,
                (SELECT COUNT(*) FROM guests g WHERE g.booking_id = b.id) AS guest_count
           FROM bookings b LEFT JOIN bookers k ON k.booking_id = b.id
          WHERE b.business_id = ? AND b.created_at >= ? ORDER BY b.created_at DESC LIMIT ${TODAY_LIST_LIMIT}`,
      )
      .bind(businessId, newSince),
    db.prepare("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ? AND created_at >= ?").bind(businessId, newSince),
  ]);
  const rows = <T,>(i: number) => results[i].results as unknown as T[];
  const n = (i: number) => (results[i].results[0] as { n: number }).n;
  return {
    arrivals: { rows: rows<TodayGuest>(0), count: n(1) },
    departures: { rows: rows<TodayGuest>(2), count: n(3) },
    inHouse: { rows: rows<TodayGuest>(4), count: n(5) },
    newBookings: { rows: rows<TodayBooking>(6), count: n(7) },
  };
}
