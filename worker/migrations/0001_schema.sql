-- The whole data model. Every tenant-owned row carries business_id; every query filters on it.
-- Money is integer minor units. Dates are 'YYYY-MM-DD' text, datetimes ISO 8601 UTC text.

CREATE TABLE businesses (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  company_name TEXT NOT NULL DEFAULT '',
  frontoffice_domain TEXT NOT NULL DEFAULT '',
  -- Business configuration (currencies, languages, guest fields, terms, limits); validated by
  -- the BusinessConfig zod schema, which supplies every default.
  config TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,                 -- the JWT's jti
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  name TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('public', 'private')),
  key_hash TEXT NOT NULL,              -- SHA-256 of the whole key; the key itself is never stored
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE UNIQUE INDEX api_keys_name ON api_keys(business_id, name) WHERE revoked_at IS NULL;

CREATE TABLE currencies (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  iso_code TEXT NOT NULL,
  title TEXT NOT NULL,
  symbol TEXT NOT NULL,
  -- units of this currency for one unit of the default currency; the default has 1
  exchange_rate REAL NOT NULL DEFAULT 1,
  is_default INTEGER NOT NULL DEFAULT 0,
  UNIQUE (business_id, iso_code)
);

CREATE TABLE diets (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', abbreviation TEXT
);
CREATE TABLE levels (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', abbreviation TEXT
);
CREATE TABLE locations (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  title TEXT NOT NULL
);
CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  kind TEXT NOT NULL CHECK (kind IN ('backoffice', 'frontoffice')),
  title TEXT NOT NULL
);
CREATE TABLE accommodation_types (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  title TEXT NOT NULL
);

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  type TEXT NOT NULL CHECK (type IN ('package','accommodation','activity','rental','service','bundle','item')),
  title TEXT NOT NULL,
  backoffice_title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  extended_description TEXT NOT NULL DEFAULT '',
  image TEXT NOT NULL DEFAULT '{}',            -- {small, medium, large}
  gender TEXT,                                 -- shared rooms: male, female or mixed
  backoffice_category_id INTEGER REFERENCES categories(id),
  frontoffice_category_id INTEGER REFERENCES categories(id),
  location_id INTEGER REFERENCES locations(id),
  accommodation_type_id INTEGER REFERENCES accommodation_types(id),
  duration TEXT NOT NULL,                      -- {is_flexible, min, default, unit, variants}
  pax_min INTEGER NOT NULL DEFAULT 1,
  pax_max INTEGER NOT NULL DEFAULT 1,
  default_start_time TEXT,
  is_private INTEGER NOT NULL DEFAULT 0,
  allowed_checkin_days TEXT NOT NULL DEFAULT '{"mon":true,"tue":true,"wed":true,"thu":true,"fri":true,"sat":true,"sun":true}',
  is_on_timeslots INTEGER NOT NULL DEFAULT 0,
  timeslots TEXT NOT NULL DEFAULT '[]',        -- ["HH:MM", ...] when on timeslots
  is_promoted INTEGER NOT NULL DEFAULT 0,
  -- accommodation: rooms x beds_per_room; shared types sell beds, private types sell rooms
  rooms INTEGER,
  beds_per_room INTEGER,
  srs_charge_minor INTEGER,                    -- single room supplement, null when not offered
  srs_fixed INTEGER,
  -- units per date (or per timeslot) when no inventory row overrides it; null = unlimited
  default_capacity INTEGER,
  translations TEXT NOT NULL DEFAULT '{}',     -- {"de": {"title": ..., "description": ...}}
  created_at TEXT NOT NULL
);
CREATE INDEX products_business ON products(business_id, type);

-- Capacity per product, date and timeslot ('' when not on timeslots). A row overrides the
-- product's default_capacity; blocked dates have no capacity.
CREATE TABLE inventory (
  business_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL REFERENCES products(id),
  date TEXT NOT NULL,
  slot TEXT NOT NULL DEFAULT '',
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  blocked INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, date, slot)
) WITHOUT ROWID;

