-- One Person is a guest of a booking at most once: adding it again (POST
-- /bookings/{id}/guests with the e-mail of a Person already a guest of that booking), or moving a
-- guest to such a Person by a change of e-mail, is refused (409). The check is the write itself,
-- so two requests racing to add the same Person cannot both succeed. A trigger rather than a
-- unique index: a database that already holds such a pair still migrates (the pair stays
-- readable and deletable; no new one can be made).
CREATE TRIGGER guests_person_once_insert BEFORE INSERT ON guests
WHEN EXISTS (SELECT 1 FROM guests WHERE booking_id = NEW.booking_id AND person_id = NEW.person_id)
BEGIN
  SELECT RAISE(ABORT, 'guest_person_taken');
END;
CREATE TRIGGER guests_person_once_update BEFORE UPDATE OF person_id ON guests
WHEN NEW.person_id IS NOT OLD.person_id
  AND EXISTS (SELECT 1 FROM guests WHERE booking_id = NEW.booking_id AND person_id = NEW.person_id AND id <> NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'guest_person_taken');
END;
