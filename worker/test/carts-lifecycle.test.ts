import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../src/index";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, CLOCK_GRAIN_MS, clock, count, customer, fireCartTimer, guest, liveUnits, loseTimer, smallPackage, stay, timerAlarm } from "./carts-fixtures";
import { BASE, callJson, createBusiness, createKey, dbOf, nextWeekday } from "./helpers";

const available = async (key: string, productId: number, date: string, now: string) => {
  const res = await callJson(`/api/pub/v2/products/${productId}/availabilities?start_date=${date}&end_date=${date}`, { key, now });
  expect(res.status).toBe(200);
  return res.body[date].available as number;
};

describe("a cart's contents", () => {
  it("holds a demo week with accommodation, the default item added automatically, a chosen yoga timeslot, priced in major units", async () => {
    const key = await createKey("public");
    const t = clock();
    const start = nextWeekday(6, new Date(t(0)), 30); // a Saturday: the package's check-in day
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    const yogaDay = new Date(Date.parse(`${start}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const body = {
      guests: [
        guest(101, start, end, {
          gender: "m",
          package: {
            id: 101,
            start_date: start,
            end_date: end,
            accommodation_id: 201,
            // 1001 is the default surf lesson: sent, it is ignored (added once, automatically).
            items: [{ package_item_id: 1001, dates: [start] }, { package_item_id: 1002, dates: [`${yogaDay} 18:00:00`] }],
          },
        }),
      ],
    };
    const res = await addToCart(key, body, t(0));
    expect(res.status).toBe(201);
    const cart = res.body;
    expect(cart.cart_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(cart).toMatchObject({ status: "open", currency: "EUR", expiry_date: "2026-11-21T10:10:00Z", seconds_left: 600, booking: null });
    const items = cart.guests[0].items;
    expect(items.map((i: any) => i.role).sort()).toEqual(["accommodation", "default", "option", "package"]);
    expect(items.filter((i: any) => i.package_item_id === 1001)).toHaveLength(1);
    const yoga = items.find((i: any) => i.package_item_id === 1002);
    expect(yoga).toMatchObject({ product_id: 302, dates: [`${yogaDay} 18:00:00`], price: 12 });
    const room = items.find((i: any) => i.role === "accommodation");
    expect(room).toMatchObject({ product_id: 201, title: "Ocean Dorm (men)" });
    expect(room.dates).toHaveLength(7);
    const sum = items.reduce((s: number, i: any) => s + Math.round(i.price * 100), 0) / 100;
    expect(cart.guests[0].total).toBe(sum);
    expect(cart.total).toBe(sum);
    expect(cart.item_count).toBe(4);
    // The holds are in D1 and the availability shows them at once.
    expect(await liveUnits(302, yogaDay, t(1), "18:00")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND product_id = 201", cart.cart_id)).toBe(7);

    const got = await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key, now: t(60) });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ cart_id: cart.cart_id, status: "open", seconds_left: 540, total: sum });
  });

  it("a new cart lives the business's cart_lifetime_seconds; adding to it keeps its expiry and its currency", async () => {
    const { businessId, key } = await cartBusiness({ cart_lifetime_seconds: 120 });
    await (await dbOf(businessId)).prepare("INSERT INTO currencies (business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (?, 'USD', 'US Dollar', '$', 1.085, 0)").bind(businessId).run();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const first = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    expect(first.body.expiry_date).toBe("2026-11-21T10:02:00Z");
    const second = await addToCart(key, { cart_id: first.body.cart_id, guests: [guest(pkg, start, end)] }, t(30));
    expect(second.status).toBe(200);
    expect(second.body.expiry_date).toBe("2026-11-21T10:02:00Z");
    expect(second.body.guests).toHaveLength(2);
    expect(second.body.total).toBe(200);
    const usd = await addToCart(key, { currency: "USD", cart_id: first.body.cart_id, guests: [guest(pkg, start, end)] }, t(40));
    expect(usd.status).toBe(422);
    expect(usd.body.errors).toEqual([{ path: "currency", message: "must be EUR, the currency this cart was opened with" }]);
    // A cart in another currency converts and rounds its prices (100.00 EUR * 1.085).
    const other = await addToCart(key, { currency: "USD", guests: [guest(pkg, start, end)] }, t(50));
    expect(other.body).toMatchObject({ currency: "USD", total: 108.5 });
  });

  it("answers 404 for an unknown, malformed or other business's cart", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const otherKey = await createKey("public", await createBusiness(`carts-other-${Date.now()}`));
    for (const [path, k] of [
      [`/api/pub/v2/carts/${crypto.randomUUID()}`, key],
      ["/api/pub/v2/carts/not-a-uuid", key],
      [`/api/pub/v2/carts/${cart.body.cart_id}`, otherKey],
    ] as const) {
      const res = await callJson(path, { key: k, now: t(1) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    const foreign = await addToCart(otherKey, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end)] }, t(2));
    expect(foreign.status).toBe(404);
    const del = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}`, { key: otherKey, method: "DELETE", now: t(3) });
    expect(del.status).toBe(404);
    expect(await liveUnits(pkg, start, t(4))).toBe(1);
  });
});

describe("extend", () => {
  it("moves the expiry to 10 minutes after the request, holds included", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 1);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const id = cart.body.cart_id;
    const ext = await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(500) });
    expect(ext.status).toBe(200);
    expect(ext.body).toEqual({ cart_id: id, expiry_date: "2026-11-21T10:18:20Z" });
    // Past the first expiry the unit is still held: another buyer is refused.
    expect(await liveUnits(pkg, start, t(700))).toBe(1);
    const rival = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(700));
    expect(rival.status).toBe(409);
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(700) })).body).toMatchObject({ status: "open", seconds_left: 400, extensions_left: 5 });
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND expires_at = '2026-11-21T10:18:20.000Z'", id)).toBe(1);
  });
});

