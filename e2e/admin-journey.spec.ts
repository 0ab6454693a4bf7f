/**
 * Issue 20's journey, in Chromium, from an empty business to a guest checked in, with nothing done
 * by hand through an API: the CLI makes the business and its first owner's link; the owner builds
 * the surf package in the Catalog, Seasons, Prices and Inventory screens, allows the business's
 * website and gives the widget a colour on the Widget screen; a guest books on that website in
 * <booking-widget>; the booking shows on Today; a front-desk user the owner invited checks the
 * guest in and downloads the guests CSV (parsed here); the front desk is refused at Prices with a
 * 403 that changes nothing; the owner removes the front desk and its open session ends at once.
 */
import { readFileSync } from "node:fs";
import { freePort } from "../worker/scripts/server";
import { npmRun } from "../worker/test/cli/helpers";
import { buildSurfPackageInScreens } from "./admin-catalog-steps";
import { acceptInvite, parseCsv, PASSWORD, signIn } from "./admin-kit";
import { setPricesInScreens, surfCampPricesInScreens } from "./admin-screens-kit";
import { setWidgetOriginAndThemeInScreens } from "./admin-settings-steps";
import { expect, heading, test } from "./fixtures";
import { addGuests, checkoutCart, continueStep, expectStep, fillGuest, pickDay, w } from "./journey";
import { serveOwnerSite } from "./surf-camp";

