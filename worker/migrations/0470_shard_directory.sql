-- The shard directory (issue 32, docs/design.md "Shards"): which D1 database each business lives
-- on. It is read on DB (shard 0, which is also the directory) only; every shard takes the same
-- migrations, so the table exists, empty, on the others. A business id is allocated here, so ids
-- stay unique across shards, and a slug is claimed here, so slugs do too.
--   shard         the index of the business's D1 binding: 0 = DB, 1 = DB_SHARD_1, ...
--   moving_since  set while the business is being moved (worker/scripts/shard.ts): the doors
--                 refuse its writes (503 with Retry-After); reads keep being served.
CREATE TABLE shard_directory (
  business_id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  shard INTEGER NOT NULL DEFAULT 0,
  moving_since TEXT
);

-- Every business made before the directory lives on shard 0.
INSERT INTO shard_directory (business_id, slug, shard) SELECT id, slug, 0 FROM businesses;
