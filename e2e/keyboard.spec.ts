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
