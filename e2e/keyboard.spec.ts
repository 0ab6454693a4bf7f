import { expect, heading, test } from "./fixtures";
import { expectStep, tabTo, w } from "./journey";

test("the whole booking works with the keyboard alone", async ({ page, server, shot }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");

  // into the calendar: one tab stop, arrows move between days, Enter picks
  const firstOpen = w(page, "td.open").first();
  const first = (await firstOpen.getAttribute("data-date"))!;
  await tabTo(page, firstOpen);
  await page.keyboard.press("ArrowDown"); // a week later: the next Saturday
  const next = w(page, `td[data-date="${addDays(first, 7)}"]`);
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(next).toHaveAttribute("aria-selected", "true");
  await tabTo(page, page.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Guests and room");
  // nobody is assumed: the guest says who comes (one man), then the room list is a radio group:
  // Tab in, Space picks
  await tabTo(page, page.getByRole("button", { name: "More Men" }));
  await page.keyboard.press("Enter");
  const radio = w(page, 'input[name="room"]').first();
  await expect(radio).toBeVisible();
  await tabTo(page, radio);
  await page.keyboard.press("Space");
  await expect(radio).toBeChecked();
  await tabTo(page, page.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Extras");
  const transfer = page.locator("booking-widget .card").filter({ hasText: "Airport Transfer" }).locator('input[type="checkbox"]').first();
  await tabTo(page, transfer);
  await page.keyboard.press("Space");
  await expect(transfer).toBeChecked();
  await tabTo(page, page.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Guest details");
  await page.keyboard.press("Tab");
  await expect(w(page, "#g0-first_name")).toBeFocused();
  await page.keyboard.type("Kim");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Keys");
  await page.keyboard.press("Tab");
  await page.keyboard.type("kim.keys@example.com");
  await page.keyboard.press("Tab");
  await expect(w(page, "#g0-birth_date")).toBeFocused();
  await page.keyboard.type("03141988"); // mm/dd/yyyy in an en-US Chromium
  await expect(w(page, "#g0-birth_date")).toHaveValue("1988-03-14");
  await tabTo(page, page.getByRole("button", { name: "Add to cart" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Your cart");
  await shot(page, "cart");
  await tabTo(page, page.getByRole("button", { name: "Go to checkout" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Checkout");
  await tabTo(page, w(page, "#c-phone"));
  await page.keyboard.type("912345678");
  await tabTo(page, w(page, "#terms"));
  await page.keyboard.press("Space");
  await expect(w(page, "#terms")).toBeChecked();
  await tabTo(page, page.getByRole("button", { name: /Book now for/ }));
  await page.keyboard.press("Enter");
  await expectStep(page, "Booking confirmed");
  await expect(w(page, "[data-booking-reference]")).toHaveText(/\d/);
  await shot(page, "done");
});

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

test("a boat dive for two at 14:00 is booked with the keyboard alone, from the dive centre's product list", async ({ page, server }) => {
  await page.goto(`${server.url}/demo/dive`);
  await expect(heading(page)).toHaveText("What would you like to book?");

  // the product list: Tab to the boat dive's button, Enter chooses it
  await tabTo(page, page.getByRole("button", { name: "Choose Boat Dive" }));
  await page.keyboard.press("Enter");

  // the calendar: one tab stop, the arrow keys move between days, Space picks
  await expectStep(page, "Choose your dates");
  const firstOpen = w(page, "td.open").first();
  const first = (await firstOpen.getAttribute("data-date"))!;
  await tabTo(page, firstOpen);
  await page.keyboard.press("ArrowRight"); // the next day: boats go out every day
  const next = w(page, `td[data-date="${addDays(first, 1)}"]`);
  await expect(next).toBeFocused();
  await page.keyboard.press("Space");
  await expect(next).toHaveAttribute("aria-selected", "true");
  await tabTo(page, page.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  // the participants' stepper, then the times as a radio group: Tab in, an arrow key chooses
  await expectStep(page, "Participants");
  const more = page.getByRole("button", { name: "More Participants" });
  await tabTo(page, more);
  await page.keyboard.press("Space");
  await page.keyboard.press("Space");
  await expect(w(page, ".stepper output")).toHaveText("2");
  const time = (t: string) => w(page, `input[name="time"][value="${t}"]`);
  await tabTo(page, time("09:00"));
  await expect(time("09:00")).not.toBeChecked(); // reaching a time does not choose it
  await page.keyboard.press("ArrowDown");
  await expect(time("14:00")).toBeFocused();
  await expect(time("14:00")).toBeChecked();
  await expect(time("09:00")).not.toBeChecked();
  await tabTo(page, page.getByRole("button", { name: "Continue" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Guest details");
  for (const [i, name] of ["Kai", "Kei"].entries()) {
    await tabTo(page, w(page, `#g${i}-first_name`));
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await page.keyboard.type("Keys");
    await page.keyboard.press("Tab");
    await page.keyboard.type(`${name.toLowerCase()}.keys@example.com`);
    await page.keyboard.press("Tab");
    await expect(w(page, `#g${i}-birth_date`)).toBeFocused();
    await page.keyboard.type("03141988"); // mm/dd/yyyy in an en-US Chromium
    await expect(w(page, `#g${i}-birth_date`)).toHaveValue("1988-03-14");
  }
  await tabTo(page, page.getByRole("button", { name: "Add to cart" }));
  await page.keyboard.press("Enter");

  await expectStep(page, "Your cart");
  const line = w(page, "article.card").filter({ hasText: "Boat Dive" }).first();
  await expect(line).toContainText("14:00");
});
