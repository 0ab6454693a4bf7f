-- The catalog's version per business. Every API process keeps a snapshot of a business's catalog
-- (products, rates, seasons, package structures, currencies, diets, levels and the lookups) in
-- memory and checks this number in the same D1 round trip as the API key, so a change to the
-- catalog, by any path (the API, a seed, `wrangler d1 execute`), is seen by the next request.
-- The triggers make forgetting to change it impossible. The new version is random, not a count, so
-- that a database restored to an earlier point (or a test's fresh database) can never show a
-- version some process already holds a different snapshot for. Inventory is not catalog: it is
-- read live, never from a snapshot.
ALTER TABLE businesses ADD COLUMN catalog_version INTEGER NOT NULL DEFAULT 0;
UPDATE businesses SET catalog_version = random();
CREATE TRIGGER businesses_catalog_insert AFTER INSERT ON businesses BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.id;
END;

CREATE TRIGGER currencies_catalog_insert AFTER INSERT ON currencies BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER currencies_catalog_update AFTER UPDATE ON currencies BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER currencies_catalog_delete AFTER DELETE ON currencies BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER diets_catalog_insert AFTER INSERT ON diets BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER diets_catalog_update AFTER UPDATE ON diets BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER diets_catalog_delete AFTER DELETE ON diets BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER levels_catalog_insert AFTER INSERT ON levels BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER levels_catalog_update AFTER UPDATE ON levels BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER levels_catalog_delete AFTER DELETE ON levels BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER locations_catalog_insert AFTER INSERT ON locations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER locations_catalog_update AFTER UPDATE ON locations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER locations_catalog_delete AFTER DELETE ON locations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER categories_catalog_insert AFTER INSERT ON categories BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER categories_catalog_update AFTER UPDATE ON categories BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER categories_catalog_delete AFTER DELETE ON categories BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER accommodation_types_catalog_insert AFTER INSERT ON accommodation_types BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER accommodation_types_catalog_update AFTER UPDATE ON accommodation_types BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER accommodation_types_catalog_delete AFTER DELETE ON accommodation_types BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER products_catalog_insert AFTER INSERT ON products BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER products_catalog_update AFTER UPDATE ON products BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER products_catalog_delete AFTER DELETE ON products BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER seasons_catalog_insert AFTER INSERT ON seasons BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER seasons_catalog_update AFTER UPDATE ON seasons BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER seasons_catalog_delete AFTER DELETE ON seasons BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER rates_catalog_insert AFTER INSERT ON rates BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER rates_catalog_update AFTER UPDATE ON rates BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER rates_catalog_delete AFTER DELETE ON rates BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER package_items_catalog_insert AFTER INSERT ON package_items BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER package_items_catalog_update AFTER UPDATE ON package_items BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER package_items_catalog_delete AFTER DELETE ON package_items BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
CREATE TRIGGER season_segments_catalog_insert AFTER INSERT ON season_segments BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM seasons WHERE id = NEW.season_id);
END;
CREATE TRIGGER season_segments_catalog_update AFTER UPDATE ON season_segments BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM seasons WHERE id = NEW.season_id);
END;
CREATE TRIGGER season_segments_catalog_delete AFTER DELETE ON season_segments BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM seasons WHERE id = OLD.season_id);
END;
CREATE TRIGGER package_groups_catalog_insert AFTER INSERT ON package_groups BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = NEW.package_id);
END;
CREATE TRIGGER package_groups_catalog_update AFTER UPDATE ON package_groups BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = NEW.package_id);
END;
CREATE TRIGGER package_groups_catalog_delete AFTER DELETE ON package_groups BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = OLD.package_id);
END;
CREATE TRIGGER package_accommodations_catalog_insert AFTER INSERT ON package_accommodations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = NEW.package_id);
END;
CREATE TRIGGER package_accommodations_catalog_update AFTER UPDATE ON package_accommodations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = NEW.package_id);
END;
CREATE TRIGGER package_accommodations_catalog_delete AFTER DELETE ON package_accommodations BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = (SELECT business_id FROM products WHERE id = OLD.package_id);
END;
-- The business's own fields are part of the snapshot too (the version column itself is not listed,
-- so the bump does not trigger itself).
CREATE TRIGGER businesses_catalog_update AFTER UPDATE OF slug, title, company_name, frontoffice_domain, config ON businesses BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.id;
END;

-- A snapshot reads each catalog table by business: these make that a search of the business's
-- own rows, not a scan of every business's (worker/test/query-plans.test.ts checks it).
CREATE INDEX currencies_business ON currencies(business_id);
CREATE INDEX diets_business ON diets(business_id);
CREATE INDEX levels_business ON levels(business_id);
CREATE INDEX categories_business ON categories(business_id);
CREATE INDEX locations_business ON locations(business_id);
CREATE INDEX accommodation_types_business ON accommodation_types(business_id);
CREATE INDEX seasons_business ON seasons(business_id);
CREATE INDEX season_segments_season ON season_segments(season_id);
CREATE INDEX rates_business ON rates(business_id, product_id);
CREATE INDEX package_items_business ON package_items(business_id, package_id);
CREATE INDEX package_groups_package ON package_groups(package_id);
