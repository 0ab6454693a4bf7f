-- Issue 28: what one recipient address may be sent per day by a business (the booker's e-mails,
-- max_emails_per_recipient_per_day): the delivery object counts the e-mails sent to an address in
-- the last day through this index before it sends another.
CREATE INDEX emails_recipient_sent ON emails(business_id, recipient COLLATE NOCASE, updated_at) WHERE status = 'sent';
