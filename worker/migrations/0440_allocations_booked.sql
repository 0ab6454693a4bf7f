-- The booked units of a product's date, by booking (issue 27: the front desk's manifest of a
-- timeslot activity's day finds the day's bookings through them). Migration 0090 dropped the
-- index of every live allocation to spare the holds' writes; this one holds only booking
-- allocations that count, so a hold's insert, extension or expiry never writes it: checkout's
-- conversion, a cancellation's release and a move do.
CREATE INDEX allocations_booked ON allocations(product_id, date, slot, booking_id) WHERE released_at IS NULL AND booking_id IS NOT NULL;
