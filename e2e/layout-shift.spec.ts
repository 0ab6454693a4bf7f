/**
 * No layout shift on the host page as a visitor sees it: /demo on a desktop and on a phone, with
 * widget.js on time and 300 ms late. widget.js and the API answer come with a visitor's 100 ms
 * of latency, so that the page is painted before the widget has drawn (on a loopback server
 * with no latency it would not be, and no shift of the host page could show: what the bench
 * used to miss). The delays are the test's own (routes), not the browser's network emulation.
 */
import type { Route } from "@playwright/test";
import { expect, test } from "./fixtures";

const SCREENS = [
  { name: "1280x800", viewport: { width: 1280, height: 800 } },
  { name: "390x844", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

test("the host page does not move while the widget loads: CLS below 0.1 on a desktop and a phone, widget.js on time and 300 ms late", async ({ browser, server }) => {
  for (const screen of SCREENS) {
    for (const lateMs of [0, 300]) {
      const context = await browser.newContext({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: screen.hasTouch });
      const page = await context.newPage();
      const after = (ms: number) => (route: Route) => new Promise<void>((done) => setTimeout(done, ms)).then(() => route.continue());
      await page.route("**/widget.js", after(100 + lateMs));
      await page.route("**/widget/v1/**", after(100));
      await page.addInitScript(() => {
        (window as any).__cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__cls += e.value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(`${server.url}/demo`);
      await expect(page.locator("booking-widget td.open, booking-widget button.day.open").first()).toBeVisible();
      // Late shifts count too: read once the widget has nothing left to fetch or draw (every
      // request answered, fonts in, two frames painted after), not after a guessed delay.
      await page.waitForLoadState("networkidle");
      await page.evaluate(() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))));
      const cls = await page.evaluate(() => (window as any).__cls as number);
      test.info().annotations.push({ type: `CLS ${screen.name}, widget.js ${lateMs} ms late`, description: cls.toFixed(3) });
      expect(cls, `${screen.name}, widget.js ${lateMs} ms late`).toBeLessThan(0.1);
      await context.close();
    }
  }
});
