import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AddToCartBody, CheckoutBody } from "../src/contract/cart";
import { EXPIRED_CARTS_PER_SWEEP } from "../src/db/carts";
import { checkoutCart } from "../src/carts/checkout";
import { abandonCart, addToCart as addToCart_, extendCart } from "../src/carts/operations";
import type { CartCall } from "../src/carts/run";
import { addToCart, cartBusiness, CLOCK_GRAIN_MS, clock, count, customer, fireCartTimer, guest, liveUnits, loseTimer, smallPackage, stay, timerAlarm } from "./carts-fixtures";
import { callJson, watchedDb } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const checkout = (key: string, id: string, now: string) => callJson(`/api/pub/v2/carts/${id}/checkout`, { key, now, body: { terms_accepted: true, customer: customer() } });

/** What D1 holds of a booking: its guests, its lines' guests and total, and the cart's guests. */
async function booked(cartId: string) {
  const booking = await env.DB.prepare("SELECT id, total_minor FROM bookings WHERE cart_id = ?").bind(cartId).first<{ id: string; total_minor: number }>();
  if (!booking) return null;
  const n = (sql: string) => count(sql, booking.id);
  return {
    guests: await n("SELECT COUNT(*) AS n FROM guests WHERE booking_id = ?"),
    lineTotal: await n("SELECT COALESCE(SUM(price_minor), 0) AS n FROM booking_lines WHERE booking_id = ?"),
    total: booking.total_minor,
    linesWithoutGuest: await n("SELECT COUNT(*) AS n FROM booking_lines l WHERE l.booking_id = ? AND NOT EXISTS (SELECT 1 FROM guests g WHERE g.id = l.guest_id)"),
    cartGuests: await count("SELECT COUNT(*) AS n FROM cart_guests WHERE cart_id = ?", cartId),
    unconverted: await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND booking_id IS NULL AND released_at IS NULL", cartId),
  };
}

