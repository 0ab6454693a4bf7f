-- The version of each business's inventory ledger: capacities (inventory) and units held or
-- booked (allocations). Every write to either changes it, by trigger, in the write's own
-- transaction, whatever the path (the API, the expiry alarm, a seed, `wrangler d1 execute`).
-- A process that already holds a ledger for some products and dates sends the version it was
-- read at with the request's read; D1 answers the whole ledger only when the version differs,
-- so a calendar asked again while nothing was written costs one row instead of hundreds. Holds
-- also lapse with time, without any write: the reader keeps a ledger only until its earliest
-- hold expires. Like catalog_version, a new version is random, not a count, so a database
-- restored to an earlier point (or a test's fresh database) never shows a version a process
-- holds another ledger for; shifted to 52 bits so that it survives a JavaScript number intact.
CREATE TABLE ledger_versions (
  business_id INTEGER PRIMARY KEY,
  version INTEGER NOT NULL
);

INSERT INTO ledger_versions (business_id, version) SELECT id, random() >> 12 FROM businesses;

CREATE TRIGGER allocations_ledger_insert AFTER INSERT ON allocations BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (NEW.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER allocations_ledger_update AFTER UPDATE ON allocations BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (NEW.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER allocations_ledger_delete AFTER DELETE ON allocations BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (OLD.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER inventory_ledger_insert AFTER INSERT ON inventory BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (NEW.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER inventory_ledger_update AFTER UPDATE ON inventory BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (NEW.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER inventory_ledger_delete AFTER DELETE ON inventory BEGIN
  INSERT INTO ledger_versions (business_id, version) VALUES (OLD.business_id, random() >> 12)
    ON CONFLICT (business_id) DO UPDATE SET version = excluded.version;
END;
