-- The business's payment policy applied (issue 31, docs/payments.md "The payment policy").
-- A product's own deposit and balance due days where they differ from the business's
-- (contract/payment-policy.ts ProductPaymentPolicy, as JSON); NULL: it follows the business.
ALTER TABLE products ADD COLUMN payment_policy TEXT;

-- The balance-due reminders sent (the scheduled upkeep, manage/reminders.ts): one per booking,
-- written in the batch that writes its e-mail, so however often the upkeep runs (or two runs at
-- once) a booker gets it once. The primary key decides: a second run's batch is refused whole.
-- A booking that is never to get one (made inside its balance window: it owed everything when it
-- booked) is recorded with `skipped` saying why, so the upkeep does not look at it again.
CREATE TABLE balance_reminders (
  booking_id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  balance_due_date TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  payment_id TEXT,
  skipped TEXT,
  sent_at TEXT NOT NULL
);
CREATE INDEX balance_reminders_business ON balance_reminders(business_id);
