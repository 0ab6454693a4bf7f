-- The booked allocations index (0440) now holds only the units booked on a timeslot: the front
-- desk's manifest, its one reader, is the day sheet of an activity on timeslots and shows only
-- lines with a time (db/manifest.ts). A night of a room, a package's stay or a rental's day
-- (slot '') never wrote a row the manifest reads, yet each was a leaf page written at checkout,
-- cancellation and move: in the bench's flow of package bookings, about a fifth of every page
-- a checkout wrote (docs/benchmarks.md).
DROP INDEX allocations_booked;
CREATE INDEX allocations_booked ON allocations(product_id, date, slot, booking_id)
  WHERE released_at IS NULL AND booking_id IS NOT NULL AND slot <> '';
