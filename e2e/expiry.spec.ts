import { expect, test } from "./fixtures";
import { bookToCart, events, recordEvents, w } from "./journey";

test.describe("a cart expiring while the guest watches", () => {
  test.beforeEach(async ({ server }) => server.setDemoConfig({ cart_lifetime_seconds: 8 }));
  test.afterEach(async ({ server }) => server.setDemoConfig({ cart_lifetime_seconds: 600 }));

  test("the countdown runs out, the guest is told and can hold the same selection again", async ({ page, server, axe, shot }) => {
    await recordEvents(page);
    await page.goto(`${server.url}/demo`);
    await bookToCart(page, { first: "Eve", last: "Xpiry", email: "eve.expiry@example.com", birth: "1990-01-01" }, { nth: 2 });
    const first = (await events(page)).find((e) => e.name === "add_to_cart")!.detail.cart_id;
    await expect(w(page, "[data-countdown]")).toHaveText(/^0:0\d$/);
    // the countdown is announced before it ends, and the end is announced as an alert
    await expect(w(page, "[role=status]")).toContainText("Your cart expires in");
    await expect(w(page, "[role=alert]")).toContainText("Your cart expired", { timeout: 15_000 });
    expect((await events(page)).map((e) => e.name)).toContain("cart_expired");
    await axe(page, "cart-expired");
    await shot(page, "expired");

    await w(page, "[role=alert] button.primary").click();
    await expect(w(page, "[data-countdown]")).toHaveText(/^0:0\d$/);
    await expect(w(page, "article.card h3")).toHaveText("Eve Xpiry");
    const adds = (await events(page)).filter((e) => e.name === "add_to_cart");
    expect(adds).toHaveLength(2);
    expect(adds[1].detail.cart_id).not.toBe(first);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!);
    expect(stored.id).toBe(adds[1].detail.cart_id);
  });
});
