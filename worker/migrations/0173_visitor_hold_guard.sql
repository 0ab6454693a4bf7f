-- A widget visitor may hold places for at most max_guests_held_per_visitor guests at once over its
-- open carts (BusinessConfig): the add that would pass it is refused inside its own batch by this
-- guard's reason, so two adds racing from one visitor cannot both pass it.
DROP TRIGGER cart_guard_other;
CREATE TRIGGER cart_guard_visitor_guests INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'limit_visitor_guests'
BEGIN
  SELECT RAISE(ABORT, 'limit_visitor_guests');
END;
CREATE TRIGGER cart_guard_other INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason NOT IN ('cart_not_open', 'cart_expired', 'hold_expired', 'limit_open_carts', 'limit_items', 'cart_changed', 'limit_visitor_guests')
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;
