-- Receipts (issue 31, docs/payments.md "Receipts"): every payment and every refund that succeeds
-- gets a receipt number, sequential per business and calendar year (the year in the business's
-- time zone), written "YYYY-NNNNNN" (2026-000123). The number is allocated in the batch that makes
-- the entry succeeded, from the counter below (an upsert that adds one), so it is gap-free (a batch
-- that aborts allocates nothing) and never reused (the counter only grows; the unique index refuses
-- a second entry with the same number; a number once set never changes).
CREATE TABLE receipt_counters (
  business_id INTEGER NOT NULL,
  year INTEGER NOT NULL,
  last_number INTEGER NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (business_id, year)
);

ALTER TABLE payments ADD COLUMN receipt_number TEXT;
CREATE UNIQUE INDEX payments_receipt_number ON payments(business_id, receipt_number) WHERE receipt_number IS NOT NULL;

-- A receipt number is set once, on a succeeded entry, and kept.
CREATE TRIGGER payments_receipt_kept BEFORE UPDATE OF receipt_number ON payments
  WHEN (OLD.receipt_number IS NOT NULL AND NEW.receipt_number IS NOT OLD.receipt_number)
    OR (NEW.receipt_number IS NOT NULL AND NEW.status <> 'succeeded') BEGIN
  SELECT RAISE(ABORT, 'ledger_entry_kept');
END;