describe("abandon (DELETE)", () => {
  it("frees the units at once, refuses add/extend/checkout with 409 cart_not_open, and is idempotent", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 1);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const id = cart.body.cart_id;
    expect(await available(key, pkg, start, t(1))).toBe(0);

    const del = await callJson(`/api/pub/v2/carts/${id}`, { key, method: "DELETE", now: t(10) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect(await available(key, pkg, start, t(11))).toBe(1);
    expect(await liveUnits(pkg, start, t(11))).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NOT NULL", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'abandoned' AND abandon_reason = 'deleted'", id)).toBe(1);

    const refused = [
      await addToCart(key, { cart_id: id, guests: [guest(pkg, start, end)] }, t(20)),
      await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(20) }),
      await callJson(`/api/pub/v2/carts/${id}/checkout`, { key, now: t(20), body: { terms_accepted: true, customer: customer() } }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe("cart_not_open");
    }
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(21) })).body).toMatchObject({ status: "abandoned", abandon_reason: "deleted", seconds_left: 0 });
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, method: "DELETE", now: t(22) })).body).toEqual({ success: true });
    // Another buyer takes the unit.
    expect((await addToCart(key, { guests: [guest(pkg, start, end)] }, t(30))).status).toBe(201);
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE cart_id = ?", id)).toBe(0);
  });
});

