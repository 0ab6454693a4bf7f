/**
 * The widget on pages we do not control, served from another origin by a small host server of
 * the test's own: a strict CSP (scripts and connections only from the service, style-src 'self',
 * Trusted Types), aggressive global CSS, a 72 px sticky header, storage that throws, a fetch
 * wrapper adding tracing headers and Prototype.js's Array.prototype.toJSON (the surf camp's week,
 * and the dive centre's boat dive from its product list); a foreign origin and
 * a sandboxed frame the business does not allow; a page where the tag name is taken.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, heading, test } from "./fixtures";
import { expectStep, fillGuest, pickDay, tabTo, w } from "./journey";

/** What a site owner's stylesheet may do to everything on the page. */
const HOSTILE_CSS = `
* { all: unset; }
head, script, style, title { display: none; }
html { font-size: 8px; display: block; }
body { display: block; }
body * { color: #cc0000; font-family: "Comic Sans MS", cursive; letter-spacing: 3px; }
header.site { display: block; position: sticky; top: 0; height: 72px; background: #222; z-index: 10; }
main, section, p, footer { display: block; margin: 16px; }
.tall { height: 1400px; }
`;

interface Host {
  url: string;
  close(): Promise<void>;
}

/** The host site: another origin (localhost, where the service is 127.0.0.1), on a free port. */
async function hostSite(service: string): Promise<Host> {
  const csp = [
    "default-src 'none'",
    `script-src ${service}`,
    `connect-src ${service}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "require-trusted-types-for 'script'",
    "trusted-types lit-html",
  ].join("; ");
  const page = (body: string, head = `<link rel="stylesheet" href="/site.css">`) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Surf shop</title>${head}</head><body>${body}</body></html>`;
  const widget = (business: string, attrs = ` product="101"`) =>
    `<script type="module" src="${service}/widget.js"></script><booking-widget business="${business}"${attrs}></booking-widget>`;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://host").pathname;
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": type, ...headers });
      res.end(body);
    };
    if (path === "/site.css") return send(200, "text/css", HOSTILE_CSS);
    if (path === "/favicon.ico") return send(204, "image/x-icon", "");
    if (path === "/") {
      return send(200, "text/html", page(`<header class="site"><p>Surf shop · Lessons · Contact</p></header>
        <main><p>Book your surf week below.</p>${widget("demo")}<section class="tall"><p>More about us.</p></section></main>`), { "Content-Security-Policy": csp });
    }
    if (path === "/dive") {
      // the dive centre's whole list (no product attribute): it allows loopback origins
      return send(200, "text/html", page(`<header class="site"><p>Dive shop · Boats · Contact</p></header>
        <main><p>Book a dive below.</p>${widget("dive", "")}<section class="tall"><p>More about us.</p></section></main>`), { "Content-Security-Policy": csp });
    }
    if (path === "/closed") return send(200, "text/html", page(`<main>${widget("closed-camp")}</main>`), { "Content-Security-Policy": csp });
    if (path === "/framed") {
      // a sandboxed frame: its origin is "null"
      const doc = page(`<main>${widget("demo")}</main>`, "").replace(/"/g, "&quot;");
      return send(200, "text/html", page(`<main><iframe sandbox="allow-scripts" title="booking" srcdoc="${doc}"></iframe></main>`, ""), { "Content-Security-Policy": csp.replace("default-src 'none'", "default-src 'none'; frame-src 'self'") });
    }
    if (path === "/taken" || path === "/renamed") {
      // another script got there first: an element of its own under our name
      const tag = path === "/renamed" ? ` data-tag="acme-booking"` : "";
      const el = path === "/renamed" ? "acme-booking" : "booking-widget";
      return send(200, "text/html", page(`<script>customElements.define("booking-widget", class extends HTMLElement {});</script>
        <script type="module" src="${service}/widget.js"${tag}></script><${el} business="demo" product="101"></${el}>`, ""));
    }
    send(404, "text/plain", "not found");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://localhost:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

/** What the browser reports as wrong: console errors, uncaught exceptions, CSP violations. */
async function watchForErrors(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()} (${m.location().url})`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`), true);
  });
  return problems;
}

/** The host page's own scripts (added by the test: the page's CSP would not let the host run inline code either). */
async function hostScripts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // Prototype.js 1.6: arrays serialize themselves as a JSON string
    (Array.prototype as any).toJSON = function () {
      return `[${this.map((x: unknown) => JSON.stringify(x)).join(", ")}]`;
    };
    // storage disabled (private mode, a strict browser): every access throws
    for (const name of ["localStorage", "sessionStorage"]) {
      Object.defineProperty(window, name, { get: () => { throw new DOMException("The operation is insecure.", "SecurityError"); } });
    }
    // an APM's fetch wrapper: tracing headers on every request
    const original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
      headers.set("tracestate", "vendor=abc");
      headers.set("baggage", "user=guest");
      return original(input, { ...init, headers });
    };
  });
}

