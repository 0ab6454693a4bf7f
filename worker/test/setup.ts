import { applyD1Migrations, env } from "cloudflare:test";
import { demoSeed } from "../seed/demo";
import { isoDate } from "../src/lib/time";

// Every test file starts from the migrated schema and the demo business.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
const statements = demoSeed(isoDate(new Date()));
await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