CREATE TABLE seasons (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  title TEXT NOT NULL,
  priority INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE season_segments (
  id INTEGER PRIMARY KEY,
  season_id INTEGER NOT NULL REFERENCES seasons(id),
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  CHECK (start_date <= end_date)
);

-- A rate of a product, optionally only in a season. unit: person, unit or room;
-- per: stay, night, day or hour. min_qty > 1 is a quantity tier (a lower price from N items).
CREATE TABLE rates (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL REFERENCES products(id),
  season_id INTEGER REFERENCES seasons(id),
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  unit TEXT NOT NULL DEFAULT 'person' CHECK (unit IN ('person','unit','room')),
  per TEXT NOT NULL DEFAULT 'stay' CHECK (per IN ('stay','night','day','hour')),
  min_qty INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX rates_product ON rates(product_id);

CREATE TABLE package_groups (
  id INTEGER PRIMARY KEY,
  package_id INTEGER NOT NULL REFERENCES products(id),
  is_configurable_dates INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE package_items (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL REFERENCES products(id),
  product_id INTEGER NOT NULL REFERENCES products(id),
  group_id INTEGER REFERENCES package_groups(id),
  role TEXT NOT NULL CHECK (role IN ('default','alternative','option','upgrade')),
  qty_min INTEGER NOT NULL DEFAULT 0,
  qty_max INTEGER NOT NULL DEFAULT 1,
  qty_default INTEGER NOT NULL DEFAULT 1,
  is_configurable_dates INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX package_items_package ON package_items(package_id);
-- The room types a package can be booked with.
CREATE TABLE package_accommodations (
  package_id INTEGER NOT NULL REFERENCES products(id),
  accommodation_id INTEGER NOT NULL REFERENCES products(id),
  PRIMARY KEY (package_id, accommodation_id)
) WITHOUT ROWID;

-- Carts: open -> checked_out | abandoned, nothing else.
CREATE TABLE carts (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','checked_out','abandoned')),
  currency TEXT NOT NULL,
  client_id TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL,
  extensions INTEGER NOT NULL DEFAULT 0,
  booking_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX carts_client ON carts(business_id, client_id, status);

CREATE TABLE cart_guests (
  id TEXT PRIMARY KEY,
  cart_id TEXT NOT NULL REFERENCES carts(id),
  business_id INTEGER NOT NULL,
  data TEXT NOT NULL,                          -- the guest as sent: names, email, gender, ...
  package_id INTEGER NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX cart_guests_cart ON cart_guests(cart_id);

CREATE TABLE cart_lines (
  id INTEGER PRIMARY KEY,
  cart_id TEXT NOT NULL REFERENCES carts(id),
  cart_guest_id TEXT NOT NULL REFERENCES cart_guests(id),
  business_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  package_item_id INTEGER,
  role TEXT NOT NULL,                          -- package, accommodation, srs, default, option, ...
  dates TEXT NOT NULL,                         -- JSON array of dates or 'YYYY-MM-DD HH:mm:ss'
  qty INTEGER NOT NULL DEFAULT 1,
  price_minor INTEGER NOT NULL,                -- in the cart's currency
  is_fixed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cart_lines_cart ON cart_lines(cart_id);

CREATE TABLE bookings (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  cart_id TEXT UNIQUE,
  reference_number INTEGER NOT NULL,
  reference_year TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed','cancelled')),
  currency TEXT NOT NULL,
  total_minor INTEGER NOT NULL DEFAULT 0,
  total_default_minor INTEGER NOT NULL DEFAULT 0,  -- in the business's default currency
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  location_id INTEGER,
  newsletter_opt_in INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  cancelled_at TEXT,
  UNIQUE (business_id, reference_year, reference_number)
);
CREATE INDEX bookings_dates ON bookings(business_id, start_date, end_date);

CREATE TABLE booking_lines (
  id INTEGER PRIMARY KEY,
  booking_id TEXT NOT NULL REFERENCES bookings(id),
  business_id INTEGER NOT NULL,
  guest_id TEXT,
  product_id INTEGER NOT NULL,
  product_type TEXT NOT NULL,
  package_item_id INTEGER,
  role TEXT NOT NULL,
  dates TEXT NOT NULL,
  qty INTEGER NOT NULL DEFAULT 1,
  price_minor INTEGER NOT NULL
);
CREATE INDEX booking_lines_booking ON booking_lines(booking_id);
CREATE INDEX booking_lines_product ON booking_lines(business_id, product_id);

-- Units held by a cart (expires_at set) or booked (booking_id set). Live allocations are
-- booking allocations plus holds whose expires_at is after the writer's "now", which the writer
-- stores in created_at so that the check below uses the same clock as the request.
CREATE TABLE allocations (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  date TEXT NOT NULL,
  slot TEXT NOT NULL DEFAULT '',
  qty INTEGER NOT NULL CHECK (qty > 0),
  cart_id TEXT,
  booking_id TEXT,
  expires_at TEXT,
  released_at TEXT,
  created_at TEXT NOT NULL,
  CHECK (cart_id IS NOT NULL OR booking_id IS NOT NULL)
);
CREATE INDEX allocations_live ON allocations(product_id, date, slot) WHERE released_at IS NULL;
CREATE INDEX allocations_cart ON allocations(cart_id);
CREATE INDEX allocations_booking ON allocations(booking_id);

-- The database refuses an allocation beyond capacity: the check and the write are one statement
-- inside the batch's transaction, so concurrent buyers can never both take the last unit.
CREATE TRIGGER allocations_capacity BEFORE INSERT ON allocations
WHEN NEW.qty > (
  COALESCE(
    (SELECT CASE WHEN i.blocked = 1 THEN 0 ELSE i.capacity END FROM inventory i
      WHERE i.product_id = NEW.product_id AND i.date = NEW.date AND i.slot = NEW.slot),
    (SELECT COALESCE(p.default_capacity, 1000000000) FROM products p WHERE p.id = NEW.product_id),
    0)
  - (SELECT COALESCE(SUM(a.qty), 0) FROM allocations a
      WHERE a.product_id = NEW.product_id AND a.date = NEW.date AND a.slot = NEW.slot
        AND a.released_at IS NULL
        AND (a.booking_id IS NOT NULL OR a.expires_at > NEW.created_at))
)
BEGIN
  SELECT RAISE(ABORT, 'sold_out');
END;

-- A guard for batches: INSERT INTO batch_guard(reason, ok) SELECT 'cart_expired', <condition>
-- aborts the whole batch when the condition is false, and stores nothing when it holds.
CREATE VIEW batch_guard AS SELECT '' AS reason, 1 AS ok;
CREATE TRIGGER batch_guard_check INSTEAD OF INSERT ON batch_guard WHEN NEW.ok IS NOT 1
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;

CREATE TABLE persons (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  -- a guest added to a cart without an e-mail becomes a person without one
  email TEXT,
  email_norm TEXT,
  first_name TEXT, last_name TEXT, salutation TEXT,
  gender TEXT, birth_date TEXT,
  language_code TEXT, nationality_code TEXT,
  phone_country_calling_code TEXT, phone_country_code TEXT, phone TEXT,
  country_code TEXT, state TEXT, city TEXT, zip_code TEXT,
  address_line_1 TEXT, address_line_2 TEXT, address_line_3 TEXT,
  id_type TEXT, id_number TEXT, id_expiry_date TEXT,
  company_name TEXT, tax_number TEXT, company_address_line_1 TEXT, company_address_line_2 TEXT,
  custom_fields TEXT NOT NULL DEFAULT '{}',
  diet_id INTEGER, level_id INTEGER, guest_group_id INTEGER,
  deleted_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX persons_email ON persons(business_id, email_norm) WHERE deleted_at IS NULL AND email_norm IS NOT NULL;
CREATE INDEX persons_names ON persons(business_id, last_name, first_name);

CREATE TABLE guests (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  booking_id TEXT NOT NULL REFERENCES bookings(id),
  person_id TEXT NOT NULL REFERENCES persons(id),
  person_snapshot TEXT NOT NULL,               -- the person's data as entered for this booking
  web_check_in_at TEXT, check_in_at TEXT, checked_in_at TEXT, check_out_at TEXT, checked_out_at TEXT,
  arrival_date TEXT, odd_arrival_date TEXT, arrival_time TEXT, arrival_location_id INTEGER,
  arrival_flight TEXT, arrival_airline TEXT,
  departure_date TEXT, odd_departure_date TEXT, departure_time TEXT, departure_location_id INTEGER,
  departure_flight TEXT, departure_airline TEXT,
  transfer_comment TEXT, guest_group_id INTEGER, level_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX guests_booking ON guests(booking_id);
CREATE INDEX guests_person ON guests(person_id);
CREATE INDEX guests_business ON guests(business_id, arrival_date);

CREATE TABLE bookers (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  booking_id TEXT NOT NULL UNIQUE REFERENCES bookings(id),
  person_id TEXT NOT NULL REFERENCES persons(id),
  person_snapshot TEXT NOT NULL,
  company_name TEXT,
  tax_number TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX bookers_person ON bookers(person_id);

-- Every change writes its events here in the same batch as the change itself.
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  business_id INTEGER NOT NULL,
  event TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX outbox_business ON outbox(business_id, seq);

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  business_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,                        -- JSON array of event names
  secret TEXT NOT NULL,
  -- events with a seq after this one are this subscription's to deliver
  start_seq INTEGER NOT NULL DEFAULT 0,
  disabled_at TEXT,
  created_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX webhooks_business ON webhooks(business_id);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id),
  event_id TEXT NOT NULL,
  event_seq INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending','delivered','failed','gave_up')),
  status_code INTEGER,
  error TEXT,
  attempted_at TEXT,
  next_retry_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(webhook_id, status, next_retry_at);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(webhook_id, event_seq);

CREATE TABLE idempotency (
  business_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  route TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running','done')),
  response_status INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (business_id, key)
) WITHOUT ROWID;
