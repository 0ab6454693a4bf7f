import { expect, heading, test } from "./fixtures";
import { bookToCart, bookWithAnswerLost, toCheckout, w } from "./journey";

test("the cart survives a reload and shows in a second tab; emptying it in one tab updates the other", async ({ context, page, server }) => {
  await page.goto(`${server.url}/demo`);
  await bookToCart(page, { first: "Rae", last: "Load", birth: "1990-01-01" }, { nth: 1 });
  const id = JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!).id;

  await page.reload();
  await expect(heading(page)).toHaveText("Your cart");
  await expect(w(page, "article.card h3")).toHaveText("Rae Load");
  await expect(w(page, "[role=status]")).toContainText("Welcome back");
  await expect(w(page, "[data-countdown]")).toHaveText(/^\d+:\d\d$/);

  const second = await context.newPage();
  await second.goto(`${server.url}/demo`);
  await expect(heading(second)).toHaveText("Your cart");
  await expect(w(second, "article.card h3")).toHaveText("Rae Load");
  expect(JSON.parse((await second.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!).id).toBe(id);

  await second.locator("booking-widget").getByRole("button", { name: "Empty cart" }).click();
  await expect(heading(second)).toHaveText("Choose your dates");
  await expect(heading(page)).toHaveText("Choose your dates");
  const cart: any = await (await fetch(`${server.url}/widget/v1/demo/carts/${id}`)).json();
  expect(cart.status).toBe("abandoned");
});

test("a checkout whose answer was lost: after a reload the guest sees the booking made, once", async ({ page, server }) => {
  await toCheckout(page, server.url, { first: "Ray", last: "Lost", email: "ray.lost@example.com", birth: "1990-01-01" }, 5);
  const made = await bookWithAnswerLost(page);
  await page.reload();
  await expect(heading(page)).toHaveText("Booking confirmed");
  await expect(w(page, "[data-booking-reference]")).toHaveText(made.reference);
  await expect(w(page, "p").first()).toHaveText("Your booking is confirmed.");
  expect(await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart"))).toBeNull();
  // Shown once: the next visit starts a new booking.
  await page.reload();
  await expect(heading(page)).toHaveText("Choose your dates");
});
