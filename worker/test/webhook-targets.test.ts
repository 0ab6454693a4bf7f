import { createExecutionContext, env, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../src/index";
import { deliveryStub } from "../src/db/outbox";
import { BASE, callJson, createBusiness, createKey } from "./helpers";

// As deployed (wrangler.toml: ALLOW_LOOPBACK_WEBHOOKS = "false"; the test config turns it on for
// the delivery tests' loopback receiver): disguised loopback and non-public targets are refused.
const deployed = { ...env, ALLOW_LOOPBACK_WEBHOOKS: "false" };

async function subscribe(url: string) {
  const key = await createKey("private");
  const ctx = createExecutionContext();
  const body = JSON.stringify({ url, events: ["BookingCreated"] });
  const res = await worker.fetch(
    new Request(`${BASE}/private/webhooks`, { method: "POST", body, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": String(body.length) } }),
    deployed,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /private/webhooks with loopback off", () => {
  it.each([
    "https://localhost./", "https://foo.localhost./", "https://localhost%2e/", "https://[::127.0.0.1]/", "https://[::a9fe:a9fe]/", "https://[64:ff9b::a9fe:a9fe]/",
    "https://[2002:a9fe:a9fe::]/", "https://[fec0::1]/", "https://[100::1]/", "https://127.0.0.1.nip.io/",
  ])("refuses %s with a 422 on url, and stores nothing", async (url) => {
    const res = await subscribe(url);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(["url"]);
  });

  it("accepts a public https target", async () => {
    const res = await subscribe("https://hooks.example.com/in");
    expect(res.status).toBe(201);
    expect(res.body.url ?? res.body.data?.url).toBe("https://hooks.example.com/in");
  });
});

describe("a delivery checks its target again", () => {
  const receiver = `http://127.0.0.1:${inject("webhookReceiverPort")}`;
  /** runInDurableObject, reaching the delivery object's env (the settings it delivers under). */
  const inObject = runInDurableObject as unknown as (stub: unknown, fn: (instance: any) => Promise<void>) => Promise<void>;

  it("refuses to post to a target the settings no longer allow, though it was allowed at subscription, and posts once they do", async () => {
    const businessId = await createBusiness(`recheck-${crypto.randomUUID().slice(0, 8)}`);
    const key = await createKey("private", businessId);
    const hookName = crypto.randomUUID();
    // Allowed when subscribed: loopback targets are on in the test config.
    const hook = await callJson("/private/webhooks", { key, method: "POST", body: { url: `${receiver}/hooks/${hookName}`, events: ["PersonCreated"] } });
    expect(hook.status).toBe(201);
    const got = async () => (await (await fetch(`${receiver}/received/${hookName}`)).json()) as unknown[];
    const stub = deliveryStub(env, businessId);
    // The settings change (as deployed: no loopback) after the subscription; then an event.
    let own: unknown;
    await inObject(stub, async (delivery) => {
      own = delivery.env;
      delivery.env = deployed;
    });
    const start = Date.now();
    try {
      expect((await callJson("/private/persons", { key, method: "POST", body: { email: `recheck.${hookName.slice(0, 8)}@example.com` } })).status).toBe(201);
      await stub.idle();
    } finally {
      await inObject(stub, async (delivery) => {
        delivery.env = own;
      });
    }
    expect(await got()).toEqual([]);
    const log = await callJson(`/private/webhooks/${hook.body.id}/deliveries`, { key });
    // The attempt is recorded as failed, and a retry is due like any other failure's.
    expect(log.body.data.map((d: any) => [d.attempt, d.status])).toEqual([[2, "pending"], [1, "failed"]]);
    expect(log.body.data[1].error).toMatch(/^url not allowed/);

    // Allowed again: the retry posts it.
    await stub.setTestNow(new Date(start + 6000).toISOString());
    await runDurableObjectAlarm(stub);
    await stub.idle();
    expect(await got()).toHaveLength(1);
  });
});
