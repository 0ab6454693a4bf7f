import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey } from "./helpers";

// Data the service shows must not say something untrue.

describe("totals of a Person", () => {
  it("total_paid_as_booker is what was paid (nothing, as no payment exists), never the booking's price", async () => {
    const { businessId, key } = await cartBusiness();
    const privateKey = await createKey("private", businessId);
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(2);
    const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
    const buyer = customer();
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key, now: t(30), body: { terms_accepted: true, customer: buyer } });
    expect(booked.status).toBe(200);
    expect(booked.body.total).toBe(200);
    const person = (await callJson(`/private/persons?email=${encodeURIComponent(buyer.email)}`, { key: privateKey })).body.data[0];
    expect(person.totals).toMatchObject({ booking_count: 1, total_as_booker: 1, total_paid_as_booker: 0 });
  });
});
