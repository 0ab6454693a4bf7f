-- Whether a business can take payments online (its Stripe key set) is part of what its catalog
-- snapshot says (the widget's bootstrap tells the guest whether they pay online at checkout), so a
-- change of its Stripe secrets changes its catalog version, as the other catalog tables' triggers
-- do (migration 0070): every process then reads the snapshot again.
CREATE TRIGGER stripe_accounts_catalog_insert AFTER INSERT ON stripe_accounts BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER stripe_accounts_catalog_update AFTER UPDATE ON stripe_accounts BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER stripe_accounts_catalog_delete AFTER DELETE ON stripe_accounts BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
