/** `npm start` as a user runs it: migrates and seeds, prints the base URLs, serves, stops on SIGTERM. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ROOT } from "../../scripts/lib/wrangler";
import { freePort } from "../../scripts/server";
import { get, npmRun, stateExec, stateQuery } from "./helpers";

describe("npm start", () => {
  const stateDir = mkdtempSync(join(tmpdir(), "start-test-"));
  after(() => rmSync(stateDir, { recursive: true, force: true }));

  async function start(port: number) {
    const child = spawn("npm", ["start"], { cwd: ROOT, env: { ...process.env, PORT: String(port), STATE_DIR: stateDir }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((done) => child.on("close", done));
    const deadline = Date.now() + 90_000;
    while (!out.includes("Press Ctrl-C to stop.")) {
      if (Date.now() > deadline || child.exitCode !== null) assert.fail(`npm start did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { child, exited, output: () => out };
  }

  it("prints the base URLs, serves the seeded demo, and ends everything on SIGTERM", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { child, exited, output } = await start(port);
    try {
      for (const path of ["/admin", "/api/pub/v2", "/private", "/demo", "/docs", "/openapi.json"]) assert.ok(output().includes(`${url}${path}`), `prints ${url}${path}`);
      // A fresh state: the demo business is made from its catalog file.
      assert.match(output(), /demo businesses: \d+ change\(s\) applied from worker\/seed\/demo\.catalog\.json and dive\.catalog\.json/);
      assert.equal((await get(`${url}/healthz`)).status, 200);
      // Both shards in use: the dive centre lives on shard 1 (DB_SHARD_1), its ids in shard 1's range, served from there.
      const [dives] = await stateQuery<{ slug: string; product: number }>({ persistTo: stateDir }, [{ sql: "SELECT b.slug, MIN(p.id) AS product FROM businesses b JOIN products p ON p.business_id = b.id GROUP BY b.slug", params: [] }], "DB_SHARD_1");
      assert.deepEqual(dives.map((d) => d.slug), ["dive"]);
      assert.ok(dives[0].product > 1e12, `dive's ids are in shard 1's range: ${dives[0].product}`);
      assert.equal((await get(`${url}/book/dive`)).status, 200);
      const init = await npmRun("shard", ["init", "--persist-to", stateDir]);
      assert.equal(init.code, 0, init.stderr);
      assert.match(init.stdout, /DB_SHARD_1 is shard 1: ids 1000000000001 to 2000000000000 \(already set\)/);
      assert.equal((await get(`${url}/api/pub/v2/settings`)).status, 401, "the API wants a key");
      // The scheduled upkeep ran once at start (wrangler does not fire cron triggers locally).
      const deadline = Date.now() + 10_000;
      while (!/"msg":"maintenance","cron":"\*\/10 \* \* \* \*"/.test(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.match(output(), /"msg":"maintenance","cron":"\*\/10 \* \* \* \*","strayCarts":0/);
      // The first-run path: the owner's invitation, run without --url or PORT, links to the port
      // this server runs on (npm start wrote it to the state's server.json), and the link opens.
      const invite = await npmRun("staff", ["invite", "--business", "demo", "--email", "first-owner@example.com", "--role", "owner", "--persist-to", stateDir], { PORT: undefined });
      assert.equal(invite.code, 0, invite.stderr);
      const link = invite.stdout.trim();
      assert.ok(link.startsWith(`${url}/admin/`), `the link is on port ${port}: ${link}`);
      assert.equal((await get(link)).status, 200, "the invitation opens");
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }), "nothing listens any more");
    assert.equal(existsSync(join(stateDir, "server.json")), false, "a stopped server leaves no URL for the CLIs");

    // The owner edits the demo between two starts (its notification addresses, a product's title)...
    const target = { persistTo: stateDir };
    await stateExec(target, [
      { sql: "UPDATE businesses SET config = json_set(config, '$.notification_emails', json_array('owner@my-camp.example')) WHERE slug = 'demo'", params: [] },
      { sql: "UPDATE products SET title = 'Our own surf week' WHERE id = 101 AND business_id = (SELECT id FROM businesses WHERE slug = 'demo')", params: [] },
    ]);
    // ...and a second start on the same state changes nothing of it, and comes up again.
    const again = await start(port);
    try {
      assert.match(again.output(), /Database up to date; demo businesses kept as they are \(seeded once; your changes stay\)\./);
      const [[business], [product]] = await stateQuery<{ v: string }>(target, [
        { sql: "SELECT json_extract(config, '$.notification_emails') AS v FROM businesses WHERE slug = 'demo'", params: [] },
        { sql: "SELECT title AS v FROM products WHERE id = 101", params: [] },
      ]);
      assert.equal(business.v, '["owner@my-camp.example"]');
      assert.equal(product.v, "Our own surf week");
    } finally {
      // Ended whatever the assertion said: a server left running would hold the suite open.
      again.child.kill("SIGTERM");
    }
    assert.equal(await again.exited, 0);
  });
});
