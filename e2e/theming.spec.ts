import { expect, heading, test } from "./fixtures";
import { continueStep, expectStep, pickDay, w } from "./journey";

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

test("the host sizes the widget with --bw-font-size, and --bw-scroll-offset keeps a step's heading clear of its fixed header", async ({ page, server }) => {
  await page.setViewportSize({ width: 1024, height: 560 });
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await page.addStyleTag({ content: "html { font-size: 10px; } booking-widget { --bw-font-size: 20px; --bw-scroll-offset: 150px; }" });
  await expect(w(page, ".root")).toHaveCSS("font-size", "20px");
  await expect(heading(page)).toHaveCSS("font-size", "26px"); // 1.3em of the widget's own size, not of the page's 10px
  await pickDay(page, 0);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  expect((await heading(page).boundingBox())!.y).toBeGreaterThanOrEqual(150);
});
