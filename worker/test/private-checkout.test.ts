import { createHmac } from "node:crypto";
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { deliveryStub } from "../src/db/outbox";
import { cartBusiness, clock, customer, guest, liveUnits, smallPackage, stay } from "./carts-fixtures";
import { callJson as api, createKey } from "./helpers";

// The private API on bookings made the real way: add to cart and check out through the public API.
const receiver = `http://127.0.0.1:${inject("webhookReceiverPort")}`;

describe("a booking from checkout, seen and managed through the private API", () => {
  it("has its booker and guests as Persons, sends every event signed, and cancels releasing its units", async () => {
    const { businessId, key: publicKey } = await cartBusiness();
    const key = await createKey("private", businessId);
    const hookName = crypto.randomUUID();
    const hook = await api("/private/webhooks", {
      key,
      body: { url: `${receiver}/hooks/${hookName}`, events: ["BookingCreated", "BookerCreated", "GuestCreated", "PersonCreated", "BookingCancelled"] },
    });
    expect(hook.status).toBe(201);

    const at = clock();
    const pkg = await smallPackage(businessId, 2);
    const { start, end } = stay(2);
    const buyer = customer();
    const g1 = guest(pkg, start, end, { email: buyer.email, first_name: buyer.first_name, last_name: buyer.last_name });
    const g2 = guest(pkg, start, end);
    const added = await api("/api/pub/v2/bookings/add", { key: publicKey, body: { currency: "EUR", guests: [g1, g2] }, now: at() });
    expect(added.status).toBe(201);
    const cartId = added.body.cart_id;
    const checkout = await api(`/api/pub/v2/carts/${cartId}/checkout`, { key: publicKey, body: { terms_accepted: true, customer: buyer }, now: at(60) });
    expect(checkout.status).toBe(200);
    const bookingId = checkout.body.id ?? checkout.body.booking_id;
    expect(await liveUnits(pkg, start, at(60))).toBe(2);

    const detail = await api(`/private/bookings/${bookingId}`, { key });
    expect(detail.status).toBe(200);
    const d = detail.body.data;
    expect(d.status).toBe("confirmed");
    expect(d.booker.person).toMatchObject({ email: buyer.email, is_booker: true, is_guest: true, phone_country_calling_code: "351" });
    expect(d.guests.map((g: any) => g.id).sort()).toEqual(checkout.body.guests.map((g: any) => g.id).sort());
    expect(d.guests.map((g: any) => g.person.email).sort()).toEqual([buyer.email, g2.email].sort());
    expect(d.lines.length).toBeGreaterThan(0);
    // The buyer is also the first guest: one Person for both.
    expect(d.booker.person.id).toBe(d.guests.find((g: any) => g.person.email === buyer.email).person.id);

    const list = await api(`/private/guests?booking_id=${bookingId}&expand=booking_related_data.booking`, { key });
    expect(list.body).toHaveLength(2);
    expect(list.body[0].booking_related_data.booking[0].id).toBe(bookingId);

    const cancel = await api(`/private/bookings/${bookingId}/cancel`, { key, method: "POST", now: at(120) });
    expect(cancel.status).toBe(200);
    expect(await liveUnits(pkg, start, at(120))).toBe(0);

    const stub = deliveryStub(env, businessId);
    await runDurableObjectAlarm(stub);
    await stub.idle();
    const got = (await (await fetch(`${receiver}/received/${hookName}`)).json()) as { headers: Record<string, string>; body: string }[];
    const key64 = Buffer.from(hook.body.secret.replace(/^whsec_/, ""), "base64");
    for (const r of got) {
      const mac = createHmac("sha256", key64).update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`).digest("base64");
      expect(r.headers["webhook-signature"]).toBe(`v1,${mac}`);
    }
    const events = got.map((r) => JSON.parse(r.body).event).sort();
    expect(events).toEqual(["BookerCreated", "BookingCancelled", "BookingCreated", "GuestCreated", "GuestCreated", "PersonCreated", "PersonCreated"]);
  });
});

describe("a checkout's word to the webhook delivery", () => {
  it("is not sent by a business without a live subscription; once it subscribes, the next booking's events are delivered", async () => {
    const { businessId, key: publicKey } = await cartBusiness();
    const key = await createKey("private", businessId);
    const pkg = await smallPackage(businessId, 4);
    const { start, end } = stay(2);
    const at = clock();
    const book = async (t: number) => {
      const added = await api("/api/pub/v2/bookings/add", { key: publicKey, body: { currency: "EUR", guests: [guest(pkg, start, end)] }, now: at(t) });
      expect(added.status).toBe(201);
      const checkout = await api(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: publicKey, body: { terms_accepted: true, customer: customer() }, now: at(t + 1) });
      expect(checkout.status).toBe(200);
      return checkout.body.id as string;
    };
    await book(0);
    const stub = deliveryStub(env, businessId);
    await stub.idle();
    // Never woken: it does not know its business, and has no alarm.
    expect(await runInDurableObject(stub, async (_o, state) => [await state.storage.get("business_id"), await state.storage.getAlarm()])).toEqual([undefined, null]);
    // A subscription, made after this process remembered the business's catalog.
    const hookName = crypto.randomUUID();
    expect((await api("/private/webhooks", { key, body: { url: `${receiver}/hooks/${hookName}`, events: ["BookingCreated"] } })).status).toBe(201);
    const bookingId = await book(10);
    await stub.idle();
    const got = (await (await fetch(`${receiver}/received/${hookName}`)).json()) as { body: string }[];
    expect(got.map((r) => JSON.parse(r.body)).map((e) => [e.event, e.data.booking_id ?? e.data.id])).toEqual([["BookingCreated", bookingId]]);
  });
});
