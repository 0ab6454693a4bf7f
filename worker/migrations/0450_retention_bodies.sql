-- Retention (issue 32): what the scheduled upkeep removes after its time, keeping the facts.
-- An e-mail's full message (8-10 kB) goes after EMAIL_BODY_RETENTION_DAYS once it is settled
-- (sent or failed); its row stays (kind, recipient, status, subject, dates, provider id) and says
-- when its body went. An audit entry's before/after goes after AUDIT_DETAIL_RETENTION_DAYS; who
-- did what, when, to which entity and its summary stay.
ALTER TABLE emails ADD COLUMN body_removed_at TEXT;
CREATE INDEX emails_body_age ON emails(updated_at) WHERE raw IS NOT NULL AND status IN ('sent', 'failed');
CREATE INDEX audit_log_detail_age ON audit_log(at) WHERE before IS NOT NULL OR after IS NOT NULL;
