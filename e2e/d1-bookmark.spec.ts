import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { bookToCart, continueStep, expectStep, pickDay, w } from "./journey";

/**
 * The widget and the D1 Sessions API (docs/design.md "D1 sessions"): the widget keeps the latest
 * X-D1-Bookmark the service answered and, once the guest has written something (a cart), sends it
 * with every request, so that a read served by a replica sees the guest's own hold. Before that its
 * reads go without it (a header of its own would make each GET preflighted on a host page).
 */
test("the widget sends back the service's latest bookmark once the guest has a cart, and not before", async ({ page, server }) => {
  // Each request as the widget sent it, in the order it sent them, and every bookmark the service answered.
  const sent: { method: string; path: string; bookmark: string | null }[] = [];
  const answered = new Set<string>();
  page.on("request", (req: Request) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith("/widget/v1/")) sent.push({ method: req.method(), path: url.pathname, bookmark: req.headers()["x-d1-bookmark"] ?? null });
  });
  page.on("response", (res) => {
    const bookmark = res.headers()["x-d1-bookmark"];
    if (bookmark && new URL(res.url()).pathname.startsWith("/widget/v1/")) answered.add(bookmark);
  });
  await page.goto(`${server.url}/demo`);
  await bookToCart(page, { first: "Bo", last: "Okmark", birth: "1990-01-01" }, { nth: 2 });
  await expect.poll(() => sent.some((r) => r.method === "POST" && r.path.endsWith("/bookings/add"))).toBe(true);
  const added = sent.findIndex((r) => r.method === "POST" && r.path.endsWith("/bookings/add"));
  // before the guest wrote anything, no request carried a bookmark (a header of its own would preflight every GET)
  expect(sent.slice(0, added + 1).filter((r) => r.bookmark !== null)).toEqual([]);
  await expect.poll(() => [...answered].some((b) => /^\d+:[0-9a-f-]+$/.test(b))).toBe(true);

  // another stay, asked once the cart is on screen: every request from here on carries a bookmark the service gave
  const mark = sent.length;
  await w(page, "button").filter({ hasText: "Book another stay" }).click();
  await pickDay(page, 3);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await expect.poll(() => sent.slice(mark).filter((r) => r.method === "GET").length).toBeGreaterThan(0);
  const after = sent.slice(mark).map((r) => [r.method, r.path, r.bookmark !== null && answered.has(r.bookmark)]);
  expect(after).toEqual(after.map(([method, path]) => [method, path, true]));
});
