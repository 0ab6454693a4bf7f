/**
 * A cart expiring while the guest watches, on the test clock rather than the wall clock: the
 * browser's clock is Playwright's (`page.clock`), moved forward by the test, and every request of
 * the widget carries that same time to the service as `X-Test-Now` (the e2e servers run with
 * ALLOW_TEST_CLOCK=1). The service decides a hold's expiry by the request's time (a cart answers
 * as expired, availability stops counting its holds, a checkout is refused), so no alarm and no
 * real minute has to pass: the demo's own 10-minute lifetime is used as it is.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, heading, test } from "./fixtures";
import { bookToCart, events, expectStep, recordEvents, w } from "./journey";

const ROOM = "Mixed Garden Dorm";

/** Every request of the widget on `page` carries the time `now()` gives, as the service's clock. */
async function shareClock(page: Page, now: () => number): Promise<void> {
  await page.route("**/widget/v1/**", (route) => route.continue({ headers: { ...route.request().headers(), "x-test-now": new Date(now()).toISOString() } }));
}

/** The "m:ss" the countdown shows, in seconds. */
const seconds = (text: string) => {
  const [m, s] = text.split(":").map(Number);
  return m * 60 + s;
};

/**
 * What another guest is offered at the moment `at`: the places left in ROOM for one man on
 * `start`, read on the widget's room step (a new browser, the hosted booking page's deep link).
 */
async function placesOffered(browser: Browser, baseUrl: string, start: string, at: number): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await shareClock(page, () => at);
    await page.goto(`${baseUrl}/book/demo?product=101&start_date=${start}&males=1`);
    await expect(heading(page)).toHaveText("Choose your dates");
    await expect(w(page, `td[data-date="${start}"]`)).toHaveAttribute("aria-selected", "true");
    await w(page, "button.primary").click();
    await expectStep(page, "Guests and room");
    const room = page.locator("booking-widget label.option").filter({ hasText: ROOM });
    await expect(room).toContainText(/\d+ available/);
    return Number(/(\d+) available/.exec((await room.textContent())!)![1]);
  } finally {
    await context.close();
  }
}

test.describe("a cart expiring while the guest watches", () => {
  test("at the checkout: the countdown runs out, the guest is told and another guest is offered the place again; 'Book now' waits until the selection is held again, then books", async ({ page, browser, server, axe, shot }) => {
    // The browser's clock, and the service's for this page: the wall clock plus what the test skipped.
    let skipped = 0;
    const forward = async (ms: number) => {
      skipped += ms;
      await page.clock.fastForward(ms);
    };
    await page.clock.install();
    await shareClock(page, () => Date.now() + skipped);
    await recordEvents(page);

    await page.goto(`${server.url}/demo`);
    const start = await bookToCart(page, { first: "Eve", last: "Xpiry", email: "eve.expiry@example.com", birth: "1990-01-01" }, { nth: 2, room: new RegExp(ROOM) });
    const first = (await events(page)).find((e) => e.name === "add_to_cart")!.detail.cart_id;
    const expiry = Date.parse(JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!).expiry_date);
    // the demo holds a cart for ten minutes
    await expect(w(page, "[role=status]")).toHaveText(/^Held for you for (10:00|9:5\d)$/);
    await w(page, "button.primary").click();
    await expectStep(page, "Checkout");
    // the live texts are current on every step: the hold's own countdown, no announcement left over from the cart
    const held = w(page, "[data-countdown]");
    await expect(held).toHaveText(/^(10:00|9:\d\d)$/);
    await expect(w(page, "[role=status]")).toHaveText("");
    await w(page, "#c-phone").fill("912 345 678");
    await w(page, "#terms").check();
    const bookNow = page.locator("booking-widget").getByRole("button", { name: /Book now for/ });
    await expect(bookNow).toBeEnabled();

    // Some five and a half minutes later the guest is told how long is left, and can still book.
    await forward((seconds((await held.textContent())!) - 270) * 1000);
    await expect(w(page, "[role=status]")).toHaveText(/^Your cart expires in 4:[0-5]\d\.$/);
    await expect(held).toHaveText(/^4:[0-5]\d$/);
    await expect(bookNow).toBeEnabled();

    // The time runs out: the end is announced as an alert, and nothing can be booked.
    await forward((seconds((await held.textContent())!) + 1) * 1000);
    await expect(w(page, "[role=alert]")).toContainText("Your cart expired and its places were released.");
    await expect(bookNow).toBeDisabled();
    await expect(held).toHaveCount(0);
    expect((await events(page)).map((e) => e.name)).toContain("cart_expired");
    await axe(page, "cart-expired");
    await shot(page, "expired");

    // Its place is released: another guest is offered one place more a second after the expiry
    // than a second before (read at those two moments, so no other hold lapses in between).
    const whileHeld = await placesOffered(browser, server.url, start, expiry - 1000);
    const afterwards = await placesOffered(browser, server.url, start, expiry + 1000);
    expect(afterwards).toBe(whileHeld + 1);

    await w(page, "[role=alert] button.primary").click();
    // held again, in a new cart: the guest stays at the checkout with what they typed
    await expectStep(page, "Checkout");
    await expect(held).toHaveText(/^(10:00|9:\d\d)$/);
    await expect(bookNow).toBeEnabled();
    await expect(w(page, "#c-phone")).toHaveValue("912 345 678");
    await expect(w(page, "section.cards article.card h3")).toHaveText("Eve Xpiry");
    const adds = (await events(page)).filter((e) => e.name === "add_to_cart");
    expect(adds).toHaveLength(2);
    expect(adds[1].detail.cart_id).not.toBe(first);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!);
    expect(stored.id).toBe(adds[1].detail.cart_id);
    expect(Date.parse(stored.expiry_date)).toBeGreaterThan(expiry);
    await bookNow.click();
    await expectStep(page, "Booking confirmed");
  });
});
