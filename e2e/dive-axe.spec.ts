/**
 * axe on the dive centre's screens that shapes.spec.ts does not check (issue 27): its product list
 * (the first screen of /demo/dive, which has no product attribute) and the guests step of a boat
 * dive, where no gender is asked. shapes.spec.ts checks the participants step and the extras'
 * times.
 */
import { expect, heading, test } from "./fixtures";
import { continueStep, expectStep, pickDay, w } from "./journey";

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`the dive centre at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("its product list and a boat dive's guest details pass axe", async ({ page, server, axe }) => {
      await page.goto(`${server.url}/demo/dive`);
      await expect(heading(page)).toHaveText("What would you like to book?");
      await expect(w(page, "article.card h3")).toContainText(["Boat Dive", "Open Water Course", "Wetsuit Rental"]);
      await axe(page, "products");

      await page.locator("booking-widget").getByRole("button", { name: "Choose Boat Dive" }).click();
      await expectStep(page, "Choose your dates");
      await pickDay(page, 0);
      await continueStep(page);
      await expectStep(page, "Participants");
      await page.locator("booking-widget").getByRole("button", { name: "More Participants" }).click();
      await w(page, 'input[name="time"][value="09:00"]').check();
      await continueStep(page);

      await expectStep(page, "Guest details");
      // a boat dive's guest: no gender asked (no room with gender rules)
      await expect(w(page, "#g0-first_name")).toBeVisible();
      await expect(w(page, "fieldset legend").filter({ hasText: /^Guest 1/ })).toHaveText("Guest 1");
      await expect(w(page, "#g0-gender")).toHaveCount(0);
      await axe(page, "guests-no-gender");
    });
  });
}
