import { applyD1Migrations, env } from "cloudflare:test";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { ensureIdRange } from "../src/db/id-range";
import { DEMO_BUSINESS_ID, DEMO_BUSINESS_SQL, demoCatalog } from "../seed/demo";

// Every test file starts from the migrated schema and the demo business, applied from its
// catalog file through the administration's code, as `npm start` does.
// Both shards (docs/design.md "Shards") take the same migrations; DB is also the directory.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
// Each shard gives its ids in its own range (migration 0480), as `npm run shard -- init` sets up.
await ensureIdRange(env.DB, 0);
await ensureIdRange(env.DB_SHARD_1, 1);
await env.DB.prepare(DEMO_BUSINESS_SQL).run();
await applyCatalog({ DB: env.DB, EMAIL_SENDING_DOMAINS: env.EMAIL_SENDING_DOMAINS }, { kind: "cli", id: "test-setup", name: "cli" }, DEMO_BUSINESS_ID, CatalogFile.parse(demoCatalog), new Date());
