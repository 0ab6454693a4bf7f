-- A request's access check inside its own write: a write whose first round trip is the write
-- itself (opening a cart) puts `INSERT INTO access_guard (ok) SELECT <the key or business holds,
-- at the catalog version the write was built on>` first in its batch, so the batch is made only
-- when the check passes, in the same transaction (lib/tenant-read.ts fuseAccess).
CREATE VIEW access_guard AS SELECT 1 AS ok;
CREATE TRIGGER access_guard_check INSTEAD OF INSERT ON access_guard WHEN NEW.ok IS NOT 1
BEGIN
  SELECT RAISE(ABORT, 'access_refused');
END;
