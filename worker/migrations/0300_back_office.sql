-- The back office (/admin): staff accounts per business, their invitations and sessions, the
-- sign-in throttle, booking notes, and the audit log the back office writes to.

-- 1. The audit log. Issue 19 (settings and catalog administration) creates the same table, with
--    the same columns, in its own migration; whichever lands first makes it, and the other's
--    CREATE ... IF NOT EXISTS leaves it as it is. One log for every change, whoever made it.
CREATE TABLE IF NOT EXISTS audit_log (
  id TEXT PRIMARY KEY,                         -- UUID v7: ordered by time
  business_id INTEGER NOT NULL,
  at TEXT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('key', 'staff', 'cli')),
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,                        -- created, updated, cancelled, checked_in, removed, ...
  entity TEXT NOT NULL,                        -- booking, guest, booker, api_key, webhook, staff, inventory, ...
  entity_id TEXT,
  summary TEXT NOT NULL,
  before TEXT,                                 -- JSON, null for a creation
  after TEXT                                   -- JSON, null for a deletion
);
CREATE INDEX IF NOT EXISTS audit_log_business ON audit_log(business_id, id);
CREATE INDEX IF NOT EXISTS audit_log_entity ON audit_log(business_id, entity, entity_id, id);

-- 2. Staff of a business. A user invited but not yet signed up has no password. A removed user
--    keeps the row (the audit log names it) but can no longer sign in.
CREATE TABLE staff_users (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  email TEXT NOT NULL,
  email_norm TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'front_desk')),
  language TEXT,                               -- en, de, es; null: the browser's Accept-Language
  -- PBKDF2-SHA256: "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>"; null until the invite is accepted
  password_hash TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  removed_at TEXT
);
CREATE UNIQUE INDEX staff_users_email ON staff_users(business_id, email_norm) WHERE removed_at IS NULL;

-- 3. One-time sign-in links: an invitation (sets the first password). Only the SHA-256 of the
--    link's token is stored; the link is shown once (and, with the e-mail issue, mailed).
CREATE TABLE staff_invites (
  token_hash TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  staff_id TEXT NOT NULL REFERENCES staff_users(id),
  purpose TEXT NOT NULL DEFAULT 'invite' CHECK (purpose IN ('invite', 'reset')),
  created_by TEXT NOT NULL,                    -- actor name
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX staff_invites_staff ON staff_invites(staff_id);

-- 4. Sessions: the cookie holds a random token; the row is keyed by its SHA-256. A session ends
--    when ended_at is set (sign-out, password change, removal) or when idle past its limit.
CREATE TABLE staff_sessions (
  token_hash TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  staff_id TEXT NOT NULL REFERENCES staff_users(id),
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,                    -- absolute limit
  ended_at TEXT
);
CREATE INDEX staff_sessions_staff ON staff_sessions(staff_id) WHERE ended_at IS NULL;

-- 5. Sign-in attempts per account and per address, in fixed windows. Each attempt takes its slot
--    with one UPSERT before the password is checked, so parallel attempts cannot slip past.
CREATE TABLE sign_in_attempts (
  key TEXT PRIMARY KEY,                        -- "account:<business>:<email>" or "address:<ip>"
  window_start TEXT NOT NULL,
  attempts INTEGER NOT NULL
) WITHOUT ROWID;

-- 6. Notes on a booking, written by staff (or an integration), newest last.
CREATE TABLE booking_notes (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  booking_id TEXT NOT NULL REFERENCES bookings(id),
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX booking_notes_booking ON booking_notes(booking_id, id);
