import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, clock, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { createStaff, signedIn } from "./admin-fixtures";
import { callJson, createBusiness, createKey } from "./helpers";

/**
 * The business's own questions (settings' custom_fields): answered per guest when adding to a cart
 * and by the customer at checkout, checked by the server, kept on the booking's guests and booker,
 * shown in the back office and the guests CSV, and listed in the guest's language.
 */
const QUESTIONS = [
  {
    key: "certification",
    title: "Diving certification",
    type: "select",
    options: ["None", "Open Water", "Advanced"],
    required: true,
    applies_to: "guest",
    translations: { de: { title: "Tauchschein", options: ["Keiner", "Open Water (OWD)", "Fortgeschritten"] } },
  },
  { key: "shoe_size", title: "Shoe size", type: "number", options: [], required: false, applies_to: "both" },
  { key: "insured", title: "Travel insurance", type: "boolean", options: [], required: false, applies_to: "guest" },
  { key: "arrival", title: "Arrival date", type: "date", options: [], required: false, applies_to: "guest" },
  { key: "referral", title: "How did you hear of us?", type: "text", options: [], required: true, applies_to: "customer" },
];

let seq = 0;
async function business() {
  const slug = `questions-${Date.now().toString(36)}-${++seq}`;
  const businessId = await createBusiness(slug, {
    rate_limit_per_minute: 100_000,
    languages: ["en", "de"],
    widget_allow_loopback: true,
    guest_fields: { birthday: { request: true, required: false }, minimum_age: 0 },
    customer_fields: { address: { request: true, required: false }, phone: { request: true, required: false }, minimum_age: 18 },
    custom_fields: QUESTIONS,
  });
  const pkg = await smallPackage(businessId, 5);
  return { slug, businessId, pkg, key: await createKey("public", businessId), privateKey: await createKey("private", businessId) };
}

const heldUnits = (businessId: number) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?").bind(businessId).first<number>("n");
const cartCount = (businessId: number) => env.DB.prepare("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?").bind(businessId).first<number>("n");