/** The step's heading is focused and in full view below the 72 px sticky header. */
async function expectStepBelowHeader(page: Page, text: string): Promise<void> {
  await expectStep(page, text);
  const box = (await heading(page).boundingBox())!;
  expect(box.y, `"${text}" under the sticky header`).toBeGreaterThanOrEqual(72);
  expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

test.describe("on a hostile host page of another origin", () => {
  let host: Host;
  test.beforeAll(async ({ server }) => {
    host = await hostSite(server.url);
  });
  test.afterAll(async () => host.close());

  test("a keyboard-only guest books end to end under a strict CSP, global CSS, a sticky header, throwing storage, Prototype.js and tracing headers; no console error; the booking is confirmed", async ({ page, server }) => {
    // a laptop's short window: every step is taller than what is seen, so each Continue scrolls
    await page.setViewportSize({ width: 1024, height: 560 });
    const problems = await watchForErrors(page);
    await hostScripts(page);
    const traced: string[] = [];
    page.on("request", (r) => r.url().includes("/widget/v1/") && r.headers()["traceparent"] && traced.push(r.url()));
    await page.goto(`${host.url}/`);
    await expect(heading(page)).toHaveText("Choose your dates");

    // the host's styles do not reach in: the widget keeps its box, its fonts and its colours
    const root = w(page, ".root");
    await expect(root).toHaveCSS("font-size", "16px");
    await expect(root).toHaveCSS("border-top-width", "1px");
    await expect(root).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expect(root).toHaveCSS("display", "grid");
    await expect(heading(page)).toHaveCSS("letter-spacing", "normal");
    await expect(heading(page)).not.toHaveCSS("color", "rgb(204, 0, 0)");
    await expect(heading(page)).not.toHaveCSS("font-family", /Comic/);
    expect((await root.boundingBox())!.width).toBeGreaterThan(500);

    const firstOpen = w(page, "td.open").first();
    await tabTo(page, firstOpen);
    await page.keyboard.press("Enter");
    await expect(firstOpen).toHaveAttribute("aria-selected", "true");
    await tabTo(page, page.getByRole("button", { name: "Continue" }));
    await page.keyboard.press("Enter");

    await expectStepBelowHeader(page, "Guests and room");
    await tabTo(page, page.getByRole("button", { name: "More Women" }));
    await page.keyboard.press("Enter");
    const radio = w(page, 'input[name="room"]:not([disabled])').first();
    await expect(radio).toBeVisible();
    await tabTo(page, radio);
    await page.keyboard.press("Space");
    await expect(radio).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Continue" }));
    await page.keyboard.press("Enter");

    await expectStepBelowHeader(page, "Extras");
    const transfer = page.locator("booking-widget .card").filter({ hasText: "Airport Transfer" }).locator('input[type="checkbox"]').first();
    await tabTo(page, transfer);
    await page.keyboard.press("Space");
    await expect(transfer).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Continue" }));
    await page.keyboard.press("Enter");

    await expectStepBelowHeader(page, "Guest details");
    await page.keyboard.press("Tab");
    await expect(w(page, "#g0-first_name")).toBeFocused();
    await page.keyboard.type("Hana");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Hostile");
    await page.keyboard.press("Tab");
    await page.keyboard.type("hana.hostile@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type("07221991");
    await expect(w(page, "#g0-birth_date")).toHaveValue("1991-07-22");
    await tabTo(page, page.getByRole("button", { name: "Add to cart" }));
    await page.keyboard.press("Enter");

    await expectStepBelowHeader(page, "Your cart");
    await tabTo(page, page.getByRole("button", { name: "Go to checkout" }));
    await page.keyboard.press("Enter");

    await expectStepBelowHeader(page, "Checkout");
    await tabTo(page, w(page, "#c-phone"));
    await page.keyboard.type("912345678");
    await tabTo(page, w(page, "#terms"));
    await page.keyboard.press("Space");
    const booked = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
    await tabTo(page, page.getByRole("button", { name: /Book now for/ }));
    await page.keyboard.press("Enter");
    const booking = await (await booked).json();
    await expectStepBelowHeader(page, "Booking confirmed");
    await expect(w(page, "[data-booking-reference]")).toHaveText(booking.reference);

    const record = await server.privateApi(`/private/bookings/${booking.id}`);
    expect(record.status).toBe(200);
    expect(record.body.data).toMatchObject({ id: booking.id, status: "confirmed" });
    const guests = await server.privateApi(`/private/guests?booking_id=${booking.id}`);
    expect(guests.body.map((g: any) => [g.person.first_name, g.person.gender])).toEqual([["Hana", "female"]]);
    // the page really was that hostile
    expect(traced.length).toBeGreaterThan(3);
    expect(await page.evaluate(() => JSON.stringify({ a: [1] }))).toBe('{"a":"[1]"}');
    expect(problems).toEqual([]);
  });

  test("the dive centre's list on the same hostile page: a boat dive for two at 14:00, from the product list through the participants and their time to a confirmed booking; no console error", async ({ page, server }) => {
    await page.setViewportSize({ width: 1024, height: 560 });
    const problems = await watchForErrors(page);
    await hostScripts(page);
    const traced: string[] = [];
    page.on("request", (r) => r.url().includes("/widget/v1/dive/") && r.headers()["traceparent"] && traced.push(r.url()));
    await page.goto(`${host.url}/dive`);
    await expect(heading(page)).toHaveText("What would you like to book?");

    // the product list keeps the widget's own look: cards with their border, the widget's font
    const card = page.locator("booking-widget article.card").filter({ has: page.getByRole("heading", { name: "Boat Dive", exact: true }) });
    await expect(card).toHaveCSS("border-top-width", "1px");
    await expect(card.locator("h3")).toHaveCSS("letter-spacing", "normal");
    await expect(card.locator("h3")).not.toHaveCSS("color", "rgb(204, 0, 0)");
    await expect(card.locator("h3")).not.toHaveCSS("font-family", /Comic/);
    await card.getByRole("button", { name: "Choose Boat Dive" }).click();

    await expectStepBelowHeader(page, "Choose your dates");
    const day = await pickDay(page, 1);
    await w(page, "button.primary").click();

    await expectStepBelowHeader(page, "Participants");
    const more = page.getByRole("button", { name: "More Participants" });
    await more.click();
    await more.click();
    await expect(w(page, ".stepper output")).toHaveText("2");
    await expect(w(page, ".stepper output")).toHaveCSS("font-size", "16px");
    // each time with its places left, as the widget draws it: a card with a radio, not the host's red
    const at14 = w(page, "label.option").filter({ hasText: "14:00" });
    await expect(at14).toContainText(/\d+ places left/);
    await expect(at14).toHaveCSS("display", "flex");
    await expect(at14.locator(".muted")).not.toHaveCSS("color", "rgb(204, 0, 0)");
    await expect(at14.locator(".muted")).toHaveCSS("letter-spacing", "normal");
    await expect(at14.locator("input")).toBeVisible();
    await at14.click();
    await expect(at14.locator("input")).toBeChecked();
    await w(page, "button.primary").click();

    await expectStepBelowHeader(page, "Guest details");
    for (const [i, first] of ["Nuno", "Rita"].entries()) {
      await fillGuest(page, i, { first, last: "Hostile", email: `${first.toLowerCase()}.hostile@example.com`, birth: "1990-05-0" + (i + 1) });
    }
    await page.getByRole("button", { name: "Add to cart" }).click();

    await expectStepBelowHeader(page, "Your cart");
    await expect(w(page, "article.card").filter({ hasText: "Boat Dive" }).first()).toContainText("14:00");
    await page.getByRole("button", { name: "Go to checkout" }).click();

    await expectStepBelowHeader(page, "Checkout");
    await w(page, "#c-phone").fill("912345678");
    await w(page, "#terms").check();
    const booked = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
    await page.getByRole("button", { name: /Book now for/ }).click();
    const booking = await (await booked).json();
    await expectStepBelowHeader(page, "Booking confirmed");
    await expect(w(page, "[data-booking-reference]")).toHaveText(booking.reference);

    // booked as chosen, Prototype.js's arrays notwithstanding: two divers on the 14:00 boat of that day
    const lines = await (await server.shardOf("dive")).query<{ dates: string }>("SELECT l.dates FROM booking_lines l JOIN products p ON p.id = l.product_id WHERE l.booking_id = ? AND p.title = 'Boat Dive'", booking.id);
    expect(lines.map((l) => JSON.parse(l.dates))).toEqual([[`${day} 14:00:00`], [`${day} 14:00:00`]]);
    expect(traced.length).toBeGreaterThan(3);
    expect(problems).toEqual([]);
  });

  test("a foreign origin and a sandboxed frame: the guest is told the widget is not allowed on this site", async ({ page, server }) => {
    // a business that allows only its own site
    const config = JSON.stringify({ languages: ["en"], default_language: "en", widget_allow_loopback: false, widget_origins: ["https://surfcamp.example"] });
    await server.exec("INSERT OR IGNORE INTO businesses (id, slug, title, company_name, config, created_at) VALUES (99, 'closed-camp', 'Closed Camp', 'Closed Camp Lda.', ?, '2026-01-01T00:00:00Z')", config);
    const notAllowed = "This website is not allowed to take bookings for this business.";
    await page.goto(`${host.url}/closed`);
    const alert = w(page, "[role=alert]");
    await expect(alert).toHaveText(notAllowed);
    // nothing pretends to be on its way
    await expect(w(page, "[aria-busy=true]")).toHaveCount(0);
    await expect(w(page, "h2")).toHaveCount(0);

    await page.goto(`${host.url}/framed`);
    const framed = page.frameLocator("iframe").locator("booking-widget [role=alert]");
    await expect(framed).toHaveText(notAllowed);
    await expect(page.frameLocator("iframe").locator("booking-widget [aria-busy=true]")).toHaveCount(0);
  });

  test("a page where another element is already booking-widget: the console says so with the fix, and data-tag gives the widget another name", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${host.url}/taken`);
    await expect.poll(() => errors.find((e) => e.includes("already defined <booking-widget>"))).toContain('data-tag="acme-booking"');

    errors.length = 0;
    await page.goto(`${host.url}/renamed`);
    await expect(page.locator("acme-booking h2#step-heading")).toHaveText("Choose your dates");
    expect(errors).toEqual([]);
  });
});
