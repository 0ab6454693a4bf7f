/**
 * The back office's Catalog (issue 20, phase 2) in Chromium: a new business's owner makes a
 * product through the screens, meets a field error and fixes it, then builds the surf camp's
 * catalog (the parts e2e/surf-camp.ts `buildSurfCamp` makes through the private API) through the
 * screens alone; the public API sells what they made. axe finds nothing on the list and the
 * editor, also at 390 px wide, and nothing is wider than the screen.
 */
import { npmRun } from "../worker/test/cli/helpers";
import { addLookup, buildSurfPackageInScreens, createIt, fillItem, newProduct } from "./admin-catalog-steps";
import { acceptInvite, axeClean, fitsNarrow, signIn } from "./admin-kit";
import { expect, test } from "./fixtures";

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
  await acceptInvite(page, invite.stdout.trim());
  await signIn(page, email);
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
