import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../src/index";
import { isoDateTime } from "../src/lib/time";
import { QUERY_BUDGET, runMaintenance } from "../src/db/maintenance";
import { addToCart, cartBusiness, clock, count, guest, liveUnits, loseTimer, smallPackage, stay } from "./carts-fixtures";
import { callJson, createBusiness, createKey } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

/** What wrangler's cron trigger does: the Worker's scheduled handler, at the given time (it awaits all its work). */
const runCron = (at: string) => worker.scheduled(createScheduledController({ scheduledTime: Date.parse(at), cron: "*/10 * * * *" }), env);

describe("the scheduled upkeep", () => {
  it("sweeps a business's carts its cart timer never heard of, though no later cart of it ever expires", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const open = async (at: number) => (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(at))).body.cart_id as string;
    const strays = [await open(0), await open(10)]; // expire at t(600) and t(610)
    const recent = await open(100); // expires at t(700): at t(720), within the minute's grace
    // The crash: these carts were written but the business's timer never heard of them.
    await loseTimer(businessId);
    const live = await open(200); // expires at t(800)
    const status = (id: string) => env.DB.prepare("SELECT status, abandon_reason FROM carts WHERE id = ?").bind(id).first();
    const held = (id: string) => count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NULL", id);

    await runCron(t(720));
    for (const id of strays) {
      expect(await status(id)).toEqual({ status: "abandoned", abandon_reason: "expired" });
      expect(await held(id)).toBe(0);
      expect((await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(721) })).body).toMatchObject({ status: "abandoned", abandon_reason: "expired" });
    }
    expect(await status(recent)).toEqual({ status: "open", abandon_reason: null });
    expect(await held(recent)).toBe(1);
    expect(await status(live)).toEqual({ status: "open", abandon_reason: null });
    expect(await liveUnits(pkg, start, t(721))).toBe(1); // only the live cart counts, as before

    // The next run, past the grace of the third one, takes it; a second run changes nothing more.
    await runCron(t(800));
    await runCron(t(800));
    expect(await status(recent)).toEqual({ status: "abandoned", abandon_reason: "expired" });
    expect(await held(recent)).toBe(0);
    expect(await status(live)).toEqual({ status: "open", abandon_reason: null });
    expect(await held(live)).toBe(1);
  });

  it("forgets Idempotency-Keys older than 24 hours in every business, and keeps younger ones", async () => {
    const businesses = [await cartBusiness(), await cartBusiness()];
    const t = clock();
    const { start, end } = stay(1);
    const day = 86_400;
    for (const { businessId, key } of businesses) {
      const pkg = await smallPackage(businessId, 5);
      for (const [name, at] of [["old", 0], ["young", 2 * 3600]] as const) {
        const res = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(at), { "Idempotency-Key": `${name}-${businessId}` });
        expect(res.status).toBe(201);
      }
    }
    // Stored keys are the caller's: "key:<api key id> <the key sent>".
    const keys = () =>
      env.DB.prepare(`SELECT key FROM idempotency WHERE business_id IN (${businesses.map((b) => b.businessId).join(",")})`)
        .all<{ key: string }>()
        .then((r) => r.results.map((row) => row.key.split(" ")[1].split("-")[0]).sort());
    expect(await keys()).toEqual(["old", "old", "young", "young"]);
    await runCron(t(day + 60));
    expect(await keys()).toEqual(["young", "young"]);
  });

  it("keeps the webhook log 30 days: settled attempts and untaken events older than that go, retries due and the newer log stay", async () => {
    const businessId = await createBusiness(`upkeep-${crypto.randomUUID().slice(0, 8)}`);
    const key = await createKey("private", businessId);
    const now = Date.parse("2026-11-21T10:00:00Z");
    const daysAgo = (d: number) => isoDateTime(new Date(now - d * 86_400_000));
    const db = env.DB;
    // A subscription of 60 days ago (written here, so that no delivery run plans this test's events behind its back).
    const hook = { id: crypto.randomUUID() };
    await db
      .prepare("INSERT INTO webhooks (id, business_id, url, events, secret, start_seq, cursor_seq, created_at) VALUES (?, ?, ?, ?, 'whsec_dGVzdA==', 0, 0, ?)")
      .bind(hook.id, businessId, `http://127.0.0.1:${inject("webhookReceiverPort")}/hooks/${hook.id}`, JSON.stringify(["BookingCreated"]), daysAgo(60))
      .run();
    // Events: two old ones delivered, one old one still being retried, one recent one delivered.
    const events = [
      { id: crypto.randomUUID(), age: 45, status: "delivered" },
      { id: crypto.randomUUID(), age: 40, status: "gave_up" },
      { id: crypto.randomUUID(), age: 35, status: "failed" },
      { id: crypto.randomUUID(), age: 5, status: "delivered" },
    ];
    for (const e of events) {
      const row = await db
        .prepare("INSERT INTO outbox (id, business_id, event, data, created_at) VALUES (?, ?, 'BookingCreated', '{}', ?) RETURNING seq")
        .bind(e.id, businessId, daysAgo(e.age))
        .first<{ seq: number }>();
      await db
        .prepare(
          `INSERT INTO webhook_deliveries (webhook_id, event_id, event_seq, attempt, status, attempted_at, next_retry_at, created_at)
           VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
        )
        .bind(hook.id, e.id, row!.seq, e.status, daysAgo(e.age), e.status === "failed" ? daysAgo(-1) : null, daysAgo(e.age))
        .run();
    }
    // An old event the subscription does not ask for; it has planned all of these. Then one it has not planned yet.
    const untaken = await db
      .prepare("INSERT INTO outbox (id, business_id, event, data, created_at) VALUES (?, ?, 'PersonCreated', '{}', ?) RETURNING seq")
      .bind(crypto.randomUUID(), businessId, daysAgo(50))
      .first<{ seq: number }>();
    await db.prepare("UPDATE webhooks SET cursor_seq = ? WHERE id = ?").bind(untaken!.seq, hook.id).run();
    const unplanned = crypto.randomUUID();
    await db.prepare("INSERT INTO outbox (id, business_id, event, data, created_at) VALUES (?, ?, 'BookingCreated', '{}', ?)").bind(unplanned, businessId, daysAgo(31)).run();

    const log = async () => {
      const res = await callJson(`/private/webhooks/${hook.id}/deliveries?limit=100`, { key, now: new Date(now).toISOString() });
      expect(res.status).toBe(200);
      return { ids: res.body.data.map((d: any) => d.event_id).sort(), total: Number(res.headers.get("X-Total-Count")) };
    };
    expect((await log()).total).toBe(4);

    await runCron(new Date(now).toISOString());
    const kept = await log();
    expect(kept.ids).toEqual([events[2].id, events[3].id].sort()); // the retry still due, and the recent one
    expect(kept.total).toBe(2);
    const outbox = await db.prepare("SELECT id FROM outbox WHERE business_id = ?").bind(businessId).all<{ id: string }>();
    expect(outbox.results.map((r) => r.id).sort()).toEqual([events[2].id, events[3].id, unplanned].sort());
    // A pruned event can no longer be redelivered; a kept one still can.
    const redeliver = (eventId: string) => callJson(`/private/webhooks/${hook.id}/redeliver`, { key, method: "POST", body: { event_id: eventId } });
    expect((await redeliver(events[0].id)).status).toBe(404);
    expect((await redeliver(events[3].id)).status).toBe(202);
  });
});

describe("retention, keeping the facts", () => {
  const days = (n: number, from = "2031-03-01T00:00:00Z") => isoDateTime(new Date(Date.parse(from) - n * 86_400_000));
  async function seed() {
    const businessId = await createBusiness(`retention-${crypto.randomUUID().slice(0, 8)}`);
    const email = async (status: string, updatedDaysAgo: number) => {
      const id = `eml_${crypto.randomUUID().replaceAll("-", "")}`;
      await env.DB.prepare(
        `INSERT INTO emails (id, business_id, kind, event_key, message_id, recipient, language, status, subject, raw, created_at, updated_at, sent_at)
         VALUES (?1, ?2, 'booking_confirmation', ?1, ?1 || '@x.example', 'ana@example.com', 'en', ?3, 'Your booking', 'From: a\r\n\r\nthe whole message', ?4, ?4, ?4)`,
      ).bind(id, businessId, status, days(updatedDaysAgo)).run();
      return id;
    };
    const audit = async (daysAgo: number) => {
      const id = crypto.randomUUID();
      await env.DB.prepare(
        `INSERT INTO audit_log (id, business_id, at, actor_kind, actor_id, actor_name, action, entity, entity_id, summary, before, after)
         VALUES (?, ?, ?, 'staff', 's1', 'Ana', 'updated', 'product', '101', 'Updated product Surf week', '{"title":"Old"}', '{"title":"New"}')`,
      ).bind(id, businessId, days(daysAgo)).run();
      return id;
    };
    return { oldSent: await email("sent", 100), oldFailed: await email("failed", 95), recentSent: await email("sent", 10), oldPending: await email("pending", 100), oldAudit: await audit(400), recentAudit: await audit(30) };
  }
  const emailRow = (id: string) => env.DB.prepare("SELECT status, recipient, subject, sent_at, raw, body_removed_at FROM emails WHERE id = ?").bind(id).first<any>();
  const auditRow = (id: string) => env.DB.prepare("SELECT actor_name, action, entity, summary, before, after FROM audit_log WHERE id = ?").bind(id).first<any>();

  it("removes a settled e-mail's message after 90 days and an audit entry's before/after after a year, and keeps who, what and when", async () => {
    const s = await seed();
    const report = await runMaintenance(env, new Date("2031-03-01T00:00:00Z"));
    for (const id of [s.oldSent, s.oldFailed]) {
      expect(await emailRow(id)).toMatchObject({ recipient: "ana@example.com", subject: "Your booking", raw: null, body_removed_at: "2031-03-01T00:00:00Z" });
    }
    expect((await emailRow(s.recentSent)).raw).toContain("the whole message");
    expect((await emailRow(s.oldPending)).raw).toContain("the whole message"); // not settled: still to be sent
    expect(await auditRow(s.oldAudit)).toEqual({ actor_name: "Ana", action: "updated", entity: "product", summary: "Updated product Surf week", before: null, after: null });
    expect(await auditRow(s.recentAudit)).toMatchObject({ before: '{"title":"Old"}', after: '{"title":"New"}' });
    expect(report.emailBodies).toBeGreaterThanOrEqual(2);
    expect(report.queries).toBeLessThanOrEqual(QUERY_BUDGET);
    // a second run has nothing more of these to remove
    await runMaintenance(env, new Date("2031-03-01T00:00:00Z"));
    expect((await emailRow(s.recentSent)).raw).toContain("the whole message");
  });

  it("takes its periods from the environment", async () => {
    const s = await seed();
    await runMaintenance({ ...env, EMAIL_BODY_RETENTION_DAYS: "5", AUDIT_DETAIL_RETENTION_DAYS: "20" }, new Date("2031-03-01T00:00:00Z"));
    expect((await emailRow(s.recentSent)).raw).toBeNull();
    expect((await auditRow(s.recentAudit)).before).toBeNull();
  });
});
