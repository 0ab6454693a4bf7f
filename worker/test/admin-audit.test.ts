/**
 * The Audit log screen (issue 29): an entry shows what changed, each field before and after, and
 * the kind filter offers the catalog's and the settings' kinds (product, season, settings).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createStaff, signedIn, type Browser } from "./admin-fixtures";
import { adminBusiness, type AdminBusiness } from "./manage-fixtures";

let b: AdminBusiness;
let owner: Browser;

beforeAll(async () => {
  b = await adminBusiness();
  owner = await signedIn(b.slug, (await createStaff(b.businessId, "owner")).email, "198.51.100.71");
});

describe("the Audit log", () => {
  it("offers product, season and settings among its kinds", async () => {
    const html = await (await owner.get(`/admin/${b.slug}/audit`)).text();
    for (const kind of ["product", "season", "settings"]) expect(html).toContain(`<option value="${kind}"`);
  });

  it("shows a changed field's value before and after", async () => {
    const created = await b.admin("/catalog/products", { method: "POST", body: { type: "activity", title: "Morning paddle", duration: { unit: "hour", default: 2 }, capacity: 8, rates: [{ amount: 30 }] } });
    expect(created.status).toBe(201);
    const patched = await b.admin(`/catalog/products/${created.body.data.id}`, { method: "PATCH", body: { capacity: 12 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const html = await (await owner.get(`/admin/${b.slug}/audit?entity=product`)).text();
    expect(html).toContain("Before → after");
    expect(html).toMatch(/<b>capacity<\/b>: 8 → 12/);
  });
});

describe("Today's setup checklist", () => {
  it("shows a new business its unticked steps, and ticks a priced product and an allowed website as they are added", async () => {
    const fresh = await adminBusiness();
    const me = await signedIn(fresh.slug, (await createStaff(fresh.businessId, "owner")).email, "198.51.100.73");
    const step = (html: string, id: string) => html.match(new RegExp(`data-step="${id}" data-done="(yes|no)"`))?.[1];
    const first = await (await me.get(`/admin/${fresh.slug}/today`)).text();
    expect(first).toContain("Set up your business");
    for (const id of ["settings", "product", "website", "booking"]) expect(step(first, id)).toBe("no");

    const created = await fresh.admin("/catalog/products", { method: "POST", body: { type: "activity", title: "Reef dive", duration: { unit: "hour", default: 2 }, capacity: 6, rates: [{ amount: 80 }] } });
    expect(created.status).toBe(201);
    expect((await me.post(`/admin/${fresh.slug}/widget/origins/add`, { origin: "https://reef.example" })).status).toBe(303);

    const after = await (await me.get(`/admin/${fresh.slug}/today`)).text();
    expect(step(after, "product")).toBe("yes");
    expect(step(after, "website")).toBe("yes");
    expect(step(after, "booking")).toBe("no");

    // Each product links to a preview of itself in the widget.
    const id = created.body.data.id as number;
    const editor = await (await me.get(`/admin/${fresh.slug}/catalog/products/${id}`)).text();
    expect(editor).toContain(`<a href="/admin/${fresh.slug}/widget?product=${id}#h-preview">Preview this product in the widget</a>`);
    const preview = await (await me.get(`/admin/${fresh.slug}/widget?product=${id}`)).text();
    expect(preview).toMatch(new RegExp(`<booking-widget id="preview" business="${fresh.slug}" product="${id}"`));
  });
});
