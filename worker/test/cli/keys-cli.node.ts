/**
 * The business and keys CLIs end to end: a real `wrangler dev` on a free port with its own state
 * directory, the CLIs run through npm as the README says, the API called over HTTP.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/server";
import { get, npmRun } from "./helpers";

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

describe("business and keys CLIs against a running server", () => {
  let persistTo: string;
  let server: RunningServer;
  let publicKey = "";
  const at = () => ["--persist-to", persistTo];

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "cli-test-"));
    server = await startServer({ persistTo });
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("creates an empty business with default settings and the chosen currency", async () => {
    const ran = await npmRun("business", ["create", "--slug", "cli-camp", "--title", "CLI Camp", "--currency", "gbp", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /Created business "CLI Camp" \(slug cli-camp, id \d+, currency GBP\)/);
    // The first-run path is the owner's invitation, not keys.
    assert.match(ran.stdout, /Next, invite its owner and open the link it prints:\n  npm run --silent staff -- invite --business cli-camp --email <owner's e-mail> --role owner/);
  });

  it("refuses a duplicate slug and an invalid one, changing nothing", async () => {
    const dup = await npmRun("business", ["create", "--slug", "cli-camp", "--title", "Again", ...at()]);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /already exists/);
    const bad = await npmRun("business", ["create", "--slug", "Not A Slug", "--title", "x", ...at()]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --slug/);
    const list = await npmRun("business", ["list", ...at()]);
    assert.equal(list.stdout.match(/cli-camp/g)?.length, 1);
    assert.doesNotMatch(list.stdout, /Again/);
  });

  it("prints a new key alone on one line, and the key reads the business's settings", async () => {
    const ran = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "public", "--name", "site", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^[^\n]+\n$/, "exactly one line");
    publicKey = ran.stdout.trim();
    assert.match(publicKey, JWT);

    const res = await get(`${server.url}/api/pub/v2/settings`, publicKey);
    assert.equal(res.status, 200);
    assert.equal(res.body.title, "CLI Camp");
    assert.deepEqual(res.body.currencies.map((c: any) => [c.iso_code, c.symbol]), [["GBP", "£"]]);
    assert.deepEqual(res.body.languages, ["en"]);
    assert.equal(res.body.settings.customer_fields.minimum_age, 18);
  });

  it("makes private keys that the public API refuses with 403", async () => {
    const ran = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "private", "--name", "back office", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    const res = await get(`${server.url}/api/pub/v2/settings`, ran.stdout.trim());
    assert.equal(res.status, 403);
  });

  it("explains unknown businesses, duplicate names and bad scopes with a non-zero exit", async () => {
    const unknown = await npmRun("keys", ["create", "--business", "nowhere", "--scope", "public", "--name", "x", ...at()]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Unknown business "nowhere"/);
    assert.equal(unknown.stdout, "");
    const dup = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "public", "--name", "site", ...at()]);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /already has an active key named "site"/);
    assert.equal(dup.stdout, "");
    const scope = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "admin", "--name", "y", ...at()]);
    assert.equal(scope.code, 2);
    assert.match(scope.stderr, /--scope/);
  });

  it("lists names, scopes and dates, never the keys", async () => {
    const ran = await npmRun("keys", ["list", "--business", "cli-camp", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^site\s+public\s+\d{4}-\d{2}-\d{2}T\S+Z\s+-$/m);
    assert.match(ran.stdout, /^back office\s+private\s+/m);
    for (const part of publicKey.split(".")) assert.ok(!ran.stdout.includes(part), "no part of a key in the listing");
    const json = await npmRun("keys", ["list", "--business", "cli-camp", "--json", ...at()]);
    const rows = JSON.parse(json.stdout);
    assert.deepEqual(rows.map((r: any) => Object.keys(r).sort()), [
      ["created_at", "name", "revoked_at", "scope"],
      ["created_at", "name", "revoked_at", "scope"],
    ]);
  });

  it("revokes a key, which is refused with 401 at once", async () => {
    const ran = await npmRun("keys", ["revoke", "--business", "cli-camp", "--name", "site", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    const res = await get(`${server.url}/api/pub/v2/settings`, publicKey);
    assert.equal(res.status, 401);
    assert.match(res.headers.get("WWW-Authenticate") ?? "", /^Bearer/);
    assert.equal(res.body.code, "unauthorized");
    const list = await npmRun("keys", ["list", "--business", "cli-camp", ...at()]);
    assert.match(list.stdout, /^site\s+public\s+\S+\s+\d{4}-\d{2}-\d{2}T\S+Z$/m);
    const again = await npmRun("keys", ["revoke", "--business", "cli-camp", "--name", "site", ...at()]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no active key named "site"/);
  });

  it("keeps businesses and keys across a restart, and seeding again changes nothing", async () => {
    const fresh = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "public", "--name", "site", ...at()]);
    assert.equal(fresh.code, 0, fresh.stderr);
    await server.stop();
    server = await startServer({ persistTo });
    assert.equal((await get(`${server.url}/api/pub/v2/settings`, fresh.stdout.trim())).status, 200);
    assert.equal((await get(`${server.url}/api/pub/v2/settings`, publicKey)).status, 401, "still revoked");
    const list = await npmRun("business", ["list", ...at()]);
    assert.deepEqual(list.stdout.match(/^\d+\s+\S+/gm)?.map((l) => l.split(/\s+/)[1]), ["demo", "dive", "cli-camp"]);
  });

  it("asks for KEY_SIGNING_SECRET before touching a remote database", async () => {
    const ran = await npmRun("keys", ["create", "--business", "cli-camp", "--scope", "public", "--name", "r", "--remote"], { KEY_SIGNING_SECRET: "" });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /KEY_SIGNING_SECRET is not set/);
  });
});
