-- Carts: why an abandoned cart was abandoned. A cart that expired answers 410 (cart_expired)
-- whether or not its alarm has swept it yet; one the buyer deleted answers 409 (cart_not_open).
ALTER TABLE carts ADD COLUMN abandon_reason TEXT CHECK (abandon_reason IN ('expired', 'deleted'));

-- Guards for cart batches. Like batch_guard, but each reason aborts with its own message, so the
-- caller can tell the buyer what failed: INSERT INTO cart_guard(reason, ok) SELECT 'cart_expired', <cond>.
-- (One trigger per reason: RAISE takes only a literal message on older SQLite builds.)
CREATE VIEW cart_guard AS SELECT '' AS reason, 1 AS ok;
CREATE TRIGGER cart_guard_not_open INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'cart_not_open'
BEGIN
  SELECT RAISE(ABORT, 'cart_not_open');
END;
CREATE TRIGGER cart_guard_expired INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'cart_expired'
BEGIN
  SELECT RAISE(ABORT, 'cart_expired');
END;
CREATE TRIGGER cart_guard_hold_expired INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'hold_expired'
BEGIN
  SELECT RAISE(ABORT, 'hold_expired');
END;
CREATE TRIGGER cart_guard_open_carts INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'limit_open_carts'
BEGIN
  SELECT RAISE(ABORT, 'limit_open_carts');
END;
CREATE TRIGGER cart_guard_items INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'limit_items'
BEGIN
  SELECT RAISE(ABORT, 'limit_items');
END;
CREATE TRIGGER cart_guard_other INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason NOT IN ('cart_not_open', 'cart_expired', 'hold_expired', 'limit_open_carts', 'limit_items')
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;

-- Idempotency records are kept 24 hours per business; old ones are deleted by business and age.
CREATE INDEX idempotency_age ON idempotency(business_id, created_at);
