import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, customer, fireCartTimer, guest, liveUnits, smallPackage, stay, timerAlarm } from "./carts-fixtures";
import { callJson } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const checkout = (key: string, cartId: string, now: string, body: Record<string, unknown> = { terms_accepted: true, customer: customer() }, headers = {}) =>
  callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now, body, headers });

async function snapshot(businessId: number) {
  return {
    bookings: await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId),
    persons: await count("SELECT COUNT(*) AS n FROM persons WHERE business_id = ?", businessId),
    outbox: await count("SELECT COUNT(*) AS n FROM outbox WHERE business_id = ?", businessId),
    booked: await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ? AND booking_id IS NOT NULL", businessId),
    open: await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ? AND status = 'open'", businessId),
  };
}

describe("checkout", () => {
  it("turns the cart into a booking with reference, lines, booked units, booker, guests, persons and events, in one go", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5, "Cliff Retreat");
    const t = clock();
    const { start, end } = stay(2);
    const g1 = guest(pkg, start, end, { gender: "m", language_code: "pt" });
    const g2 = guest(pkg, start, end, { email: undefined });
    const cart = (await addToCart(key, { guests: [g1, g2] }, t(0))).body;
    const buyer = customer({ email: "Buyer.Checkout@Example.com" });
    const res = await checkout(key, cart.cart_id, t(120), { terms_accepted: true, newsletter_opt_in: true, customer: buyer });
    expect(res.status).toBe(200);
    const b = res.body;
    // Every row made has a time-ordered id (UUID v7, lib/ids.ts): the cart, its guests, the booking, its booker.
    for (const id of [cart.cart_id, ...cart.guests.map((g: any) => g.id), b.id, b.booker.id]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).toMatchObject({
      reference: "2026-00001",
      reference_number: 1,
      reference_year: "2026",
      status: "confirmed",
      cart_id: cart.cart_id,
      currency: "EUR",
      total: 400,
      start_date: start,
      end_date: end,
      newsletter_opt_in: true,
      created_at: "2026-11-21T10:02:00Z",
      booker: { first_name: "Maria", last_name: "Costa", email: buyer.email },
    });
    expect(b.guests.map((g: any) => g.id)).toEqual(cart.guests.map((g: any) => g.id));
    expect(b.guests[0]).toMatchObject({ first_name: g1.first_name, email: g1.email, total: 200 });

    const booking = await env.DB.prepare("SELECT * FROM bookings WHERE id = ?").bind(b.id).first<any>();
    expect(booking).toMatchObject({ business_id: businessId, cart_id: cart.cart_id, total_minor: 40000, total_default_minor: 40000, newsletter_opt_in: 1 });
    expect(await count("SELECT COUNT(*) AS n FROM booking_lines WHERE booking_id = ? AND product_type = 'package'", b.id)).toBe(2);
    expect(await count("SELECT COUNT(*) AS n FROM booking_lines WHERE booking_id = ? AND guest_id IN (SELECT id FROM guests WHERE booking_id = ?)", b.id, b.id)).toBe(2);
    // The holds became the booking's units: no expiry, so they stay taken after the cart's expiry.
    expect(await count("SELECT SUM(qty) AS n FROM allocations WHERE cart_id = ? AND booking_id = ? AND expires_at IS NULL", cart.cart_id, b.id)).toBe(4);
    expect(await liveUnits(pkg, start, t(100_000))).toBe(2);
    // Booker and guests, each with their Person (the customer's e-mail normalized).
    expect(await count("SELECT COUNT(*) AS n FROM bookers WHERE booking_id = ? AND id = ?", b.id, b.booker.id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM guests WHERE booking_id = ?", b.id)).toBe(2);
    expect(await count("SELECT COUNT(*) AS n FROM persons WHERE business_id = ?", businessId)).toBe(3);
    const person = await env.DB.prepare("SELECT * FROM persons WHERE business_id = ? AND email_norm = 'buyer.checkout@example.com'").bind(businessId).first<any>();
    expect(person).toMatchObject({ first_name: "Maria", phone: "912345678", phone_country_calling_code: "351", country_code: "PT" });
    const guestPerson = await env.DB.prepare("SELECT * FROM persons WHERE business_id = ? AND email_norm = ?").bind(businessId, g1.email).first<any>();
    expect(guestPerson).toMatchObject({ gender: "male", language_code: "pt", birth_date: "1990-05-01" });
    const events = (await env.DB.prepare("SELECT event FROM outbox WHERE business_id = ? ORDER BY seq").bind(businessId).all<{ event: string }>()).results.map((r) => r.event);
    expect(events[0]).toBe("BookingCreated");
    expect(events.slice().sort()).toEqual(["BookerCreated", "BookingCreated", "GuestCreated", "GuestCreated", "PersonCreated", "PersonCreated", "PersonCreated"]);
    // The cart is checked out and shows its booking.
    const got = await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key, now: t(130) });
    expect(got.body).toMatchObject({ status: "checked_out", booking: { id: b.id, reference: "2026-00001" } });
    // The timer, ringing at the cart's expiry, leaves a checked-out cart as it is and, with no open cart left, sets no alarm.
    expect(await fireCartTimer(businessId, t(100_000))).toBe(true);
    expect((await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key, now: t(100_001) })).body.status).toBe("checked_out");
    expect(await timerAlarm(businessId)).toBeNull();

    // A checked-out cart refuses everything with 409.
    for (const r of [
      await checkout(key, cart.cart_id, t(140)),
      await addToCart(key, { cart_id: cart.cart_id, guests: [guest(pkg, start, end)] }, t(140)),
      await callJson(`/api/pub/v2/carts/${cart.cart_id}/extend`, { key, method: "PUT", now: t(140) }),
      await callJson(`/api/pub/v2/carts/${cart.cart_id}`, { key, method: "DELETE", now: t(140) }),
    ]) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe("cart_not_open");
    }
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(1);

    // The next booking of the business and year gets the next reference number.
    const next = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(200))).body;
    expect((await checkout(key, next.cart_id, t(210))).body).toMatchObject({ reference: "2026-00002", reference_number: 2 });
  });

  it.each([
    ["false", { terms_accepted: false }],
    ["missing", {}],
    ["a string", { terms_accepted: "yes" }],
  ])("terms_accepted %s: 422 terms_not_accepted and nothing changes", async (_name, terms) => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const cart = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const before = await snapshot(businessId);
    const res = await checkout(key, cart.cart_id, t(10), { ...terms, customer: customer() });
    expect(res.status).toBe(422);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body.code).toBe("terms_not_accepted");
    expect(res.body.errors.map((e: any) => e.path)).toContain("terms_accepted");
    expect(await snapshot(businessId)).toEqual(before);
    expect((await checkout(key, cart.cart_id, t(20))).status).toBe(200);
  });

  it("an invalid customer is 422 naming each field, and nothing changes", async () => {
    const { businessId, key } = await cartBusiness({
      customer_fields: { address: { request: true, required: true }, phone: { request: true, required: true }, minimum_age: 18 },
    });
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const cart = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const before = await snapshot(businessId);
    const schema = await checkout(key, cart.cart_id, t(10), { terms_accepted: true, customer: { first_name: "", last_name: "X", email: "not-an-email", gender: "x" } });
    expect(schema.status).toBe(422);
    expect(schema.body.code).toBe("validation_failed");
    expect(schema.body.errors.map((e: any) => e.path).sort()).toEqual(["customer.email", "customer.first_name", "customer.gender"]);

    const rules = await checkout(key, cart.cart_id, t(10), {
      terms_accepted: true,
      customer: { first_name: "Li", last_name: "Wu", email: "li@example.com", birth_date: "2015-01-01", country: "Atlantis" },
    });
    expect(rules.status).toBe(422);
    expect(rules.body.errors.map((e: any) => e.path).sort()).toEqual(
      ["customer.address_line_1", "customer.birth_date", "customer.city", "customer.country", "customer.phone", "customer.zipcode"].sort(),
    );
    expect(await snapshot(businessId)).toEqual(before);
  });

  it("a booker who is also a guest is one Person", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const g = guest(pkg, start, end, { email: "same.person@example.com" });
    const cart = (await addToCart(key, { guests: [g] }, t(0))).body;
    const res = await checkout(key, cart.cart_id, t(10), { terms_accepted: true, customer: customer({ email: "SAME.person@example.com" }) });
    expect(res.status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM persons WHERE business_id = ?", businessId)).toBe(1);
  });
});

