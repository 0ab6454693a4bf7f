/**
 * Issue 27: the dive centre's shapes, built by a new owner through the back office's screens alone
 * (no API call, no SQL, no catalog file), sell as the seeded demo's do (e2e/shapes.spec.ts). The
 * CLI makes the business and the owner's link; the owner makes a front-office category, a boat
 * dive by the hour on timeslots 09:00 and 14:00 of 10 places each, a three-day course starting on
 * Mondays, a wetsuit rental by the day and a weekend package without a room whose included item is
 * the boat dive, with their prices; a guest on the hosted booking page (/book/<slug>) books two
 * divers on the 14:00 boat, and the owner's booking screen shows them at 14:00.
 */
import type { Page } from "@playwright/test";
import { npmRun } from "../worker/test/cli/helpers";
import { addLookup, createIt, newProduct } from "./admin-catalog-steps";
import { acceptInvite, signIn } from "./admin-kit";
import { setPricesInScreens, setTimeslotsInScreens } from "./admin-screens-kit";
import { expect, heading, test } from "./fixtures";
import { continueStep, expectStep, fillGuest, pickDay, w } from "./journey";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** Tick only these check-in weekdays on the product editor. */
async function onlyOn(page: Page, days: string[]): Promise<void> {
  for (const day of WEEKDAYS) await page.getByLabel(day, { exact: true }).setChecked(days.includes(day));
}

/** The guest's details for each participant, then the cart. */
async function guestsToCart(page: Page, n: number, tag: string): Promise<void> {
  await expectStep(page, "Guest details");
  for (let i = 0; i < n; i++) await fillGuest(page, i, { first: `Diver${i}`, last: "Costa", birth: `1990-04-0${i + 1}`, email: `diver${i}.${tag}@example.com` });
  await w(page, "button[type=submit]").click();
  await expectStep(page, "Your cart");
}

/** Check out the cart (the new business asks for no phone and has no terms unless it set them). */
async function checkout(page: Page): Promise<{ id: number; reference: string }> {
  await continueStep(page);
  await expectStep(page, "Checkout");
  if (await w(page, "#terms").count()) await w(page, "#terms").check();
  const response = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
  await w(page, "button[type=submit]").click();
  const booking = await (await response).json();
  await expectStep(page, "Booking confirmed");
  return { id: booking.id ?? booking.booking_id, reference: booking.reference };
}

