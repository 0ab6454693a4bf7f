-- The ledger of a booking's money (issue 31): every payment and every refund is a row of its own,
-- in the booking's currency's minor units. A row is never deleted, and never changed except a
-- pending entry's status moving on (pending -> succeeded / failed / canceled); a mistake is
-- corrected by a new entry, as an accountant expects. A refund names the payment it refunds and
-- can never take more than that payment has left (the trigger decides, in the writing batch, so
-- two refunds at once cannot both take the last euro).
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  booking_id TEXT NOT NULL REFERENCES bookings(id),
  kind TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('stripe', 'bank_transfer', 'cash', 'card_terminal', 'other')),
  status TEXT NOT NULL CHECK (
    (kind = 'payment' AND status IN ('pending', 'succeeded', 'failed', 'canceled'))
    OR (kind = 'refund' AND status IN ('pending', 'succeeded'))),
  reference TEXT,                      -- the provider's id, or the bank transfer's reference
  reason TEXT,                         -- a refund's reason
  refunds_payment_id TEXT REFERENCES payments(id),
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('guest', 'staff', 'key', 'cli')),
  actor_id TEXT,
  actor_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((kind = 'refund') = (refunds_payment_id IS NOT NULL))
);
CREATE INDEX payments_booking ON payments(booking_id, created_at, id);
CREATE INDEX payments_refunded ON payments(refunds_payment_id) WHERE refunds_payment_id IS NOT NULL;

CREATE TRIGGER payments_never_deleted BEFORE DELETE ON payments BEGIN
  SELECT RAISE(ABORT, 'ledger_entry_kept');
END;

CREATE TRIGGER payments_never_edited BEFORE UPDATE OF id, business_id, booking_id, kind, amount_minor, currency, method, refunds_payment_id, actor_kind, actor_id, actor_name, created_at ON payments BEGIN
  SELECT RAISE(ABORT, 'ledger_entry_kept');
END;

CREATE TRIGGER payments_status_once BEFORE UPDATE OF status ON payments WHEN OLD.status <> 'pending' AND NEW.status <> OLD.status BEGIN
  SELECT RAISE(ABORT, 'ledger_entry_kept');
END;

-- A refund refunds a succeeded payment of the same booking and currency, and at most what it has left.
CREATE TRIGGER payments_refund_fits BEFORE INSERT ON payments WHEN NEW.kind = 'refund' BEGIN
  SELECT RAISE(ABORT, 'refund_exceeds_payment')
   WHERE NOT EXISTS (
     SELECT 1 FROM payments p
      WHERE p.id = NEW.refunds_payment_id AND p.kind = 'payment' AND p.status = 'succeeded'
        AND p.booking_id = NEW.booking_id AND p.business_id = NEW.business_id AND p.currency = NEW.currency
        AND p.amount_minor - COALESCE((SELECT SUM(r.amount_minor) FROM payments r
                                        WHERE r.refunds_payment_id = p.id AND r.status IN ('pending', 'succeeded')), 0) >= NEW.amount_minor);
END;
