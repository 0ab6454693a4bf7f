/**
 * The back office's Catalog (issue 20, phase 2) in Chromium: a new business's owner makes a
 * product through the screens, meets a field error and fixes it, then builds the surf camp's
 * catalog (the parts e2e/surf-camp.ts `buildSurfCamp` makes through the private API) through the
 * screens alone; the public API sells what they made. axe finds nothing on the list and the
 * editor, also at 390 px wide, and nothing is wider than the screen.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { npmRun } from "../worker/test/cli/helpers";
import { expect, test } from "./fixtures";

const PASSWORD = "surf & yoga every day";

export interface SurfPackageIds {
  packageId: number;
  dormId: number;
  roomId: number;
  surfId: number;
  yogaId: number;
  boardId: number;
}

async function axeClean(page: Page, step: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `axe violations on "${step}"`).toEqual([]);
}

async function fitsNarrow(page: Page, step: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  // The widest elements past the edge, named in the failure.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > 391 && !el.closest(".table-wrap"))
      .slice(-5)
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
  expect(width, `horizontal overflow on "${step}": ${wide.join(", ")}`).toBeLessThanOrEqual(390);
}

/** Add an entry on a lookup's page (Catalog › Locations, ...) by its "Add" form. */
async function addLookup(page: Page, adminBase: string, section: string, title: string, kind?: string): Promise<void> {
  await page.goto(`${adminBase}/catalog`);
  await page.getByRole("navigation", { name: "Catalog sections" }).getByRole("link", { name: section }).click();
  const form = page.getByRole("form", { name: /^Add an? / });
  await form.getByLabel("Title").fill(title);
  if (kind) await form.getByLabel("Kind").selectOption({ label: kind });
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status")).toHaveText("Added.");
  await expect(page.locator("ul.entries legend", { hasText: title })).toBeVisible();
}