describe("the business's custom questions", () => {
  it("are answered in the cart and at checkout, and the private API, the booking page and the guests CSV show the answers", async () => {
    const b = await business();
    const t = clock();
    const { start, end } = stay(2);
    const answers = { certification: "Open Water", shoe_size: 42, insured: true, arrival: "2026-12-01" };
    const cart = await addToCart(b.key, { guests: [guest(b.pkg, start, end, { custom_fields: answers }), guest(b.pkg, start, end, { custom_fields: { certification: "None" } })] }, t(0));
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect(cart.body.guests[0].custom_fields).toEqual(answers);
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, {
      key: b.key, now: t(60), body: { terms_accepted: true, customer: customer({ custom_fields: { referral: "  A friend  ", shoe_size: 38 } }) },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);

    const guests = await callJson(`/private/guests?booking_id=${booked.body.id}`, { key: b.privateKey });
    expect(guests.status).toBe(200);
    const byName = Object.fromEntries((guests.body as any[]).map((g) => [g.person.first_name, g.person.custom_fields]));
    expect(Object.values(byName).sort((x: any, y: any) => Object.keys(y).length - Object.keys(x).length)).toEqual([answers, { certification: "None" }]);
    const booker = await callJson(`/private/bookings/${booked.body.id}/booker`, { key: b.privateKey });
    expect(booker.body.data.person.custom_fields).toEqual({ referral: "A friend", shoe_size: 38 });
    // The guest's Person keeps the answers too (a new Person: all of them).
    const person = await callJson(`/private/persons/${guests.body[0].person.id}`, { key: b.privateKey });
    expect(Object.keys(person.body.data.custom_fields)).toContain("certification");

    // The back office: the booking page shows each answer under its question's title; the CSV a column per guest question.
    const { email } = await createStaff(b.businessId, "owner");
    const owner = await signedIn(b.slug, email);
    const page = await (await owner.get(`/admin/${b.slug}/bookings/${booked.body.id}`)).text();
    expect(page).toContain("<dt>Diving certification</dt><dd>Open Water</dd>");
    expect(page).toContain("<dt>How did you hear of us?</dt><dd>A friend</dd>");
    const list = await (await owner.get(`/admin/${b.slug}/guests`)).text();
    expect(list).toContain('<th scope="col" data-question="certification">Diving certification</th>');
    expect(list).toContain("<td>Open Water</td><td>42</td><td>yes</td><td>2026-12-01</td>");
    const csv = (await (await owner.get(`/admin/${b.slug}/guests.csv?booking_id=${booked.body.id}`)).text()).replace(/^\uFEFF/, "").trim().split("\r\n");
    const header = csv[0].split(",");
    expect(header.slice(-4)).toEqual(["Diving certification", "Shoe size", "Travel insurance", "Arrival date"]);
    expect(header).not.toContain("How did you hear of us?");
    const rows = csv.slice(1).map((line) => line.split(",").slice(-4));
    expect(rows.sort()).toEqual([["None", "", "", ""], ["Open Water", "42", "yes", "2026-12-01"]]);
  });

  it("wrong answers are a 422 naming each, and nothing is held", async () => {
    const b = await business();
    const t = clock();
    const { start, end } = stay(2);
    const bad = await addToCart(b.key, {
      guests: [
        guest(b.pkg, start, end, { custom_fields: { shoe_size: "42" } }),
        guest(b.pkg, start, end, { custom_fields: { certification: "Rescue", insured: "yes", arrival: "2026-02-30", referral: "x" } }),
      ],
    }, t(0));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "guests.0.custom_fields.certification",
      "guests.0.custom_fields.shoe_size",
      "guests.1.custom_fields.arrival",
      "guests.1.custom_fields.certification",
      "guests.1.custom_fields.insured",
      "guests.1.custom_fields.referral",
    ]);
    expect(bad.body.errors.find((e: { path: string }) => e.path === "guests.0.custom_fields.certification").message).toBe("is required by this business");
    expect(await heldUnits(b.businessId)).toBe(0);
    expect(await cartCount(b.businessId)).toBe(0);

    // The customer's required question at checkout: a 422, and the cart stays open, not booked.
    const cart = await addToCart(b.key, { guests: [guest(b.pkg, start, end, { custom_fields: { certification: "Advanced" } })] }, t(0));
    expect(cart.status).toBe(201);
    const refused = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key: b.key, now: t(30), body: { terms_accepted: true, customer: customer({ custom_fields: { certification: "None" } }) } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["customer.custom_fields.certification", "customer.custom_fields.referral"]);
    expect((await callJson(`/api/pub/v2/carts/${cart.body.cart_id}`, { key: b.key, now: t(31) })).body.status).toBe("open");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?").bind(b.businessId).first("n")).toBe(0);
  });

  it("are listed in the guest's language by GET /settings and the widget's bootstrap, the answer staying the stored option", async () => {
    const b = await business();
    const de = await callJson("/api/pub/v2/settings?language=de", { key: b.key });
    const cert = de.body.settings.custom_fields.find((f: { key: string }) => f.key === "certification");
    expect(cert).toMatchObject({ title: "Tauchschein", options: ["None", "Open Water", "Advanced"], option_titles: ["Keiner", "Open Water (OWD)", "Fortgeschritten"], required: true });
    const en = await callJson("/api/pub/v2/settings", { key: b.key });
    expect(en.body.settings.custom_fields[0]).toMatchObject({ title: "Diving certification", option_titles: ["None", "Open Water", "Advanced"] });
    const boot = await callJson(`/widget/v1/${b.slug}/bootstrap?language=de`, { headers: { Origin: "http://localhost:5173" } });
    expect(boot.status).toBe(200);
    expect(boot.body.settings.settings.custom_fields[0]).toMatchObject({ title: "Tauchschein", option_titles: ["Keiner", "Open Water (OWD)", "Fortgeschritten"] });
  });

  it("translations with another number of options than the field are refused by the settings API, and nothing changes", async () => {
    const b = await business();
    const changed = [{ ...QUESTIONS[0], translations: { de: { options: ["Keiner", "Open Water"] } } }];
    const res = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { custom_fields: changed } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["custom_fields.0.translations.de.options"]);
    const after = await callJson("/private/settings", { key: b.privateKey });
    expect(after.body.data.custom_fields[0].translations.de.options).toHaveLength(3);
  });
});
