-- A redelivery asked for through the API starts a new series of attempts (with its own
-- retries); `series` numbers them per subscription and event, `attempt` counts within one.
ALTER TABLE webhook_deliveries ADD COLUMN series INTEGER NOT NULL DEFAULT 1;