test("the owner builds and sells a surf week in the back office; the front desk checks the guest in; roles hold", async ({ server, browser }) => {
  test.setTimeout(240_000);
  const slug = `atlantic-${Date.now().toString(36)}`;
  const state = ["--persist-to", server.persistTo];
  const ownerEmail = `owner@${slug}.example`;
  const deskEmail = `desk@${slug}.example`;

  // The business and its first owner, from the command line.
  const made = await npmRun("business", ["create", "--slug", slug, "--title", "Atlantic Surf House", "--currency", "EUR", ...state]);
  expect(made.code, made.stderr).toBe(0);
  const invite = await npmRun("staff", ["invite", "--business", slug, "--email", ownerEmail, "--role", "owner", "--url", server.url, ...state]);
  expect(invite.code, invite.stderr).toBe(0);
  const owner = await (await browser.newContext()).newPage();
  await acceptInvite(owner, invite.stdout.trim());
  await signIn(owner, ownerEmail);
  await expect(owner).toHaveURL(new RegExp(`/admin/${slug}/today$`));
  const admin = `${server.url}/admin/${slug}`;

  // The catalog, seasons, prices, timeslots and a closed day: screens only.
  const camp = await buildSurfPackageInScreens(owner, admin);
  const { blockedDate } = await surfCampPricesInScreens(owner, server.url, slug, { packageTitle: "Surf week", packageId: camp.packageId, yogaId: camp.yogaId });
  await setPricesInScreens(
    owner,
    server.url,
    slug,
    [
      { product: "Women's dorm", season: "All seasons", amount: "22" },
      { product: "Private double", season: "All seasons", amount: "70" },
      { product: "Surf lessons", season: "All seasons", amount: "35" },
      { product: "Board rental", season: "All seasons", amount: "15" },
    ],
    { "Women's dorm": "per person per night", "Private double": "per room per night", "Surf lessons": "per person per day", "Board rental": "per unit per day" },
  );

  // The business's website (another origin than the service's), allowed and themed on the Widget screen.
  const port = await freePort();
  const site = `http://localhost:${port}`;
  const accent = "#b4451f";
  await setWidgetOriginAndThemeInScreens(owner, admin, site, { "--bw-accent": accent });
  const host = await serveOwnerSite(port, server.url, slug, camp.packageId);
  let reference = "";
  const guestEmail = `tomas.${slug}@example.com`;
  try {
    // A guest books the week on the website: the owner's price, rooms, option and colour.
    const guest = await (await browser.newContext()).newPage();
    await guest.goto(site);
    await expect(heading(guest)).toHaveText("Choose your dates");
    await expect(guest.locator("booking-widget").getByText("Surf week", { exact: true })).toBeVisible();
    await expect(w(guest, "td.open").first()).toContainText("€315"); // 7 nights at the low season's 45
    const accentShown = await guest.locator("booking-widget").evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector(".root")!).getPropertyValue("--bw-accent").trim());
    expect(accentShown.toLowerCase()).toBe(accent);
    const date = await pickDay(guest, 0);
    expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(6);
    expect(date).not.toBe(blockedDate);
    await continueStep(guest);
    await expectStep(guest, "Guests and room");
    await addGuests(guest, { males: 1 });
    await expect(w(guest, "label.option").first()).toBeVisible();
    expect(await w(guest, "label.option strong").allTextContents()).toEqual(["Private double"]); // the women's dorm refuses him
    await w(guest, "label.option input").first().check();
    await continueStep(guest);
    await expectStep(guest, "Extras");
    await guest.locator("booking-widget .card").filter({ hasText: "Surf lessons" }).locator('input[type="checkbox"]').first().check();
    await continueStep(guest);
    await expectStep(guest, "Guest details");
    await fillGuest(guest, 0, { first: "Tomás", last: "Ribeiro", email: guestEmail, birth: "1991-03-08" });
    await w(guest, "button[type=submit]").click();
    await expectStep(guest, "Your cart");
    const booking = await checkoutCart(guest);
    reference = booking.reference;
  } finally {
    await host.close();
  }

  // The booking shows on the owner's Today.
  await owner.goto(`${admin}/today`);
  // one booking number everywhere: the widget's is the back office's
  const shown = reference;
  await expect(owner.getByRole("table", { name: /New bookings since yesterday/ }).getByRole("link", { name: shown })).toBeVisible();

  // The owner invites the front desk, who accepts and signs in.
  await owner.goto(`${admin}/staff`);
  await owner.getByLabel("E-mail").fill(deskEmail);
  await owner.getByLabel("Name", { exact: true }).fill("Dana Desk");
  await owner.getByLabel("Role", { exact: true }).selectOption("front_desk");
  await owner.getByRole("button", { name: "Invite" }).click();
  const deskLink = (await owner.locator("#invite-link").textContent())!.trim();
  const desk = await (await browser.newContext()).newPage();
  await acceptInvite(desk, deskLink);
  await signIn(desk, deskEmail, PASSWORD);
  await expect(desk).toHaveURL(new RegExp(`/admin/${slug}/today$`));

  // The guest turns up: check-in opens on the arrival day (the business's date; UTC here), so
  // the guest's arrival is today, as the front desk would record an early arrival.
  await server.exec("UPDATE guests SET arrival_date = ? WHERE business_id = (SELECT id FROM businesses WHERE slug = ?)", new Date().toISOString().slice(0, 10), slug);
  // The front desk checks the guest in from the booking opened on Today...
  await desk.getByRole("table", { name: /New bookings since yesterday/ }).getByRole("link", { name: shown }).click();
  await desk.getByRole("button", { name: "Check in: Tomás Ribeiro" }).click();
  await expect(desk.getByRole("status")).toHaveText("Checked in.");
  // ... and downloads the guests CSV, where the guest is, checked in.
  await desk.goto(`${admin}/guests`);
  const [download] = await Promise.all([desk.waitForEvent("download"), desk.getByRole("link", { name: "Download CSV of this filter" }).click()]);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  const row = rows.find((r) => r.email === guestEmail);
  expect(row, JSON.stringify(rows.slice(0, 3))).toMatchObject({ first_name: "Tomás", last_name: "Ribeiro", booking_status: "confirmed" });
  expect(row!.checked_in_at).toMatch(/^\d{4}-\d\d-\d\dT/);

  // The front desk is refused at Prices, reading and saving, and no price changes.
  const [{ id: businessId }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = ?", slug);
  const prices = () => server.query("SELECT product_id, season_id, amount_minor, unit, per, min_qty FROM rates WHERE business_id = ? ORDER BY product_id, season_id, min_qty", businessId);
  const pricesBefore = await prices();
  expect(pricesBefore.length).toBeGreaterThan(5);
  expect(await desk.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Prices" }).count()).toBe(0);
  const refused = await desk.goto(`${admin}/prices`);
  expect(refused!.status()).toBe(403);
  await expect(desk.getByText("Your role does not allow this. Nothing was changed.")).toBeVisible();
  const csrf = await desk.goto(`${admin}/today`).then(() => desk.locator('input[name="_csrf"]').first().inputValue());
  const sneaky = await desk.request.post(`${admin}/prices`, { form: { _csrf: csrf, [`rate_${camp.packageId}_base`]: "1" }, headers: { Origin: server.url } });
  expect(sneaky.status()).toBe(403);
  expect(await prices()).toEqual(pricesBefore);

  // The owner removes the front desk: the open session ends at once.
  await owner.goto(`${admin}/staff`);
  const staffRow = owner.getByRole("row", { name: new RegExp(deskEmail.replace(/[.+]/g, "\\$&")) });
  await staffRow.locator("summary", { hasText: "Remove" }).click();
  await staffRow.getByRole("button", { name: `Yes, remove ${deskEmail}` }).click();
  await expect(owner.getByRole("status")).toHaveText("Removed; their sessions ended.");
  await desk.reload();
  await expect(desk).toHaveURL(new RegExp(`/admin/${slug}/sign-in\\?next=.*expired=1`));
});
