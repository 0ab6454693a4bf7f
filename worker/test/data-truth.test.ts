import { env } from "cloudflare:test";
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

describe("the demo's yoga class", () => {
  const yoga = async () => (await callJson("/api/pub/v2/products/302", { key: await createKey("public") })).body;

  it("lasts what its description says: one hour", async () => {
    const p = await yoga();
    expect(p.duration).toMatchObject({ min: 1, default: 1, unit: "hour" });
    expect(p.description).toMatch(/^An hour\b/);
    expect(p.description).not.toMatch(/ninety|90/i);
  });

  it("is corrected by migration 0171 in a database seeded before", async () => {
    await env.DB.prepare(
      `UPDATE products SET duration = '{"is_flexible":false,"min":90,"default":90,"unit":"hour","variants":[]}',
         description = 'Ninety minutes of vinyasa flow on the deck.', translations = json_set(translations, '$.de.description', 'Neunzig Minuten Vinyasa Flow auf dem Deck.')
       WHERE id = 302`,
    ).run();
    expect((await yoga()).duration.default).toBe(90);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0171_"))!;
    for (const sql of migration.queries) await env.DB.prepare(sql).run();
    const p = await yoga();
    expect(p.duration).toMatchObject({ min: 1, default: 1, unit: "hour" });
    expect(p.description).toBe("An hour of vinyasa flow on the deck.");
    const de = (await callJson("/api/pub/v2/products/302?language=de", { key: await createKey("public") })).body;
    expect(de.description).toBe("Eine Stunde Vinyasa Flow auf dem Deck.");
  });
});
