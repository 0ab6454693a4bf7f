/**
 * Issue 28, the business's optional human check at checkout (Cloudflare Turnstile; docs/security.md).
 * The service asks the loopback stand-in of Cloudflare's siteverify (worker/test/turnstile-siteverify.ts,
 * named by TURNSTILE_VERIFY_URL in worker/vitest.config.ts), over real HTTP, as it asks Cloudflare.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cartBusiness, count, customer, guest, smallPackage, stay } from "./carts-fixtures";
import { callJson, createKey } from "./helpers";
import { exportCatalog, applyCatalog } from "../src/manage/catalog/file";
import { CatalogFile } from "../src/contract/catalog-file";
import { FAILING_SECRET, PASS_TOKEN, PASSING_SECRET } from "./turnstile-siteverify";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const SITE_KEY = "0x4AAAAAAAsiteKeyOfTheCamp";
const SECRET = "0x4AAAAAAAsecret-only-the-server-knows";

async function widgetBusiness(config: Record<string, unknown> = {}) {
  const { businessId, key } = await cartBusiness(config);
  const pkg = await smallPackage(businessId, 100);
  const { slug } = (await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(businessId).first<{ slug: string }>())!;
  return { businessId, key, pkg, slug, privateKey: await createKey("private", businessId) };
}

/** A cart through the widget door, then its checkout with `headers` (the token's among them). */
async function checkoutThroughWidget(b: { slug: string; pkg: number }, headers: Record<string, string> = {}) {
  const visitor = { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
  const { start, end } = stay(2);
  const added = await callJson(`/widget/v1/${b.slug}/bookings/add`, { method: "POST", body: { currency: "EUR", guests: [guest(b.pkg, start, end)] }, headers: visitor });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const res = await callJson(`/widget/v1/${b.slug}/carts/${added.body.cart_id}/checkout`, { method: "POST", body: { terms_accepted: true, customer: customer() }, headers: { ...visitor, ...headers } });
  return { ...res, cartId: added.body.cart_id as string, visitor };
}

const bookings = (businessId: number) => count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", businessId);

describe("the human check at checkout (Turnstile)", () => {
  it("is off by default: a widget checkout needs no token", async () => {
    const b = await widgetBusiness();
    expect((await callJson(`/widget/v1/${b.slug}/bootstrap`)).body.human_check).toBeNull();
    expect((await checkoutThroughWidget(b)).status).toBe(200);
  });

  it("when on, a widget checkout without a token or with a bad one is refused (403 human_check_failed), nothing booked, the cart still open", async () => {
    const b = await widgetBusiness();
    const set = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { turnstile_site_key: SITE_KEY, turnstile_secret: SECRET } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const boot = await callJson(`/widget/v1/${b.slug}/bootstrap`);
    expect(boot.body.human_check).toEqual({ provider: "turnstile", site_key: SITE_KEY });

    const missing = await checkoutThroughWidget(b);
    expect(missing.status).toBe(403);
    expect(missing.headers.get("Content-Type")).toContain("application/problem+json");
    expect(missing.body.code).toBe("human_check_failed");
    expect(missing.body.detail).toContain("Turnstile");
    expect(missing.body.detail).toContain("no token was sent");
    const bad = await checkoutThroughWidget(b, { "X-Turnstile-Token": "made-up-token" });
    expect(bad.status).toBe(403);
    expect(bad.body.detail).toContain("the token is invalid or has expired");
    expect(await bookings(b.businessId)).toBe(0);
    const cart = await callJson(`/widget/v1/${b.slug}/carts/${bad.cartId}`, { headers: bad.visitor });
    expect(cart.body.status).toBe("open");

    // The token Cloudflare confirms books; the refused cart can be checked out with one too.
    const good = await checkoutThroughWidget(b, { "X-Turnstile-Token": PASS_TOKEN });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const retried = await callJson(`/widget/v1/${b.slug}/carts/${bad.cartId}/checkout`, { method: "POST", body: { terms_accepted: true, customer: customer() }, headers: { ...bad.visitor, "X-Turnstile-Token": PASS_TOKEN } });
    expect(retried.status).toBe(200);
    expect(await bookings(b.businessId)).toBe(2);
  });

  it("asks Cloudflare with the business's secret: its documented test secrets pass and fail every token", async () => {
    const passing = await widgetBusiness({ turnstile_site_key: SITE_KEY, turnstile_secret: PASSING_SECRET });
    expect((await checkoutThroughWidget(passing, { "X-Turnstile-Token": "XXXX.DUMMY.TOKEN.XXXX" })).status).toBe(200);
    const failing = await widgetBusiness({ turnstile_site_key: SITE_KEY, turnstile_secret: FAILING_SECRET });
    const refused = await checkoutThroughWidget(failing, { "X-Turnstile-Token": PASS_TOKEN });
    expect(refused.status).toBe(403);
    expect(await bookings(failing.businessId)).toBe(0);
  });

  it("does not ask an integrator's API key: its checkouts book without a token", async () => {
    const b = await widgetBusiness({ turnstile_site_key: SITE_KEY, turnstile_secret: FAILING_SECRET });
    const { start, end } = stay(2);
    const added = await callJson("/api/pub/v2/bookings/add", { key: b.key, method: "POST", body: { currency: "EUR", guests: [guest(b.pkg, start, end)] } });
    expect(added.status).toBe(201);
    const res = await callJson(`/api/pub/v2/carts/${added.body.cart_id}/checkout`, { key: b.key, method: "POST", body: { terms_accepted: true, customer: customer() } });
    expect(res.status).toBe(200);
  });

  it("keeps the secret write-only: never answered, audited, exported or shown to the widget; only whether it is set", async () => {
    const b = await widgetBusiness();
    const set = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { turnstile_site_key: SITE_KEY, turnstile_secret: SECRET } });
    expect(set.body.data).toMatchObject({ turnstile_site_key: SITE_KEY, turnstile_secret_set: true });
    expect(set.body.data).not.toHaveProperty("turnstile_secret");
    const texts = [
      JSON.stringify(set.body),
      JSON.stringify((await callJson("/private/settings", { key: b.privateKey })).body),
      JSON.stringify((await callJson("/private/audit", { key: b.privateKey })).body),
      JSON.stringify((await exportCatalog(env.DB, b.businessId)).file),
      JSON.stringify((await callJson(`/widget/v1/${b.slug}/bootstrap`)).body),
      JSON.stringify((await callJson("/api/pub/v2/settings", { key: b.key })).body),
    ];
    for (const text of texts) expect(text).not.toContain(SECRET);
    expect(texts[2]).toContain("turnstile_secret");

    // The catalog file, applied, keeps the stored secret (the check stays on).
    const file = (await exportCatalog(env.DB, b.businessId)).file;
    await applyCatalog({ DB: env.DB, EMAIL_SENDING_DOMAINS: env.EMAIL_SENDING_DOMAINS }, { kind: "cli", id: "t", name: "t" }, b.businessId, CatalogFile.parse({ ...file, settings: { ...file.settings, brand_color: "#123456" } }), new Date());
    expect((await checkoutThroughWidget(b)).status).toBe(403);
    // A file that carries a secret is refused: the secret is set through the settings only.
    expect(CatalogFile.safeParse({ ...file, settings: { ...file.settings, turnstile_secret: "x" } }).success).toBe(false);

    // Removed (null), the check is off.
    const off = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { turnstile_site_key: null, turnstile_secret: null } });
    expect(off.body.data).toMatchObject({ turnstile_site_key: null, turnstile_secret_set: false });
    expect((await checkoutThroughWidget(b)).status).toBe(200);
  });

  it("a site key without a secret is refused at turnstile_secret (every widget checkout would fail), nothing changed", async () => {
    const b = await widgetBusiness();
    const res = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { turnstile_site_key: SITE_KEY } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "turnstile_secret" })]);
    expect((await callJson("/private/settings", { key: b.privateKey })).body.data.turnstile_site_key).toBeNull();
  });
});
