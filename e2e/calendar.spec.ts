/**
 * The check-in calendar in the browser: its keyboard grid and what a screen reader hears. The
 * pure rules behind the steps are unit-tested next to their files (widget/src/*.test.ts).
 */
import { expect, heading, test } from "./fixtures";
import { addGuests, continueStep, expectStep, w } from "./journey";

test("the calendar reads as a grid with one label per day, past days are no controls; one tab stop, arrows move, closed days say why", async ({ page, server }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  const grid = page.locator("booking-widget table");
  await expect(grid).toHaveAttribute("role", "grid");
  await expect(grid.getByRole("button")).toHaveCount(0);
  // what a screen reader gets: cells, each named once (no control inside repeating the name)
  const tree = await grid.ariaSnapshot();
  expect(tree).not.toMatch(/- gridcell "[^"]*"[^\n]*:\n/);
  expect(tree).toMatch(/- gridcell "\w+day, \w+ \d+, \d{4}, €\d+ per person"/);
  // the days before today are plain numbers, not disabled buttons: none is a tab stop or labelled
  const { today } = (await (await fetch(`${server.url}/widget/v1/demo/bootstrap?product=101`)).json()) as { today: string };
  // Exactly the days of this month before today, in order (none on the 1st, or when the first
  // month shown is a later one), so the check below cannot pass by finding no cell at all.
  await expect(grid.locator("td[data-date]").first()).toBeVisible();
  const shown = (await grid.locator("td[data-date]").first().getAttribute("data-date"))!.slice(0, 7);
  const pastDays = shown === today.slice(0, 7) ? Number(today.slice(8)) - 1 : 0;
  const past = grid.locator('td[aria-disabled="true"]:not([data-date])');
  await expect(past).toHaveCount(pastDays);
  for (const [i, cell] of (await past.all()).entries()) {
    await expect(cell).not.toHaveAttribute("tabindex");
    await expect(cell).not.toHaveAttribute("aria-label");
    await expect(cell).toHaveText(String(i + 1));
  }
  await expect(w(page, 'td[tabindex="0"]')).toHaveCount(1);
  const first = w(page, "td.open").first();
  await first.focus();
  await page.keyboard.press("ArrowRight"); // the day after a Saturday check-in: a Sunday
  const focused = w(page, 'td[tabindex="0"]');
  await expect(focused).toBeFocused();
  await expect(focused).toHaveAttribute("aria-disabled", "true");
  await expect(focused).toHaveAttribute("aria-label", /no check-in on this weekday/);
  await page.keyboard.press("Enter");
  await expect(focused).toHaveAttribute("aria-selected", "false");
});

/** Three Saturdays of one month four months or more ahead, all check-in days (no other journey goes that far). */
async function farSaturdays(serverUrl: string): Promise<string[]> {
  const boot: any = await (await fetch(`${serverUrl}/widget/v1/demo/bootstrap?product=101`)).json();
  for (let ahead = 4; ahead < 12; ahead++) {
    const month = new Date(`${boot.today.slice(0, 7)}-01T00:00:00Z`);
    month.setUTCMonth(month.getUTCMonth() + ahead);
    const first = new Date(month);
    first.setUTCDate(1 + ((6 - month.getUTCDay() + 7) % 7));
    const days = [0, 7, 14].map((n) => new Date(first.getTime() + n * 86_400_000).toISOString().slice(0, 10));
    const cal: any = await (await fetch(`${serverUrl}/widget/v1/demo/calendar?product=101&from=${days[0]}&to=${days[2]}`)).json();
    if (days.every((d) => cal.dates[d]?.available_for_checkin)) return days;
  }
  throw new Error("no month with three check-in Saturdays ahead");
}

test("the calendar offers only days on which a room can take the party; a sold-out room type shows as sold out", async ({ page, server }) => {
  const [noRoom, menOnly, seaViewFull] = await farSaturdays(server.url);
  const night = (saturday: string) => new Date(Date.parse(`${saturday}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
  // one night of each week taken: every room type / all but the men's dorm / the Sea View Double
  const full: [number, string][] = [
    ...[201, 202, 203, 204, 205].map((p): [number, string] => [p, night(noRoom)]),
    ...[202, 203, 204, 205].map((p): [number, string] => [p, night(menOnly)]),
    [205, night(seaViewFull)],
  ];
  await server.exec(`INSERT OR REPLACE INTO inventory (business_id, product_id, date, slot, capacity, blocked) VALUES ${full.map(() => "(1, ?, ?, '', 0, 0)").join(", ")}`, ...full.flat());
  try {
    await page.goto(`${server.url}/book/demo?product=101&start_date=${seaViewFull}`);
    await expect(heading(page)).toHaveText("Choose your dates");
    const day = (date: string) => w(page, `[data-date="${date}"]`);
    // nobody chosen yet: a day with no bed or room for anyone is not offered, the others are
    await expect(day(noRoom)).toHaveAttribute("aria-disabled", "true");
    await expect(day(noRoom)).toHaveAttribute("aria-label", /no room for your party/);
    await expect(day(menOnly)).toHaveClass("open");
    await expect(day(seaViewFull)).toHaveClass("open");

    await continueStep(page);
    await expectStep(page, "Guests and room");
    await addGuests(page, { females: 1 });
    await expect(w(page, "label.option").first()).toBeVisible();
    const seaView = page.locator("booking-widget label.option").filter({ hasText: "Sea View Double" });
    await expect(seaView).toContainText("Sold out for these dates");
    await expect(seaView.locator("input")).toBeDisabled();
    await expect(page.locator("booking-widget label.option").filter({ hasText: "Sunset Dorm" }).locator("input")).toBeEnabled();

    // a woman cannot take the men's dorm: that week is no longer offered to this party
    await page.locator("booking-widget").getByRole("button", { name: "Back" }).click();
    await expectStep(page, "Choose your dates");
    await expect(day(menOnly)).toHaveAttribute("aria-disabled", "true");
    await expect(day(menOnly)).toHaveAttribute("aria-label", /no room for your party/);
    await expect(day(seaViewFull)).toHaveClass("open");
  } finally {
    await server.exec(`DELETE FROM inventory WHERE business_id = 1 AND slot = '' AND (${full.map(() => "(product_id = ? AND date = ?)").join(" OR ")})`, ...full.flat());
  }
});
