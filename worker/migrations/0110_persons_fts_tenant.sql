-- The persons' full-text index knows each row's business. Until now a search matched the words in
-- every business's persons and then looked up each matching Person to drop the other
-- businesses' ones: a search for a common name in a business of 3,000 persons read 3,475 rows when
-- another business held 100,000, and a word under three characters scanned every business's
-- index. The new `tenant` column holds "~<business id>~" (a substring no other id's token
-- contains), and a search matches it together with its words inside the index, so it reads its
-- own business's entries only. The words are matched on the six searchable columns, never on
-- `tenant`.
DROP TRIGGER persons_fts_insert;
DROP TRIGGER persons_fts_update;
DROP TRIGGER persons_fts_delete;
DROP TABLE persons_fts;

CREATE VIRTUAL TABLE persons_fts USING fts5(first_name, last_name, email, phone, city, company_name, tenant, tokenize = 'trigram');

CREATE TRIGGER persons_fts_insert AFTER INSERT ON persons BEGIN
  INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name, tenant)
  VALUES (NEW.rowid, NEW.first_name, NEW.last_name, NEW.email,
          COALESCE(NEW.phone_country_calling_code, '') || COALESCE(NEW.phone, '') || ' ' || COALESCE(NEW.phone, ''),
          NEW.city, NEW.company_name, '~' || NEW.business_id || '~');
END;

CREATE TRIGGER persons_fts_update AFTER UPDATE ON persons BEGIN
  DELETE FROM persons_fts WHERE rowid = OLD.rowid;
  INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name, tenant)
  VALUES (NEW.rowid, NEW.first_name, NEW.last_name, NEW.email,
          COALESCE(NEW.phone_country_calling_code, '') || COALESCE(NEW.phone, '') || ' ' || COALESCE(NEW.phone, ''),
          NEW.city, NEW.company_name, '~' || NEW.business_id || '~');
END;

CREATE TRIGGER persons_fts_delete AFTER DELETE ON persons BEGIN
  DELETE FROM persons_fts WHERE rowid = OLD.rowid;
END;

INSERT INTO persons_fts (rowid, first_name, last_name, email, phone, city, company_name, tenant)
SELECT rowid, first_name, last_name, email,
       COALESCE(phone_country_calling_code, '') || COALESCE(phone, '') || ' ' || COALESCE(phone, ''),
       city, company_name, '~' || business_id || '~'
  FROM persons;
