import { describe, expect, it } from "vitest";

// Crowds of hundreds of requests take a while in the local pool (D1 is one SQLite file and every
// request also authenticates and rate-limits): generous timeouts, never a sleep.
const CROWD_TIMEOUT = 300_000;
import { addToCart, cartBusiness, clock, count, guest, liveUnits, setCapacity, smallPackage, stay } from "./carts-fixtures";

describe("never oversell: concurrent buyers", () => {
  it("200 buyers racing for the last unit: exactly 1 hold and 199 clear 409 sold_out", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 3, "Last Bed Retreat");
    const t = clock();
    const { start, end } = stay(1);
    // Two of the three units are already held by an earlier cart.
    const first = await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end)] }, t(0));
    expect(first.status).toBe(201);

    const answers = await Promise.all(Array.from({ length: 200 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(5))));
    const won = answers.filter((a) => a.status === 201);
    const lost = answers.filter((a) => a.status !== 201);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(199);
    for (const a of lost) {
      expect(a.status).toBe(409);
      expect(a.headers.get("Content-Type")).toContain("application/problem+json");
      expect(a.body.code).toBe("sold_out");
      expect(a.body.detail).toContain(`Last Bed Retreat on ${start}`);
    }
    // D1 agrees with the answers: 3 live units, 2 carts, and the losers left nothing behind.
    expect(await liveUnits(pkg, start, t(6))).toBe(3);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(2);
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE business_id = ?", businessId)).toBe(3);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ? AND cart_id = ?", businessId, won[0].body.cart_id)).toBe(1);
  }, CROWD_TIMEOUT);

  it("500 buyers for 10 units: exactly 10 get a cart, the D1 count is 10", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const t = clock();
    const { start, end } = stay(1, 40);
    const answers = await Promise.all(Array.from({ length: 500 }, () => addToCart(key, { guests: [guest(pkg, start, end)] }, t(0))));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(490);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.cart_id)).size).toBe(10);
    expect(await liveUnits(pkg, start, t(1))).toBe(10);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(10);
    expect(await count("SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(10);
  }, CROWD_TIMEOUT);

  it("a stay whose last night is full holds nothing (no night, no cart) and says which night", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5, "Full Moon Stay");
    const t = clock();
    const { start, end } = stay(3);
    const lastNight = new Date(Date.parse(`${end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await setCapacity(businessId, pkg, lastNight, 0);
    const res = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("sold_out");
    expect(res.body.detail).toContain(`Full Moon Stay on ${lastNight} (0 left, 1 wanted)`);
    expect(res.body.detail).not.toContain(start);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(0);
    // The nights before it are free for a shorter stay.
    const shorter = await addToCart(key, { guests: [guest(pkg, start, lastNight)] }, t(1));
    expect(shorter.status).toBe(201);
    expect(await liveUnits(pkg, start, t(2))).toBe(1);
  });

  it("a party is held all together or not at all: 3 guests for 2 units hold nothing, also in an existing cart", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 2);
    const t = clock();
    const { start, end } = stay(2);
    const party = await addToCart(key, { guests: [guest(pkg, start, end), guest(pkg, start, end), guest(pkg, start, end)] }, t(0));
    expect(party.status).toBe(409);
    expect(party.body.detail).toContain("(2 left, 3 wanted)");
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?", businessId)).toBe(0);

    const one = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(1));
    expect(one.status).toBe(201);
    const more = await addToCart(key, { cart_id: one.body.cart_id, guests: [guest(pkg, start, end), guest(pkg, start, end)] }, t(2));
    expect(more.status).toBe(409);
    expect(more.body.code).toBe("sold_out");
    // The cart keeps exactly what it had.
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE cart_id = ?", one.body.cart_id)).toBe(1);
    expect(await count("SELECT COALESCE(SUM(qty), 0) AS n FROM allocations WHERE cart_id = ?", one.body.cart_id)).toBe(2);
  });

  it("concurrent adds to the same cart run one at a time and never exceed capacity", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 4);
    const t = clock();
    const { start, end } = stay(1);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end)] }, t(1))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409 && a.body.code === "sold_out")).toHaveLength(7);
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE cart_id = ?", cart.body.cart_id)).toBe(4);
    expect(await liveUnits(pkg, start, t(2))).toBe(4);
  });
});
