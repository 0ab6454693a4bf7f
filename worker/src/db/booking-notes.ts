import { isoDateTime } from "../lib/time";
import type { D1 } from "./d1";

export interface BookingNoteRow {
  id: string;
  booking_id: string;
  author: string;
  body: string;
  created_at: string;
}

/** A note on a booking of the business (nothing when the booking is not the business's). */
export function insertBookingNoteStatement(db: D1, businessId: number, note: { id: string; bookingId: string; author: string; body: string }, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO booking_notes (id, business_id, booking_id, author, body, created_at)
       SELECT ?, ?, b.id, ?, ?, ? FROM bookings b WHERE b.id = ? AND b.business_id = ?`,
    )
    .bind(note.id, businessId, note.author, note.body, isoDateTime(now), note.bookingId, businessId);
}

export function bookingNotesStatement(db: D1, businessId: number, bookingId: string): D1PreparedStatement {
  return db.prepare("SELECT id, booking_id, author, body, created_at FROM booking_notes WHERE booking_id = ? AND business_id = ? ORDER BY id").bind(bookingId, businessId);
}

export async function bookingNotes(db: D1, businessId: number, bookingId: string): Promise<BookingNoteRow[]> {
  return (await bookingNotesStatement(db, businessId, bookingId).all<BookingNoteRow>()).results;
}
