-- Carts no longer have a Durable Object each. One cart's operations used to run one at a time in
-- its own object; now each runs where the request is, and a write that decided on what it read of
-- a cart (its guests and lines for a checkout's totals, its extensions, its e-mails) commits only
-- if the cart is still as it was read: `revision` counts the cart's writes, and the write's batch
-- guards on the revision it read ('cart_changed'); the operation then reads again and retries.
ALTER TABLE carts ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- The guard's own reason (cart_guard_other turned every unknown reason into 'guard_failed').
DROP TRIGGER cart_guard_other;
CREATE TRIGGER cart_guard_changed INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'cart_changed'
BEGIN
  SELECT RAISE(ABORT, 'cart_changed');
END;
CREATE TRIGGER cart_guard_other INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason NOT IN ('cart_not_open', 'cart_expired', 'hold_expired', 'limit_open_carts', 'limit_items', 'cart_changed')
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;
