-- Catalog administration (issue 19): the catalog is changed through the API, the catalog file and
-- the back office, by the service's code in worker/src/manage/. What that needs of the schema:

-- 1. Every top-level catalog entity has a `ref`, a handle unique in its business that the catalog
--    file refers to entries by (products name their location by it, package items their
--    product), and `archived_at`: an archived entity leaves the public API and the widget but
--    stays in the database, so the bookings and carts that point at it keep showing it. Rows made
--    before this migration have no ref; the catalog file names them `<kind>-<id>` until they get one.
ALTER TABLE products ADD COLUMN ref TEXT;
ALTER TABLE products ADD COLUMN archived_at TEXT;
ALTER TABLE locations ADD COLUMN ref TEXT;
ALTER TABLE locations ADD COLUMN archived_at TEXT;
ALTER TABLE categories ADD COLUMN ref TEXT;
ALTER TABLE categories ADD COLUMN archived_at TEXT;
ALTER TABLE accommodation_types ADD COLUMN ref TEXT;
ALTER TABLE accommodation_types ADD COLUMN archived_at TEXT;
ALTER TABLE diets ADD COLUMN ref TEXT;
ALTER TABLE diets ADD COLUMN archived_at TEXT;
ALTER TABLE levels ADD COLUMN ref TEXT;
ALTER TABLE levels ADD COLUMN archived_at TEXT;
ALTER TABLE seasons ADD COLUMN ref TEXT;
ALTER TABLE seasons ADD COLUMN archived_at TEXT;
CREATE UNIQUE INDEX products_ref ON products(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX locations_ref ON locations(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX categories_ref ON categories(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX accommodation_types_ref ON accommodation_types(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX diets_ref ON diets(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX levels_ref ON levels(business_id, ref) WHERE ref IS NOT NULL;
CREATE UNIQUE INDEX seasons_ref ON seasons(business_id, ref) WHERE ref IS NOT NULL;

-- 2. A package's groups have a name, by which its items are put in them (ids of groups are not
--    shown anywhere, so a file cannot name them).
ALTER TABLE package_groups ADD COLUMN name TEXT;
UPDATE package_groups SET name = 'group-' || id WHERE name IS NULL;

-- 3. An inventory row that only blocks a date (its capacity is not an override: unblocking it
--    removes the row and the product's own capacity applies again). Rows written before are
--    overrides, as they always were.
ALTER TABLE inventory ADD COLUMN override INTEGER NOT NULL DEFAULT 1;
-- A blocked row with no capacity was written to block the date (the demo seed's closed days).
UPDATE inventory SET override = 0 WHERE blocked = 1 AND capacity = 0;

-- 4. The audit log: who changed what in a business's settings and catalog, before and after.
--    Written in the same batch as the change (manage/), never updated. The back office's migration
--    (0300) makes the same table with the same columns: on a database where that one ran first,
--    this one leaves it as it is.
CREATE TABLE IF NOT EXISTS audit_log (
  id TEXT PRIMARY KEY,                         -- UUID v7: ordered by time
  business_id INTEGER NOT NULL,
  at TEXT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('key', 'staff', 'cli')),
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,                        -- created, updated, archived, restored, deleted
  entity TEXT NOT NULL,                        -- settings, product, location, season, inventory, ...
  entity_id TEXT,
  summary TEXT NOT NULL,
  before TEXT,                                 -- JSON, null for a creation
  after TEXT                                   -- JSON, null for a deletion
);
CREATE INDEX IF NOT EXISTS audit_log_business ON audit_log(business_id, id);
CREATE INDEX IF NOT EXISTS audit_log_entity ON audit_log(business_id, entity, entity_id, id);

-- 5. Guards of the administration's batches, each with its own message (cf. cart_guard):
--    'catalog_changed': the catalog is no longer at the version the change was planned on (another
--    change came first; the change is planned again); 'capacity_below_used': a capacity would fall
--    below what is held or booked on some date.
CREATE VIEW manage_guard AS SELECT '' AS reason, 1 AS ok;
CREATE TRIGGER manage_guard_catalog_changed INSTEAD OF INSERT ON manage_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'catalog_changed'
BEGIN
  SELECT RAISE(ABORT, 'catalog_changed');
END;
CREATE TRIGGER manage_guard_capacity INSTEAD OF INSERT ON manage_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason = 'capacity_below_used'
BEGIN
  SELECT RAISE(ABORT, 'capacity_below_used');
END;
CREATE TRIGGER manage_guard_other INSTEAD OF INSERT ON manage_guard
WHEN NEW.ok IS NOT 1 AND NEW.reason NOT IN ('catalog_changed', 'capacity_below_used')
BEGIN
  SELECT RAISE(ABORT, 'guard_failed');
END;

-- 6. Weekly timeslot schedules. `products.timeslots` held start times ("08:00") offered every day
--    at the product's default capacity; it may now also hold entries
--    {"time": "08:00", "capacity": 12 or null, "days": ["mon", ...] or null}: the slot on those
--    weekdays (null: every day) with its own capacity (null: the product's). A timeslot product's
--    slot that is not on its schedule that weekday has no capacity. A date blocked as a whole
--    (slot '') blocks its every slot. The capacity rule is the domain's slotState()
--    (domain/availability.ts); this trigger is the same rule, and the only judge.
DROP TRIGGER allocations_capacity;
CREATE TRIGGER allocations_capacity BEFORE INSERT ON allocations
WHEN NEW.qty > (
  SELECT CASE
    WHEN NEW.slot <> '' AND EXISTS (SELECT 1 FROM inventory d WHERE d.product_id = NEW.product_id AND d.date = NEW.date AND d.slot = '' AND d.blocked = 1) THEN 0
    WHEN i.product_id IS NOT NULL THEN CASE WHEN i.blocked = 1 THEN 0 ELSE i.capacity END
    WHEN p.id IS NULL THEN 0
    WHEN NEW.slot <> '' AND p.is_on_timeslots = 1 THEN COALESCE(
      (SELECT CASE WHEN t.type = 'text' THEN COALESCE(p.default_capacity, 1000000000)
                   ELSE COALESCE(json_extract(t.value, '$.capacity'), p.default_capacity, 1000000000) END
         FROM json_each(p.timeslots) t
        WHERE (t.type = 'text' AND t.value = NEW.slot)
           OR (t.type = 'object' AND json_extract(t.value, '$.time') = NEW.slot
               AND (json_type(t.value, '$.days') IS NOT 'array'
                    OR EXISTS (SELECT 1 FROM json_each(t.value, '$.days') w
                                WHERE w.value = substr('sunmontuewedthufrisat', 1 + 3 * CAST(strftime('%w', NEW.date) AS INTEGER), 3))))
        LIMIT 1),
      0)
    ELSE COALESCE(p.default_capacity, 1000000000)
  END
  FROM (SELECT 1) one
  LEFT JOIN products p ON p.id = NEW.product_id
  LEFT JOIN inventory i ON i.product_id = NEW.product_id AND i.date = NEW.date AND i.slot = NEW.slot
)
  - COALESCE((SELECT b.qty FROM booked_units b WHERE b.product_id = NEW.product_id AND b.date = NEW.date AND b.slot = NEW.slot), 0)
  - (SELECT COALESCE(SUM(a.qty), 0) FROM allocations a
      WHERE a.product_id = NEW.product_id AND a.date = NEW.date AND a.slot = NEW.slot
        AND a.released_at IS NULL AND a.booking_id IS NULL AND a.expires_at > NEW.created_at)
BEGIN
  SELECT RAISE(ABORT, 'sold_out');
END;
