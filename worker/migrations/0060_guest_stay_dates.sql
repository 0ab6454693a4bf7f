-- Each guest's effective stay dates, stored on the guest so that GET /private/guests?arrives_at=,
-- ?departs_at= and ?transfer_dates= search an index instead of reading every guest of the business.
--
-- A guest arrives on its odd arrival date, else its own arrival date, else its booking's start
-- date (departure likewise with the booking's end date). That expression spans guests and bookings,
-- so no index could serve it: 100,000 guests made a 10-row page ~2.5x slower than 1,000.
--
-- arrives_on / departs_on are derived data, kept by the triggers below rather than by the code
-- that writes guests: the value depends on a second table (the booking's dates), and guests are
-- written by the guests routes, by checkout, by the seeders and by test fixtures, each with its own
-- SQL. A trigger runs inside the writing statement whoever writes, so the columns cannot go stale,
-- and a direct write that disagrees with the guest's and booking's dates is refused. (The same way
-- 0020 keeps persons_fts in step with persons.)
ALTER TABLE guests ADD COLUMN arrives_on TEXT;
ALTER TABLE guests ADD COLUMN departs_on TEXT;

UPDATE guests SET
  arrives_on = COALESCE(odd_arrival_date, arrival_date, (SELECT b.start_date FROM bookings b WHERE b.id = guests.booking_id)),
  departs_on = COALESCE(odd_departure_date, departure_date, (SELECT b.end_date FROM bookings b WHERE b.id = guests.booking_id));

CREATE INDEX guests_business_arrives ON guests(business_id, arrives_on);
CREATE INDEX guests_business_departs ON guests(business_id, departs_on);

-- A new guest (whatever the INSERT said about arrives_on / departs_on).
CREATE TRIGGER guests_stay_insert AFTER INSERT ON guests BEGIN
  UPDATE guests SET
    arrives_on = COALESCE(odd_arrival_date, arrival_date, (SELECT b.start_date FROM bookings b WHERE b.id = guests.booking_id)),
    departs_on = COALESCE(odd_departure_date, departure_date, (SELECT b.end_date FROM bookings b WHERE b.id = guests.booking_id))
  WHERE rowid = NEW.rowid;
END;

-- A guest's own dates or its booking changed. (The UPDATE inside sets only the derived columns, so
-- it does not fire this trigger again, whatever recursive_triggers says.)
CREATE TRIGGER guests_stay_update AFTER UPDATE OF odd_arrival_date, arrival_date, odd_departure_date, departure_date, booking_id ON guests BEGIN
  UPDATE guests SET
    arrives_on = COALESCE(odd_arrival_date, arrival_date, (SELECT b.start_date FROM bookings b WHERE b.id = guests.booking_id)),
    departs_on = COALESCE(odd_departure_date, departure_date, (SELECT b.end_date FROM bookings b WHERE b.id = guests.booking_id))
  WHERE rowid = NEW.rowid;
END;

-- A booking's dates changed: its guests without dates of their own move with it.
CREATE TRIGGER bookings_stay_update AFTER UPDATE OF start_date, end_date ON bookings BEGIN
  UPDATE guests SET
    arrives_on = COALESCE(odd_arrival_date, arrival_date, NEW.start_date),
    departs_on = COALESCE(odd_departure_date, departure_date, NEW.end_date)
  WHERE booking_id = NEW.id;
END;

-- Only the values above may be written: a direct UPDATE of the derived columns that disagrees
-- with the guest's and booking's dates aborts its statement (and its batch).
CREATE TRIGGER guests_stay_derived BEFORE UPDATE OF arrives_on, departs_on ON guests
WHEN NEW.arrives_on IS NOT COALESCE(NEW.odd_arrival_date, NEW.arrival_date, (SELECT b.start_date FROM bookings b WHERE b.id = NEW.booking_id))
  OR NEW.departs_on IS NOT COALESCE(NEW.odd_departure_date, NEW.departure_date, (SELECT b.end_date FROM bookings b WHERE b.id = NEW.booking_id))
BEGIN
  SELECT RAISE(ABORT, 'guest_stay_dates_are_derived');
END;
