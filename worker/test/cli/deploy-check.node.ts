/**
 * `npm run deploy:check` refuses what a first deployment would hit (the placeholder database_id,
 * no public origin, no persisted logs), each with the command that fixes it, and passes a
 * configured wrangler.toml (issue 32).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ROOT } from "../../scripts/lib/wrangler";
import { npmRun } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "deploy-check-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const repoToml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const configured = repoToml
  .replace('database_id = "00000000-0000-0000-0000-000000000000"', 'database_id = "3f1c2a9e-5b7d-4e21-9c0a-6d8e2f4b1a07"')
  .replace('database_id = "00000000-0000-0000-0000-000000000001"', 'database_id = "8b2d4f60-1c3e-4a5b-9d7f-0e1a2b3c4d5e"')
  .replace('PUBLIC_ORIGIN = ""', 'PUBLIC_ORIGIN = "https://book.example.com"');
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe("deploy:check", () => {
  it("refuses the repository's placeholder database_id and empty public origin, saying what to run", async () => {
    const ran = await npmRun("deploy:check", []);
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /database_id of the \[\[d1_databases\]\] DB is the placeholder/);
    assert.match(ran.stderr, /npx wrangler d1 create booking-platform /);
    // every shard's database is checked, not only the first (docs/design.md "Shards")
    assert.match(ran.stderr, /database_id of the \[\[d1_databases\]\] DB_SHARD_1 is the placeholder/);
    assert.match(ran.stderr, /npx wrangler d1 create booking-platform-shard-1/);
    assert.match(ran.stderr, /PUBLIC_ORIGIN in \[vars\] is empty/);
  });

  it("passes a configured file, and refuses one without persisted logs", async () => {
    assert.notEqual(configured, repoToml, "the fixture changed the placeholders");
    const ok = await npmRun("deploy:check", ["--config", write("ok.toml", configured)]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /ready to deploy/);
    // the secrets a deployment needs are named, with the command that sets each (issue 31: SECRETS_KEY seals Stripe keys)
    assert.match(ok.stdout, /KEY_SIGNING_SECRET \(`npx wrangler secret put KEY_SIGNING_SECRET`\)/);
    assert.match(ok.stdout, /SECRETS_KEY \(`npx wrangler secret put SECRETS_KEY`\)/);
    // a secret written into the committed file is refused
    const leaked = await npmRun("deploy:check", ["--config", write("leak.toml", configured.replace("[vars]\n", '[vars]\nSECRETS_KEY = "abc"\n'))]);
    assert.equal(leaked.code, 1);
    assert.match(leaked.stderr, /SECRETS_KEY is written in wrangler.toml: remove it/);
    // a configured DB with a shard still on its placeholder is refused
    const shardLeft = await npmRun("deploy:check", ["--config", write("shard.toml", configured.replace('"8b2d4f60-1c3e-4a5b-9d7f-0e1a2b3c4d5e"', '"00000000-0000-0000-0000-000000000001"'))]);
    assert.equal(shardLeft.code, 1);
    assert.match(shardLeft.stderr, /DB_SHARD_1 is the placeholder/);
    assert.doesNotMatch(shardLeft.stderr, /\] DB is the placeholder/);
    const noLogs = await npmRun("deploy:check", ["--config", write("nologs.toml", configured.replace(/enabled = true\n/, "enabled = false\n"))]);
    assert.equal(noLogs.code, 1);
    assert.match(noLogs.stderr, /\[observability\] is not enabled/);
  });
});
