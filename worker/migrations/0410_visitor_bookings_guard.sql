-- Issue 28: what one widget visitor may confirm. A checkout of a cart a widget visitor opened is
-- refused inside its own batch when that visitor already confirmed max_bookings_per_visitor_per_hour
-- bookings in the last hour or max_bookings_per_visitor_per_day in the last day (BusinessConfig),
-- so racing checkouts from one visitor cannot pass the bound together. API keys are not visitors.
DROP TRIGGER cart_guard_other;
CREATE TRIGGER cart_guard_visitor_bookings INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'limit_visitor_bookings'
BEGIN
  SELECT RAISE(ABORT, 'limit_visitor_bookings');
END;
CREATE TRIGGER cart_guard_other INSTEAD OF INSERT ON cart_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason NOT IN ('cart_not_open', 'cart_expired', 'hold_expired', 'limit_open_carts', 'limit_items', 'cart_changed', 'limit_visitor_guests', 'limit_visitor_bookings')
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;
-- The checked-out carts of a visitor, newest first: the guard counts them by the time of checkout.
CREATE INDEX carts_client_checked_out ON carts(business_id, client_id, updated_at) WHERE status = 'checked_out';
