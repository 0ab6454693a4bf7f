import type { Page } from "@playwright/test";
import { issueKey } from "../worker/src/lib/keys";
import { expect, heading, test, type E2EServer } from "./fixtures";
import { checkoutCart, continueStep, expectStep, fillGuest, pickDay, w } from "./journey";

/**
 * Every shape the second demo business sells (worker/seed/dive.catalog.json, on /demo/dive), booked
 * by a guest in the widget, and read back through the private API (issue 27): two divers on the
 * 14:00 boat, the course for two from a Monday, a wetsuit for three days, the lodge's room for two
 * nights, and the dive weekend (a package without a room) with a boat chosen for each day.
 */

interface Dive {
  id: number;
  /** The private API, and the public one (both with the dive centre's keys). */
  api(path: string): Promise<any>;
}

let dive: Dive | null = null;
async function diveOf(server: E2EServer): Promise<Dive> {
  if (dive) return dive;
  const db = await server.shardOf("dive");
  const [{ id, config }] = await db.query<{ id: number; config: string }>("SELECT id, config FROM businesses WHERE slug = 'dive'");
  // one browser is one visitor here: raise its bounds on bookings and e-mails (tested elsewhere)
  const raised = { ...JSON.parse(config), max_bookings_per_visitor_per_hour: 1000, max_bookings_per_visitor_per_day: 10_000, max_emails_per_recipient_per_day: 1000 };
  await db.exec("UPDATE businesses SET config = ? WHERE id = ?", JSON.stringify(raised), id);
  const tokens: Record<string, string> = {};
  for (const scope of ["private", "public"] as const) {
    const issued = await issueKey(server.secret, id, scope);
    await db.exec("INSERT INTO api_keys (id, business_id, name, scope, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)", issued.id, id, `e2e-dive-${scope}`, scope, issued.hash, new Date().toISOString());
    tokens[scope] = issued.token;
  }
  const api = async (path: string) =>
    (await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${path.startsWith("/private") ? tokens.private : tokens.public}` } })).json();
  return (dive = { id, api });
}

/** The booking as the private API reads it, with its lines. */
const bookingOf = async (d: Dive, booking: any) => (await d.api(`/private/bookings/${booking.id ?? booking.booking_id}`)).data;

/** Places left per time on a day, as the public API reads them. */
async function slotsLeft(d: Dive, productId: number, date: string): Promise<Record<string, number>> {
  const body = await d.api(`/api/pub/v2/products/${productId}/availabilities?start_date=${date}&end_date=${date}`);
  return Object.fromEntries(body[date].timeslots.map((t: { time: string; available: number }) => [t.time, t.available]));
}

/** The product's id by its title. */
const idOf = async (d: Dive, title: string): Promise<number> => ((await d.api("/api/pub/v2/products")) as any[]).find((p) => p.title === title).id;

async function choose(page: Page, server: E2EServer, title: string): Promise<number> {
  const d = await diveOf(server);
  await page.goto(`${server.url}/demo/dive`);
  await expect(heading(page)).toHaveText("What would you like to book?");
  const card = page.locator("booking-widget article.card").filter({ hasText: title });
  await card.getByRole("button", { name: `Choose ${title}` }).click();
  await expect(heading(page)).toHaveText("Choose your dates");
  return idOf(d, title);
}

async function participants(page: Page, n: number): Promise<void> {
  await expectStep(page, /Participants|How many/);
  const plus = w(page, ".stepper button").last();
  for (let i = 0; i < n; i++) await plus.click();
  await expect(w(page, ".stepper output")).toHaveText(String(n));
}

async function guestsToCart(page: Page, n: number): Promise<void> {
  await expectStep(page, "Guest details");
  for (let i = 0; i < n; i++) await fillGuest(page, i, { first: `Diver${i}`, last: "Costa", birth: "1990-04-0" + (i + 1), email: `diver${i}.${Date.now()}@example.com` });
  await w(page, "button[type=submit]").click();
  await expectStep(page, "Your cart");
}

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`the dive centre's shapes at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("two divers on the 14:00 boat: 14:00 has two places fewer, 09:00 none fewer", async ({ page, server, axe }) => {
      const d = await diveOf(server);
      const boat = await choose(page, server, "Boat Dive");
      // a boat dive is one day: no length to choose, no nights
      await expect(w(page, "#duration")).toBeHidden();
      const day = await pickDay(page, viewport.width === 390 ? 1 : 0);
      await expect(w(page, "p.picked")).not.toContainText("check-out");
      const before = await slotsLeft(d, boat, day);
      await continueStep(page);
      await participants(page, 2);
      await expect(w(page, "label.option").filter({ hasText: "14:00" })).toContainText(`${before["14:00"]} places left`);
      await expect(w(page, "button.primary")).toBeDisabled(); // no time chosen yet
      await w(page, "label.option").filter({ hasText: "14:00" }).locator("input").check();
      await expect(w(page, "[data-estimate]")).not.toHaveText("—");
      await axe(page, "participants");
      // nothing wider than the phone's screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await continueStep(page);
      await guestsToCart(page, 2);
      await expect(w(page, "article.card").first()).toContainText("14:00");
      const booking = await bookingOf(d, await checkoutCart(page));
      const lines = booking.lines.filter((l: any) => l.product_id === boat);
      expect(lines.map((l: any) => l.dates)).toEqual([[`${day} 14:00:00`], [`${day} 14:00:00`]]);
      expect(await slotsLeft(d, boat, day)).toEqual({ "09:00": before["09:00"], "14:00": before["14:00"] - 2 });
    });

    test("the course for two, starting on a Monday, over its three days", async ({ page, server }) => {
      const d = await diveOf(server);
      const course = await choose(page, server, "Open Water Course");
      await expect(w(page, ".legend")).toContainText("Starts on Monday");
      const monday = await pickDay(page, viewport.width === 390 ? 1 : 0);
      expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
      await expect(w(page, "p.picked")).toContainText(" to ");
      await continueStep(page);
      await participants(page, 2);
      await continueStep(page);
      await guestsToCart(page, 2);
      const booking = await bookingOf(d, await checkoutCart(page));
      const lines = booking.lines.filter((l: any) => l.product_id === course);
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l.dates).toHaveLength(3);
      expect(lines[0].dates[0]).toBe(monday);
      expect(lines.map((l: any) => l.price)).toEqual([420, 420]);
    });

    test("a wetsuit for three days", async ({ page, server }) => {
      const d = await diveOf(server);
      const suit = await choose(page, server, "Wetsuit Rental");
      await w(page, "#duration").selectOption("3");
      await expect(w(page, "#duration option:checked")).toHaveText("3 days");
      await pickDay(page, viewport.width === 390 ? 3 : 2);
      await continueStep(page);
      await participants(page, 1);
      await expect(w(page, "[data-estimate]")).toHaveText("€24.00");
      await continueStep(page);
      await guestsToCart(page, 1);
      const booking = await bookingOf(d, await checkoutCart(page));
      expect(booking.lines.find((l: any) => l.product_id === suit)).toMatchObject({ qty: 1, price: 24 });
      expect(booking.lines.find((l: any) => l.product_id === suit).dates).toHaveLength(3);
    });

    test("the lodge's room for two nights", async ({ page, server }) => {
      const d = await diveOf(server);
      const lodge = await choose(page, server, "Sea Lodge Double");
      await expect(w(page, "#duration option:checked")).toHaveText("2 nights");
      await pickDay(page, viewport.width === 390 ? 4 : 3);
      await continueStep(page);
      await expectStep(page, "Guests and room");
      const steppers = page.locator("booking-widget .stepper");
      await steppers.nth(0).locator("button").last().click();
      await steppers.nth(1).locator("button").last().click();
      await w(page, "label.option").filter({ hasText: "Sea Lodge Double" }).locator("input").check();
      await continueStep(page);
      await guestsToCart(page, 2);
      const booking = await bookingOf(d, await checkoutCart(page));
      const room = booking.lines.filter((l: any) => l.product_id === lodge);
      expect(room).toHaveLength(1);
      expect(room[0].dates).toHaveLength(2);
    });

    test("the dive weekend, a package without a room, with a boat chosen for each day", async ({ page, server, axe }) => {
      const d = await diveOf(server);
      await choose(page, server, "Dive Weekend");
      const boat = await idOf(d, "Boat Dive");
      const saturday = await pickDay(page, viewport.width === 390 ? 1 : 0);
      await continueStep(page);
      await participants(page, 1);
      await continueStep(page);
      await expectStep(page, "Extras");
      const sunday = new Date(Date.parse(`${saturday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      await w(page, `#slot-${await w(page, "select[id^=slot-]").first().getAttribute("id").then((id) => id!.split("-")[1])}-${saturday}`).selectOption("14:00");
      await axe(page, "extras-times");
      await continueStep(page);
      await guestsToCart(page, 1);
      const booking = await bookingOf(d, await checkoutCart(page));
      const line = booking.lines.find((l: any) => l.product_id === boat);
      expect(line.dates).toEqual([`${saturday} 14:00:00`, `${sunday} 09:00:00`]);
    });
  });
}
