import { expect, heading, test } from "./fixtures";
import { w } from "./journey";

test("a host page themes the widget with --bw-* properties and ::part()", async ({ page, server, shot }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await page.addStyleTag({
    content: `booking-widget { --bw-accent: rgb(180, 30, 90); --bw-radius: 0px; --bw-font: Georgia, serif; }
      booking-widget::part(primary-button) { text-transform: uppercase; }`,
  });
  const primary = w(page, "button.primary");
  await expect(primary).toHaveCSS("background-color", "rgb(180, 30, 90)");
  await expect(primary).toHaveCSS("text-transform", "uppercase");
  await expect(primary).toHaveCSS("border-top-left-radius", "0px");
  await shot(page, "themed");
});

test("dark mode follows the system, and the theme attribute forces light", async ({ page, server, axe, shot }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await expect(w(page, ".root")).toHaveCSS("background-color", "rgb(18, 26, 31)");
  await axe(page, "dark");
  await shot(page, "dark");
  await page.locator("booking-widget").evaluate((el) => el.setAttribute("theme", "light"));
  await expect(w(page, ".root")).toHaveCSS("background-color", "rgb(255, 255, 255)");
});
