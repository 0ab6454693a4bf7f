/**
 * The back office's Catalog (issue 20, phase 2): lookups and products of every kind made through
 * the forms, as a browser posts them (CSRF token, Origin), and read back through the private and
 * the public API as integrators and guests see them. Bad input is a 422 with the message at its
 * field and what was typed kept, a conflict (capacity below what is held, archiving what a live
 * package includes) a 409 at the form; nothing changes either way. The front desk may not open
 * or post any of it. Every change is audited under the staff user.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaff, ORIGIN, signedIn, type Browser } from "./admin-fixtures";
import { fetchWorker } from "./helpers";
import { adminBusiness, footprint, type AdminBusiness } from "./manage-fixtures";

let b: AdminBusiness;
let owner: Browser;
let ownerEmail: string;
let manager: Browser;
let desk: Browser;
const ids: Record<string, number> = {};
const ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** A form post with repeated fields (check boxes), as a browser sends it. */
async function post(who: Browser, path: string, fields: [string, string][] | Record<string, string>): Promise<Response> {
  const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
  const body = new URLSearchParams([["_csrf", who.csrf ?? ""], ...pairs]).toString();
  return fetchWorker(new URL(path, ORIGIN), {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, "CF-Connecting-IP": "198.51.100.7", ...(who.cookie ? { Cookie: who.cookie } : {}) },
  });
}

const admin = (path = "") => `/admin/${b.slug}/catalog${path}`;

/** The product's id from the editor's URL a creation redirects to. */
function createdId(res: Response): number {
  expect(res.status).toBe(303);
  const m = /\/catalog\/products\/(\d+)\?done=created$/.exec(res.headers.get("Location") ?? "");
  expect(m, res.headers.get("Location") ?? "").not.toBeNull();
  return Number(m![1]);
}

/** A product form's usual fields, then `extra` (later values of a name win for single fields). */
function productForm(type: string, title: string, extra: [string, string][] = [], days = ALL_DAYS): [string, string][] {
  return [["type", type], ["title", title], ["duration.unit", "day"], ["duration.default", "1"], ["pax.min", "1"], ["pax.max", "1"], ...days.map((d): [string, string] => ["allowed_checkin_days", d]), ...extra];
}

async function lookupId(path: string, title: string): Promise<number> {
  const list = await b.admin(`/catalog/${path}`);
  const found = list.body.data.find((l: any) => l.title === title);
  expect(found, JSON.stringify(list.body)).toBeDefined();
  return found.id;
}

