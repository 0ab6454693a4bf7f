-- Private API (persons, guests, bookers, webhooks): full-text search over persons, and each
-- webhook subscription's position in the outbox.

-- GET /persons?query= searches names, e-mail, phone, city and company with contains-matches.
-- FTS5 with the trigram tokenizer indexes every three-character sequence (case-insensitive), so
-- "ller" finds "Müller" without a LIKE scan of the table. Triggers keep it in step with persons;
-- its rowid is the person's rowid. The phone column holds the number with and without its
-- calling code so "+351 912" and "912" both match.
CREATE VIRTUAL TABLE persons_fts USING fts5(first_name, last_name, email, phone, city, company_name, tokenize = 'trigram');

CREATE TRIGGER persons_fts_insert AFTER INSERT ON persons BEGIN
  INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name)
  VALUES (NEW.rowid, NEW.first_name, NEW.last_name, NEW.email,
          COALESCE(NEW.phone_country_calling_code, '') || COALESCE(NEW.phone, '') || ' ' || COALESCE(NEW.phone, ''),
          NEW.city, NEW.company_name);
END;

CREATE TRIGGER persons_fts_update AFTER UPDATE ON persons BEGIN
  DELETE FROM persons_fts WHERE rowid = OLD.rowid;
  INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name)
  VALUES (NEW.rowid, NEW.first_name, NEW.last_name, NEW.email,
          COALESCE(NEW.phone_country_calling_code, '') || COALESCE(NEW.phone, '') || ' ' || COALESCE(NEW.phone, ''),
          NEW.city, NEW.company_name);
END;

CREATE TRIGGER persons_fts_delete AFTER DELETE ON persons BEGIN
  DELETE FROM persons_fts WHERE rowid = OLD.rowid;
END;

INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name)
SELECT rowid, first_name, last_name, email,
       COALESCE(phone_country_calling_code, '') || COALESCE(phone, '') || ' ' || COALESCE(phone, ''),
       city, company_name
  FROM persons;

-- The last outbox seq this subscription has planned deliveries for. Advanced in the same batch
-- that inserts the delivery rows, so an event is never skipped and never planned twice.
ALTER TABLE webhooks ADD COLUMN cursor_seq INTEGER NOT NULL DEFAULT 0;

CREATE INDEX guests_business_created ON guests(business_id, created_at);
CREATE INDEX bookers_business ON bookers(business_id, booking_id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_retry_at);