describe("operations on one cart at the same moment take effect one after the other", () => {
  it("a checkout racing an add to its cart books the cart it finds, whole: both guests, or one and the add refused", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 50);
    const t = clock();
    const { start, end } = stay(2);
    const carts = await Promise.all(Array.from({ length: 12 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    const outcomes = await Promise.all(
      carts.map(async (c) => {
        const id = c.body.cart_id as string;
        const [add, out] = await Promise.all([addToCart(key, { cart_id: id, guests: [guest(pkg, start, end)] }, t(10)), checkout(key, id, t(10))]);
        return { id, add, out };
      }),
    );
    for (const { id, add, out } of outcomes) {
      expect(out.status).toBe(200);
      const b = (await booked(id))!;
      // Whatever the order, the booking is the cart as it stood: every guest of it, every unit, its total.
      expect(b).toEqual({ guests: b.cartGuests, lineTotal: b.total, total: b.total, linesWithoutGuest: 0, cartGuests: b.cartGuests, unconverted: 0 });
      expect(out.body.guests).toHaveLength(b.cartGuests);
      if (add.status === 200) {
        expect(b.guests).toBe(2); // the add went first; the checkout was run again on the cart with both
      } else {
        expect([add.status, add.body.code]).toEqual([409, "cart_not_open"]); // the checkout went first
        expect(b.guests).toBe(1);
      }
    }
    // Each booked guest holds its 2 nights; nothing else is held.
    const guests = outcomes.reduce((s, o) => s + (o.add.status === 200 ? 2 : 1), 0);
    expect(await liveUnits(pkg, start, t(10_000))).toBe(guests);
  });

  it("extensions sent together never pass max_extensions_per_cart", async () => {
    const { businessId, key } = await cartBusiness({ max_extensions_per_cart: 2 });
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const id = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id;
    const answers = await Promise.all(Array.from({ length: 6 }, () => callJson(`/api/pub/v2/carts/${id}/extend`, { key, method: "PUT", now: t(100) })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409 && a.body.code === "limit_exceeded")).toHaveLength(4);
    expect(await count("SELECT extensions AS n FROM carts WHERE id = ?", id)).toBe(2);
  });

  it("a delete racing a checkout: one of them wins whole, the other answers 409 cart_not_open", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 50);
    const t = clock();
    const { start, end } = stay(1);
    const carts = await Promise.all(Array.from({ length: 10 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    for (const c of carts) {
      const id = c.body.cart_id as string;
      const [del, out] = await Promise.all([callJson(`/api/pub/v2/carts/${id}`, { key, method: "DELETE", now: t(5) }), checkout(key, id, t(5))]);
      const status = (await env.DB.prepare("SELECT status FROM carts WHERE id = ?").bind(id).first<{ status: string }>())!.status;
      if (out.status === 200) {
        expect([del.status, del.body.code, status]).toEqual([409, "cart_not_open", "checked_out"]);
        expect(await booked(id)).toMatchObject({ guests: 1, unconverted: 0 });
      } else {
        expect([out.status, out.body.code, del.status, status]).toEqual([409, "cart_not_open", 200, "abandoned"]);
        expect(await booked(id)).toBeNull();
        expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND released_at IS NULL", id)).toBe(0);
      }
    }
  });
});

/**
 * The database, but the first batch that runs `sql` first lets `meddle` run: another request that
 * changes the cart between the operation's read and its write, the narrowest of races, every time.
 */
function meddling(sql: RegExp, meddle: () => Promise<unknown>): { env: Env; meddled: () => boolean } {
  let done = false;
  const DB = watchedDb({
    async beforeBatch(sqls) {
      if (done || !sqls.some((s) => sql.test(s))) return;
      done = true;
      await meddle();
    },
  });
  return { env: { ...env, DB } as Env, meddled: () => done };
}

describe("a write whose cart changed between its read and its write is decided again", () => {
  const setup = async () => {
    const { businessId, key } = await cartBusiness({ max_extensions_per_cart: 1 });
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1);
    const first = guest(pkg, start, end);
    const cartId = (await addToCart(key, { guests: [first] }, t(0))).body.cart_id as string;
    const call = (at: number): CartCall => ({ businessId, clientId: "test", cartId, now: new Date(t(at)) });
    return { businessId, key, pkg, t, start, end, first, cartId, call };
  };

  it("a delete that read an open cart, checked out before its write, answers 409 cart_not_open and changes nothing", async () => {
    const { key, t, cartId, call } = await setup();
    const m = meddling(/SET status = 'abandoned'/, () => checkout(key, cartId, t(5)));
    await expect(abandonCart(m.env, call(6))).rejects.toMatchObject({ status: 409, code: "cart_not_open" });
    expect(m.meddled()).toBe(true);
    expect((await callJson(`/api/pub/v2/carts/${cartId}`, { key, now: t(7) })).body.status).toBe("checked_out");
    expect(await booked(cartId)).toMatchObject({ guests: 1, unconverted: 0 });
  });

  it("an extension counted before another one landed is refused past max_extensions_per_cart", async () => {
    const { key, t, cartId, call } = await setup();
    const m = meddling(/extensions = extensions \+ 1/, () => callJson(`/api/pub/v2/carts/${cartId}/extend`, { key, method: "PUT", now: t(5) }));
    await expect(extendCart(m.env, call(6))).rejects.toMatchObject({ status: 409, code: "limit_exceeded" });
    expect(m.meddled()).toBe(true);
    expect(await count("SELECT extensions AS n FROM carts WHERE id = ?", cartId)).toBe(1);
  });

  it("an add whose guest's e-mail another add brought in meanwhile is refused (one e-mail per cart)", async () => {
    const { key, t, pkg, start, end, cartId, call } = await setup();
    const twin = guest(pkg, start, end);
    const m = meddling(/INSERT INTO cart_guests/, () => addToCart(key, { cart_id: cartId, guests: [{ ...twin, first_name: "Other" }] }, t(5)));
    const body = { currency: "EUR", cart_id: cartId, guests: [twin] } as unknown as AddToCartBody;
    await expect(addToCart_(m.env, call(6), body, false)).rejects.toMatchObject({ status: 422, code: "validation_failed" });
    expect(m.meddled()).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE cart_id = ?", cartId)).toBe(2);
  });

  it("a checkout that read one guest, before an add of a second landed, books both", async () => {
    const { key, t, pkg, start, end, cartId, call } = await setup();
    const m = meddling(/INSERT INTO bookings/, () => addToCart(key, { cart_id: cartId, guests: [guest(pkg, start, end)] }, t(5)));
    const answer = await checkoutCart(m.env, call(6), { terms_accepted: true, customer: customer() } as CheckoutBody);
    expect(m.meddled()).toBe(true);
    expect(answer.body.guests).toHaveLength(2);
    expect(await booked(cartId)).toMatchObject({ guests: 2, cartGuests: 2, linesWithoutGuest: 0, unconverted: 0 });
  });
});

describe("a checkout whose customer became a Person meanwhile", () => {
  it("books with that Person (read again after the e-mail's unique index refused a second one)", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1);
    const open = async () => (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id as string;
    const [mine, theirs] = [await open(), await open()];
    const buyer = customer();
    const m = meddling(/INSERT INTO bookings/, () =>
      callJson(`/api/pub/v2/carts/${theirs}/checkout`, { key, now: t(5), body: { terms_accepted: true, customer: buyer } }),
    );
    const call: CartCall = { businessId, clientId: "test", cartId: mine, now: new Date(t(6)) };
    const answer = await checkoutCart(m.env, call, { terms_accepted: true, customer: buyer } as CheckoutBody);
    expect(m.meddled()).toBe(true);
    const persons = await env.DB.prepare("SELECT id FROM persons WHERE business_id = ? AND email_norm = ?").bind(businessId, buyer.email).all<{ id: string }>();
    expect(persons.results).toHaveLength(1);
    const bookers = await env.DB.prepare("SELECT person_id FROM bookers WHERE business_id = ? ORDER BY created_at").bind(businessId).all<{ person_id: string }>();
    expect(bookers.results.map((b) => b.person_id)).toEqual([persons.results[0].id, persons.results[0].id]);
    expect(answer.body.booker.email).toBe(buyer.email);
  });
});

