/**
 * The business's human check at checkout (Cloudflare Turnstile), in Chromium. Turnstile's script
 * is served by a stand-in through page.route (no network here): it renders a box and hands the
 * widget the token the test chose; the server asks the loopback stand-in of siteverify
 * (worker/test/turnstile-siteverify.ts, the e2e server's TURNSTILE_VERIFY_URL), which confirms
 * only PASS_TOKEN under a secret of the business's own.
 */
import { expect, test } from "./fixtures";
import { expectStep, toCheckout, w } from "./journey";
import { PASS_TOKEN } from "../worker/test/turnstile-siteverify";

/** Turnstile's api.js as a stand-in: render() shows a box and, once the page sets a token, calls back with it (reset() asks again). */
const TURNSTILE_STANDIN = `
  (() => {
    const widgets = [];
    const give = (w) => { if (window.__turnstileToken) w.callback(window.__turnstileToken); };
    window.__turnstileRendered = [];
    window.turnstile = {
      render(el, options) {
        el.textContent = "Human check (stand-in)";
        const w = { callback: options.callback };
        widgets.push(w);
        window.__turnstileRendered.push({ sitekey: options.sitekey, inDocument: document.contains(el), slot: el.slot });
        give(w);
        return "w" + widgets.length;
      },
      reset() { for (const w of widgets) give(w); },
      remove() {},
    };
  })();`;

test("with the human check on, a checkout without a token is refused with the message shown, and with the solved check it books", async ({ page, server }) => {
  await server.setDemoConfig({ turnstile_site_key: "1x00000000000000000000AA", turnstile_secret: "0x4AAAAAAAe2e-business-secret" });
  try {
    const scripts: string[] = [];
    await page.route("https://challenges.cloudflare.com/turnstile/v0/api.js**", (route) => {
      scripts.push(route.request().url());
      return route.fulfill({ contentType: "application/javascript", body: TURNSTILE_STANDIN });
    });
    await toCheckout(page, server.url, { first: "Hugo", last: "Human", email: "hugo.human@example.com", birth: "1991-04-02" }, 2);
    await expect(w(page, "[data-human-check]")).toBeVisible();
    await expect(page.locator('booking-widget > [slot="human-check"]')).toHaveText("Human check (stand-in)");
    expect(scripts).toEqual(["https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"]);
    expect(await page.evaluate(() => (window as any).__turnstileRendered)).toEqual([{ sitekey: "1x00000000000000000000AA", inDocument: true, slot: "human-check" }]);

    // Not solved: the checkout goes without a token and the service refuses it.
    const refused = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
    await w(page, "button[type=submit]").click();
    const answer = await refused;
    expect(answer.status()).toBe(403);
    expect((await answer.json()).code).toBe("human_check_failed");
    await expect(w(page, "[role=alert]")).toContainText("We could not confirm that you are a person");
    await expect(w(page, "h2#step-heading")).toHaveText("Checkout");
    await expect(w(page, "#c-phone")).toHaveValue("912 345 678");

    // Solved: the stand-in hands over the token siteverify confirms, and the booking is made.
    await page.evaluate((token) => ((window as any).__turnstileToken = token), PASS_TOKEN);
    await page.evaluate(() => (window as any).turnstile.reset());
    const booked = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
    await w(page, "button[type=submit]").click();
    const ok = await booked;
    expect(ok.request().headers()["x-turnstile-token"]).toBe(PASS_TOKEN);
    expect(ok.status()).toBe(200);
    await expectStep(page, "Booking confirmed");
    await expect(page.locator('booking-widget > [slot="human-check"]')).toHaveCount(0);
  } finally {
    await server.setDemoConfig({ turnstile_site_key: null, turnstile_secret: null });
  }
});
