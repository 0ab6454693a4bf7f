import { expect, heading, test } from "./fixtures";
import { addGuests, checkoutCart, continueStep, expectStep, pickDay, w } from "./journey";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const noHorizontalScroll = (page: import("@playwright/test").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= 390);

test("a guest books on a 390x844 phone screen, every step fits the width", async ({ page, server, axe, shot }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await shot(page, "1-dates");
  expect(await noHorizontalScroll(page)).toBe(true);
  // day buttons stay comfortably tappable
  const box = await w(page, "td.open").first().boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(40);
  expect(box!.height).toBeGreaterThanOrEqual(44);

  await pickDay(page, 2);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await addGuests(page, { males: 1 });
  // a shared twin room booked privately: the single room supplement
  await page.locator("booking-widget label.option").filter({ hasText: "Twin Room" }).locator("input").check();
  const srs = page.locator("booking-widget").getByRole("checkbox", { name: /single room supplement/ });
  await expect(srs).toBeVisible();
  await srs.check();
  await shot(page, "2-room");
  expect(await noHorizontalScroll(page)).toBe(true);
  await continueStep(page);
  await expectStep(page, "Extras");
  await page.locator("booking-widget .card").filter({ hasText: "Yoga Class" }).locator('input[type="checkbox"]').first().check();
  await shot(page, "3-extras");
  expect(await noHorizontalScroll(page)).toBe(true);
  await continueStep(page);
  await expectStep(page, "Guest details");
  await w(page, "#g0-first_name").fill("Mo");
  await w(page, "#g0-last_name").fill("Bile");
  await w(page, "#g0-email").fill("mo.mobile@example.com");
  await w(page, "#g0-birth_date").fill("1995-02-03");
  await shot(page, "4-guests");
  expect(await noHorizontalScroll(page)).toBe(true);
  await w(page, "button[type=submit]").click();
  await expectStep(page, "Your cart");
  await expect(w(page, "article.card")).toContainText("Twin Room");
  await expect(w(page, "article.card li")).toHaveCount(5); // package, room, srs, surf lessons, yoga
  await shot(page, "5-cart");
  expect(await noHorizontalScroll(page)).toBe(true);
  await axe(page, "cart-mobile");
  const booking = await checkoutCart(page);
  await shot(page, "7-done");
  expect(await noHorizontalScroll(page)).toBe(true);
  expect(booking.reference).toMatch(/\d/);
});
