import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

/** Diet and level picked per guest in the cart reach the guest's Person and booking data. */
describe("a guest's diet and level", () => {
  async function businessWithChoices() {
    const biz = await cartBusiness();
    await env.DB.prepare("INSERT INTO diets (business_id, title) VALUES (?, 'Vegan') RETURNING id").bind(biz.businessId).run();
    const diet = await env.DB.prepare("SELECT id FROM diets WHERE business_id = ?").bind(biz.businessId).first<{ id: number }>();
    await env.DB.prepare("INSERT INTO levels (business_id, title) VALUES (?, 'Beginner')").bind(biz.businessId).run();
    const level = await env.DB.prepare("SELECT id FROM levels WHERE business_id = ?").bind(biz.businessId).first<{ id: number }>();
    return { ...biz, dietId: diet!.id, levelId: level!.id };
  }

  it("are kept through checkout: the Person's diet and the guest's level for this booking", async () => {
    const { businessId, key, dietId, levelId } = await businessWithChoices();
    const pkg = await smallPackage(businessId, 5);
    const t = clock();
    const { start, end } = stay(2);
    const g = guest(pkg, start, end, { diet_id: dietId, level_id: levelId });
    const cart = await addToCart(key, { guests: [g] }, t(0));
    expect(cart.status).toBe(201);
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, {
      key, now: t(60), body: { terms_accepted: true, customer: customer() },
    });
    expect(booked.status).toBe(200);
    const person = await env.DB.prepare("SELECT diet_id, level_id FROM persons WHERE business_id = ? AND email_norm = ?")
      .bind(businessId, g.email.toLowerCase()).first();
    expect(person).toEqual({ diet_id: dietId, level_id: levelId });
    const guestRow = await env.DB.prepare("SELECT level_id FROM guests WHERE booking_id = ?").bind(booked.body.id).first();
    expect(guestRow).toEqual({ level_id: levelId });
  });

  it("that the business does not offer are a 422 naming the field, and nothing is held", async () => {
    const { businessId, key, dietId } = await businessWithChoices();
    const pkg = await smallPackage(businessId, 5);
    const { start, end } = stay(2);
    const res = await addToCart(key, { guests: [guest(pkg, start, end, { diet_id: dietId + 1000, level_id: 1_000_000 })] }, clock()(0));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(["guests.0.diet_id", "guests.0.level_id"]);
    const held = await env.DB.prepare("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?").bind(businessId).first<{ n: number }>();
    expect(held!.n).toBe(0);
  });
});
