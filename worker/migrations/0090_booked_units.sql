-- Units booked per product, date and slot, kept by triggers. Availability and the capacity check
-- read one row per date for the bookings instead of summing every booking's allocation: with a
-- season of bookings a 30-day calendar of every product summed thousands of allocation rows on
-- every request, and a hold on a busy date summed one row per booking. Cart holds, which lapse
-- with time, are still summed live, through an index of their own (live holds are few).
CREATE TABLE booked_units (
  product_id INTEGER NOT NULL,
  date TEXT NOT NULL,
  slot TEXT NOT NULL DEFAULT '',
  business_id INTEGER NOT NULL,
  qty INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, date, slot)
) WITHOUT ROWID;

INSERT INTO booked_units (product_id, date, slot, business_id, qty)
  SELECT product_id, date, slot, MIN(business_id), SUM(qty) FROM allocations
   WHERE booking_id IS NOT NULL AND released_at IS NULL
   GROUP BY product_id, date, slot;

-- An allocation counts while it belongs to a booking and is not released; every write that
-- changes that (checkout converting holds, a cancellation releasing units, a delete) moves it.
CREATE TRIGGER booked_units_insert AFTER INSERT ON allocations
WHEN NEW.booking_id IS NOT NULL AND NEW.released_at IS NULL BEGIN
  INSERT INTO booked_units (product_id, date, slot, business_id, qty) VALUES (NEW.product_id, NEW.date, NEW.slot, NEW.business_id, NEW.qty)
    ON CONFLICT (product_id, date, slot) DO UPDATE SET qty = qty + excluded.qty;
END;

CREATE TRIGGER booked_units_delete AFTER DELETE ON allocations
WHEN OLD.booking_id IS NOT NULL AND OLD.released_at IS NULL BEGIN
  UPDATE booked_units SET qty = qty - OLD.qty WHERE product_id = OLD.product_id AND date = OLD.date AND slot = OLD.slot;
END;

CREATE TRIGGER booked_units_update AFTER UPDATE ON allocations
WHEN (OLD.booking_id IS NOT NULL AND OLD.released_at IS NULL) OR (NEW.booking_id IS NOT NULL AND NEW.released_at IS NULL) BEGIN
  UPDATE booked_units SET qty = qty - OLD.qty
   WHERE OLD.booking_id IS NOT NULL AND OLD.released_at IS NULL AND product_id = OLD.product_id AND date = OLD.date AND slot = OLD.slot;
  INSERT INTO booked_units (product_id, date, slot, business_id, qty)
    SELECT NEW.product_id, NEW.date, NEW.slot, NEW.business_id, NEW.qty WHERE NEW.booking_id IS NOT NULL AND NEW.released_at IS NULL
    ON CONFLICT (product_id, date, slot) DO UPDATE SET qty = qty + excluded.qty;
END;

-- Live cart holds of a product and date.
CREATE INDEX allocations_holds ON allocations(product_id, date, slot) WHERE released_at IS NULL AND booking_id IS NULL;

-- The capacity check, the same rule as before (capacity − bookings − unexpired holds), with the
-- bookings read from their kept total.
DROP TRIGGER allocations_capacity;
CREATE TRIGGER allocations_capacity BEFORE INSERT ON allocations
WHEN NEW.qty > (
  COALESCE(
    (SELECT CASE WHEN i.blocked = 1 THEN 0 ELSE i.capacity END FROM inventory i
      WHERE i.product_id = NEW.product_id AND i.date = NEW.date AND i.slot = NEW.slot),
    (SELECT COALESCE(p.default_capacity, 1000000000) FROM products p WHERE p.id = NEW.product_id),
    0)
  - COALESCE((SELECT b.qty FROM booked_units b WHERE b.product_id = NEW.product_id AND b.date = NEW.date AND b.slot = NEW.slot), 0)
  - (SELECT COALESCE(SUM(a.qty), 0) FROM allocations a
      WHERE a.product_id = NEW.product_id AND a.date = NEW.date AND a.slot = NEW.slot
        AND a.released_at IS NULL AND a.booking_id IS NULL AND a.expires_at > NEW.created_at)
)
BEGIN
  SELECT RAISE(ABORT, 'sold_out');
END;

-- Nothing reads all live allocations of a date together any more (bookings have their total,
-- holds their index); one index fewer to write on every hold.
DROP INDEX allocations_live;
