/**
 * Issue 28: what enters through any door is what a reader will see. Names and titles with control
 * or direction-override characters are refused at their field; an e-mail address the provider
 * would refuse (RFC 5321's limits) is refused at checkout rather than promised a confirmation.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addToCart, cartBusiness, clock, count, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { inviteStaff } from "../src/manage/staff";
import { createStaff, signedIn } from "./admin-fixtures";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const RLO = "\u202e";
const t = clock();

async function openCart() {
  const { businessId, key } = await cartBusiness();
  const pkg = await smallPackage(businessId, 10);
  const { start, end } = stay(2);
  const cart = await addToCart(key, { guests: [guest(pkg, start, end)] }, t(0));
  expect(cart.status).toBe(201);
  return { businessId, key, pkg, start, end, cartId: cart.body.cart_id as string };
}

const fieldsOf = (body: any) => (body.errors ?? []).map((e: { path: string }) => e.path);

describe("names with control or direction-override characters", () => {
  it("are refused at add-to-cart, at the guest's field, and nothing is held", async () => {
    const { businessId, key } = await cartBusiness();
    const pkg = await smallPackage(businessId, 10);
    const { start, end } = stay(2);
    for (const first_name of [`Ana${RLO}gpj.exe`, "Ana\u0000", "Ana\ud800", "Ana\u2066x"]) {
      const res = await addToCart(key, { guests: [guest(pkg, start, end, { first_name })] }, t(0));
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain("guests.0.first_name");
    }
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE business_id = ?", businessId)).toBe(0);
    // Letters of every script stay welcome, right-to-left ones included.
    const ok = await addToCart(key, { guests: [guest(pkg, start, end, { first_name: "مريم", last_name: "Zoë Ñúñez-O'Brien" })] }, t(1));
    expect(ok.status).toBe(201);
  });

  it("are refused at checkout in the customer's name, and the cart stays open", async () => {
    const { key, cartId } = await openCart();
    const res = await callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now: t(10), body: { terms_accepted: true, customer: customer({ last_name: `Costa${RLO}` }) } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toContain("customer.last_name");
    const cart = await callJson(`/api/pub/v2/carts/${cartId}`, { key, now: t(11) });
    expect(cart.body.status).toBe("open");
  });

  it("are refused in a Person's name, a product's title and the business's title through the private API", async () => {
    const key = await createKey("private", DEMO_BUSINESS_ID);
    const person = await callJson("/private/persons", { key, method: "POST", body: { first_name: "Eve", last_name: `Mallory\u0007`, email: `p-${crypto.randomUUID()}@example.com` } });
    expect(person.status).toBe(422);
    expect(fieldsOf(person.body)).toContain("last_name");
    const before = await env.DB.prepare("SELECT title FROM businesses WHERE id = ?").bind(DEMO_BUSINESS_ID).first<{ title: string }>();
    const settings = await callJson("/private/settings", { key, method: "PATCH", body: { title: `Blue ${RLO}Wave` } });
    expect(settings.status).toBe(422);
    expect(fieldsOf(settings.body)).toContain("title");
    expect(await env.DB.prepare("SELECT title FROM businesses WHERE id = ?").bind(DEMO_BUSINESS_ID).first()).toEqual(before);
    const product = await callJson("/private/catalog/products", { key, method: "POST", body: { type: "activity", title: `Dive${RLO}` } });
    expect(product.status).toBe(422);
    expect(fieldsOf(product.body)).toContain("title");
  });
});

describe("e-mail addresses past RFC 5321's limits", () => {
  const at = (local: number, domain = "example.com") => `${"a".repeat(local)}@${domain}`;

  it("are refused at checkout at customer.email, nothing is booked, and the longest allowed one books", async () => {
    const { businessId, key, cartId } = await openCart();
    for (const email of [at(65), `ana@${"b".repeat(64)}.com`, at(60, `${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(10)}.com`)]) {
      const res = await callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now: t(10), body: { terms_accepted: true, customer: customer({ email }) } });
      expect(res.status, email).toBe(422);
      expect(fieldsOf(res.body)).toContain("customer.email");
    }
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM emails WHERE business_id = ?", businessId)).toBe(0);
    const ok = await callJson(`/api/pub/v2/carts/${cartId}/checkout`, { key, now: t(20), body: { terms_accepted: true, customer: customer({ email: at(64) }) } });
    expect(ok.status).toBe(200);
  });

  it("are refused in the business's notification addresses", async () => {
    const key = await createKey("private", DEMO_BUSINESS_ID);
    const res = await callJson("/private/settings", { key, method: "PATCH", body: { notification_emails: [at(65)] } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body).some((p: string) => p.startsWith("notification_emails"))).toBe(true);
  });
});

describe("a staff member's name", () => {
  it("with a direction override is refused at the invitation, and nobody is invited", async () => {
    const email = `rtl-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await expect(inviteStaff(env.DB, { kind: "cli", id: "t", name: "t" }, DEMO_BUSINESS_ID, { email, name: `Eve${RLO}nimda`, role: "owner" }, new Date())).rejects.toMatchObject({
      status: 422,
      extra: { errors: [{ path: "name" }] },
    });
    expect(await count("SELECT COUNT(*) AS n FROM staff_users WHERE email = ?", email)).toBe(0);
  });
});

describe("the guests CSV", () => {
  it("keeps a name with a `;` in one quoted cell whose every part is defused, for Excel set to either list separator", async () => {
    const key = await createKey("public");
    const start = "2027-05-01";
    const added = await callJson("/api/pub/v2/bookings/add", {
      key,
      body: { currency: "EUR", guests: [{ first_name: "Max;=1+1;x", last_name: "@SUM(1)", gender: "m", birth_date: "1990-01-01", package: { id: 101, accommodation_id: 201, start_date: start, end_date: "2027-05-08" } }] },
    });
    expect(added.status).toBe(201);
    expect((await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer() } })).status).toBe(200);
    const { email } = await createStaff(DEMO_BUSINESS_ID, "owner");
    const owner = await signedIn("demo", email);
    const csv = await (await owner.get(`/admin/demo/guests.csv?arrival_date_from=${start}&arrival_date_to=${start}`)).text();
    const line = csv.split("\r\n").find((l) => l.includes("Max"))!;
    expect(line).toContain(`,"Max;'=1+1;x",'@SUM(1),`);
    // Split as a `;` reader would (outside quotes), no cell starts a formula.
    const cells = line.match(/("([^"]|"")*"|[^;]*)(;|$)/g)!.map((c) => c.replace(/;$/, ""));
    expect(cells.every((c) => !/^[=+\-@]/.test(c))).toBe(true);
  });
});

describe("an allowed website copied from the address bar", () => {
  it("with a trailing slash or capitals is stored as its origin, and the widget on it is served", async () => {
    const { businessId } = await cartBusiness();
    const key = await createKey("private", businessId);
    const saved = await callJson("/private/settings", { key, method: "PATCH", body: { widget_origins: ["https://SurfCamp.example/", " https://dive.example "] } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.widget_origins).toEqual(["https://surfcamp.example", "https://dive.example"]);
    const { slug } = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!;
    const res = await callJson(`/widget/v1/${slug}/settings`, { headers: { Origin: "https://surfcamp.example" } });
    expect(res.status).toBe(200);
    // A path is still no origin.
    const bad = await callJson("/private/settings", { key, method: "PATCH", body: { widget_origins: ["https://surfcamp.example/book"] } });
    expect(bad.status).toBe(422);
  });
});
