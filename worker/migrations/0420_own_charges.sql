-- A product listed on its own (an activity, a course, a rental, a room: not a package) is sold as
-- its own one-item package (issue 27). Its price lines need integer ids as a package's own lines
-- have (migration 0170): one 'package' row per product (package_id = product_id = the product),
-- and for an accommodation its 'accommodation' and 'srs' rows, with package_id = product_id = the
-- room. Kept complete by triggers whatever path adds the product, as in 0170.
DROP TRIGGER IF EXISTS package_charges_package_insert;
DROP TRIGGER IF EXISTS package_charges_package_update;

INSERT INTO package_charges (id, business_id, package_id, product_id, kind)
SELECT (SELECT MAX(COALESCE(MAX(id), 0), 1000000000) FROM package_charges) + ROW_NUMBER() OVER (ORDER BY product_id, kind), business_id, product_id, product_id, kind FROM (
  SELECT p.business_id, p.id AS product_id, 'package' AS kind FROM products p
   WHERE p.type <> 'package' AND NOT EXISTS (SELECT 1 FROM package_charges c WHERE c.package_id = p.id AND c.product_id = p.id AND c.kind = 'package')
  UNION ALL
  SELECT p.business_id, p.id, 'accommodation' FROM products p
   WHERE p.type = 'accommodation' AND NOT EXISTS (SELECT 1 FROM package_charges c WHERE c.package_id = p.id AND c.product_id = p.id AND c.kind = 'accommodation')
  UNION ALL
  SELECT p.business_id, p.id, 'srs' FROM products p
   WHERE p.type = 'accommodation' AND NOT EXISTS (SELECT 1 FROM package_charges c WHERE c.package_id = p.id AND c.product_id = p.id AND c.kind = 'srs')
);

CREATE TRIGGER package_charges_own_insert AFTER INSERT ON products BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'accommodation' WHERE NEW.type = 'accommodation';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'srs' WHERE NEW.type = 'accommodation';
END;
CREATE TRIGGER package_charges_own_update AFTER UPDATE OF type ON products BEGIN
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'package';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'accommodation' WHERE NEW.type = 'accommodation';
  INSERT OR IGNORE INTO package_charges (id, business_id, package_id, product_id, kind)
  SELECT MAX(COALESCE((SELECT MAX(id) FROM package_charges), 0), 1000000000) + 1, NEW.business_id, NEW.id, NEW.id, 'srs' WHERE NEW.type = 'accommodation';
END;
