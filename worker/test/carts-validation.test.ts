import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, guest, smallPackage, stay } from "./carts-fixtures";
import { createKey, nextWeekday } from "./helpers";

const paths = (res: { body: any }) => (res.body.errors ?? []).map((e: any) => e.path).sort();

describe("POST /bookings/add validation: 422 naming each field, nothing held", () => {
  it("refuses missing required fields, a gender other than m/f, impossible dates and a malformed cart_id", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const res = await addToCart(
      key,
      {
        cart_id: "nope",
        guests: [
          { last_name: "Silva", gender: "x", package: { id: pkg, start_date: "2026-02-30", end_date: end } },
          { first_name: "Rui", last_name: "Silva", gender: "m", email: "not-an-email", package: { id: pkg, start_date: end, end_date: start } },
        ],
      },
      t(0),
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(paths(res)).toEqual(
      ["cart_id", "guests.0.first_name", "guests.0.gender", "guests.0.package.start_date", "guests.1.email", "guests.1.package.end_date"].sort(),
    );
    const noCurrency = await addToCart(key, { currency: undefined, guests: [guest(pkg, start, end)] }, t(0));
    expect(paths(noCurrency)).toEqual(["currency"]);
    const noGuests = await addToCart(key, { guests: [] }, t(0));
    expect(paths(noGuests)).toEqual(["guests"]);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(0);
  });

  it("guest e-mails are unique within the request and within the cart (case-insensitive)", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const twice = await addToCart(key, { guests: [guest(pkg, start, end, { email: "twin@example.com" }), guest(pkg, start, end, { email: "TWIN@example.com" })] }, t(0));
    expect(twice.status).toBe(422);
    expect(paths(twice)).toEqual(["guests.1.email"]);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end, { email: "twin@example.com" })] }, t(1));
    expect(cart.status).toBe(201);
    const again = await addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end, { email: "Twin@Example.COM" })] }, t(2));
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([{ path: "guests.0.email", message: "another guest of this cart already has this e-mail" }]);
    // Guests without an e-mail are fine, several of them.
    const anon = await addToCart(key, { cart_id: cart.body.cart_id, guests: [guest(pkg, start, end, { email: undefined }), guest(pkg, start, end, { email: undefined })] }, t(3));
    expect(anon.status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM cart_guests WHERE cart_id = ?", cart.body.cart_id)).toBe(3);
  });

  it("applies the business's guest rules: birth date required, minimum age on the start date, not born in the future", async () => {
    const { businessId, key } = await cartBusiness({ guest_fields: { birthday: { request: true, required: true }, minimum_age: 12 } });
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(1);
    const res = await addToCart(
      key,
      {
        guests: [
          guest(pkg, start, end, { birth_date: undefined }),
          guest(pkg, start, end, { birth_date: "2020-01-01" }),
          guest(pkg, start, end, { birth_date: "2027-01-01" }),
        ],
      },
      t(0),
    );
    expect(res.status).toBe(422);
    expect(paths(res)).toEqual(["guests.0.birth_date", "guests.1.birth_date", "guests.2.birth_date"]);
    expect(res.body.errors[1].message).toContain("at least 12 years old");
  });

  it("checks the selection against the catalog: check-in days, durations, accommodation, items (demo package)", async () => {
    const key = await createKey("public");
    const t = clock();
    const saturday = nextWeekday(6, new Date(t(0)), 30);
    const plus = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const pkg = (p: Record<string, unknown>) => guest(101, saturday, plus(saturday, 7), { gender: "f", package: { id: 101, start_date: saturday, end_date: plus(saturday, 7), accommodation_id: 202, ...p } });
    const sunday = await addToCart(key, { guests: [pkg({ start_date: plus(saturday, 1), end_date: plus(saturday, 8) })] }, t(0));
    expect(sunday.status).toBe(422);
    expect(paths(sunday)).toEqual(["guests.0.package.start_date"]);
    const fiveNights = await addToCart(key, { guests: [pkg({ end_date: plus(saturday, 5) })] }, t(0));
    expect(paths(fiveNights)).toEqual(["guests.0.package.end_date"]);
    const menOnly = await addToCart(key, { guests: [pkg({ accommodation_id: 201 })] }, t(0));
    expect(paths(menOnly)).toEqual(["guests.0.package.accommodation_id"]);
    const noRoom = await addToCart(key, { guests: [pkg({ accommodation_id: undefined })] }, t(0));
    expect(paths(noRoom)).toEqual(["guests.0.package.accommodation_id"]);
    const badItem = await addToCart(key, { guests: [pkg({ items: [{ package_item_id: 9999, dates: [saturday] }] })] }, t(0));
    expect(paths(badItem)).toEqual(["guests.0.package.items.0.package_item_id"]);
    const badSlot = await addToCart(key, { guests: [pkg({ items: [{ package_item_id: 1002, dates: [`${saturday} 12:00:00`] }] })] }, t(0));
    expect(paths(badSlot)).toEqual(["guests.0.package.items.0.dates.0"]);
    const unknown = await addToCart(key, { guests: [guest(999_999, saturday, plus(saturday, 7))] }, t(0));
    expect(unknown.status).toBe(404);
    const currency = await addToCart(key, { currency: "GBP", guests: [pkg({})] }, t(0));
    expect(paths(currency)).toEqual(["currency"]);
  });
});
