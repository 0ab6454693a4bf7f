import { createHmac } from "node:crypto";
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { deliveryStub, outboxStatements } from "../src/db/outbox";
import { SECRET_PREFIX } from "../src/domain/webhook-signing";
import { callJson, createBusiness, createKey } from "./helpers";
import { outboxEvents } from "./private-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const port = inject("webhookReceiverPort");
const receiver = `http://127.0.0.1:${port}`;

/** A business of its own per test, so its outbox and its delivery object hold only this test's events. */
async function tenant() {
  const businessId = await createBusiness(`hooks-${crypto.randomUUID().slice(0, 8)}`);
  return { businessId, key: await createKey("private", businessId) };
}

async function subscribe(key: string, events: string[], hookName = crypto.randomUUID()) {
  const res = await callJson("/private/webhooks", { key, method: "POST", body: { url: `${receiver}/hooks/${hookName}`, events } });
  expect(res.status).toBe(201);
  return { ...res.body, hookName } as { id: string; secret: string; hookName: string; events: string[]; url: string };
}

const control = (hookName: string, cmd: { fail?: number; gone?: boolean }) =>
  fetch(`${receiver}/control/${hookName}`, { method: "POST", body: JSON.stringify(cmd) });
const received = async (hookName: string) =>
  (await (await fetch(`${receiver}/received/${hookName}`)).json()) as { status: number; headers: Record<string, string>; body: string }[];

/** Fire the business's delivery alarm now (at the given time on its clock) and wait for the run. */
async function runDelivery(businessId: number, at?: Date) {
  const stub = deliveryStub(env, businessId);
  if (at) await stub.setTestNow(at.toISOString());
  await runDurableObjectAlarm(stub);
  await stub.idle();
}

