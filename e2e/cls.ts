/**
 * The cumulative layout shift of a host page as a visitor sees it, for the e2e journeys
 * (layout-shift.spec.ts, host-page.spec.ts): widget.js and the API answers come with 100 ms of
 * latency (widget.js `lateMs` more), so the page is painted before the widget has drawn.
 */
import type { Browser, Route } from "@playwright/test";
import { expect } from "./fixtures";

export const SCREENS = [
  { name: "1280x800", viewport: { width: 1280, height: 800 } },
  { name: "390x844", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

/** The page's CLS once the widget has drawn its first screen and has nothing left to fetch or draw. */
export async function clsOf(browser: Browser, url: string, screen: (typeof SCREENS)[number], lateMs: number, firstScreen: string): Promise<number> {
  const context = await browser.newContext({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: screen.hasTouch });
  const page = await context.newPage();
  const after = (ms: number) => (route: Route) => new Promise<void>((done) => setTimeout(done, ms)).then(() => route.continue());
  await page.route("**/widget.js", after(100 + lateMs));
  await page.route("**/widget/v1/**", after(100));
  // Every shift counts: the visitor does nothing here, and Chromium's mobile emulation marks the
  // shifts of a page just loaded as following an input (hadRecentInput), which would hide them all.
  await page.addInitScript(() => {
    (window as any).__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) (window as any).__cls += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(url);
  await expect(page.locator(firstScreen).first()).toBeVisible();
  // Late shifts count too: read once the widget has nothing left to fetch or draw (every
  // request answered, fonts in, two frames painted after), not after a guessed delay.
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))));
  const cls = await page.evaluate(() => (window as any).__cls as number);
  await context.close();
  return cls;
}

