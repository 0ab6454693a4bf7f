/**
 * Steps of the back office's Catalog screens as a person takes them, for e2e/admin-catalog.spec.ts
 * and the longer journeys that chain them (a module of its own: a spec file must not import
 * another spec file).
 */
import { expect, type Page } from "@playwright/test";

export interface SurfPackageIds {
  packageId: number;
  dormId: number;
  roomId: number;
  surfId: number;
  yogaId: number;
  boardId: number;
}

/** Add an entry on a lookup's page (Catalog › Locations, ...) by its "Add" form. */
export async function addLookup(page: Page, adminBase: string, section: string, title: string, kind?: string): Promise<void> {
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
export async function newProduct(page: Page, adminBase: string, type: string): Promise<void> {
  await page.goto(`${adminBase}/catalog`);
  await page.getByRole("link", { name: `New ${type}`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`New ${type}`);
}

/** Press the form's create button; answers the new product's id from the editor it lands on. */
export async function createIt(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Create product" }).last().click();
  await expect(page.getByRole("status")).toHaveText("Product created.");
  const id = Number(/\/catalog\/products\/(\d+)/.exec(page.url())?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Fill a package's item row (0-based) of the editor. */
export async function fillItem(page: Page, row: number, product: string, qty: [number, number, number], guestPicksDays: boolean): Promise<void> {
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