describe("the business's cart timer", () => {
  it("sweeps more expired carts than one sweep takes in a single alarm, then rings for the next open cart", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 500);
    const t = clock();
    const { start, end } = stay(1);
    const many = EXPIRED_CARTS_PER_SWEEP + 15;
    const expiring = await Promise.all(Array.from({ length: many }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    const later = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(300))).body.cart_id;
    const wallBefore = Date.now();
    expect(await fireCartTimer(businessId, t(601))).toBe(true);
    const wallAfter = Date.now();
    const ids = expiring.map((c) => c.body.cart_id as string);
    expect(await count(`SELECT COUNT(*) AS n FROM carts WHERE id IN (${ids.map(() => "?").join(",")}) AND status = 'abandoned' AND abandon_reason = 'expired'`, ...ids)).toBe(many);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ? AND released_at IS NULL", businessId)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE id = ? AND status = 'open'", later)).toBe(1);
    // Next at the later cart's expiry (t(900), 299 s after the clock it swept with), on the wall
    // clock counted from the moment it was handed that clock, which lies within the call above.
    const alarm = (await timerAlarm(businessId))!;
    // (workerd's clocks move only at I/O, each isolate's its own: a few ms of grain, whatever the load.)
    expect(alarm).toBeGreaterThanOrEqual(wallBefore + 299_000 - CLOCK_GRAIN_MS);
    expect(alarm).toBeLessThanOrEqual(wallAfter + 299_000 + CLOCK_GRAIN_MS);
  });

  it("a cart's own object from before the timer was per business hands its cart to its business's timer", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const id = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body.cart_id as string;
    await loseTimer(businessId); // only the cart's own object knows of it
    // What an earlier version left: an object named by the cart, with its state and an alarm.
    const legacy = env.CART_TIMER.get(env.CART_TIMER.idFromName(id));
    await runInDurableObject(legacy, async (_object, state) => {
      await state.storage.put("timer", { cartId: id, businessId, offsetMs: Date.parse(t(601)) - Date.now() });
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(legacy)).toBe(true);
    // It is cleared, and the business's timer, rung at once with the legacy object's clock, sweeps the cart.
    expect(await runInDurableObject(legacy, async (_object, state) => [await state.storage.list(), await state.storage.getAlarm()])).toEqual([new Map(), null]);
    const status = () => env.DB.prepare("SELECT status, abandon_reason FROM carts WHERE id = ?").bind(id).first();
    const deadline = Date.now() + 5000;
    while ((await status())?.status === "open" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await status()).toEqual({ status: "abandoned", abandon_reason: "expired" });
    expect(await liveUnits(pkg, start, t(0))).toBe(0);
  });
});