beforeAll(async () => {
  b = await adminBusiness();
  const settings = await b.admin("/settings", { method: "PATCH", body: { languages: ["en", "de"], default_language: "en" } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  ownerEmail = (await createStaff(b.businessId, "owner")).email;
  owner = await signedIn(b.slug, ownerEmail);
  manager = await signedIn(b.slug, (await createStaff(b.businessId, "manager")).email);
  desk = await signedIn(b.slug, (await createStaff(b.businessId, "front_desk")).email);
});

/**
 * What the first two tests make through the forms, made once by whichever test needs it first:
 * each test runs alone (`-t`) as well as after the others.
 */
let lookups: Promise<void> | undefined;
const lookupsMade = () =>
  (lookups ??= (async () => {
    expect((await post(owner, admin("/locations"), { title: "Peniche" })).status).toBe(303);
    expect((await post(owner, admin("/categories"), { title: "Surf camps", kind: "frontoffice" })).status).toBe(303);
    expect((await post(owner, admin("/categories"), { title: "Extras", kind: "backoffice" })).status).toBe(303);
    expect((await post(manager, admin("/accommodation-types"), { title: "Dorm" })).status).toBe(303);
    expect((await post(owner, admin("/accommodation-types"), { title: "Rooom" })).status).toBe(303);
    expect((await post(owner, admin("/diets"), { title: "Vegan", abbreviation: "VG", description: "No animal products." })).status).toBe(303);
    ids.location = await lookupId("locations", "Peniche");
    ids.camps = await lookupId("categories", "Surf camps");
    ids.dormType = await lookupId("accommodation-types", "Dorm");
    ids.roomType = await lookupId("accommodation-types", "Rooom");
  })());
let products: Promise<void> | undefined;
const catalogMade = () =>
  (products ??= (async () => {
    await lookupsMade();
    ids.surf = createdId(await post(owner, admin("/products"), productForm("activity", "Surf lessons", [["capacity", "12"], ["location_id", String(ids.location)]])));
    ids.board = createdId(
      await post(owner, admin("/products"), productForm("rental", "Board rental", [["capacity", "15"], ["duration.is_flexible", "on"], ["duration.max", "14"]])),
    );
    ids.dorm = createdId(
      await post(
        owner,
        admin("/products"),
        productForm("accommodation", "Women's dorm", [
          ["accommodation_type_id", String(ids.dormType)],
          ["location_id", String(ids.location)],
          ["duration.default", "7"],
          ["duration.is_flexible", "on"],
          ["pax.max", "4"],
          ["accommodation.rooms", "2"],
          ["accommodation.beds_per_room", "4"],
          ["accommodation.is_private", "false"],
          ["accommodation.gender", "female"],
          ["accommodation.srs.charge", "18"],
          ["accommodation.srs.fixed", "room"],
        ]),
      ),
    );
    ids.room = createdId(
      await post(
        owner,
        admin("/products"),
        productForm("accommodation", "Private double", [
          ["accommodation_type_id", String(ids.roomType)],
          ["duration.default", "7"],
          ["pax.max", "2"],
          ["accommodation.rooms", "3"],
          ["accommodation.beds_per_room", "2"],
          ["accommodation.is_private", "true"],
        ]),
      ),
    );
    ids.week = createdId(
      await post(
        owner,
        admin("/products"),
        productForm(
          "package",
          "Surf week",
          [
            ["description", "Seven nights by the sea."],
            ["translations.de.title", "Surfwoche"],
            ["translations.de.description", "Sieben Nächte am Meer."],
            ["location_id", String(ids.location)],
            ["frontoffice_category_id", String(ids.camps)],
            ["duration.default", "7"],
            ["duration.min", "7"],
            ["duration.max", "7"],
            ["pax.max", "6"],
            ["capacity", "14"],
            ["package.accommodation_ids", String(ids.dorm)],
            ["package.accommodation_ids", String(ids.room)],
            ["package.groups.rows", "1"],
            ["package.items.rows", "3"],
            // Row 0 left blank; row 1 the surf lessons, an option; row 2 the board, an option whose days the guest picks.
            ["package.items.1.product_id", String(ids.surf)],
            ["package.items.1.role", "option"],
            ["package.items.1.qty.min", "0"],
            ["package.items.1.qty.max", "1"],
            ["package.items.1.qty.default", "1"],
            ["package.items.2.product_id", String(ids.board)],
            ["package.items.2.role", "option"],
            ["package.items.2.qty.min", "0"],
            ["package.items.2.qty.max", "1"],
            ["package.items.2.qty.default", "0"],
            ["package.items.2.is_configurable_dates", "on"],
          ],
          ["sat"],
        ),
      ),
    );
  })());

describe("lookups", () => {
  it("adds a location, a front-office category and accommodation types; renames one; refuses an empty title at its field", async () => {
    await lookupsMade();

    const renamed = await post(owner, admin(`/accommodation-types/${ids.roomType}`), { title: "Room", ref: "" });
    expect(renamed.status).toBe(303);
    const page = await (await owner.get(renamed.headers.get("Location")!)).text();
    expect(page).toContain("Saved.");
    expect(page).toContain('value="Room"');
    expect((await b.admin(`/catalog/accommodation-types/${ids.roomType}`)).body.data.title).toBe("Room");
    // The public settings show the diet as guests choose it.
    const diets = (await b.pub("/settings")).body.diets ?? [];
    expect(JSON.stringify(diets)).toContain("Vegan");

    const before = await footprint(b.businessId);
    const bad = await post(owner, admin(`/locations/${ids.location}`), { title: "   " });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(new RegExp(`id="f-${ids.location}-title-error" class="error">[^<]+<`));
    expect(html).toContain('aria-invalid="true"');
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin(`/catalog/locations/${ids.location}`)).body.data.title).toBe("Peniche");

    // A category without a kind: the message at the kind... is impossible from the form (a select); a bad ref is not.
    const badRef = await post(owner, admin("/categories"), { title: "Rentals", kind: "frontoffice", ref: "Not A Ref!" });
    expect(badRef.status).toBe(422);
    const refHtml = await badRef.text();
    expect(refHtml).toContain('id="f-new-ref-error"');
    expect(refHtml).toContain('value="Rentals"');
    expect((await b.admin("/catalog/categories")).body.data.map((l: any) => l.title)).not.toContain("Rentals");
  });
});

