-- The scheduled upkeep (worker/src/maintenance.ts) removes the webhook log's old rows: settled
-- deliveries and outbox events older than 30 days. These indexes find them by age without
-- reading the tables; only settled deliveries are in the first, so it stays as small as the log.
CREATE INDEX webhook_deliveries_settled_age ON webhook_deliveries(created_at) WHERE status IN ('delivered', 'gave_up');
CREATE INDEX outbox_age ON outbox(created_at);
