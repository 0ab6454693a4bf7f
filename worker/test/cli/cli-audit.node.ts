/**
 * The CLIs change data the way the back office does (issue 26): a business created with
 * `npm run business`, keys made and revoked with `npm run keys`, staff invited and removed with
 * `npm run staff` each leave an audit entry whose actor is the CLI, read back as an integrator
 * reads the log (GET /private/audit on a running server).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/server";
import { get, npmRun, type Ran } from "./helpers";

interface Entry {
  actor: { kind: string; id: string; name: string };
  action: string;
  entity: string;
  entity_id: string | null;
  summary: string;
}

describe("the CLIs' changes in the audit log", () => {
  let persistTo: string;
  let server: RunningServer;
  let auditor = "";
  const at = () => ["--persist-to", persistTo];
  const ok = (ran: Ran) => assert.equal(ran.code, 0, ran.stderr);
  const audit = async (actor: string): Promise<Entry[]> => {
    const res = await get(`${server.url}/private/audit?limit=100&actor=${encodeURIComponent(actor)}`, auditor);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };

  before(async () => {
    persistTo = mkdtempSync(join(tmpdir(), "cli-audit-"));
    server = await startServer({ persistTo });
    ok(await npmRun("business", ["create", "--slug", "audit-camp", "--title", "Audit Camp", ...at()]));
    const key = await npmRun("keys", ["create", "--business", "audit-camp", "--scope", "private", "--name", "auditor", ...at()]);
    ok(key);
    auditor = key.stdout.trim();
  });
  after(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("a business created with `npm run business` is audited as the business CLI's", async () => {
    const entries = await audit("business CLI");
    assert.deepEqual(entries.map((e) => [e.actor.kind, e.action, e.entity, e.summary]), [["cli", "created", "business", 'Created business "Audit Camp" (audit-camp)']]);
  });

  it("keys created and revoked with `npm run keys` are audited as the keys CLI's", async () => {
    ok(await npmRun("keys", ["create", "--business", "audit-camp", "--scope", "public", "--name", "site", ...at()]));
    ok(await npmRun("keys", ["revoke", "--business", "audit-camp", "--name", "site", ...at()]));
    const entries = await audit("keys CLI");
    // Newest first: the revocation, the creation of "site", the creation of the auditor's own key.
    assert.deepEqual(
      entries.map((e) => [e.action, e.entity, e.summary]),
      [
        ["revoked", "api_key", 'Revoked the key "site"'],
        ["created", "api_key", 'Created the public key "site"'],
        ["created", "api_key", 'Created the private key "auditor"'],
      ],
    );
    for (const e of entries) assert.deepEqual({ kind: e.actor.kind, name: e.actor.name }, { kind: "cli", name: "keys CLI" });
    assert.equal(entries[0].entity_id, entries[1].entity_id, "the same key, created then revoked");
  });

  it("staff invited and removed with `npm run staff` are audited as the staff CLI's", async () => {
    ok(await npmRun("staff", ["invite", "--business", "audit-camp", "--email", "owner@audit.example", "--role", "owner", ...at()]));
    ok(await npmRun("staff", ["invite", "--business", "audit-camp", "--email", "desk@audit.example", "--role", "front_desk", ...at()]));
    const removed = await npmRun("staff", ["remove", "--business", "audit-camp", "--email", "desk@audit.example", ...at()]);
    ok(removed);
    assert.match(removed.stdout, /Removed desk@audit\.example/);
    const entries = await audit("staff CLI");
    assert.deepEqual(
      entries.map((e) => [e.action, e.entity, e.summary]),
      [
        ["removed", "staff", "Removed desk@audit.example (front desk)"],
        ["invited", "staff", "Invited desk@audit.example as front desk"],
        ["invited", "staff", "Invited owner@audit.example as owner"],
      ],
    );
    for (const e of entries) assert.deepEqual({ kind: e.actor.kind, name: e.actor.name }, { kind: "cli", name: "staff CLI" });
    const list = await npmRun("staff", ["list", "--business", "audit-camp", "--json", ...at()]);
    assert.deepEqual(JSON.parse(list.stdout).map((r: { email: string; status: string }) => [r.email, r.status]), [["owner@audit.example", "invited"]]);
  });
});