describe("products", () => {
  it("makes an activity, a rental, two room types and a package with an option through the forms; guests see them through the public API", async () => {
    await catalogMade();

    // The private API reads what the forms made.
    const dorm = (await b.admin(`/catalog/products/${ids.dorm}`)).body.data;
    expect(dorm).toMatchObject({ type: "accommodation", capacity: 8, accommodation_type_id: ids.dormType, accommodation: { rooms: 2, beds_per_room: 4, is_private: false, gender: "female", srs: { charge: 18, fixed: true } } });
    const week = (await b.admin(`/catalog/products/${ids.week}`)).body.data;
    expect(week).toMatchObject({
      listed: true,
      capacity: 14,
      translations: { de: { title: "Surfwoche", description: "Sieben Nächte am Meer." } },
      duration: { default: 7, min: 7, max: 7 },
      allowed_checkin_days: { sat: true, sun: false, mon: false },
      package: { accommodation_ids: [ids.dorm, ids.room] },
    });
    expect(week.package.items.map((i: any) => [i.product_id, i.role, i.qty, i.is_configurable_dates])).toEqual([
      [ids.surf, "option", { min: 0, max: 1, default: 1 }, false],
      [ids.board, "option", { min: 0, max: 1, default: 0 }, true],
    ]);

    // A guest: the package is listed (its front-office category), in German too; the lessons alone are not.
    const listed = (await b.pub("/products")).body;
    expect(listed.map((p: any) => p.title)).toEqual(["Surf week"]);
    expect((await b.pub("/products?language=de")).body[0]).toMatchObject({ title: "Surfwoche", location: { id: ids.location, title: "Peniche" }, pax: { min: 1, max: 6 } });
    expect((await b.pub(`/products/${ids.surf}`)).body).toMatchObject({ title: "Surf lessons", type: "activity" });
    // The room types by their rules: a man only in the private double, a woman in either.
    const saturday = nextSaturday(60);
    const rooms = (party: string) => b.pub(`/packages/${ids.week}/accommodations?start_date=${saturday}&duration=7&${party}`);
    expect((await rooms("males=1&females=0&couples=0")).body.map((o: any) => o.product.id)).toEqual([ids.room]);
    expect((await rooms("males=0&females=1&couples=0")).body.map((o: any) => o.product.id).sort()).toEqual([ids.dorm, ids.room].sort());

    // Audited under the staff user.
    const audit = await env.DB.prepare("SELECT actor_kind, actor_name, action FROM audit_log WHERE business_id = ? AND entity = 'product' AND entity_id = ?").bind(b.businessId, String(ids.week)).all();
    expect(audit.results).toEqual([{ actor_kind: "staff", actor_name: ownerEmail, action: "created" }]);

    // The editor shows it back, the item's pricing hint and the links to Prices and the inventory screen.
    const editor = await (await owner.get(admin(`/products/${ids.week}`))).text();
    expect(editor).toContain('value="Surfwoche"');
    expect(editor).toContain(`/admin/${b.slug}/prices`);
    expect(editor).toContain(`/admin/${b.slug}/catalog/products/${ids.week}/inventory`);
    expect(editor).toContain("Surf lessons has no price yet");
    // In German and Spanish too (the browser's language).
    expect(await (await owner.get(admin(`/products/${ids.week}`), { "Accept-Language": "de" })).text()).toContain("Inhalt des Pakets");
    expect(await (await owner.get(admin("/categories"), { "Accept-Language": "es" })).text()).toContain("Añadir una categoría");
    // The list: by type, each linked to its editor.
    const list = await (await owner.get(admin())).text();
    expect(list).toMatch(new RegExp(`<section data-type="package">[\\s\\S]*href="/admin/${b.slug}/catalog/products/${ids.week}">Surf week<`));
  });

  it("refuses a bad form with 422: the message at the field, the values kept, nothing created", async () => {
    await catalogMade();
    const before = await footprint(b.businessId);
    const bad = await post(owner, admin("/products"), productForm("activity", "Broken yoga", [["pax.min", "5"], ["pax.max", "2"], ["duration.max", "abc"]]));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(/id="f-duration-max-error" class="error">[^<]*number/);
    expect(html).toContain('value="Broken yoga"');
    expect(html).toContain("Please correct the fields marked below.");
    // In the owner's words, not zod's (issue 29): no "Invalid input: expected number, received string".
    expect(html).toMatch(/id="f-duration-max-error" class="error">Please enter a number\.</);
    expect(html).not.toContain("Invalid input");
    const negative = await post(owner, admin("/products"), productForm("activity", "Broken yoga", [["capacity", "-1"]]));
    expect(negative.status).toBe(422);
    const negativeHtml = await negative.text();
    expect(negativeHtml).toContain("Must be at least 0.");
    expect(negativeHtml).not.toContain("Too small");
    // The private API answers as before: zod's message, nothing more on the error.
    const api = await b.admin("/catalog/products", { method: "POST", body: { type: "activity", title: "Broken yoga", duration: { unit: "hour", default: 1 }, capacity: -1, rates: [{ amount: 1 }] } });
    expect(api.status).toBe(422);
    expect(api.body.errors).toEqual([{ path: "capacity", message: expect.stringMatching(/^Too small/) }]);
    const fixedMax = await post(owner, admin("/products"), productForm("activity", "Broken yoga", [["pax.min", "5"], ["pax.max", "2"]]));
    expect(fixedMax.status).toBe(422);
    const paxHtml = await fixedMax.text();
    expect(paxHtml).toMatch(/id="f-pax-error" class="error">min must not be above max</);
    // ... and listed at the top, linked to its field.
    expect(paxHtml).toContain('<a href="#f-pax">Guests and capacity</a>: min must not be above max');
    // A package item's rule, at its own row (blank rows before it do not shift it).
    const item = await post(
      owner,
      admin("/products"),
      productForm("package", "Broken week", [
        ["package.items.rows", "3"],
        ["package.items.2.product_id", String(ids.surf)],
        ["package.items.2.role", "option"],
        ["package.items.2.qty.min", "0"],
        ["package.items.2.qty.max", "1"],
        ["package.items.2.qty.default", "3"],
      ]),
    );
    expect(item.status).toBe(422);
    expect(await item.text()).toMatch(/id="f-package-items-2-qty-error" class="error">default must be within min..max</);
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin("/catalog/products")).body.data.map((p: any) => p.title)).not.toContain("Broken yoga");
    // ... and (a user added after the footprint) in the language the user chose.
    const german = await signedIn(b.slug, (await createStaff(b.businessId, "manager")).email, "198.51.100.72");
    expect((await german.post(`/admin/${b.slug}/account/language`, { language: "de" })).status).toBe(303);
    const deHtml = await (await post(german, admin("/products"), productForm("activity", "Broken yoga", [["capacity", "-1"]]))).text();
    expect(deHtml).toContain("Muss mindestens 0 sein.");
  });

  it("adds another item row without saving anything", async () => {
    await catalogMade();
    const before = await footprint(b.businessId);
    const res = await post(owner, admin(`/products/${ids.week}`), [...productForm("package", "Surf week, renamed"), ["package.items.rows", "4"], ["_more", "items"]]);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('id="f-package-items-4-product_id"');
    expect(html).toContain('value="Surf week, renamed"');
    expect(await footprint(b.businessId)).toEqual(before);
  });

  it("changes a product, and shows a capacity below what is held as a 409 at the form, changing nothing", async () => {
    await catalogMade();
    const edit = await post(manager, admin(`/products/${ids.surf}`), productForm("activity", "Surf lessons", [["capacity", "10"], ["description", "Two hours a day."]]));
    expect(edit.status).toBe(303);
    expect((await b.admin(`/catalog/products/${ids.surf}`)).body.data).toMatchObject({ capacity: 10, description: "Two hours a day.", location_id: null });
    // Renamed, with the staff title left blank as the editor shows it: staff see the new name too.
    expect(await (await owner.get(admin(`/products/${ids.board}`))).text()).toContain('name="backoffice_title" type="text" value=""');
    expect((await post(owner, admin(`/products/${ids.board}`), productForm("rental", "Surfboard rental", [["capacity", "15"]]))).status).toBe(303);
    expect((await b.admin(`/catalog/products/${ids.board}`)).body.data).toMatchObject({ title: "Surfboard rental", backoffice_title: "Surfboard rental" });
    await env.DB.prepare("INSERT INTO allocations (business_id, product_id, date, qty, cart_id, expires_at, created_at) VALUES (?, ?, '2035-03-03', 4, 'c-admin-catalog', '2099-01-01T00:00:00Z', ?)")
      .bind(b.businessId, ids.surf, new Date().toISOString())
      .run();
    const before = await footprint(b.businessId);
    const conflict = await post(owner, admin(`/products/${ids.surf}`), productForm("activity", "Surf lessons", [["capacity", "2"]]));
    expect(conflict.status).toBe(409);
    const html = await conflict.text();
    expect(html).toContain("Nothing was saved:");
    expect(html).toContain("2035-03-03");
    expect(html).toContain('value="2"');
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin(`/catalog/products/${ids.surf}`)).body.data.capacity).toBe(10);
  });

  it("archives a product (out of the public API, listed under Archived) and restores it; one a live package includes is refused with a 409", async () => {
    await catalogMade();
    const refused = await post(owner, admin(`/products/${ids.surf}/archive`), {});
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Surf week");
    expect((await b.admin(`/catalog/products/${ids.surf}`)).body.data.archived).toBe(false);

    const archived = await post(owner, admin(`/products/${ids.week}/archive`), {});
    expect(archived.status).toBe(303);
    expect((await b.pub(`/products/${ids.week}`)).status).toBe(404);
    expect((await b.pub("/products")).body).toEqual([]);
    const live = await (await owner.get(admin())).text();
    expect(live).not.toContain(`/catalog/products/${ids.week}"`);
    const shelf = await (await owner.get(admin("?archived=true"))).text();
    expect(shelf).toContain(`/catalog/products/${ids.week}"`);
    expect((await post(owner, admin(`/products/${ids.week}/restore`), {})).status).toBe(303);
    expect((await b.pub(`/products/${ids.week}`)).status).toBe(200);

    // A lookup that live products use cannot be archived either.
    const lookup = await post(owner, admin(`/locations/${ids.location}/archive`), {});
    expect(lookup.status).toBe(409);
    expect(await lookup.text()).toContain("is used by products");
    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = 'product' AND entity_id = ? ORDER BY id").bind(b.businessId, String(ids.week)).all();
    expect(actions.results.map((r) => r.action)).toEqual(["created", "archived", "restored"]);
  });
});

