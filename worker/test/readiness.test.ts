/**
 * GET /readyz: the deployment's pieces answer (D1 read, each Durable Object namespace reached, the
 * signing secret set), and a missing one is named in a 503 without any secret in the answer
 * (issue 32). /healthz stays the binding-free liveness probe.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";

async function readyz(withEnv: Partial<Env>) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request("http://127.0.0.1/readyz"), withEnv as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, text: await res.text() };
}

describe("readiness", () => {
  it("is ready when every piece answers", async () => {
    const res = await readyz(env);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      status: "ready",
      checks: { d1: "ok", d1_shard_1: "ok", rate_limiter: "ok", cart_timer: "ok", cart_desk: "ok", webhook_delivery: "ok", email_delivery: "ok", key_signing_secret: "ok", email: "ok" },
    });
  });

  it("names a missing D1, a missing namespace and a missing secret, and shows no secret", async () => {
    const { DB: _db, ...withoutDb } = env;
    const noDb = await readyz(withoutDb);
    expect(noDb.status).toBe(503);
    expect(JSON.parse(noDb.text)).toMatchObject({ status: "not_ready", checks: { d1: "missing", rate_limiter: "ok" } });
    // a shard's database missing is named too, while DB answers
    const { DB_SHARD_1: _s1, ...withoutShard } = env;
    const noShard = await readyz(withoutShard);
    expect(noShard.status).toBe(503);
    expect(JSON.parse(noShard.text).checks).toMatchObject({ d1: "ok", d1_shard_1: "missing" });
    // a shard whose id range was never set (`npm run shard -- init`) would give ids that clash: failing
    await env.DB_SHARD_1.prepare("DELETE FROM id_range").run();
    const noRange = await readyz(env);
    await env.DB_SHARD_1.prepare("INSERT INTO id_range (single, shard, floor) VALUES (1, 1, 1000000000000)").run();
    expect(noRange.status).toBe(503);
    expect(JSON.parse(noRange.text).checks).toMatchObject({ d1: "ok", d1_shard_1: "failing" });
    const { CART_TIMER: _t, ...withoutTimer } = env;
    expect(JSON.parse((await readyz(withoutTimer)).text).checks.cart_timer).toBe("missing");
    const { CART_DESK: _d, ...withoutDesk } = env;
    const noDesk = await readyz(withoutDesk);
    expect([noDesk.status, JSON.parse(noDesk.text).checks.cart_desk]).toEqual([503, "missing"]);
    const noSecret = await readyz({ ...env, KEY_SIGNING_SECRET: "" });
    expect(noSecret.status).toBe(503);
    expect(JSON.parse(noSecret.text).checks.key_signing_secret).toBe("missing");
    const answer = (await readyz(env)).text;
    expect(answer).not.toContain(env.KEY_SIGNING_SECRET);
  });
});
