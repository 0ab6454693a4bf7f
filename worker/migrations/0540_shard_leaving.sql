-- The businesses a move is taking (or took) away from this shard (docs/design.md "Shards"): written
-- on the shard a business leaves when its move starts (manage/shards.ts), removed when the move is
-- given up, kept after it left. A cart write may be sent on a directory entry the Worker read a
-- moment before (middleware/shard.ts); each of its batches starts with
-- `INSERT INTO shard_guard (ok) SELECT NOT EXISTS (SELECT 1 FROM shard_leaving WHERE business_id = ?)`
-- (db/shards.ts SHARD_GUARD_SQL, sent by durable/cart-desk.ts), so it is made only on the shard its business lives on and
-- is not leaving: never on one whose rows are being copied away or are gone.
CREATE TABLE shard_leaving (
  business_id INTEGER PRIMARY KEY,
  since TEXT NOT NULL
);
CREATE VIEW shard_guard AS SELECT 1 AS ok;
CREATE TRIGGER shard_guard_check INSTEAD OF INSERT ON shard_guard WHEN NEW.ok IS NOT 1
BEGIN
  SELECT RAISE(ABORT, 'business_moving');
END;
