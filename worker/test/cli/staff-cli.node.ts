/**
 * The staff CLI (`npm run --silent staff -- invite`), run through npm on a migrated and
 * seeded local state directory: the first owner's one-time link, and clear refusals that change
 * nothing. (e2e/admin.spec.ts opens such a link in Chromium.)
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { d1Query } from "../../scripts/lib/d1";
import { prepareDatabase } from "../../scripts/server";
import { npmRun } from "./helpers";

describe("staff CLI", () => {
  let persistTo: string;
  const at = () => ["--persist-to", persistTo];

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "staff-cli-"));
    await prepareDatabase({ persistTo });
  });
  after(() => rmSync(persistTo, { recursive: true, force: true }));

  it("invites the first owner: prints the one-time link alone on stdout; only its hash is stored; again before accepting, a new link", async () => {
    const ran = await npmRun("staff", ["invite", "--business", "demo", "--email", "Owner@Example.com", "--role", "owner", "--url", "https://bookings.example.com", ...at()]);
    assert.equal(ran.code, 0, ran.stderr);
    const link = ran.stdout.trim();
    const m = /^https:\/\/bookings\.example\.com\/admin\/invite\/([A-Za-z0-9_-]{43})$/.exec(link);
    assert.ok(m, link);
    assert.match(ran.stderr, /works once, until \d{4}-\d\d-\d\dT/);
    const again = await npmRun("staff", ["invite", "--business", "demo", "--email", "owner@example.com", "--role", "owner", ...at()]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout.trim(), /^http:\/\/localhost:\d+\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
    // One wrangler command for every check (each costs seconds).
    const [users, invites, audit] = await d1Query<any>({ persistTo }, [
      { sql: "SELECT email, email_norm, role, password_hash FROM staff_users", params: [] },
      { sql: "SELECT token_hash, expires_at FROM staff_invites ORDER BY created_at, rowid", params: [] },
      { sql: "SELECT actor_kind, action, entity FROM audit_log WHERE entity = 'staff'", params: [] },
    ]);
    assert.deepEqual(users, [{ email: "Owner@Example.com", email_norm: "owner@example.com", role: "owner", password_hash: null }]);
    assert.equal(invites.length, 2);
    assert.equal(invites[0].token_hash, createHash("sha256").update(m[1]).digest("hex"));
    const hours = (Date.parse(invites[0].expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 23.9 && hours <= 24, String(hours));
    assert.deepEqual(audit[0], { actor_kind: "cli", action: "invited", entity: "staff" });
  });

  it("refuses an unknown business, a bad role or e-mail, and --remote without --url, changing nothing", async () => {
    const unknown = await npmRun("staff", ["invite", "--business", "nope", "--email", "a@example.com", "--role", "owner", ...at()]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Unknown business "nope"/);
    const role = await npmRun("staff", ["invite", "--business", "demo", "--email", "a@example.com", "--role", "boss", ...at()]);
    assert.equal(role.code, 2);
    assert.match(role.stderr, /Invalid --role "boss"/);
    const email = await npmRun("staff", ["invite", "--business", "demo", "--email", "not-an-email", "--role", "owner", ...at()]);
    assert.equal(email.code, 2);
    const remote = await npmRun("staff", ["invite", "--business", "demo", "--email", "a@example.com", "--role", "owner", "--remote"]);
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /With --remote, give --url/);
    for (const ran of [unknown, role, email, remote]) assert.equal(ran.stdout, "");
  });
});
