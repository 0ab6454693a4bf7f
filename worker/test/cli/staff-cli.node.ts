/**
 * The staff CLI's refusals (`npm run --silent staff -- invite`): bad arguments are told before any
 * database is touched, and nothing is printed on stdout (where the link goes). The link itself,
 * stored as its hash only, is opened in Chromium by e2e/admin.spec.ts against a running server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { npmRun } from "./helpers";

describe("staff CLI", () => {
  it("refuses a bad role or e-mail, and --remote without --url, before touching a database", async () => {
    const [role, email, remote, missing] = await Promise.all([
      npmRun("staff", ["invite", "--business", "demo", "--email", "a@example.com", "--role", "boss"]),
      npmRun("staff", ["invite", "--business", "demo", "--email", "not-an-email", "--role", "owner"]),
      npmRun("staff", ["invite", "--business", "demo", "--email", "a@example.com", "--role", "owner", "--remote"]),
      npmRun("staff", ["invite", "--business", "demo", "--role", "owner"]),
    ]);
    assert.equal(role.code, 2);
    assert.match(role.stderr, /Invalid --role "boss": owner, manager or front_desk/);
    assert.equal(email.code, 2);
    assert.match(email.stderr, /Invalid --email "not-an-email"/);
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /With --remote, give --url/);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Missing --email/);
    for (const ran of [role, email, remote, missing]) assert.equal(ran.stdout, "");
  });
});
