import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configFields, isWriteOnly } from "../src/contract/config";
import { adminBusiness, footprint } from "./manage-fixtures";
import { callJson, dbOf } from "./helpers";

const ORIGIN = "https://surfcamp.example";

afterEach(() => vi.restoreAllMocks());

describe("settings through the private API", () => {
  it("shows every configuration field, and a PATCH changes only what it sends, seen at once by the public API", async () => {
    const b = await adminBusiness();
    const got = await b.admin("/settings");
    expect(got.status).toBe(200);
    // every field but a write-only one (the Turnstile secret), which shows only whether it is set
    for (const field of [...configFields().filter((f) => !isWriteOnly(f)), "turnstile_secret_set", "title", "company_name", "frontoffice_domain", "currencies", "problems"]) expect(got.body.data).toHaveProperty(field);
    expect(got.body.data).not.toHaveProperty("turnstile_secret");
    expect(got.body.data.problems).toEqual([]);

    const res = await b.admin("/settings", {
      method: "PATCH",
      body: {
        title: "Blue Lagoon Surf",
        company_name: "Blue Lagoon Lda.",
        languages: ["en", "de", "es"],
        default_language: "en",
        terms: "Terms.",
        terms_translations: { de: "Bedingungen.", es: "Condiciones." },
        widget_origins: [ORIGIN],
        notification_emails: ["owner@bluelagoon.example"],
        cart_lifetime_seconds: 900,
        custom_fields: [{ key: "surf_level", title: "Your surf level", type: "select", options: ["new", "some", "lots"] }],
        currencies: [{ iso_code: "EUR", default: true }, { iso_code: "GBP", exchange_rate: 0.86 }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ title: "Blue Lagoon Surf", widget_allow_loopback: false, cart_lifetime_seconds: 900, guest_fields: got.body.data.guest_fields });
    expect(res.body.data.currencies).toEqual([
      { id: expect.any(Number), iso_code: "EUR", title: "Euro", symbol: "€", exchange_rate: 1, default: true },
      { id: expect.any(Number), iso_code: "GBP", title: "British Pound", symbol: "£", exchange_rate: 0.86, default: false },
    ]);
    const pub = await b.pub("/settings?language=es");
    expect(pub.body).toMatchObject({ title: "Blue Lagoon Surf", company_name: "Blue Lagoon Lda.", languages: ["en", "de", "es"], terms: "Condiciones." });
    // a language the business does not offer falls back to its default, as the catalog does (issue 29)
    const unknown = await b.pub("/settings?language=aa");
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get("content-language")).toBe("en");
    expect(unknown.body.terms).toBe((await b.pub("/settings")).body.terms);
    expect((await b.pub("/settings?language=EN1")).status).toBe(422);
    // The widget of the allowed origin is let in at once; another is refused.
    expect((await callJson(`/widget/v1/${b.slug}/settings`, { headers: { Origin: ORIGIN } })).status).toBe(200);
    expect((await callJson(`/widget/v1/${b.slug}/settings`, { headers: { Origin: "https://elsewhere.example" } })).status).toBe(403);
  });

  it("answers 422 naming every bad field, and changes nothing", async () => {
    const b = await adminBusiness();
    const before = await footprint(b.businessId);
    const shape = await b.admin("/settings", { method: "PATCH", body: { languages: [], cart_lifetime_seconds: 1, max_items_per_cart: "many", colour: "blue", notification_emails: ["not-an-address"] } });
    expect(shape.status).toBe(422);
    expect(shape.body.errors.map((e: any) => e.path).sort()).toEqual(["cart_lifetime_seconds", "colour", "languages", "max_items_per_cart", "notification_emails.0"]);
    const rules = await b.admin("/settings", {
      method: "PATCH",
      body: { languages: ["en", "de"], default_language: "fr", terms_translations: { es: "x" }, widget_origins: ["https://ok.example", "surfcamp.example", "https://x.example/path"], currencies: [{ iso_code: "EUR", default: true }, { iso_code: "EUR" }] },
    });
    expect(rules.status).toBe(422);
    expect(rules.body.errors.map((e: any) => e.path).sort()).toEqual(["currencies.1.iso_code", "default_language", "terms_translations.es", "widget_origins.1", "widget_origins.2"]);
    expect(rules.body.detail).toMatch(/widget_origins\.1: "surfcamp\.example" is not an origin/);
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin("/settings")).body.data.languages).toEqual(["en"]);
  });

  it("keeps the default currency while products have rates (they are amounts in it)", async () => {
    const b = await adminBusiness();
    await b.admin("/catalog/products", { body: { type: "item", title: "Towel", rates: [{ amount: 3 }] } });
    const res = await b.admin("/settings", { method: "PATCH", body: { currencies: [{ iso_code: "USD", default: true }, { iso_code: "EUR", exchange_rate: 0.9 }] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toEqual({ path: "currencies", message: "the default currency stays EUR while products have rates (every rate is an amount in it)" });
  });

  it("never resets a stored config that fails to parse: logs it with business and field, keeps the valid fields, reports it", async () => {
    const b = await adminBusiness();
    await b.admin("/settings", { method: "PATCH", body: { widget_origins: [ORIGIN], terms: "Our terms." } });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // A hand edit breaks one field.
    await (await dbOf(b.businessId)).prepare("UPDATE businesses SET config = json_set(config, '$.cart_lifetime_seconds', 'ten minutes') WHERE id = ?").bind(b.businessId).run();
    const widget = await callJson(`/widget/v1/${b.slug}/settings`, { headers: { Origin: ORIGIN } });
    expect(widget.status).toBe(200); // the allowed origin still is
    expect(widget.body.terms).toBe("Our terms.");
    const lines = logged.mock.calls.map((c) => JSON.parse(String(c[0])));
    expect(lines).toContainEqual(expect.objectContaining({ level: "error", business: b.businessId, field: "cart_lifetime_seconds" }));
    const got = await b.admin("/settings");
    expect(got.body.data.problems).toEqual([{ field: "cart_lifetime_seconds", message: expect.stringMatching(/number/), stored: "ten minutes" }]);
    expect(got.body.data.cart_lifetime_seconds).toBe(600); // its default, in use until it is set
    // A change that leaves it broken names it; one that sets it clears the problem.
    const other = await b.admin("/settings", { method: "PATCH", body: { terms: "New terms." } });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([{ path: "cart_lifetime_seconds", message: expect.any(String) }]);
    const fixed = await b.admin("/settings", { method: "PATCH", body: { cart_lifetime_seconds: 600, terms: "New terms." } });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.problems).toEqual([]);
    expect(fixed.body.data.widget_origins).toEqual([ORIGIN]);
  });
});

describe("audit log and events", () => {
  it("writes one audit entry (who, what, before, after) and one event per change, in the same batch; a refused change writes none", async () => {
    const b = await adminBusiness();
    const created = (await b.admin("/catalog/products", { body: { type: "rental", title: "Wetsuit", rates: [{ amount: 8, unit: "unit", per: "day" }] } })).body.data;
    const before = await footprint(b.businessId);
    const db = await dbOf(b.businessId);
    const seq = (await db.prepare("SELECT COALESCE(MAX(seq), 0) AS s FROM outbox").first<{ s: number }>())!.s;
    await b.admin(`/catalog/products/${created.id}`, { method: "PATCH", body: { title: "Wetsuit 4/3" } });
    const refused = await b.admin(`/catalog/products/${created.id}`, { method: "PATCH", body: { location_id: 424242 } });
    expect(refused.status).toBe(422);
    const after = await footprint(b.businessId);
    expect(after.audit).toBe(Number(before.audit) + 1);
    expect(after.outbox).toBe(Number(before.outbox) + 1);
    const events = (await db.prepare("SELECT event, data FROM outbox WHERE business_id = ? AND seq > ?").bind(b.businessId, seq).all<{ event: string; data: string }>()).results;
    expect(events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([["ProductUpdated", { product_id: created.id, ref: "wetsuit" }]]);

    const log = await b.admin(`/audit?entity=product&entity_id=${created.id}`);
    expect(log.status).toBe(200);
    expect(log.headers.get("X-Total-Count")).toBe("2");
    const [update, creation] = log.body.data;
    expect(update).toMatchObject({ action: "updated", entity: "product", entity_id: String(created.id), actor: { kind: "key", name: b.keyName } });
    expect(update.before.title).toBe("Wetsuit");
    expect(update.after.title).toBe("Wetsuit 4/3");
    expect(creation).toMatchObject({ action: "created", before: null });
    expect(creation.after.rates).toEqual([{ season_id: null, amount: 8, unit: "unit", per: "day", min_qty: 1 }]);
  });

  it("filters by entity, action, actor and time, and pages with X-Total-Count and Link", async () => {
    const b = await adminBusiness();
    for (const title of ["Ericeira", "Peniche", "Sagres"]) await b.admin("/catalog/locations", { body: { title } });
    await b.admin("/settings", { method: "PATCH", body: { terms: "T" } });
    const page = await b.admin("/audit?entity=location&limit=2&page=2");
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(page.body.data.map((e: any) => e.after.title)).toEqual(["Ericeira"]);
    expect(page.headers.get("Link")).toContain('rel="first"');
    expect((await b.admin("/audit?entity=settings")).body.data.map((e: any) => e.summary)).toEqual(["settings changed: terms"]);
    expect((await b.admin(`/audit?actor=${encodeURIComponent(b.keyName)}&action=created`)).body.meta.total).toBe(3);
    expect((await b.admin("/audit?actor=someone-else")).body.data).toEqual([]);
    expect((await b.admin("/audit?at=2000-01-01..2000-12-31")).body.data).toEqual([]);
    const bad = await b.admin("/audit?entity=spaceship&limit=500");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(["entity", "limit"]);
  });

  it("lets webhook subscriptions choose the administration's events", async () => {
    const b = await adminBusiness();
    const res = await b.admin("/webhooks", { body: { url: "https://hooks.example.com/catalog", events: ["ProductCreated", "ProductUpdated", "ProductArchived", "SettingsUpdated", "InventoryUpdated", "CatalogUpdated"] } });
    expect(res.status).toBe(201);
  });
});
