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
