import type { Page } from "@playwright/test";
import { expect, heading, test } from "./fixtures";
import { continueStep, expectStep, fillGuest, pickDay, w } from "./journey";

/** A couple up to the guest details, in the Sea View Double of the nth check-in day. */
async function coupleToDetails(page: Page, nth: number): Promise<string> {
  await expect(heading(page)).toHaveText("Choose your dates");
  const date = await pickDay(page, nth);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await page.locator("booking-widget").getByRole("button", { name: "More Couples" }).click();
  const room = page.locator("booking-widget label.option").filter({ hasText: "Sea View Double" });
  await room.locator("input").check();
  await continueStep(page);
  await expectStep(page, "Extras");
  await continueStep(page);
  await expectStep(page, "Guest details");
  return date;
}

test("the last room is sold in another tab between steps: the guest is told, keeps what they typed, and books another week", async ({ browser, page, server, axe, shot }) => {
  // one Sea View Double left for the fourth check-in week
  const boot: any = await (await fetch(`${server.url}/widget/v1/demo/bootstrap?product=101`)).json();
  const saturdays = Object.keys(boot.calendar.dates).filter((d) => boot.calendar.dates[d].available_for_checkin);
  const start = saturdays[3];
  const nights = Array.from({ length: 7 }, (_, i) => {
    const d = new Date(`${start}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i);
    return d.toISOString().slice(0, 10);
  });
  await server.exec(
    `INSERT OR REPLACE INTO inventory (business_id, product_id, date, slot, capacity, blocked) VALUES ${nights.map(() => "(1, 205, ?, '', 1, 0)").join(", ")}`,
    ...nights,
  );

  await page.goto(`${server.url}/demo`);
  expect(await coupleToDetails(page, 3)).toBe(start);
  await fillGuest(page, 0, { first: "Ana", last: "Late", email: "ana.late@example.com", birth: "1990-01-01" });
  await fillGuest(page, 1, { first: "Ben", last: "Late", birth: "1991-02-02" });

  // meanwhile another guest, in another browser, takes the room
  const other = await browser.newContext();
  const tab = await other.newPage();
  await tab.goto(`${server.url}/demo`);
  expect(await coupleToDetails(tab, 3)).toBe(start);
  await fillGuest(tab, 0, { first: "Zoe", last: "Quick", birth: "1985-05-05" });
  await fillGuest(tab, 1, { first: "Zak", last: "Quick", birth: "1985-06-06" });
  await w(tab, "button[type=submit]").click();
  await expect(heading(tab)).toHaveText("Your cart");
  await other.close();

  await w(page, "button[type=submit]").click();
  await expect(w(page, "[role=alert]")).toContainText("no longer available");
  await expect(w(page, "#g0-first_name")).toHaveValue("Ana");
  await axe(page, "sold-out");
  await shot(page, "sold-out");

  await w(page, "[role=alert] button.primary").click();
  await expectStep(page, "Choose your dates");
  await pickDay(page, 4);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  await expect(w(page, "output").nth(2)).toHaveText("1");
  await page.locator("booking-widget label.option").filter({ hasText: "Sea View Double" }).locator("input").check();
  await continueStep(page);
  await continueStep(page);
  await expectStep(page, "Guest details");
  await expect(w(page, "#g0-first_name")).toHaveValue("Ana");
  await expect(w(page, "#g1-first_name")).toHaveValue("Ben");
  await w(page, "button[type=submit]").click();
  await expectStep(page, "Your cart");
});
