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
  const seen: { method: string; path: string; sent: string | null; answered: string | null }[] = [];
  page.on("requestfinished", async (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith("/widget/v1/")) return;
    const res = await req.response();
    seen.push({ method: req.method(), path: url.pathname, sent: (await req.allHeaders())["x-d1-bookmark"] ?? null, answered: (await res?.allHeaders())?.["x-d1-bookmark"] ?? null });
  });
  await page.goto(`${server.url}/demo`);
  await bookToCart(page, { first: "Bo", last: "Okmark", birth: "1990-01-01" }, { nth: 2 });
  await expect.poll(() => seen.some((r) => r.method === "POST" && r.path.endsWith("/bookings/add"))).toBe(true);
  const added = seen.findIndex((r) => r.method === "POST" && r.path.endsWith("/bookings/add"));
  expect(seen.slice(0, added).filter((r) => r.sent !== null)).toEqual([]);
  expect(seen[added].answered).toMatch(/^\d+:[0-9a-f-]+$/);

  // another stay: the rooms of a new date are read after the hold, from the hold's bookmark on
  await w(page, "button").filter({ hasText: "Book another stay" }).click();
  await pickDay(page, 3);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await expect.poll(() => seen.slice(added + 1).filter((r) => r.method === "GET").length).toBeGreaterThan(0);
  // each one carries a bookmark the service gave (the latest the widget had when it sent it)
  const answered = new Set(seen.map((r) => r.answered).filter(Boolean));
  const after = seen.slice(added + 1).map((r) => [r.method, r.path, r.sent !== null && answered.has(r.sent)]);
  expect(after).toEqual(after.map(([method, path]) => [method, path, true]));
});
