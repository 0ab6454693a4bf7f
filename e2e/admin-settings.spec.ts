/**
 * The back office's Settings and Widget screens in Chromium: an owner allows a website and gives
 * the widget a colour; the live preview (the real <booking-widget> on the Widget screen) shows the
 * colour as it is typed, before anything is saved; once saved, the widget on that website, a page
 * of another origin, shows it too, the website's own CSS still wins, and dark mode keeps the
 * widget's dark colours. axe finds nothing on
 * either screen, at full width and at 390 px, and nothing on the screens is wider than 390 px.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { businessWithOwner, setWidgetOriginAndThemeInScreens, signInToBackOffice } from "./admin-settings-steps";
import { axeClean, fitsNarrow, PASSWORD } from "./admin-kit";
import { expect, test } from "./fixtures";

/** The business's website: another origin (localhost, where the service is 127.0.0.1), embedding the widget as the Widget screen says. */
async function website(service: string, slug: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = (head: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Surf camp</title>${head}</head><body><main><h1>Book your week</h1>` +
    `<script type="module" src="${service}/widget.js"></script><booking-widget business="${slug}"></booking-widget></main></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://host").pathname;
    const csp = { "Content-Security-Policy": `default-src 'none'; script-src ${service}; connect-src ${service}; style-src 'self'` };
    if (path === "/") return res.writeHead(200, { "Content-Type": "text/html", ...csp }).end(page(""));
    // a website that themes the element itself: its CSS wins over the saved theme
    if (path === "/own-css") return res.writeHead(200, { "Content-Type": "text/html", ...csp }).end(page(`<link rel="stylesheet" href="/site.css">`));
    if (path === "/site.css") return res.writeHead(200, { "Content-Type": "text/css" }).end("booking-widget { --bw-bg: #e0f0ff; }");
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) };
}

/** The widget's own box (inside its shadow root). */
const widgetRoot = (page: Page, selector = "booking-widget") => page.locator(`${selector} .root`);

test("the Widget screen: an owner allows a website and colours the widget, seen live in the preview, then on the website", async ({ server, browser, shot }) => {
  const slug = `wave-${Date.now().toString(36)}`;
  const email = `owner.${slug}@camp.example`;
  await businessWithOwner(server, slug, email, PASSWORD);
  const site = await website(server.url, slug);
  try {
    const owner = await (await browser.newContext()).newPage();
    await signInToBackOffice(owner, server.url, slug, email, PASSWORD);
    const base = `${server.url}/admin/${slug}`;

    // The website is not allowed yet: its widget says so.
    const guest = await (await browser.newContext()).newPage();
    await guest.goto(site.url);
    await expect(guest.locator("booking-widget [part=error]")).toContainText("This website is not allowed to take bookings for this business.");

    // The Widget screen, reached from the navigation; its preview is the real widget.
    await owner.getByRole("link", { name: "Widget", exact: true }).click();
    await expect(owner.getByRole("heading", { level: 1 })).toHaveText("Widget");
    const preview = widgetRoot(owner, "booking-widget#preview");
    await expect(preview).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expect(owner.locator("booking-widget#preview h2")).toBeVisible();
    await axeClean(owner, "widget");

    // Typing a colour changes the preview at once, before anything is saved.
    await owner.getByLabel("Background", { exact: true }).fill("#fff4e0");
    await expect(preview).toHaveCSS("background-color", "rgb(255, 244, 224)");
    // the picker beside the field follows it
    await expect(owner.getByLabel("Pick: Background")).toHaveValue("#fff4e0");
    expect(JSON.parse((await server.query<{ config: string }>("SELECT config FROM businesses WHERE slug = ?", slug))[0].config).widget_theme).toBeUndefined();
    // an invalid value leaves the preview as it was
    await owner.getByLabel("Background", { exact: true }).fill("#fff4e0;}");
    await expect(preview).toHaveCSS("background-color", "rgb(255, 244, 224)");

    // Allow the website and save the look.
    await setWidgetOriginAndThemeInScreens(owner, base, site.url, { "--bw-bg": "#fff4e0", "--bw-accent": "#b41e5a" });
    // a fresh load shows the saved look (no live edit on it)
    await owner.reload();
    await expect(preview).toHaveCSS("background-color", "rgb(255, 244, 224)");
    await shot(owner, "widget-screen");
    // the embed snippet to copy names this business
    await expect(owner.locator("#embed-snippet")).toContainText(`<booking-widget business="${slug}"></booking-widget>`);
    await expect(owner.getByRole("button", { name: "Copy" }).first()).toBeVisible();

    // On the website the widget now works, in the saved colour.
    await guest.goto(site.url);
    await expect(widgetRoot(guest)).toHaveCSS("background-color", "rgb(255, 244, 224)");
    await expect(guest.locator("booking-widget h2")).toBeVisible();
    await expect(guest.locator("booking-widget [part=error]")).toHaveCount(0);
    // the website's own CSS on the element wins over the saved theme
    await guest.goto(`${site.url}/own-css`);
    await expect(widgetRoot(guest)).toHaveCSS("background-color", "rgb(224, 240, 255)");
    // in dark mode the widget keeps its dark colours (a saved light background under its light text would be unreadable)
    await guest.emulateMedia({ colorScheme: "dark" });
    await guest.goto(site.url);
    await expect(widgetRoot(guest)).toHaveCSS("background-color", "rgb(18, 26, 31)");

    // Settings: axe, and both screens at 390 px.
    await owner.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(owner.getByRole("heading", { level: 1 })).toHaveText("Settings");
    await axeClean(owner, "settings");
    await shot(owner, "settings-screen");
    await owner.setViewportSize({ width: 390, height: 844 });
    await fitsNarrow(owner, "settings at 390 px");
    await shot(owner, "settings-screen-390");
    await axeClean(owner, "settings at 390 px");
    await owner.goto(`${base}/widget`);
    await expect(preview).toHaveCSS("background-color", "rgb(255, 244, 224)");
    await fitsNarrow(owner, "widget at 390 px");
    await shot(owner, "widget-screen-390");
    await axeClean(owner, "widget at 390 px");
  } finally {
    await site.close();
  }
});

