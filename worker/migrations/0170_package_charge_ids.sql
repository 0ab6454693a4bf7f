-- POST /packages/prices answers lines of {package_item_id integer, product_id, price, is_fixed,
-- guest_to_charge} (public API v2, to the letter). Three kinds of line are not package items of
-- the package_items table: the package's own price, each accommodation it can be booked with,
-- and that accommodation's single room supplement. They get real integer ids here, one per
-- (package, product, kind), so that every line carries one.
--
-- Their ids start above 1,000,000,000 and so never equal a package_items id (which grow from 1):
-- a client that sends one back as an item of POST /bookings/add is told it is handled
-- automatically, never mistaken for an option. Triggers keep the table complete whatever path
-- adds a package or one of its accommodations (the API, a seed, `wrangler d1 execute`).
CREATE TABLE package_charges (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('package', 'accommodation', 'srs')),
  UNIQUE (package_id, product_id, kind)
);
CREATE INDEX package_charges_business ON package_charges(business_id, kind);

INSERT INTO package_charges (id, business_id, package_id, product_id, kind)
SELECT 1000000000 + ROW_NUMBER() OVER (ORDER BY package_id, product_id, kind), business_id, package_id, product_id, kind FROM (
  SELECT p.business_id, p.id AS package_id, p.id AS product_id, 'package' AS kind FROM products p WHERE p.type = 'package'
  UNION ALL
  SELECT p.business_id, a.package_id, a.accommodation_id, 'accommodation' FROM package_accommodations a JOIN products p ON p.id = a.package_id
  UNION ALL
  SELECT p.business_id, a.package_id, a.accommodation_id, 'srs' FROM package_accommodations a JOIN products p ON p.id = a.package_id
);

CREATE TRIGGER package_charges_package_insert AFTER INSERT ON products WHEN NEW.type = 'package' BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
END;
CREATE TRIGGER package_charges_package_update AFTER UPDATE OF type ON products WHEN NEW.type = 'package' BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
END;
CREATE TRIGGER package_charges_accommodation_insert AFTER INSERT ON package_accommodations BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, p.business_id, NEW.package_id, NEW.accommodation_id, 'accommodation'
    FROM products p WHERE p.id = NEW.package_id;
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, p.business_id, NEW.package_id, NEW.accommodation_id, 'srs'
    FROM products p WHERE p.id = NEW.package_id;
END;