describe("the front desk", () => {
  it("gets the 403 page for every catalog URL, GET or POST, and nothing changes", async () => {
    await catalogMade();
    const before = await footprint(b.businessId);
    for (const path of ["", "?archived=true", "/products/new?type=activity", `/products/${ids.surf}`, "/locations", "/categories", "/accommodation-types", "/diets", "/levels"]) {
      const res = await desk.get(admin(path));
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("Your role does not allow this. Nothing was changed.");
    }
    const posts: [string, [string, string][] | Record<string, string>][] = [
      ["/products", productForm("activity", "Desk lessons")],
      [`/products/${ids.surf}`, productForm("activity", "Desk renamed")],
      [`/products/${ids.surf}/archive`, {}],
      [`/products/${ids.week}/restore`, {}],
      ["/locations", { title: "Desk town" }],
      [`/locations/${ids.location}`, { title: "Desk town" }],
      [`/locations/${ids.location}/archive`, {}],
      ["/categories", { title: "Desk", kind: "frontoffice" }],
    ];
    for (const [path, form] of posts) expect((await post(desk, admin(path), form)).status, path).toBe(403);
    expect(await footprint(b.businessId)).toEqual(before);
    expect((await b.admin(`/catalog/products/${ids.surf}`)).body.data.title).toBe("Surf lessons");
    // ... and the navigation does not offer it.
    expect(await (await desk.get(`/admin/${b.slug}/today`)).text()).not.toContain(`href="/admin/${b.slug}/catalog"`);
  });
});

function nextSaturday(daysAhead: number): string {
  const d = new Date(Date.now() + daysAhead * 86_400_000);
  while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
