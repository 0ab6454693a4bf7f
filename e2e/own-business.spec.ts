import { freePort } from "../worker/scripts/server";
import { npmRun } from "../worker/test/cli/helpers";
import { expect, heading, test } from "./fixtures";
import { addGuests, checkoutCart, continueStep, expectStep, fillGuest, pickDay, w } from "./journey";
import { buildSurfCamp, serveOwnerSite } from "./surf-camp";

// Issue 19's "done when": a new site owner sets up a business of their own with the CLI and the
// private API only (no SQL, no seed code), and a guest books it in <booking-widget> on a page of
// the origin the owner allowed; the booking shows in GET /private/bookings.
test("a new owner's surf camp, built through the CLI and the API, is booked in the widget on the owner's own site", async ({ page, server }) => {
  const slug = `atlantic-${Date.now().toString(36)}`;
  const state = ["--persist-to", server.persistTo];
  const created = await npmRun("business", ["create", "--slug", slug, "--title", "Atlantic Surf House", "--currency", "EUR", ...state]);
  expect(created.code, created.stderr).toBe(0);
  const key = await npmRun("keys", ["create", "--business", slug, "--scope", "private", "--name", "owner laptop", ...state]);
  expect(key.code, key.stderr).toBe(0);
  const privateKey = key.stdout.trim();
  expect(privateKey, key.stdout + key.stderr).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

  // The owner's site: another loopback origin than the service's (localhost vs 127.0.0.1).
  const port = await freePort();
  const site = `http://localhost:${port}`;
  const camp = await buildSurfCamp(server.url, privateKey, site);
  const host = await serveOwnerSite(port, server.url, slug, camp.packageId);
  try {
    await page.goto(site);
    await expect(heading(page)).toHaveText("Choose your dates");
    await expect(page.locator("booking-widget").getByText("Surf week", { exact: true })).toBeVisible();
    // The season's price per person for the week, as the owner set it (7 nights at 45).
    await expect(w(page, "td.open").first()).toContainText("€315");
    const date = await pickDay(page, 0);
    expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(6); // the package's check-in day
    await continueStep(page);
    // One man: the women's dorm refuses him (its gender rule), the private double takes him.
    await expectStep(page, "Guests and room");
    await addGuests(page, { males: 1 });
    await expect(w(page, "label.option").first()).toBeVisible();
    expect(await w(page, "label.option strong").allTextContents()).toEqual(["Private double"]);
    await w(page, "label.option input").first().check();
    await continueStep(page);
    // The surf lessons, an option of the package.
    await expectStep(page, "Extras");
    await page.locator("booking-widget .card").filter({ hasText: "Surf lessons" }).locator('input[type="checkbox"]').first().check();
    await continueStep(page);
    await expectStep(page, "Guest details");
    await fillGuest(page, 0, { first: "Tomás", last: "Ribeiro", email: "tomas.e2e@example.com", birth: "1991-03-08" });
    await w(page, "button[type=submit]").click();
    await expectStep(page, "Your cart");
    await expect(w(page, "article.card").first()).toContainText("Surf lessons");
    await expect(w(page, "article.card").first()).toContainText("Private double");
    const booking = await checkoutCart(page);
    expect(booking.reference).toMatch(/^\d{4}-\d{5}$/);

    const list = await fetch(`${server.url}/private/bookings?limit=100`, { headers: { Authorization: `Bearer ${privateKey}` } });
    expect(list.status).toBe(200);
    const bookings = ((await list.json()) as any).data;
    expect(bookings.map((b: any) => `${b.reference_year}-${String(b.reference_number).padStart(5, "0")}`)).toEqual([booking.reference]);
    const detail = (await (await fetch(`${server.url}/private/bookings/${bookings[0].id}`, { headers: { Authorization: `Bearer ${privateKey}` } })).json()) as any;
    expect(detail.data.lines.map((l: any) => l.product_title)).toEqual(expect.arrayContaining(["Surf week", "Private double", "Surf lessons"]));
    expect(detail.data.start_date).toBe(date);
    // A page of an origin the owner did not allow gets nothing.
    const refused = await fetch(`${server.url}/widget/v1/${slug}/settings`, { headers: { Origin: "http://127.0.0.1:1" } });
    expect(refused.status).toBe(403);
  } finally {
    await host.close();
  }
});