describe("expiry", () => {
  it("an expired cart frees its units before any sweep, answers 410, shows abandoned, and the alarm tidies up idempotently", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 1);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const id = cart.body.cart_id;

    // One second before its expiry the unit is still held; at expiry it is free.
    expect(await available(key, pkg, start, t(599))).toBe(0);
    expect(await available(key, pkg, start, t(601))).toBe(1);
    const got = await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(601) });
    expect(got.body).toMatchObject({ status: "abandoned", abandon_reason: "expired", seconds_left: 0, extensions_left: 0 });

    for (const r of [
      await addToCart(key, { cart_id: id, guests: [guest(pkg, start, end)] }, t(602)),
      await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(602) }),
      await callJson(`/api/pub/v2/carts/${id}/checkout`, { key, now: t(602), body: { terms_accepted: true, customer: customer() } }),
    ]) {
      expect(r.status).toBe(410);
      expect(r.body.code).toBe("cart_expired");
    }
    // Not swept yet: the row is still open, the hold unreleased, yet it does not count.
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'open'", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NULL", id)).toBe(1);
    const rival = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(603));
    expect(rival.status).toBe(201);

    // The business's cart timer (rung now, with the clock t(603)) sweeps the cart.
    const wallBefore = Date.now();
    expect(await fireCartTimer(businessId, t(603))).toBe(true);
    const wallAfter = Date.now();
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'abandoned' AND abandon_reason = 'expired'", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NOT NULL", id)).toBe(1);
    // The rival's hold was never touched, and the timer now rings at the rival's expiry.
    expect(await liveUnits(pkg, start, t(604))).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NULL", rival.body.cart_id)).toBe(1);
    // (On the wall clock: the rival's expiry is 600 s after t(603), the clock the timer was handed
    // within the call above, and sweeps with.)
    const ahead = Date.parse(rival.body.expiry_date) - Date.parse(t(603));
    const alarm = (await timerAlarm(businessId))!;
    // (workerd's clocks move only at I/O, each isolate's its own: a few ms of grain, whatever the load.)
    expect(alarm).toBeGreaterThanOrEqual(wallBefore + ahead - CLOCK_GRAIN_MS);
    expect(alarm).toBeLessThanOrEqual(wallAfter + ahead + CLOCK_GRAIN_MS);
    // Rung again at once (the same clock), it sweeps nothing more: idempotent.
    expect(await fireCartTimer(businessId, t(604))).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'open'", rival.body.cart_id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'abandoned' AND abandon_reason = 'expired'", id)).toBe(1);
    // Past the rival's expiry it sweeps the rival, and with no open cart left it sets no alarm.
    expect(await fireCartTimer(businessId, t(1204))).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'abandoned'", rival.body.cart_id)).toBe(1);
    expect(await timerAlarm(businessId)).toBeNull();
    // Swept or not, the expired cart answers the same.
    const after = await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(605) });
    expect(after.status).toBe(410);
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, method: "DELETE", now: t(606) })).body).toEqual({ success: true });
  });

  it("an alarm that fires before the expiry (the cart was extended) leaves the cart open and waits again", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 1);
    const t = clock();
    const { start, end } = stay(1);
    const id = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id;
    await callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(590) });
    // The timer rings at the first expiry: at t(601) the cart is open until its extended one.
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(601) })).body.status).toBe("open");
    expect(await fireCartTimer(businessId, t(601))).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'open'", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NULL", id)).toBe(1);
    // Set again for the new expiry: then it sweeps the cart.
    expect(await timerAlarm(businessId)).not.toBeNull();
    expect((await callJson(`/api/pub/v2/carts/${id}`, { key, now: t(1191) })).body.status).toBe("abandoned");
    expect(await fireCartTimer(businessId, t(1191))).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'abandoned'", id)).toBe(1);
    expect(await liveUnits(pkg, start, t(1192))).toBe(0);
  });

  it("a cart the timer never heard of (its opening request cut by a crash) is swept by the alarm the business's next cart sets", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const other = await cartBusiness();
    const otherPkg = await smallPackage(other.businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const open = async (k: string, p: number, at: number) => (await addToCart(k, { guests: [guest(p, start, end)] }, t(at))).body.cart_id as string;
    const stray = await open(key, pkg, 0); // expires at t(600)
    const recent = await open(key, pkg, 100); // expires at t(700)
    const elsewhere = await open(other.key, otherPkg, 0); // another business's
    // The crash: these carts were written but the timers never heard of them.
    await loseTimer(businessId);
    await loseTimer(other.businessId);
    expect(await timerAlarm(businessId)).toBeNull();

    const sweeper = await open(key, pkg, 110); // expires at t(710): the timer rings then
    const live = await open(key, pkg, 200); // expires at t(800)
    expect((await callJson(`/api/pub/v2/carts/${sweeper}`, { key, now: t(720) })).body.status).toBe("abandoned");
    expect(await fireCartTimer(businessId, t(720))).toBe(true);
    const row = async (id: string, of = businessId) =>
      (await dbOf(of)).prepare("SELECT status, abandon_reason, (SELECT COUNT(*) FROM allocations a WHERE a.cart_id = carts.id AND a.released_at IS NULL) AS held FROM carts WHERE id = ?")
        .bind(id)
        .first();
    const swept = { status: "abandoned", abandon_reason: "expired", held: 0 };
    const untouched = { status: "open", abandon_reason: null, held: 1 };
    expect(await row(sweeper)).toEqual(swept);
    expect(await row(stray)).toEqual(swept);
    expect(await row(recent)).toEqual(swept);
    expect(await row(live)).toEqual(untouched);
    expect(await row(elsewhere, other.businessId)).toEqual(untouched); // another business's (on the other shard): its own timer (or the upkeep) sweeps it
    expect(await liveUnits(pkg, start, t(721))).toBe(1); // only the live cart counts, as before the sweep
    expect((await callJson(`/api/pub/v2/carts/${stray}`, { key, now: t(722) })).body).toMatchObject({ status: "abandoned", abandon_reason: "expired" });
    // The timer rings next at the live cart's expiry.
    expect(await timerAlarm(businessId)).not.toBeNull();
  });
});

describe("the cart timer, as deployed (no test clock)", () => {
  it("hears of a new cart only when it does not already ring before that cart expires", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const { start, end } = stay(1);
    // The Worker as deployed (ALLOW_TEST_CLOCK unset), counting its words to the business's timer.
    let words = 0;
    const timers = new Proxy(env.CART_TIMER, {
      get(target, prop) {
        if (prop === "get") return (id: DurableObjectId) => (words++, target.get(id));
        const v = (target as any)[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const deployed = { ...env, ALLOW_TEST_CLOCK: "0", CART_TIMER: timers } as typeof env;
    const open = async () => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`${BASE}/api/pub/v2/bookings/add`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ currency: "EUR", guests: [guest(pkg, start, end)] }),
        }),
        deployed,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(201);
      return ((await res.json()) as { seconds_left: number }).seconds_left;
    };
    expect(await open()).toBe(600);
    expect(words).toBe(1);
    const first = (await timerAlarm(businessId))!;
    expect(first).toBeGreaterThan(Date.now());
    // Two more carts, expiring after it rings: nothing to tell; the alarm stays.
    expect([await open(), await open()]).toEqual([600, 600]);
    expect(words).toBe(1);
    expect(await timerAlarm(businessId)).toBe(first);
    // Carts that now live a shorter time expire before it: the timer hears, and rings earlier.
    // (the door may answer on the business as it read it up to half a second before: until then, 600)
    await (await dbOf(businessId)).prepare("UPDATE businesses SET config = json_set(config, '$.cart_lifetime_seconds', 60) WHERE id = ?").bind(businessId).run();
    for (let i = 0; (await open()) !== 60; i++) {
      expect(i).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(words).toBe(2);
    expect((await timerAlarm(businessId))!).toBeLessThan(first);
  });
});
