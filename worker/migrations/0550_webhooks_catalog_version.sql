-- Whether a business has a live webhook subscription (not deleted, not disabled) is part of what
-- its catalog snapshot says, so that a booking by a business with none does not wake its webhook
-- delivery object for nothing (worker/src/carts/checkout.ts). A subscription made, deleted,
-- disabled or enabled changes the business's catalog version, as the catalog tables' triggers do
-- (migration 0070, 0530): every process then reads the snapshot again. Only those columns: the
-- delivery cursor (cursor_seq) moves at every delivery and changes nothing the snapshot says.
CREATE TRIGGER webhooks_catalog_insert AFTER INSERT ON webhooks BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER webhooks_catalog_update AFTER UPDATE OF disabled_at, deleted_at ON webhooks BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = NEW.business_id;
END;
CREATE TRIGGER webhooks_catalog_delete AFTER DELETE ON webhooks BEGIN
  UPDATE businesses SET catalog_version = random() WHERE id = OLD.business_id;
END;
