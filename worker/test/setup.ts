import { applyD1Migrations, env, reset } from "cloudflare:test";
import { forgetProcessMemory } from "../src/lib/process-memory";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { ensureIdRange } from "../src/db/id-range";
import { placeBusinessesByDirectory } from "./helpers";
import { DEMO_BUSINESS_ID, DEMO_BUSINESS_SQL, demoCatalog } from "../seed/demo";

// Every test file starts from the migrated schema and the demo business, applied from its
// catalog file through the administration's code, as `npm start` does.
// The files run one after another in one workerd and one isolate (worker/vitest.config.ts,
// `isolate: false`): each starts as if it had its own. reset() deletes every Durable Object's
// storage and alarms, every D1 database and the Cache API's entries of this workerd; the
// isolate's own memory (lib/process-memory.ts) is forgotten, as a new isolate has none.
await reset();
forgetProcessMemory();
placeBusinessesByDirectory();
// Both shards (docs/design.md "Shards") take the same migrations; DB is also the directory.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
// Each shard gives its ids in its own range (migration 0490), as `npm run shard -- init` sets up.
await ensureIdRange(env.DB, 0);
await ensureIdRange(env.DB_SHARD_1, 1);
await env.DB.prepare(DEMO_BUSINESS_SQL).run();
await applyCatalog({ DB: env.DB, EMAIL_SENDING_DOMAINS: env.EMAIL_SENDING_DOMAINS }, { kind: "cli", id: "test-setup", name: "cli" }, DEMO_BUSINESS_ID, CatalogFile.parse(demoCatalog), new Date());