/** An independent check of the Standard Webhooks signature, with node:crypto. */
function verify(secret: string, req: { headers: Record<string, string>; body: string }): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${req.headers["webhook-id"]}.${req.headers["webhook-timestamp"]}.${req.body}`).digest("base64");
  return req.headers["webhook-signature"].split(" ").some((sig) => sig === `v1,${expected}`);
}

const createPerson = (key: string, email: string, extra: Record<string, unknown> = {}) =>
  callJson("/private/persons", { key, method: "POST", body: { email, ...extra } });

describe("subscriptions", () => {
  it("creates a subscription with a secret shown once; lists, fetches and deletes it", async () => {
    const { key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated", "GuestCreated"]);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook).toMatchObject({ events: ["PersonCreated", "GuestCreated"], status: "active", disabled_at: null });
    const list = await callJson("/private/webhooks", { key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: hook.id, url: hook.url })]);
    expect(JSON.stringify(list.body)).not.toContain(hook.secret);
    const one = await callJson(`/private/webhooks/${hook.id}`, { key });
    expect(one.body.data.id).toBe(hook.id);
    expect(one.body.data.secret).toBeUndefined();
    expect((await callJson(`/private/webhooks/${hook.id}`, { key, method: "DELETE" })).status).toBe(204);
    expect((await callJson(`/private/webhooks/${hook.id}`, { key })).status).toBe(404);
    expect((await callJson("/private/webhooks", { key })).body.data).toEqual([]);
  });

  it.each([
    ["plain http on a public host", "http://hooks.example.com/x"],
    ["a private address", "https://10.0.0.5/x"],
    ["a link-local address", "https://169.254.169.254/latest"],
    ["a local name", "https://printer.local/x"],
    ["an IPv6 unique-local address", "https://[fd00::1]/x"],
    ["credentials in the URL", "https://user:pw@hooks.example.com/x"],
    ["not a URL", "hooks.example.com"],
  ])("refuses %s (422)", async (_name, url) => {
    const { key } = await tenant();
    const res = await callJson("/private/webhooks", { key, method: "POST", body: { url, events: ["PersonCreated"] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("url");
  });

  it("accepts https public hosts, and loopback http only because this environment allows it", async () => {
    const { key } = await tenant();
    expect((await callJson("/private/webhooks", { key, method: "POST", body: { url: "https://hooks.example.com/x", events: ["PersonCreated"] } })).status).toBe(201);
    expect(env.ALLOW_LOOPBACK_WEBHOOKS).toBe("true");
    expect((await callJson("/private/webhooks", { key, method: "POST", body: { url: "http://localhost:9/x", events: ["PersonCreated"] } })).status).toBe(201);
  });

  it("signs each delivery so that the Standard Webhooks reference verifier accepts it, and refuses a forged one", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    expect((await createPerson(key, "signed@example.com")).status).toBe(201);
    await runDelivery(businessId);
    const [req] = await received(hook.hookName);
    const payload = new Webhook(hook.secret).verify(req.body, req.headers) as { event: string; data: { person_id: string } };
    expect(payload.event).toBe("PersonCreated");
    expect(() => new Webhook(hook.secret).verify(req.body.replace("PersonCreated", "PersonDeleted"), req.headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(SECRET_PREFIX + btoa("another secret of 32 bytes......")).verify(req.body, req.headers)).toThrow(WebhookVerificationError);
  });

  it("refuses unknown or missing events", async () => {
    const { key } = await tenant();
    for (const events of [[], ["PersonExploded"], "PersonCreated"]) {
      const res = await callJson("/private/webhooks", { key, method: "POST", body: { url: "https://hooks.example.com/x", events } });
      expect(res.status).toBe(422);
    }
  });

  it("isolation: another business's key gets 404; a public key 403; no key 401", async () => {
    const { key } = await tenant();
    const other = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    for (const [path, method, body] of [
      [`/private/webhooks/${hook.id}`, "GET", undefined],
      [`/private/webhooks/${hook.id}/deliveries`, "GET", undefined],
      [`/private/webhooks/${hook.id}/redeliver`, "POST", { event_id: "evt_x" }],
      [`/private/webhooks/${hook.id}`, "DELETE", undefined],
    ] as const) {
      expect((await callJson(path, { key: other.key, method, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await callJson("/private/webhooks", { key: other.key })).body.data).toEqual([]);
    expect((await callJson("/private/webhooks", { key: await createKey("public") })).status).toBe(403);
    expect((await callJson("/private/webhooks")).status).toBe(401);
    expect((await callJson("/private/webhooks/not-a-uuid", { key })).status).toBe(400);
    expect((await callJson(`/private/webhooks/${hook.id}`, { key })).status).toBe(200);
  });
});

describe("delivery", () => {
  it("a receiver down for the first attempts gets every event once it is back, signed", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated", "PersonUpdated", "PersonDeleted"]);
    await control(hook.hookName, { fail: 5 });
    const start = Date.now();
    const a = await createPerson(key, "a@example.com", { first_name: "A" });
    await createPerson(key, "b@example.com");
    await callJson(`/private/persons/${a.body.data.id}`, { key, method: "PUT", body: { city: "Faro" } });
    await callJson(`/private/persons/${a.body.data.id}`, { key, method: "DELETE" });
    const events = await outboxEvents(businessId);
    expect(events.map((e) => e.event)).toEqual(["PersonCreated", "PersonCreated", "PersonUpdated", "PersonDeleted"]);

    await runDelivery(businessId, new Date(start));
    // 4 attempts, all refused (503): nothing delivered yet.
    let got = await received(hook.hookName);
    expect(got.filter((r) => r.status === 200)).toEqual([]);
    const log = await callJson(`/private/webhooks/${hook.id}/deliveries?status=failed`, { key });
    expect(log.body.data).toHaveLength(4);
    expect(log.body.data[0]).toMatchObject({ status: "failed", status_code: 503, attempt: 1, series: 1 });
    expect(Date.parse(log.body.data[0].next_retry_at) - Date.parse(log.body.data[0].attempted_at)).toBe(5000);

    // Before the 5 s retry is due, nothing is attempted.
    await runDelivery(businessId, new Date(start + 2000));
    expect((await received(hook.hookName)).length).toBe(4);
    // Retry 1 (5 s later): one more refused, then the receiver is back.
    await runDelivery(businessId, new Date(start + 6000));
    // Retry 2 (5 min after the failed retry) for what is still failing.
    await runDelivery(businessId, new Date(start + 6000 + 5 * 60_000 + 1000));

    got = await received(hook.hookName);
    const delivered = got.filter((r) => r.status === 200);
    // Every event arrived (duplicates would be allowed; nothing may be missing).
    expect(new Set(delivered.map((r) => r.headers["webhook-id"]))).toEqual(new Set(events.map((e) => e.id)));
    for (const req of got) {
      expect(verify(hook.secret, req), "signature").toBe(true);
      const body = JSON.parse(req.body);
      const event = events.find((e) => e.id === req.headers["webhook-id"])!;
      expect(body).toEqual({ event: event.event, data: event.data });
      expect(Math.abs(Number(req.headers["webhook-timestamp"]) - (start + 6 * 60_000) / 1000)).toBeLessThan(400);
    }
    // A forged body fails the same check.
    expect(verify(hook.secret, { ...delivered[0], body: delivered[0].body.replace("}", ' }') })).toBe(false);
    const pending = await callJson(`/private/webhooks/${hook.id}/deliveries?status=pending`, { key });
    expect(pending.body.data).toEqual([]);
    const all = await callJson(`/private/webhooks/${hook.id}/deliveries?limit=100`, { key });
    expect(all.headers.get("X-Total-Count")).toBe(String(all.body.data.length));
    expect(all.body.data.filter((d: any) => d.status === "delivered")).toHaveLength(4);
  });

  it("a subscription receives only the events it asked for, and only those after it was made", async () => {
    const { businessId, key } = await tenant();
    await createPerson(key, "before@example.com");
    const hook = await subscribe(key, ["PersonUpdated"]);
    const p = await createPerson(key, "after@example.com");
    await callJson(`/private/persons/${p.body.data.id}`, { key, method: "PUT", body: { first_name: "Changed" } });
    await runDelivery(businessId);
    const got = await received(hook.hookName);
    expect(got.map((r) => JSON.parse(r.body))).toEqual([{ event: "PersonUpdated", data: { person_id: p.body.data.id } }]);
  });

  it("410 Gone disables the subscription: nothing more is sent to it", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    await control(hook.hookName, { gone: true });
    await createPerson(key, "gone1@example.com");
    await runDelivery(businessId);
    expect((await received(hook.hookName)).map((r) => r.status)).toEqual([410]);
    const view = await callJson(`/private/webhooks/${hook.id}`, { key });
    expect(view.body.data).toMatchObject({ status: "disabled" });
    expect(view.body.data.disabled_at).toBeTruthy();
    await createPerson(key, "gone2@example.com");
    await runDelivery(businessId, new Date(Date.now() + 3600_000));
    expect((await received(hook.hookName)).length).toBe(1);
    const log = await callJson(`/private/webhooks/${hook.id}/deliveries`, { key });
    expect(log.body.data).toEqual([expect.objectContaining({ status: "gave_up", status_code: 410 })]);

    // Enabled again once the receiver is back: the event written meanwhile arrives.
    await control(hook.hookName, { gone: false });
    const enabled = await callJson(`/private/webhooks/${hook.id}/enable`, { key, method: "POST" });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ status: "active", disabled_at: null });
    await runDelivery(businessId, new Date(Date.now() + 7200_000));
    const gone2 = (await callJson("/private/persons?email=gone2", { key })).body.data[0].id;
    // The enable's own wake-up may fire the real alarm just before the test's: wait for its run.
    await vi.waitFor(async () => {
      const after = (await received(hook.hookName)).filter((r) => r.status === 200).map((r) => JSON.parse(r.body).data.person_id);
      expect(after).toEqual([gone2]);
    }, { timeout: 5000, interval: 50 });
  });

  it("gives up after ten attempts on the backoff schedule", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    await control(hook.hookName, { fail: 100 });
    await createPerson(key, "never@example.com");
    let t = Date.now();
    await runDelivery(businessId, new Date(t));
    const gaps = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
    for (const gap of gaps) {
      t += gap * 1000 + 1000;
      await runDelivery(businessId, new Date(t));
    }
    const log = await callJson(`/private/webhooks/${hook.id}/deliveries?limit=20`, { key });
    const attempts = [...log.body.data].reverse();
    expect(attempts.map((d: any) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(attempts.at(-1)).toMatchObject({ status: "gave_up", next_retry_at: null });
    for (let i = 0; i < gaps.length; i++) {
      expect((Date.parse(attempts[i].next_retry_at) - Date.parse(attempts[i].attempted_at)) / 1000).toBe(gaps[i]);
    }
    expect((await received(hook.hookName)).length).toBe(10);
  });

  it("redelivers one event on request (a new series of attempts)", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    await createPerson(key, "again@example.com");
    await runDelivery(businessId);
    const [event] = await outboxEvents(businessId);
    const res = await callJson(`/private/webhooks/${hook.id}/redeliver`, { key, method: "POST", body: { event_id: event.id } });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ event_id: event.id, series: 2, status: "pending" });
    await runDelivery(businessId);
    const got = await received(hook.hookName);
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([event.id, event.id]);
    const log = await callJson(`/private/webhooks/${hook.id}/deliveries?event_id=${event.id}`, { key });
    expect(log.body.data.map((d: any) => [d.series, d.status])).toEqual([
      [2, "delivered"],
      [1, "delivered"],
    ]);
    expect((await callJson(`/private/webhooks/${hook.id}/redeliver`, { key, method: "POST", body: { event_id: "evt_nope" } })).status).toBe(404);
  });
});

describe("the outbox and the change are one", () => {
  it("no change is kept when its event cannot be written, and no event is written for a failed change", async () => {
    const { businessId, key } = await tenant();
    const p = await createPerson(key, "atomic@example.com", { first_name: "Before" });
    const trigger = `outbox_refuse_${businessId}`;
    await env.DB.prepare(`CREATE TRIGGER ${trigger} BEFORE INSERT ON outbox WHEN NEW.business_id = ${businessId} BEGIN SELECT RAISE(ABORT, 'outbox down'); END`).run();
    try {
      const res = await callJson(`/private/persons/${p.body.data.id}`, { key, method: "PUT", body: { first_name: "After" } });
      expect(res.status).toBe(500);
      expect((await createPerson(key, "never-made@example.com")).status).toBe(500);
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    expect((await callJson(`/private/persons/${p.body.data.id}`, { key })).body.data.first_name).toBe("Before");
    expect((await callJson("/private/persons?email=never-made", { key })).body.data).toEqual([]);
    // A change that fails (e-mail clash) writes no event.
    await createPerson(key, "taken@example.com");
    const before = (await outboxEvents(businessId)).length;
    expect((await callJson(`/private/persons/${p.body.data.id}`, { key, method: "PUT", body: { email: "taken@example.com" } })).status).toBe(409);
    expect((await outboxEvents(businessId)).length).toBe(before);
  });
});

describe("waking the delivery", () => {
  const alarmOf = (businessId: number) => runInDurableObject(deliveryStub(env, businessId), (_, state) => state.storage.getAlarm());

  it("a change's events are on their way at once; without a live subscription no alarm is kept", async () => {
    const { businessId, key } = await tenant();
    await createPerson(key, "nobody-listens@example.com");
    await deliveryStub(env, businessId).idle();
    expect(await alarmOf(businessId)).toBeNull();

    const hook = await subscribe(key, ["PersonCreated"]);
    // Once the subscription's own wake-up has run, the next alarm is the periodic sweep, far
    // ahead (while an alarm's handler runs the runtime shows none): the change's kick delivers.
    await vi.waitFor(async () => expect((await alarmOf(businessId)) ?? 0).toBeGreaterThan(Date.now() + 60_000), { timeout: 5000, interval: 20 });
    const p = await createPerson(key, "listened@example.com");
    await vi.waitFor(async () => {
      const got = (await received(hook.hookName)).map((r) => JSON.parse(r.body));
      expect(got).toEqual([{ event: "PersonCreated", data: { person_id: p.body.data.id } }]);
    }, { timeout: 5000, interval: 50 });

    // Removing the subscription: the next run leaves no alarm behind.
    expect((await callJson(`/private/webhooks/${hook.id}`, { key, method: "DELETE" })).status).toBe(204);
    await createPerson(key, "gone-listener@example.com");
    await vi.waitFor(async () => expect(await alarmOf(businessId)).toBeNull(), { timeout: 5000, interval: 50 });
  });

  it("while a subscription lives an alarm stands, so an event whose kick was lost is still delivered", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    await createPerson(key, "first@example.com");
    await vi.waitFor(async () => expect(await received(hook.hookName)).toHaveLength(1), { timeout: 5000, interval: 50 });
    await vi.waitFor(async () => expect(await alarmOf(businessId)).not.toBeNull(), { timeout: 5000, interval: 20 });

    // An event committed without a kick (its process died right after the batch).
    await env.DB.batch(outboxStatements(env.DB, businessId, [{ event: "PersonCreated", data: { person_id: "lost-kick" } }], new Date()));
    expect(await runDurableObjectAlarm(deliveryStub(env, businessId))).toBe(true);
    await deliveryStub(env, businessId).idle();
    const got = (await received(hook.hookName)).map((r) => JSON.parse(r.body).data.person_id);
    expect(got).toContain("lost-kick");
    expect(await alarmOf(businessId)).not.toBeNull();
  });
});

describe("sending within the platform's connection bound", () => {
  it("never has more than six requests waiting for an answer, and a slow receiver fails none of them", async () => {
    const { businessId, key } = await tenant();
    const hook = await subscribe(key, ["PersonCreated"]);
    await runDelivery(businessId); // the subscription's own wake-up: nothing to send yet
    await fetch(`${receiver}/control/${hook.hookName}`, { method: "POST", body: JSON.stringify({ delayMs: 300 }) });
    // twenty events committed at once (their kick not sent): one run sends them all
    const events = Array.from({ length: 20 }, (_, i) => ({ event: "PersonCreated" as const, data: { person_id: `bound-${i}` } }));
    await env.DB.batch(outboxStatements(env.DB, businessId, events, new Date()));
    await runDelivery(businessId);
    const got = await received(hook.hookName);
    expect(got.map((r) => JSON.parse(r.body).data.person_id).sort()).toEqual(events.map((e) => e.data.person_id).sort());
    expect(got.every((r) => r.status === 200)).toBe(true); // each delivered once, none retried
    const { maxInFlight } = (await (await fetch(`${receiver}/stats/${hook.hookName}`)).json()) as { maxInFlight: number };
    expect(maxInFlight).toBeLessThanOrEqual(6);
    expect(maxInFlight).toBeGreaterThan(1); // still sent side by side, not one after another
  });
});