/** Open "New <type>" from the catalog's list. */
async function newProduct(page: Page, adminBase: string, type: string): Promise<void> {
  await page.goto(`${adminBase}/catalog`);
  await page.getByRole("link", { name: `New ${type}`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`New ${type}`);
}

/** Press the form's create button; answers the new product's id from the editor it lands on. */
async function createIt(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Create product" }).last().click();
  await expect(page.getByRole("status")).toHaveText("Product created.");
  const id = Number(/\/catalog\/products\/(\d+)/.exec(page.url())?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Fill a package's item row (0-based) of the editor. */
async function fillItem(page: Page, row: number, product: string, qty: [number, number, number], guestPicksDays: boolean): Promise<void> {
  const at = (field: string) => page.locator(`#f-package-items-${row}-${field}`);
  await at("product_id").selectOption({ label: product });
  await at("role").selectOption({ label: "Option" });
  await at("qty-min").fill(String(qty[0]));
  await at("qty-max").fill(String(qty[1]));
  await at("qty-default").fill(String(qty[2]));
  if (guestPicksDays) await at("is_configurable_dates").check();
}

/**
 * Through the Catalog's screens only, as an owner or manager signed in on `page` (`adminBase`:
 * the origin's /admin/<business>): what `buildSurfCamp` (e2e/surf-camp.ts) makes of the catalog
 * through the private API: a location, a front-office category, the Dorm and Room accommodation
 * types, the women's dorm (shared, 2 rooms of 4 beds, single-room supplement 18 per room) and the
 * private double (couples), the surf lessons, the yoga class (by the hour; its timeslots are the
 * Inventory screen's), board rental, and the 7-night Saturday package with those three as options
 * and both room types. A German translation is filled when the business has German. Prices,
 * seasons, timeslots and blocked dates are other screens'.
 */
export async function buildSurfPackageInScreens(page: Page, adminBase: string): Promise<SurfPackageIds> {
  await addLookup(page, adminBase, "Locations", "Peniche");
  await addLookup(page, adminBase, "Categories", "Surf camps", "Front office (lists its products)");
  await addLookup(page, adminBase, "Accommodation types", "Dorm");
  await addLookup(page, adminBase, "Accommodation types", "Room");

  await newProduct(page, adminBase, "activity");
  await page.locator("#f-title").fill("Surf lessons");
  await page.getByLabel("Location").selectOption({ label: "Peniche" });
  await page.getByLabel("Capacity per date").fill("12");
  const surfId = await createIt(page);

  await newProduct(page, adminBase, "activity");
  await page.locator("#f-title").fill("Sunrise yoga");
  await page.getByLabel("Counted in").selectOption("hour");
  await page.getByLabel("Capacity per date").fill("10");
  const yogaId = await createIt(page);

  await newProduct(page, adminBase, "rental");
  await page.locator("#f-title").fill("Board rental");
  await page.getByLabel("Capacity per date").fill("15");
  await page.getByLabel("Any length from the minimum to the maximum may be booked").check();
  const boardId = await createIt(page);

  await newProduct(page, adminBase, "accommodation");
  await page.locator("#f-title").fill("Women's dorm");
  await page.getByLabel("Accommodation type").selectOption({ label: "Dorm" });
  await page.getByLabel("Location").selectOption({ label: "Peniche" });
  await page.getByLabel("Usual length").fill("7");
  await page.getByLabel("Minimum stay").fill("1");
  await page.getByLabel("Any length from the minimum to the maximum may be booked").check();
  await page.getByLabel("Most persons per booking").fill("4");
  await page.getByLabel("Rooms", { exact: true }).fill("2");
  await page.getByLabel("Beds per room").fill("4");
  await page.getByLabel("Shared: beds, under the gender rule").check();
  await page.getByLabel("Gender rule (shared rooms)").selectOption({ label: "Women only" });
  await page.locator("#f-accommodation-srs-charge").fill("18");
  await page.getByLabel("The supplement is charged").selectOption({ label: "per room and night" });
  const dormId = await createIt(page);

  await newProduct(page, adminBase, "accommodation");
  await page.locator("#f-title").fill("Private double");
  await page.getByLabel("Accommodation type").selectOption({ label: "Room" });
  await page.getByLabel("Location").selectOption({ label: "Peniche" });
  await page.getByLabel("Usual length").fill("7");
  await page.getByLabel("Minimum stay").fill("1");
  await page.getByLabel("Any length from the minimum to the maximum may be booked").check();
  await page.getByLabel("Most persons per booking").fill("2");
  await page.getByLabel("Rooms", { exact: true }).fill("3");
  await page.getByLabel("Beds per room").fill("2");
  await page.getByLabel("Private: whole rooms (couples, families, anyone)").check();
  const roomId = await createIt(page);

  await newProduct(page, adminBase, "package");
  await page.locator("#f-title").fill("Surf week");
  await page.locator("#f-description").fill("Seven nights by the sea, lessons if you want them.");
  if (await page.locator("#f-translations-de-title").count()) {
    await page.locator("#f-translations-de-title").fill("Surfwoche");
    await page.locator("#f-translations-de-description").fill("Sieben Nächte am Meer.");
  }
  await page.getByLabel("Location").selectOption({ label: "Peniche" });
  await page.getByLabel("Front-office category", { exact: true }).selectOption({ label: "Surf camps" });
  await page.getByLabel("Usual length").fill("7");
  await page.getByLabel("Minimum stay").fill("7");
  await page.getByLabel("Maximum stay").fill("7");
  await page.getByLabel("Most persons per booking").fill("6");
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Sunday"]) await page.getByLabel(day, { exact: true }).uncheck();
  await page.getByLabel("Capacity per date").fill("14");
  await page.getByLabel("Women's dorm").check();
  await page.getByLabel("Private double").check();
  await fillItem(page, 0, "Surf lessons (activity)", [0, 1, 1], false);
  await fillItem(page, 1, "Sunrise yoga (activity)", [0, 1, 0], true);
  // A fourth row, without script: the form comes back with what was typed and one more row.
  await page.getByRole("button", { name: "Add another item row" }).click();
  await expect(page.getByRole("status")).toHaveText("One more row added below. Nothing is saved until you save.");
  await expect(page.locator("#f-package-items-0-product_id")).toHaveValue(String(surfId));
  await expect(page.locator("#f-package-items-3-product_id")).toBeVisible();
  await fillItem(page, 3, "Board rental (rental)", [0, 1, 0], true);
  const packageId = await createIt(page);
  return { packageId, dormId, roomId, surfId, yogaId, boardId };
}

test("an owner builds the surf camp's catalog in the Catalog screens, fixing a field error; guests see it through the public API", async ({ page, server, shot }) => {
  const slug = `catalog-${Date.now().toString(36)}`;
  const state = ["--persist-to", server.persistTo];
  const created = await npmRun("business", ["create", "--slug", slug, "--title", "Atlantic Surf House", "--currency", "EUR", ...state]);
  expect(created.code, created.stderr).toBe(0);
  const key = await npmRun("keys", ["create", "--business", slug, "--scope", "private", "--name", "catalog e2e", ...state]);
  expect(key.code, key.stderr).toBe(0);
  const privateKey = key.stdout.trim();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/private${path}`, { method, headers: { Authorization: `Bearer ${privateKey}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, `${method} ${path}`).toBe(200);
    return ((await res.json()) as any).data;
  };
  // German besides English (the Settings screen's business; here through the API).
  await call("PATCH", "/settings", { languages: ["en", "de"], default_language: "en" });

  const email = `owner.${slug}@atlantic.example`;
  const invite = await npmRun("staff", ["invite", "--business", slug, "--email", email, "--role", "owner", ...state, "--url", server.url]);
  expect(invite.code, invite.stderr).toBe(0);
  await page.goto(invite.stdout.trim());
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/${slug}/today$`));
  const adminBase = `${server.url}/admin/${slug}`;

  // The Catalog, from the navigation.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalog" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Catalog");
  await expect(page.getByRole("heading", { level: 2, name: "Packages" })).toBeVisible();
  await axeClean(page, "catalog list");

  // A product by keyboard: a field error, seen and fixed.
  await page.getByRole("link", { name: "New service", exact: true }).click();
  await page.locator("#f-title").focus();
  await page.keyboard.type("Airport transfer");
  await page.getByLabel("Fewest persons per booking").fill("4");
  await page.getByLabel("Most persons per booking").fill("2");
  await page.getByRole("button", { name: "Create product" }).first().press("Enter");
  await expect(page.getByRole("alert").first()).toContainText("Please correct the fields marked below.");
  const pax = page.getByRole("group", { name: "Guests and capacity" });
  await expect(pax).toContainText("min must not be above max");
  await expect(page.locator("#f-title")).toHaveValue("Airport transfer");
  await axeClean(page, "editor with an error");
  await shot(page, "editor-with-an-error");
  // The list of errors at the top leads to the field.
  await page.getByRole("alert").first().getByRole("link", { name: "Guests and capacity" }).click();
  await expect(page).toHaveURL(/#f-pax$/);
  await page.getByLabel("Most persons per booking").focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("6");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Product created.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit: Airport transfer");
  await expect(page.getByLabel("Most persons per booking")).toHaveValue("6");

  const camp = await buildSurfPackageInScreens(page, adminBase);

  // The editor and the list, axe-clean at desktop width and at 390 px; nothing wider than the screen.
  await page.goto(`${adminBase}/catalog/products/${camp.packageId}`);
  await expect(page.locator("#f-translations-de-title")).toHaveValue("Surfwoche");
  await axeClean(page, "package editor");
  await shot(page, "package-editor");
  await page.setViewportSize({ width: 390, height: 800 });
  for (const [step, path] of [
    ["package editor", `/catalog/products/${camp.packageId}`],
    ["new package", "/catalog/products/new?type=package"],
    ["dorm editor", `/catalog/products/${camp.dormId}`],
    ["catalog list", "/catalog"],
    ["categories", "/catalog/categories"],
  ] as const) {
    await page.goto(`${adminBase}${path}`);
    await axeClean(page, `${step} at 390 px`);
    await fitsNarrow(page, step);
    await shot(page, `${step.replace(/ /g, "-")}-390`);
  }

  // What the screens made, as the private API and a guest see it.
  const week = await call("GET", `/catalog/products/${camp.packageId}`);
  expect(week).toMatchObject({ listed: true, capacity: 14, duration: { default: 7, min: 7, max: 7 }, pax: { min: 1, max: 6 }, allowed_checkin_days: { sat: true, sun: false } });
  expect(week.package.accommodation_ids).toEqual([camp.dormId, camp.roomId]);
  expect(week.package.items.map((i: any) => [i.product_id, i.role, i.qty.default, i.is_configurable_dates])).toEqual([
    [camp.surfId, "option", 1, false],
    [camp.yogaId, "option", 0, true],
    [camp.boardId, "option", 0, true],
  ]);
  expect((await call("GET", `/catalog/products/${camp.dormId}`)).accommodation).toEqual({ rooms: 2, beds_per_room: 4, is_private: false, gender: "female", srs: { charge: 18, fixed: true } });
  const audit = await server.query<{ actor_name: string }>("SELECT DISTINCT actor_name FROM audit_log a JOIN businesses b ON b.id = a.business_id WHERE b.slug = ? AND a.entity = 'product'", slug);
  expect(audit).toEqual([{ actor_name: email }]);
  const pub = await npmRun("keys", ["create", "--business", slug, "--scope", "public", "--name", "catalog e2e public", ...state]);
  const listed = await fetch(`${server.url}/api/pub/v2/products?language=de`, { headers: { Authorization: `Bearer ${pub.stdout.trim()}` } });
  expect(((await listed.json()) as any[]).map((p) => p.title)).toEqual(["Surfwoche"]);
});
