import { expect, heading, sentFor, test } from "./fixtures";
import { de } from "../widget/src/strings/de";
import { en, type FirstStrings } from "../widget/src/strings/en";
import { es } from "../widget/src/strings/es";
import { bookToCart, checkoutCart, w } from "./journey";

test("language and currency switch among those of the settings, with Intl formatting", async ({ page, server, shot }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  const day = w(page, "td.open").first();
  await expect(day.locator(".p")).toHaveText(/^€\d/);

  await page.locator("booking-widget").getByLabel("Language").selectOption("de");
  await expect(heading(page)).toHaveText("Wählen Sie Ihre Reisedaten");
  await expect(w(page, "p.muted").first()).toHaveText("Surf- & Yoga-Woche");
  await expect(day.locator(".p")).toHaveText(/^\d+\s€$/); // German puts the sign after
  await page.locator("booking-widget").getByLabel("Währung").selectOption("USD");
  await expect(day.locator(".p")).toHaveText(/^\d+(,\d\d)?\s\$$/);
  await shot(page, "de-usd");

  await page.locator("booking-widget").getByLabel("Sprache").selectOption("es");
  await expect(heading(page)).toHaveText("Elige tus fechas");
  await expect(w(page, "p.muted").first()).toHaveText("Semana de Surf y Yoga");
  await expect(w(page, "span.month")).toHaveText(/\d{4}/);
});

test("the language attribute picks the table; an unknown language falls back to the business's default", async ({ page, server }) => {
  await page.goto(`${server.url}/book/demo?product=101&language=es`);
  await expect(heading(page)).toHaveText("Elige tus fechas");
  await page.goto(`${server.url}/book/demo?product=101&language=ja`);
  await expect(heading(page)).toHaveText("Choose your dates");
});

test("the guest's pick in the language switcher survives a reload", async ({ page, server }) => {
  await page.goto(`${server.url}/book/demo?product=101`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await w(page, "header select").first().selectOption("de");
  await expect(heading(page)).toHaveText(de.steps.dates);
  await page.reload();
  await expect(heading(page)).toHaveText(de.steps.dates);
});

test("without a product the widget lists the bookable products", async ({ page, server, axe, shot }) => {
  await page.goto(`${server.url}/book/demo`);
  await expect(heading(page)).toHaveText("What would you like to book?");
  await axe(page, "products");
  await shot(page, "products");
  await page.locator("booking-widget").getByRole("button", { name: "Choose Surf & Yoga Week" }).click();
  await expect(heading(page)).toHaveText("Choose your dates");
  await expect(heading(page)).toBeFocused();
});

test("a guest booking in German sees the cart in German, titles included, and gets the confirmation e-mail in German", async ({ page, server }) => {
  await page.goto(`${server.url}/book/demo?product=101&language=de`);
  await expect(heading(page)).toHaveText(de.steps.dates);
  await bookToCart(page, { first: "Jonas", last: "Weber", email: "jonas.i18n@example.com", birth: "1990-04-02" }, { nth: 0, room: /Ozean-Schlafsaal/, steps: de.steps });
  // The cart comes back from the API: its package and room are the catalog's German titles.
  await expect(w(page, "p.muted").filter({ hasText: "Surf- & Yoga-Woche" }).first()).toBeVisible();
  await expect(w(page, "ul.lines")).toContainText("Ozean-Schlafsaal (Männer)");
  await expect(w(page, "ul.lines")).not.toContainText("Ocean Dorm");
  // and gets the confirmation e-mail in German, as handed to the send_email binding
  const booking = await checkoutCart(page, { steps: { checkout: de.steps.checkout, done: de.steps.done } });
  await expect(w(page, "[data-confirmation-email]")).toHaveText(`Eine Bestätigung geht an ${booking.confirmation_email}.`);
  const [confirmation] = (await sentFor(server, booking.reference)).filter((m) => m.headers.get("content-language") === "de");
  expect(confirmation.subject).toBe(`Ihre Buchung ${booking.reference} bei Blue Wave Surf & Yoga Camp ist bestätigt`);
  expect(confirmation.to && "value" in confirmation.to && confirmation.to.value[0].address).toBe(booking.confirmation_email);
  expect(confirmation.text).toContain(`Buchungsnummer: ${booking.reference}`);
  expect(confirmation.text).toContain("Ozean-Schlafsaal (Männer)");
  expect(confirmation.text).toContain("Online wurde nichts abgebucht");
  // the total as German writes it: the widget's own figure, 1.234,50 €
  const total = new Intl.NumberFormat("de", { style: "currency", currency: booking.currency }).format(booking.total);
  expect(confirmation.text?.replace(/\s/g, " ")).toContain(`Gesamt: ${total.replace(/\s/g, " ")}`);
});

test("every language the business offers has the widget's texts; one the widget lacks is English throughout, and says so", async ({ page, server }) => {
  const tables: Record<string, FirstStrings> = { en, de, es };
  const boot: any = await (await fetch(`${server.url}/widget/v1/demo/bootstrap`)).json();
  for (const language of boot.settings.languages as string[]) {
    expect(tables[language], `the widget's texts in ${language}`).toBeDefined();
    await page.goto(`${server.url}/book/demo?product=101&language=${language}`);
    await expect(heading(page)).toHaveText(tables[language].steps.dates);
    await expect(w(page, "[data-untranslated]")).toHaveCount(0);
  }
  // a Japanese page: the widget has no Japanese texts
  const asked: string[] = [];
  page.on("request", (r) => r.url().includes("/bootstrap") && asked.push(new URL(r.url()).searchParams.get("language") ?? ""));
  await page.goto(`${server.url}/book/demo?product=101&language=ja`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await expect(w(page, "[data-untranslated]")).toHaveText("This booking form is not available in 日本語, so it is shown in English.");
  await expect(w(page, ".root")).toHaveAttribute("lang", "en");
  // never half-translated: the catalog is asked for in English too (a business with French titles would otherwise mix them in)
  expect(asked).toEqual(["en"]);
  await expect(w(page, ".step p.muted").first()).toHaveText("Surf & Yoga Week");
});
