import { expect, test } from "./fixtures";
import { bookToCart, events, expectStep, recordEvents, w } from "./journey";

test.describe("a cart expiring while the guest watches", () => {
  test.beforeEach(async ({ server }) => server.setDemoConfig({ cart_lifetime_seconds: 8 }));
  test.afterEach(async ({ server }) => server.setDemoConfig({ cart_lifetime_seconds: 600 }));

  test("at the checkout: the countdown runs out, the guest is told, 'Book now' waits until the selection is held again, then books", async ({ page, server, axe, shot }) => {
    await recordEvents(page);
    await page.goto(`${server.url}/demo`);
    await bookToCart(page, { first: "Eve", last: "Xpiry", email: "eve.expiry@example.com", birth: "1990-01-01" }, { nth: 2 });
    const first = (await events(page)).find((e) => e.name === "add_to_cart")!.detail.cart_id;
    // a hold this short is announced at once as running out
    await expect(w(page, "[role=status]")).toContainText("Your cart expires in 0:0");
    await w(page, "button.primary").click();
    await expectStep(page, "Checkout");
    // the live texts are current on every step: the hold's own countdown, no announcement left over from the cart
    const held = w(page, "[data-countdown]");
    await expect(held).toHaveText(/^0:0\d$/);
    await expect(w(page, "[role=status]")).toHaveText("");
    await w(page, "#c-phone").fill("912 345 678");
    await w(page, "#terms").check();
    const bookNow = page.locator("booking-widget").getByRole("button", { name: /Book now for/ });
    await expect(bookNow).toBeEnabled();

    // the end is announced as an alert
    await expect(w(page, "[role=alert]")).toContainText("Your cart expired", { timeout: 15_000 });
    await expect(bookNow).toBeDisabled();
    await expect(held).toHaveCount(0);
    expect((await events(page)).map((e) => e.name)).toContain("cart_expired");
    await axe(page, "cart-expired");
    await shot(page, "expired");

    await w(page, "[role=alert] button.primary").click();
    // held again, in a new cart: the guest stays at the checkout with what they typed
    await expectStep(page, "Checkout");
    await expect(held).toHaveText(/^0:0\d$/);
    await expect(bookNow).toBeEnabled();
    await expect(w(page, "#c-phone")).toHaveValue("912 345 678");
    await expect(w(page, "section.cards article.card h3")).toHaveText("Eve Xpiry");
    const adds = (await events(page)).filter((e) => e.name === "add_to_cart");
    expect(adds).toHaveLength(2);
    expect(adds[1].detail.cart_id).not.toBe(first);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!);
    expect(stored.id).toBe(adds[1].detail.cart_id);
    await bookNow.click();
    await expectStep(page, "Booking confirmed");
  });
});
