import { expect, heading, test } from "./fixtures";
import { w } from "./journey";

test("a deep link from GET /products/{id}/deeplink opens /book/demo with its settings preselected", async ({ page, server, shot }) => {
  // the second Saturday from the bootstrap's calendar
  const boot: any = await (await fetch(`${server.url}/widget/v1/demo/bootstrap?product=101`)).json();
  const saturdays = Object.keys(boot.calendar.dates).filter((d) => boot.calendar.dates[d].available_for_checkin);
  const start = saturdays[1];
  const link = await server.publicApi(`/api/pub/v2/products/101/deeplink?product_id=101&start_date=${start}&duration=14&males=1&females=1&couples=0&language=de&currency=USD`);
  expect(link.status).toBe(200);
  const url = new URL(link.body.url);
  expect(url.pathname).toBe("/book/demo");

  await page.goto(url.toString());
  await expect(heading(page)).toHaveText("Wählen Sie Ihre Reisedaten");
  await expect(w(page, `td[data-date="${start}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(w(page, "#duration")).toHaveValue("14");
  await expect(w(page, "select").filter({ has: page.locator("option[value=USD]") })).toHaveValue("USD");
  await expect(w(page, `td[data-date="${start}"] .p`)).toContainText("$");
  await expect(w(page, "p.muted").first()).toHaveText("Surf- & Yoga-Woche");
  await shot(page, "book-page");
  await w(page, "button.primary").click();
  await expect(heading(page)).toHaveText("Gäste und Zimmer");
  await expect(w(page, "output").nth(0)).toHaveText("1");
  await expect(w(page, "output").nth(1)).toHaveText("1");
  await expect(w(page, "output").nth(2)).toHaveText("0");
  await expect(w(page, "label.option").first()).toContainText("$");
});
