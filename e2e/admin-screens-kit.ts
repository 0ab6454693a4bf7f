/**
 * The back office's Prices, Seasons and Inventory screens driven as a person would, in a signed-in
 * page (an owner or a manager): steps a journey can chain. Together they do through the screens
 * what e2e/surf-camp.ts buildSurfCamp does through the private API after making the products: two
 * seasons with prices, a yoga class on weekly timeslots, a blocked date (see `surfCampPricesInScreens`).
 *
 * `base` is the server's origin (server.url); `business` the business's slug.
 */
import { expect, type Page } from "@playwright/test";

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
export interface SeasonInScreens {
  title: string;
  priority?: number;
  segments: { start: string; end: string }[];
}
export interface PriceInScreens {
  /** The product's row as the grid names it (its back-office title). */
  product: string;
  /** A season's title, or "All seasons" for the base price. */
  season: string;
  /** As typed into the cell: "45", "45.50" ("" removes the price). */
  amount: string;
}
export interface TimeslotInScreens {
  time: string;
  /** Empty: the product's own capacity. */
  capacity?: number;
  /** None: every day. */
  days?: Weekday[];
}

const WEEKDAY_LABEL: Record<Weekday, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };
const admin = (base: string, business: string) => `${base}/admin/${business}`;

/** Make seasons through the Seasons screen (its "New season" form); answers their ids by title. */
export async function createSeasonsInScreens(page: Page, base: string, business: string, seasons: SeasonInScreens[]): Promise<Record<string, number>> {
  for (const season of seasons) {
    await page.goto(`${admin(base, business)}/seasons`);
    const form = page.getByRole("form", { name: "New season" });
    await form.getByLabel("Name").fill(season.title);
    await form.getByLabel("Priority").fill(String(season.priority ?? 0));
    for (const [i, segment] of season.segments.entries()) {
      // The form has three empty ranges; more are offered after each save.
      if (i > 0 && i % 3 === 0) throw new Error("createSeasonsInScreens: at most 3 ranges per new season");
      await form.getByLabel(`Range ${i + 1}: from`).fill(segment.start);
      await form.getByLabel(`Range ${i + 1}: to`).fill(segment.end);
    }
    await form.getByRole("button", { name: "Create season" }).click();
    await expect(page.getByRole("status")).toHaveText("Season created.");
  }
  const ids: Record<string, number> = {};
  for (const row of await page.locator("tr[data-season]").all()) ids[(await row.locator("th a").textContent())!.trim()] = Number(await row.getAttribute("data-season"));
  return ids;
}

/**
 * Set prices in the Prices grid, all in one save. `charges` sets how a row is charged, by the
 * option's text ("per person per night", "per unit per day", ...).
 */
export async function setPricesInScreens(page: Page, base: string, business: string, prices: PriceInScreens[], charges: Record<string, string> = {}): Promise<void> {
  await page.goto(`${admin(base, business)}/prices`);
  for (const [product, charge] of Object.entries(charges)) await page.getByLabel(`${product}: charged`, { exact: true }).selectOption({ label: charge });
  for (const p of prices) await page.getByLabel(`${p.product}, ${p.season}`, { exact: true }).fill(p.amount);
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Prices saved for \d+ products?\.$|^Nothing had changed\.$/);
}

/** Replace a product's weekly timeslots through its Inventory screen. */
export async function setTimeslotsInScreens(page: Page, base: string, business: string, productId: number, slots: TimeslotInScreens[]): Promise<void> {
  const url = `${admin(base, business)}/catalog/products/${productId}/inventory`;
  await page.goto(url);
  // The form shows the product's slots and two empty rows: fill what fits, save, and go on.
  let done = 0;
  do {
    const form = page.getByRole("form", { name: "Weekly timeslots" });
    const rows = await form.locator("[data-timeslot]").count();
    for (let i = 0; i < rows; i++) {
      const slot = slots[i];
      const n = i + 1;
      await form.getByLabel(`Timeslot ${n}: time`).fill(slot?.time ?? "");
      await form.getByLabel(`Timeslot ${n}: capacity`).fill(slot?.capacity === undefined ? "" : String(slot.capacity));
      const days = form.getByRole("group", { name: `Timeslot ${n}: days` });
      for (const d of Object.keys(WEEKDAY_LABEL) as Weekday[]) await days.getByLabel(WEEKDAY_LABEL[d], { exact: true }).setChecked(slot?.days?.includes(d) ?? false);
    }
    done = Math.min(rows, slots.length);
    await form.getByRole("button", { name: "Save timeslots" }).click();
    await expect(page.getByRole("status")).toHaveText("Timeslots saved.");
  } while (done < slots.length);
}

/** Block a date (or a range to `to`) of a product through its Inventory screen. */
export async function blockDateInScreens(page: Page, base: string, business: string, productId: number, date: string, to = date): Promise<void> {
  await page.goto(`${admin(base, business)}/catalog/products/${productId}/inventory?from=${date}&to=${to}`);
  const form = page.getByRole("form", { name: "Block or unblock dates" });
  await form.getByLabel("From", { exact: true }).fill(date);
  await form.getByLabel("To", { exact: true }).fill(to);
  await form.getByRole("button", { name: "Block", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Dates blocked.");
  await expect(page.locator(`tr.blocked[data-date="${date}"]`).first()).toBeVisible();
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * What buildSurfCamp sets after making its products, through the screens: a low season (from 30
 * days ago to 120 days on, priority 0) and a high one (121 to 400 days on, priority 1); the
 * package at 45 and 65 per person per night in them; the yoga class at 07:00 on weekdays (8) and
 * 09:00 at weekends (12); the package closed on the day 200 days on. Answers the seasons' ids and
 * the blocked date.
 */
export async function surfCampPricesInScreens(
  page: Page,
  base: string,
  business: string,
  camp: { packageTitle: string; packageId: number; yogaId: number },
): Promise<{ lowId: number; highId: number; blockedDate: string }> {
  const seasons = await createSeasonsInScreens(page, base, business, [
    { title: "Low season", priority: 0, segments: [{ start: day(-30), end: day(120) }] },
    { title: "High season", priority: 1, segments: [{ start: day(121), end: day(400) }] },
  ]);
  await setPricesInScreens(
    page,
    base,
    business,
    [
      { product: camp.packageTitle, season: "Low season", amount: "45" },
      { product: camp.packageTitle, season: "High season", amount: "65" },
    ],
    { [camp.packageTitle]: "per person per night" },
  );
  await setTimeslotsInScreens(page, base, business, camp.yogaId, [
    { time: "07:00", capacity: 8, days: ["mon", "tue", "wed", "thu", "fri"] },
    { time: "09:00", capacity: 12, days: ["sat", "sun"] },
  ]);
  const blockedDate = day(200);
  await blockDateInScreens(page, base, business, camp.packageId, blockedDate);
  return { lowId: seasons["Low season"], highId: seasons["High season"], blockedDate };
}
