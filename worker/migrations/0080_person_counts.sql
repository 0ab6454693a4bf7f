-- How many live (not deleted) Persons each business has, kept by triggers: GET /private/persons
-- without filters answers X-Total-Count from here instead of counting every Person of the
-- business on every page (counting 100,000 index entries grows with the business).
CREATE TABLE person_counts (
  business_id INTEGER PRIMARY KEY,
  live INTEGER NOT NULL DEFAULT 0
);
INSERT INTO person_counts (business_id, live)
  SELECT business_id, COUNT(*) FROM persons WHERE deleted_at IS NULL GROUP BY business_id;

CREATE TRIGGER persons_count_insert AFTER INSERT ON persons WHEN NEW.deleted_at IS NULL BEGIN
  INSERT OR IGNORE INTO person_counts (business_id, live) VALUES (NEW.business_id, 0);
  UPDATE person_counts SET live = live + 1 WHERE business_id = NEW.business_id;
END;
CREATE TRIGGER persons_count_delete AFTER DELETE ON persons WHEN OLD.deleted_at IS NULL BEGIN
  UPDATE person_counts SET live = live - 1 WHERE business_id = OLD.business_id;
END;
CREATE TRIGGER persons_count_soft_delete AFTER UPDATE OF deleted_at ON persons
WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) BEGIN
  INSERT OR IGNORE INTO person_counts (business_id, live) VALUES (NEW.business_id, 0);
  UPDATE person_counts SET live = live + CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END WHERE business_id = NEW.business_id;
END;
