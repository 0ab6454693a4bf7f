import type { Page } from "@playwright/test";
import { expect, heading, test } from "./fixtures";
import { addGuests, bookWithAnswerLost, continueStep, expectStep, fillGuest, pickDay, toCheckout, w } from "./journey";

async function toGuestDetails(page: Page, serverUrl: string, nth = 0) {
  await page.goto(`${serverUrl}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await pickDay(page, nth);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await addGuests(page, { males: 1 });
  await w(page, "label.option").first().locator("input").check();
  await continueStep(page);
  await continueStep(page);
  await expectStep(page, "Guest details");
}

test("429 from the service: a clear message with the wait, nothing typed is lost, and retrying works", async ({ page, server, axe }) => {
  await toGuestDetails(page, server.url);
  await fillGuest(page, 0, { first: "Rita", last: "Rate", email: "rita@example.com", birth: "1990-01-01" });
  let refused = false;
  await page.route("**/widget/v1/demo/bookings/add", async (route) => {
    if (refused) return route.fallback();
    refused = true;
    await route.fulfill({
      status: 429,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "2", "Access-Control-Allow-Origin": "*" },
      body: JSON.stringify({ type: "x", title: "Too Many Requests", status: 429, detail: "slow down", code: "rate_limited" }),
    });
  });
  await w(page, "button[type=submit]").click();
  await expect(w(page, "[role=alert]")).toContainText("wait 2 seconds");
  await expect(w(page, "#g0-first_name")).toHaveValue("Rita");
  await axe(page, "rate-limited");
  await expect(w(page, "[role=status]")).toContainText("You can try again now", { timeout: 5000 });
  await w(page, "[role=alert] button.primary").click();
  await expectStep(page, "Your cart");
});

test("network down: the guest is told, keeps their input, and retries once the network is back", async ({ page, server }) => {
  await toGuestDetails(page, server.url, 1);
  await fillGuest(page, 0, { first: "Nat", last: "Work", birth: "1990-01-01" });
  await page.route("**/widget/v1/demo/bookings/add", (route) => route.abort("internetdisconnected"));
  await w(page, "button[type=submit]").focus();
  await page.keyboard.press("Enter");
  await expect(w(page, "[role=alert]")).toContainText("cannot reach the booking service");
  // focus stays in the widget, on what went wrong; the next Tab reaches its way out, not the page
  await expect(w(page, ".banner")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.locator("booking-widget").getByRole("button", { name: "Try again" })).toBeFocused();
  await expect(w(page, "#g0-last_name")).toHaveValue("Work");
  await page.unroute("**/widget/v1/demo/bookings/add");
  await page.keyboard.press("Enter");
  await expectStep(page, "Your cart");
});

test("a validation error from the server marks the field it is about", async ({ page, server }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await pickDay(page, 2);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await addGuests(page, { males: 2 });
  await expect(w(page, "output").first()).toHaveText("2");
  await page.locator("booking-widget label.option").filter({ hasText: "Ocean Dorm" }).locator("input").check();
  await continueStep(page);
  await continueStep(page);
  await expectStep(page, "Guest details");
  // the same e-mail for both guests: only the server knows this rule
  await fillGuest(page, 0, { first: "Dup", last: "One", email: "same@example.com", birth: "1990-01-01" });
  await fillGuest(page, 1, { first: "Dup", last: "Two", email: "SAME@example.com", birth: "1990-01-01" });
  await w(page, "button[type=submit]").click();
  await expect(w(page, "[role=alert] p")).toHaveText("Please check the highlighted fields.");
  await expect(w(page, "#g1-email")).toHaveAttribute("aria-invalid", "true");
  await expect(w(page, "#g1-email")).toBeFocused();
  // the widget's own words: the service's (\"is the same as guests.0.email\") are for developers
  await expect(w(page, "#g1-email-err")).toHaveText("Please check this entry.");
  await expect(page.locator("booking-widget")).not.toContainText("guests.0");
  await expect(w(page, "#g0-first_name")).toHaveValue("Dup");
});

test("the booking's answer is lost on the way: sent again with a change, the guest sees the booking made, and no second one", async ({ page, server }) => {
  await toCheckout(page, server.url, { first: "Lou", last: "Lost", email: "lou.lost@example.com", birth: "1990-01-01" }, 3);
  const made = await bookWithAnswerLost(page);
  // a failed checkout keeps focus in the widget, on the banner
  await expect(w(page, ".banner")).toBeFocused();
  // The guest corrects the phone (another request, so another idempotency key) and sends again:
  // the cart is no longer open because it was booked, and that booking is what the guest sees.
  await w(page, "#c-phone").fill("912 345 679");
  const again = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
  await w(page, "button[type=submit]").click();
  expect((await again).status()).toBe(409);
  await expectStep(page, "Booking confirmed");
  await expect(w(page, "[data-booking-reference]")).toHaveText(made.reference);
  await expect(w(page, "[role=alert]")).toHaveText("");
});

test("the retry of a booked checkout is told 'in progress' (its first send still being handled): the guest sees the booking made", async ({ page, server }) => {
  await toCheckout(page, server.url, { first: "Dee", last: "Down", email: "dee.down@example.com", birth: "1990-01-01" }, 4);
  let retries = 0;
  const made = await bookWithAnswerLost(page, (route) => {
    retries++;
    return route.fulfill({
      status: 409,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "1", "Access-Control-Allow-Origin": "*" },
      body: JSON.stringify({ type: "x", title: "Conflict", status: 409, detail: "still being handled", code: "idempotency_in_progress" }),
    });
  });
  await w(page, "[role=alert] button.primary").click();
  await expectStep(page, "Booking confirmed");
  expect(retries).toBe(1);
  await expect(w(page, "[data-booking-reference]")).toHaveText(made.reference);
});
