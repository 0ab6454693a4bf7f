/**
 * Steps of the back office's Settings and Widget screens as a person takes them, for
 * e2e/admin-settings.spec.ts and for longer journeys to chain (a module of its own: a spec file
 * must not import another spec file).
 */
import { expect, type Page } from "@playwright/test";
import type { E2EServer } from "./fixtures";
import { hashPassword } from "../worker/src/lib/password";

/**
 * On the Widget screen of the back office at `base` (`<service>/admin/<business>`, the page
 * signed in as an owner or manager): allow `origin` (unless it is listed already), type each
 * `--bw-*` value of `theme` into the Look form and save it. Ends on the Widget screen, saved.
 */
export async function setWidgetOriginAndThemeInScreens(page: Page, base: string, origin: string, theme: Record<string, string>): Promise<void> {
  await page.goto(`${base}/widget`);
  const listed = page.locator(`[data-origin="${origin}"]`);
  if ((await listed.count()) === 0) {
    await page.getByLabel("Add a website (origin)").fill(origin);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.locator(".flash")).toHaveText("Widget settings saved.");
    await expect(listed).toBeVisible();
  }
  for (const [name, value] of Object.entries(theme)) await page.locator(`input[data-theme-prop="${name}"]`).fill(value);
  await page.getByRole("button", { name: "Save look" }).click();
  await expect(page.locator(".flash")).toHaveText("Widget settings saved.");
  for (const [name, value] of Object.entries(theme)) await expect(page.locator(`input[data-theme-prop="${name}"]`)).toHaveValue(value);
}

/** A business of its own (EUR, English) with an owner who has `password`, made straight in the server's D1. */
export async function businessWithOwner(server: E2EServer, slug: string, email: string, password: string): Promise<number> {
  const now = new Date().toISOString();
  await server.exec("INSERT INTO businesses (slug, title, config, created_at) VALUES (?, ?, '{}', ?)", slug, `Camp ${slug}`, now);
  const [{ id }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = ?", slug);
  await server.exec("INSERT INTO currencies (business_id, iso_code, title, symbol, exchange_rate, is_default) VALUES (?, 'EUR', 'Euro', '€', 1, 1)", id);
  await server.exec(
    "INSERT INTO staff_users (id, business_id, email, email_norm, name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'Owner', 'owner', ?, ?, ?)",
    crypto.randomUUID(), id, email, email.toLowerCase(), await hashPassword(password), now, now,
  );
  return id;
}

/** Sign in to the back office of `slug` through its form. */
export async function signInToBackOffice(page: Page, service: string, slug: string, email: string, password: string): Promise<void> {
  await page.goto(`${service}/admin/${slug}/sign-in`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/${slug}/today$`));
}
