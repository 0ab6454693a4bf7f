-- Per-shard id ranges (issue 32, docs/design.md "Shards"). The integer ids SQLite would give as
-- "one past the largest in the table" are given in this shard's own range instead, so that ids
-- are unique across shards and a business moved onto another shard keeps its ids without a clash.
--   id_range  this shard's index and the floor of its range: shard k gives ids in
--             (k * 10^12, (k + 1) * 10^12]. Written by `ensureIdRange` (db/id-range.ts), run where
--             the shards are set up (`npm run shard -- init`, `npm start`, the tests' setup);
--             a shard without it gives ids from 0, as shard 0 does.
--   id_high   per table, the largest id of this shard's range that left it with a moved business:
--             never given again here, so a business that moved away can come back.
-- The code gives these ids in db/ (db/id-range.ts nextIdSql); the triggers of package_charges,
-- whose ids sit 10^9 above the floor (migration 0170), are rewritten here to do the same.
CREATE TABLE id_range (
  single INTEGER PRIMARY KEY CHECK (single = 1),
  shard INTEGER NOT NULL CHECK (shard >= 0),
  floor INTEGER NOT NULL CHECK (floor >= 0)
);
CREATE VIEW id_floor AS SELECT COALESCE((SELECT floor FROM id_range WHERE single = 1), 0) AS floor;
CREATE TABLE id_high (
  name TEXT PRIMARY KEY,
  last INTEGER NOT NULL
) WITHOUT ROWID;

DROP TRIGGER IF EXISTS package_charges_own_insert;
DROP TRIGGER IF EXISTS package_charges_own_update;
DROP TRIGGER IF EXISTS package_charges_accommodation_insert;
CREATE VIEW package_charges_last AS
  SELECT MAX(f.floor + 1000000000,
             COALESCE((SELECT c.id FROM package_charges c WHERE c.id > f.floor + 1000000000 AND c.id <= f.floor + 1000000000000 ORDER BY c.id DESC LIMIT 1), 0),
             COALESCE((SELECT h.last FROM id_high h WHERE h.name = 'package_charges'), 0)) AS last
    FROM id_floor f;
CREATE TRIGGER package_charges_own_insert AFTER INSERT ON products BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'accommodation' WHERE NEW.type = 'accommodation';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'srs' WHERE NEW.type = 'accommodation';
END;
CREATE TRIGGER package_charges_own_update AFTER UPDATE OF type ON products BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'accommodation' WHERE NEW.type = 'accommodation';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, NEW.business_id, NEW.id, NEW.id, 'srs' WHERE NEW.type = 'accommodation';
END;
CREATE TRIGGER package_charges_accommodation_insert AFTER INSERT ON package_accommodations BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, p.business_id, NEW.package_id, NEW.accommodation_id, 'accommodation'
    FROM products p WHERE p.id = NEW.package_id;
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT (SELECT last FROM package_charges_last) + 1, p.business_id, NEW.package_id, NEW.accommodation_id, 'srs'
    FROM products p WHERE p.id = NEW.package_id;
END;
