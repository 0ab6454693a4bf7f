-- Open carts by expiry, per business. A cart whose opening request was cut after its rows were
-- written (a crash before its expiry alarm was set) has no alarm of its own: the alarms of the
-- business's other carts sweep such carts once well past their expiry, and find them here. Only
-- open carts are in the index, so it stays as small as the carts being shopped right now.
CREATE INDEX carts_open_expiry ON carts(business_id, expires_at) WHERE status = 'open';