test("Settings by keyboard: a bad limit is refused at its field with the value kept, then saved with a time zone typed meanwhile, the status on screen; the Widget screen keeps a website typed", async ({ server, browser }) => {
  const slug = `limits-${Date.now().toString(36)}`;
  const email = `owner.${slug}@camp.example`;
  await businessWithOwner(server, slug, email, PASSWORD);
  const page = await (await browser.newContext()).newPage();
  await signInToBackOffice(page, server.url, slug, email, PASSWORD);
  await page.goto(`${server.url}/admin/${slug}/settings`);
  const lifetime = page.getByLabel("Cart lifetime (seconds)");
  await lifetime.fill("2");
  await lifetime.press("Enter");
  await expect(page.locator("#f-cart_lifetime_seconds-error")).toBeVisible();
  await expect(lifetime).toHaveAttribute("aria-invalid", "true");
  await expect(lifetime).toHaveValue("2");
  await axeClean(page, "settings with an error");
  // A time zone typed in its own section is saved by the limits' Save too (the page is one form).
  await page.locator("#f-time_zone").fill("Europe/Lisbon");
  await lifetime.fill("900");
  await lifetime.press("Enter");
  // The status is under the Limits heading, on screen where the page opened, not scrolled off at its top.
  const status = page.locator('[data-section="limits"] .flash');
  await expect(status).toHaveText("Settings saved.");
  await expect(status).toBeInViewport();
  await expect(page.getByLabel("Cart lifetime (seconds)")).toHaveValue("900");
  await expect(page.locator("#f-time_zone")).toHaveValue("Europe/Lisbon");
  const [row] = await server.query<{ config: string }>("SELECT config FROM businesses WHERE slug = ?", slug);
  expect(JSON.parse(row.config)).toMatchObject({ cart_lifetime_seconds: 900, time_zone: "Europe/Lisbon" });
  // The Widget screen: a website typed, then Save look: both kept, the status beside the look.
  await page.goto(`${server.url}/admin/${slug}/widget`);
  await page.getByLabel("Add a website (origin)").fill("https://typed-camp.example");
  await page.locator('input[data-theme-prop="--bw-accent"]').fill("#224466");
  await page.getByRole("button", { name: "Save look" }).click();
  const saved = page.locator('[data-saved="theme"]');
  await expect(saved).toHaveText("Widget settings saved.");
  await expect(saved).toBeInViewport();
  await expect(page.locator('[data-origin="https://typed-camp.example"]')).toBeVisible();
});
