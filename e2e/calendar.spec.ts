/**
 * The check-in calendar in the browser: its keyboard grid and what a screen reader hears. The
 * pure rules behind the steps are unit-tested next to their files (widget/src/*.test.ts).
 */
import { expect, heading, test } from "./fixtures";
import { w } from "./journey";

test("the calendar is one tab stop; arrows move by day and week, disabled days say why", async ({ page, server }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await expect(w(page, 'button.day[tabindex="0"]')).toHaveCount(1);
  const first = w(page, "button.day.open").first();
  await first.focus();
  await page.keyboard.press("ArrowRight"); // the day after a Saturday check-in: a Sunday
  const focused = w(page, 'button.day[tabindex="0"]');
  await expect(focused).toBeFocused();
  await expect(focused).toHaveAttribute("aria-disabled", "true");
  await expect(focused).toHaveAttribute("aria-label", /no check-in on this weekday/);
  await page.keyboard.press("Enter");
  await expect(focused).toHaveAttribute("aria-pressed", "false");
});
