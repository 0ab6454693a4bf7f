/**
 * The front desk on a 390 × 844 phone: a booking's check-in button, and a cell of the Prices
 * grid, are on screen where the page opens, without scrolling sideways (neither the page nor the
 * table's own scroller).
 */
import type { Locator, Page } from "@playwright/test";
import { isoDay, saturdayAfter } from "./bench/seed-scale";
import { PASSWORD, signIn } from "./admin-kit";
import { expect, test } from "./fixtures";
import { hashPassword } from "../worker/src/lib/password";

test.use({ viewport: { width: 390, height: 844 } });

/** The element's box lies inside the 390 px wide viewport, with nothing scrolled sideways. */
async function inViewWithoutSideScroll(page: Page, element: Locator, what: string): Promise<void> {
  await element.scrollIntoViewIfNeeded(); // up or down only: the checks below fail on any sideways scroll
  const box = (await element.boundingBox())!;
  const scrolled = await element.evaluate((el) => {
    let x = window.scrollX;
    for (let p = el.parentElement; p; p = p.parentElement) x += p.scrollLeft;
    return x;
  });
  expect(scrolled, `${what}: nothing scrolled sideways`).toBe(0);
  expect(box.x, `${what}: left edge on screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge on screen`).toBeLessThanOrEqual(390);
  await expect(element).toBeInViewport({ ratio: 1 });
}

test("on a 390 px phone: a booking's Check in button and a Prices cell are on screen without scrolling sideways", async ({ server, page }) => {
  // An owner of the demo business, and a booking of its surf week arriving today.
  const suffix = Date.now().toString(36);
  const email = `phone.owner.${suffix}@camp.example`;
  const now = new Date().toISOString();
  const [{ id: business }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  await server.exec(
    "INSERT INTO staff_users (id, business_id, email, email_norm, name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'Owner', 'owner', ?, ?, ?)",
    crypto.randomUUID(), business, email, email, await hashPassword(PASSWORD), now, now,
  );
  const key = await server.publicKey();
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/pub/v2${path}`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };
  const week = saturdayAfter(now.slice(0, 10), 35);
  const cart = await api("/bookings/add", {
    currency: "EUR",
    guests: [{ first_name: "Paula", last_name: "Telefone", email: `paula.${suffix}@example.com`, gender: "f", birth_date: "1990-03-03", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 202 } }],
  });
  const booking = await api(`/carts/${cart.cart_id}/checkout`, {
    terms_accepted: true,
    customer: { first_name: "Paula", last_name: "Telefone", email: `paula.booker.${suffix}@example.com`, phone: "912345678", phone_countrycode: 351 },
  });
  await server.exec("UPDATE guests SET arrival_date = ? WHERE booking_id = ?", now.slice(0, 10), booking.id as string);

  await page.goto(`${server.url}/admin/demo/sign-in`);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/admin\/demo\/today$/);

  await page.goto(`${server.url}/admin/demo/bookings/${booking.id}`);
  await inViewWithoutSideScroll(page, page.getByRole("button", { name: "Check in: Paula Telefone" }), "the Check in button");

  await page.goto(`${server.url}/admin/demo/prices`);
  await inViewWithoutSideScroll(page, page.locator(".price-grid td input").first(), "the first price cell");
});
