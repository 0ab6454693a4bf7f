-- E-mails to guests and to the business (docs/email.md): one row per message, written in the same
-- batch as the change that causes it (a booking, a cancellation), so a booking that is not made
-- sends nothing and a booking made always has its e-mail. The EmailDelivery Durable Object of the
-- business composes and sends the due rows and records each attempt here.
CREATE TABLE emails (
  id TEXT PRIMARY KEY,                    -- 'eml_' + a UUID v7 (hex)
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  -- booking_confirmation, booking_cancelled (to the booker); owner_new_booking,
  -- owner_booking_cancelled (to the business's notification addresses)
  kind TEXT NOT NULL,
  -- The event and recipient the e-mail is for, e.g. 'booking-confirmation.<booking id>.<hash of the
  -- address>'. Unique per business: one event never gives two e-mails to one address.
  event_key TEXT NOT NULL,
  -- '<event_key@sender domain>': fixed when the row is written, the same on every attempt.
  message_id TEXT NOT NULL,
  booking_id TEXT,
  recipient TEXT NOT NULL,
  language TEXT NOT NULL,
  -- What the template needs that D1 will not keep as it was (the terms the booker accepted).
  params TEXT NOT NULL DEFAULT '{}',
  -- A resend asked for by the business: the e-mail it sends again.
  resend_of TEXT,
  -- pending: not tried yet; sending: an attempt under way (or cut off: tried again once
  -- next_attempt_at passes); retrying: the last attempt failed, the next is due at next_attempt_at;
  -- sent: the provider accepted it; failed: every attempt failed, no more are made.
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'retrying', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- Attempts cut off before their outcome was recorded (a crash while sending): each may have
  -- reached the recipient, so a later one may be a duplicate, with the same Message-ID.
  unconfirmed_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,                   -- set while the e-mail is due or in flight, else NULL
  last_error TEXT,
  -- The message as last handed to the provider (composed anew at each attempt until one succeeds).
  sender TEXT,
  subject TEXT,
  raw TEXT,
  provider_message_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE UNIQUE INDEX emails_event ON emails(business_id, event_key);
-- The delivery object's due rows and next alarm, per business.
CREATE INDEX emails_due ON emails(business_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
-- The scheduled upkeep's look for businesses whose delivery object was never told (a crash):
-- by due time, covering, so it never walks every business's pending rows.
CREATE INDEX emails_due_all ON emails(next_attempt_at, business_id) WHERE next_attempt_at IS NOT NULL;
-- GET /private/emails, newest first, and a booking's e-mails.
CREATE INDEX emails_list ON emails(business_id, created_at);
CREATE INDEX emails_booking ON emails(business_id, booking_id) WHERE booking_id IS NOT NULL;
