import { describe, expect, it } from "vitest";
import { may, type Role } from "../src/domain/staff";
import { AREAS } from "../src/routes/admin";
import { createStaff, signedIn } from "./admin-fixtures";
import { DEMO_BUSINESS_ID } from "./helpers";

// Every route of the back office, as the table of areas declares it (routes/admin/index.tsx).
const routes = AREAS.flatMap((a) => a.routes.map((r) => ({ area: a.name, ...r })));

/** A URL of a route's path: ids that parse (the refusal must come before any id is read anyway). */
const urlOf = (path: string) =>
  `/admin${path}`.replace(":business", "demo").replace(":section", "languages").replace(/:(id|guest)/g, "00000000-0000-4000-8000-000000000001");


/**
 * Each route's permission, written out: the checks each handler made by hand before the table of
 * areas (issue 26), so a declaration that drifts from them fails here.
 */
const LOOKUPS = ["locations", "categories", "accommodation-types", "diets", "levels"].flatMap((l) =>
  ["get ", "post ", "post /:id", "post /:id/archive", "post /:id/restore"].map((m) => `${m.split(" ")[0]} /:business/catalog/${l}${m.split(" ")[1]}`),
);
const PERMISSIONS: Record<string, string[]> = {
  public: ["get /", "get /go", "get /invite/:token", "post /invite/:token", "get /:business/sign-in", "post /:business/sign-in", "get /:business/forgot", "post /:business/forgot", "get /:business/reset/:token", "post /:business/reset/:token"],
  "signed-in": ["get /:business", "post /:business/sign-out", "get /:business/account", "post /:business/account/password", "post /:business/account/language"],
  bookings: [
    "get /:business/today",
    "get /:business/manifest",
    "get /:business/bookings",
    "get /:business/bookings/new",
    "post /:business/bookings/new",
    "get /:business/bookings/:id",
    "post /:business/bookings/:id/cancel",
    "post /:business/bookings/:id/booker",
    "post /:business/bookings/:id/notes",
    "post /:business/bookings/:id/move",
    "post /:business/bookings/:id/payments",
    "post /:business/bookings/:id/payment-links",
    "get /:business/payments",
    "get /:business/payments.csv",
  ],
  refunds: ["post /:business/bookings/:id/refunds"],
  check_in: ["post /:business/bookings/:id/guests/:guest/check-in", "post /:business/bookings/:id/guests/:guest/check-out"],
  calendar: ["get /:business/calendar"],
  inventory: ["post /:business/calendar/blocks", "get /:business/catalog/products/:id/inventory", "post /:business/catalog/products/:id/inventory/blocks"],
  guests: ["get /:business/guests", "get /:business/guests.csv"],
  catalog: [
    "get /:business/catalog",
    "get /:business/catalog/products/new",
    "post /:business/catalog/products",
    "get /:business/catalog/products/:id",
    "post /:business/catalog/products/:id",
    "post /:business/catalog/products/:id/archive",
    "post /:business/catalog/products/:id/restore",
    ...LOOKUPS,
    "get /:business/seasons",
    "post /:business/seasons",
    "get /:business/seasons/:id",
    "post /:business/seasons/:id",
    "post /:business/seasons/:id/archive",
    "post /:business/catalog/products/:id/inventory/capacity",
    "post /:business/catalog/products/:id/inventory/timeslots",
  ],
  prices: ["get /:business/prices", "post /:business/prices"],
  settings: ["get /:business/settings", "post /:business/settings/:section", "get /:business/widget", "post /:business/widget/origins/add", "post /:business/widget/origins/remove", "post /:business/widget/loopback", "post /:business/widget/theme"],
  emails: ["get /:business/emails", "get /:business/emails/:id"],
  emails_resend: ["post /:business/emails/:id/resend"],
  developers: [
    "get /:business/developers",
    "post /:business/developers/keys",
    "post /:business/developers/stripe",
    "post /:business/developers/keys/:id/revoke",
    "post /:business/developers/webhooks",
    "get /:business/developers/webhooks/:id",
    "post /:business/developers/webhooks/:id/delete",
    "post /:business/developers/webhooks/:id/enable",
    "post /:business/developers/webhooks/:id/redeliver",
  ],
  staff: ["get /:business/staff", "post /:business/staff/invite", "post /:business/staff/:id/role", "post /:business/staff/:id/remove"],
  audit: ["get /:business/audit"],
};

describe("the back office's table of areas", () => {
  it("declares each method and path once", () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys.length).toBeGreaterThan(60);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("gives each route the permission its handler checked by hand before", () => {
    const declared = Object.fromEntries(Object.keys(PERMISSIONS).map((p) => [p, routes.filter((r) => r.permission === p).map((r) => `${r.method} ${r.path}`).sort()]));
    const expected = Object.fromEntries(Object.entries(PERMISSIONS).map(([p, list]) => [p, [...list].sort()]));
    expect(declared).toEqual(expected);
    expect(routes.length).toBe(Object.values(PERMISSIONS).flat().length);
  });

  for (const role of ["manager", "front_desk"] as const) {
    it(`refuses a ${role} every route whose declared permission the role lacks, with the 403 page`, async () => {
      const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, role)).email);
      const refused = routes.filter((r) => r.permission !== "public" && r.permission !== "signed-in" && !may(role as Role, r.permission));
      expect(refused.length).toBeGreaterThan(role === "front_desk" ? 40 : 10);
      for (const r of refused) {
        const res = r.method === "get" ? await b.get(urlOf(r.path)) : await b.post(urlOf(r.path), {});
        expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
        expect(await res.text()).toContain("Your role does not allow this. Nothing was changed.");
      }
    });
  }

  it("shows in the navigation exactly the areas' entries the role may open, in the table's order", async () => {
    const b = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const html = await (await b.get("/admin/demo/today")).text();
    const nav = /<nav aria-label="[^"]*">(.*?)<\/nav>/s.exec(html)![1];
    const links = [...nav.matchAll(/href="\/admin\/demo([^"]+)"/g)].map((m) => m[1]);
    const expected = AREAS.flatMap((a) => a.nav).filter((n) => may("front_desk", n.permission)).map((n) => n.path);
    expect(links).toEqual(expected);
    expect(links).toEqual(["/today", "/calendar", "/manifest", "/bookings", "/payments", "/guests"]);
  });
});