test("a new owner builds the dive centre in the back office's screens; a guest books two divers on its 14:00 boat", async ({ page, server, browser }) => {
  test.setTimeout(240_000);
  const slug = `dive-${Date.now().toString(36)}`;
  const state = ["--persist-to", server.persistTo];
  const email = `owner@${slug}.example`;

  // The business and its first owner, from the command line; the rest in the screens.
  const made = await npmRun("business", ["create", "--slug", slug, "--title", "Sesimbra Divers", "--currency", "EUR", ...state]);
  expect(made.code, made.stderr).toBe(0);
  const invite = await npmRun("staff", ["invite", "--business", slug, "--email", email, "--role", "owner", "--url", server.url, ...state]);
  expect(invite.code, invite.stderr).toBe(0);
  await acceptInvite(page, invite.stdout.trim());
  await signIn(page, email);
  await expect(page).toHaveURL(new RegExp(`/admin/${slug}/today$`));
  const admin = `${server.url}/admin/${slug}`;

  await addLookup(page, admin, "Categories", "Diving", "Front office (lists its products)");

  // The boat dive: three hours, two boats a day of ten divers each.
  await newProduct(page, admin, "activity");
  await page.locator("#f-title").fill("Boat Dive");
  await page.getByLabel("Front-office category", { exact: true }).selectOption({ label: "Diving" });
  await page.getByLabel("Counted in").selectOption("hour");
  await page.getByLabel("Usual length").fill("3");
  await page.getByLabel("Most persons per booking").fill("10");
  await page.getByLabel("Default start time").fill("09:00");
  await page.getByLabel("Capacity per date").fill("10");
  const boatId = await createIt(page);
  await expect(page.getByText("Listed in the front office now")).toBeVisible();
  await setTimeslotsInScreens(page, server.url, slug, boatId, [
    { time: "09:00", capacity: 10 },
    { time: "14:00", capacity: 10 },
  ]);

  // The course: three days from a Monday, six students.
  await newProduct(page, admin, "activity");
  await page.locator("#f-title").fill("Open Water Course");
  await page.getByLabel("Front-office category", { exact: true }).selectOption({ label: "Diving" });
  await page.getByLabel("Usual length").fill("3");
  await page.getByLabel("Minimum stay").fill("3");
  await page.getByLabel("Maximum stay").fill("3");
  await onlyOn(page, ["Monday"]);
  await page.getByLabel("Most persons per booking").fill("6");
  await page.getByLabel("Capacity per date").fill("6");
  await createIt(page);

  // The wetsuit, by the day, one to fourteen days.
  await newProduct(page, admin, "rental");
  await page.locator("#f-title").fill("Wetsuit Rental");
  await page.getByLabel("Front-office category", { exact: true }).selectOption({ label: "Diving" });
  await page.getByLabel("Minimum stay").fill("1");
  await page.getByLabel("Maximum stay").fill("14");
  await page.getByLabel("Any length from the minimum to the maximum may be booked").check();
  await page.getByLabel("Capacity per date").fill("30");
  await createIt(page);

  // The weekend: no room ticked, the boat dive included on each of its two days.
  await newProduct(page, admin, "package");
  await page.locator("#f-title").fill("Dive Weekend");
  await page.getByLabel("Front-office category", { exact: true }).selectOption({ label: "Diving" });
  await page.getByLabel("Usual length").fill("2");
  await page.getByLabel("Minimum stay").fill("2");
  await page.getByLabel("Maximum stay").fill("2");
  await onlyOn(page, ["Saturday"]);
  await page.getByLabel("Most persons per booking").fill("8");
  const item = (field: string) => page.locator(`#f-package-items-0-${field}`);
  await item("product_id").selectOption({ label: "Boat Dive (activity)" });
  await item("role").selectOption({ label: "Included" });
  await item("qty-min").fill("1");
  await item("qty-max").fill("1");
  await item("qty-default").fill("1");
  await createIt(page);

  await setPricesInScreens(
    page,
    server.url,
    slug,
    [
      { product: "Boat Dive", season: "All seasons", amount: "55" },
      { product: "Open Water Course", season: "All seasons", amount: "420" },
      { product: "Wetsuit Rental", season: "All seasons", amount: "8" },
      { product: "Dive Weekend", season: "All seasons", amount: "20" },
    ],
    { "Boat Dive": "per person per stay", "Open Water Course": "per person per stay", "Wetsuit Rental": "per unit per day", "Dive Weekend": "per person per stay" },
  );

  // A guest, on the business's hosted booking page: every product the owner listed, on its own card.
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(`${server.url}/book/${slug}`);
  await expect(heading(guest)).toHaveText("What would you like to book?");
  for (const title of ["Boat Dive", "Open Water Course", "Wetsuit Rental", "Dive Weekend"]) {
    await expect(guest.locator("booking-widget article.card").filter({ hasText: title })).toBeVisible();
  }
  await guest.locator("booking-widget article.card").filter({ hasText: "Boat Dive" }).getByRole("button", { name: "Choose Boat Dive" }).click();
  await expect(heading(guest)).toHaveText("Choose your dates");
  const day = await pickDay(guest, 0);
  await expect(w(guest, "p.picked")).not.toContainText("check-out");
  await continueStep(guest);
  await expectStep(guest, /Participants|How many/);
  const plus = w(guest, ".stepper button").last();
  await plus.click();
  await plus.click();
  await expect(w(guest, ".stepper output")).toHaveText("2");
  const afternoon = w(guest, "label.option").filter({ hasText: "14:00" });
  await expect(afternoon).toContainText("10 places left");
  await expect(w(guest, "label.option").filter({ hasText: "09:00" })).toContainText("10 places left");
  await afternoon.locator("input").check();
  await expect(w(guest, "[data-estimate]")).toHaveText("€110.00"); // two divers at 55
  await continueStep(guest);
  await guestsToCart(guest, 2, slug);
  await expect(w(guest, "article.card").first()).toContainText("14:00");
  const booking = await checkout(guest);
  expect(booking.reference).toMatch(/^\d{4}-\d{5}$/);

  // The owner's booking screen: both divers on the 14:00 boat of that day.
  await page.goto(`${admin}/bookings/${booking.id}`);
  const lines = page.locator("table").filter({ hasText: "Boat Dive" }).locator("tbody tr").filter({ hasText: "Boat Dive" });
  await expect(lines).toHaveCount(2);
  for (const line of await lines.all()) await expect(line).toContainText(`${day} 14:00`);

  // The boat's Inventory screen for that day: 14:00 has two booked and eight free, 09:00 is untouched.
  await page.goto(`${admin}/catalog/products/${boatId}/inventory?from=${day}&to=${day}`);
  const cells = async (slot: string) => (await page.locator(`tr[data-date="${day}"][data-slot="${slot}"] td`).allTextContents()).map((t) => t.trim());
  expect(await cells("14:00")).toEqual(["14:00", "10", "the timeslot", "2", "0", "8"]);
  expect(await cells("09:00")).toEqual(["09:00", "10", "the timeslot", "0", "0", "10"]);

  /** Open the hosted page and choose a product's card. */
  const choose = async (title: string) => {
    await guest.goto(`${server.url}/book/${slug}`);
    await expect(heading(guest)).toHaveText("What would you like to book?");
    await guest.locator("booking-widget article.card").filter({ hasText: title }).getByRole("button", { name: `Choose ${title}` }).click();
    await expect(heading(guest)).toHaveText("Choose your dates");
  };
  const participants = async (n: number) => {
    await expectStep(guest, /Participants|How many/);
    for (let i = 0; i < n; i++) await w(guest, ".stepper button").last().click();
    await expect(w(guest, ".stepper output")).toHaveText(String(n));
  };
  /** The booking screen's lines of a product: their dates column. */
  const datesOn = async (id: number, title: string) => {
    await page.goto(`${admin}/bookings/${id}`);
    const rows = page.locator("table tbody tr").filter({ has: page.locator("td", { hasText: new RegExp(`^${title}$`) }) });
    await expect(rows.first()).toBeVisible();
    return Promise.all((await rows.all()).map(async (r) => (await r.locator("td").nth(1).textContent())!.trim()));
  };
  const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  // The course for two, from a Monday (the only start day the owner allowed), over its three days.
  await choose("Open Water Course");
  await expect(w(guest, ".legend")).toContainText("Starts on Monday");
  const monday = await pickDay(guest, 0);
  expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
  await expect(w(guest, "p.picked")).toContainText(" to ");
  await continueStep(guest);
  await participants(2);
  await continueStep(guest);
  await guestsToCart(guest, 2, `${slug}-course`);
  const course = await checkout(guest);
  expect(await datesOn(course.id, "Open Water Course")).toEqual([`${monday} – ${plusDays(monday, 2)}`, `${monday} – ${plusDays(monday, 2)}`]);

  // A wetsuit for three days, at 8 a day.
  await choose("Wetsuit Rental");
  await w(guest, "#duration").selectOption("3");
  await expect(w(guest, "#duration option:checked")).toHaveText("3 days");
  const pickup = await pickDay(guest, 1);
  await continueStep(guest);
  await participants(1);
  await expect(w(guest, "[data-estimate]")).toHaveText("€24.00");
  await continueStep(guest);
  await guestsToCart(guest, 1, `${slug}-suit`);
  const suit = await checkout(guest);
  expect(await datesOn(suit.id, "Wetsuit Rental")).toEqual([`${pickup} – ${plusDays(pickup, 2)}`]);

  // The weekend without a room: no room step, one diver, the Saturday boat moved to 14:00.
  await choose("Dive Weekend");
  const saturday = await pickDay(guest, 0);
  expect(new Date(`${saturday}T00:00:00Z`).getUTCDay()).toBe(6);
  await continueStep(guest);
  await participants(1);
  await continueStep(guest);
  await expectStep(guest, "Extras");
  await w(guest, `select[id^="slot-"][id$="-${saturday}"]`).selectOption("14:00");
  await continueStep(guest);
  await guestsToCart(guest, 1, `${slug}-weekend`);
  const weekend = await checkout(guest);
  expect(await datesOn(weekend.id, "Boat Dive")).toEqual([`${saturday} 14:00:00 – ${plusDays(saturday, 1)} 09:00:00`]);
});
