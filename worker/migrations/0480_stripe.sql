-- Online payment through Stripe (issue 31, docs/payments.md "Stripe"). Each business connects its
-- own Stripe account with a restricted key and its webhook endpoint's signing secret, both
-- encrypted at rest (AES-GCM, the Worker's secret SECRETS_KEY; lib/secret-box.ts): the columns
-- hold "v1.<iv>.<ciphertext>", never the secret.
CREATE TABLE stripe_accounts (
  business_id INTEGER PRIMARY KEY,
  secret_key_sealed TEXT,
  webhook_secret_sealed TEXT,
  updated_at TEXT NOT NULL
);

-- The Stripe events a business's webhook applied, by Stripe's event id: an event that arrives
-- again (Stripe retries, a replay) is recognised and changes nothing.
CREATE TABLE stripe_events (
  business_id INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (business_id, event_id)
);

-- A stripe payment's PaymentIntent (what a refund names), known once its Checkout Session is
-- paid. Set once, with the entry's status; the ledger's other fields stay as they were written.
ALTER TABLE payments ADD COLUMN provider_intent TEXT;
CREATE INDEX payments_reference ON payments(business_id, reference) WHERE reference IS NOT NULL;
-- One pending stripe payment per Checkout Session: the same link asked twice at once (the same
-- session, by its idempotency key) records one entry; the second write is refused and answered
-- with the first.
CREATE UNIQUE INDEX payments_one_pending_session ON payments(business_id, reference) WHERE kind = 'payment' AND method = 'stripe' AND status = 'pending' AND reference IS NOT NULL;