describe("checkout racing an expiry never books an expired hold", () => {
  it("at the expiry instant checkout is refused with 410 and nothing is booked", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 1);
    const t = clock();
    const { start, end } = stay(1);
    const cart = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    const res = await checkout(key, cart.cart_id, t(600));
    expect(res.status).toBe(410);
    expect(res.body.code).toBe("cart_expired");
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ? AND booking_id IS NOT NULL", businessId)).toBe(0);
  });

  it("a hold that lapsed while the cart looks open stops the whole checkout (the batch's guard)", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(3);
    const cart = (await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))).body;
    // One night's hold lapses early (as if its expiry had been written by a slower clock).
    await env.DB.prepare("UPDATE allocations SET expires_at = ? WHERE id = (SELECT MIN(id) FROM allocations WHERE cart_id = ?)").bind(t(100), cart.cart_id).run();
    const before = await snapshot(businessId);
    const res = await checkout(key, cart.cart_id, t(200));
    expect(res.status).toBe(410);
    expect(res.body.code).toBe("cart_expired");
    expect(res.body.detail).toContain("nothing was booked");
    expect(await snapshot(businessId)).toEqual(before);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND booking_id IS NOT NULL", cart.cart_id)).toBe(0);
  });

  it("checkouts and expiry alarms racing on 20 carts: every booking holds only live units, D1 agrees with the answers", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 20);
    const t = clock();
    const { start, end } = stay(1);
    const carts = await Promise.all(Array.from({ length: 20 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    expect(carts.every((c) => c.status === 201)).toBe(true);
    // Half check out just before the expiry, racing the business's cart timer rung at that moment;
    // then the other half just after, racing it again.
    const race = async (before: boolean) => {
      const at = before ? t(599) : t(601);
      const mine = carts.filter((_, i) => (i % 2 === 0) === before);
      const [answers] = await Promise.all([
        Promise.all(mine.map(async (c) => ({ id: c.body.cart_id as string, before, res: await checkout(key, c.body.cart_id, at) }))),
        fireCartTimer(businessId, at),
      ]);
      return answers;
    };
    const results = [...(await race(true)), ...(await race(false))];
    for (const r of results) {
      if (r.before) {
        expect(r.res.status).toBe(200);
      } else {
        expect(r.res.status).toBe(410);
        expect(r.res.body.code).toBe("cart_expired");
      }
    }
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(10);
    // Every booked unit came from a cart that checked out; no expired cart has a booked unit.
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ? AND booking_id IS NOT NULL", businessId)).toBe(10);
    for (const r of results.filter((x) => !x.before)) {
      expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE cart_id = ? AND booking_id IS NOT NULL", r.id)).toBe(0);
    }
    expect(await liveUnits(pkg, start, t(10_000))).toBe(10);
    const refs = (await env.DB.prepare("SELECT reference_number AS n FROM bookings WHERE business_id = ? ORDER BY n").bind(businessId).all<{ n: number }>()).results.map((r) => r.n);
    expect(refs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
