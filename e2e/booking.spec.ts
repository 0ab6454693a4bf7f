import { expect, heading, sentFor, test } from "./fixtures";
import { addGuests, bookToCart, checkoutCart, continueStep, events, expectStep, fillGuest, pickDay, recordEvents, w } from "./journey";

/** "€1,234.50" -> 1234.5 */
const euros = (text: string) => Number(text.replace(/[^\d.]/g, ""));
/** The stay's dates as the summary prints its check-in ("Sat, Dec 5, 2026"). */
const formatStay = (iso: string) => new Intl.DateTimeFormat("en", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

test.describe("a complete booking from the demo page", () => {
  test("a man and a woman book a week in a mixed dorm with extras and details; the private API shows booking, booker and guests", async ({ page, server, axe, shot }) => {
    await recordEvents(page);
    await page.goto(`${server.url}/demo`);
    await expect(heading(page)).toHaveText("Choose your dates");
    // first paint does not steal focus from the host page
    await expect(heading(page)).not.toBeFocused();
    await axe(page, "dates");
    await shot(page, "1-dates");

    // view_item fired with a price
    await expect.poll(async () => (await events(page)).map((e) => e.name)).toContain("view_item");
    const view = (await events(page)).find((e) => e.name === "view_item")!;
    expect(view.detail).toMatchObject({ business: "demo", currency: "EUR", items: [{ item_id: "101" }] });
    expect(view.detail.value).toBeGreaterThan(0);

    const start = await pickDay(page, 1);
    await expect(w(page, "p[aria-live]").last()).toContainText("Check-in");
    await continueStep(page);

    // nobody is assumed: no guest, and so no room, until the guest says who comes
    await expectStep(page, "Guests and room");
    await expect(w(page, "output")).toHaveText(["0", "0", "0"]);
    await expect(w(page, "fieldset").nth(1)).toContainText("Add at least one guest.");
    await expect(page.locator("booking-widget").getByRole("button", { name: "Continue" })).toBeDisabled();
    // party: one man and one woman -> mixed rooms only
    await addGuests(page, { males: 1, females: 1 });
    await expect(w(page, "label.option").first()).toBeVisible();
    const titles = await w(page, "label.option strong").allTextContents();
    expect(titles).not.toContain("Ocean Dorm (men)");
    expect(titles).not.toContain("Sunset Dorm (women)");
    await page.locator("booking-widget label.option").filter({ hasText: "Mixed Garden Dorm" }).locator("input").check();
    await axe(page, "room");
    await shot(page, "2-room");
    await continueStep(page);

    // extras: airport transfer, yoga at 18:00 on the second day, softboard
    await expectStep(page, "Extras");
    await expect(w(page, "ul.lines")).toContainText("Surf Lessons");
    await page.locator("booking-widget .card").filter({ hasText: "Airport Transfer" }).locator('input[type="checkbox"]').first().check();
    const yoga = page.locator("booking-widget .card").filter({ hasText: "Yoga Class" });
    await yoga.locator('input[type="checkbox"]').first().check();
    const yogaSelects = yoga.locator("select");
    await expect(yogaSelects.first()).toBeVisible();
    const count = await yogaSelects.count();
    for (let i = 0; i < count; i++) await yogaSelects.nth(i).selectOption(i === 1 ? "18:00" : "");
    const softboard = page.locator("booking-widget fieldset").filter({ hasText: "Softboard Rental" });
    await softboard.getByLabel(/Softboard Rental/).check();
    // The estimate follows the choices, and is what the cart will charge. It is asked for a moment
    // after the last choice; its answer brings what each chosen extra adds for the party, so the
    // estimate is read once the last choice (the board) shows its own, not after a guessed delay.
    await expect(softboard.locator("[data-extra-total]")).toHaveText(/^€[\d,]+\.\d\d for 2 guests$/);
    await expect(w(page, "[data-estimate]")).toHaveText(/^€[\d,]+\.\d\d$/);
    const estimate = await w(page, "[data-estimate]").textContent();
    // each extra says what it adds for this party (sessions × guests, tiers applied), not only its unit price
    await expect(yoga.locator("[data-extra-total]")).toHaveText(/^€[\d,]+\.\d\d for 2 guests$/);
    const yogaForParty = euros((await yoga.locator("[data-extra-total]").textContent())!);
    await axe(page, "extras");
    await shot(page, "3-extras");
    await continueStep(page);

    await expectStep(page, "Guest details");
    // the server's rules are enforced before sending: birthday required, minimum age 12
    await w(page, "button[type=submit]").click();
    await expect(w(page, '[aria-invalid="true"]').first()).toBeFocused();
    await expect(w(page, "[role=alert]")).toContainText("fields need your attention");
    await fillGuest(page, 0, { first: "Ana", last: "Surfer", email: "ana.e2e@example.com", birth: "1990-04-12" });
    await fillGuest(page, 1, { first: "Bea", last: "Surfer", email: "bea.e2e@example.com", birth: "2020-01-01" });
    await w(page, "#g0-diet_id").selectOption({ label: "Vegetarian" });
    await w(page, "#g1-level_id").selectOption({ label: "Beginner" });
    await w(page, "button[type=submit]").click();
    await expect(w(page, "#g1-birth_date-err")).toHaveText(/at least 12 years/);
    await w(page, "#g1-birth_date").fill("1992-06-30");
    await axe(page, "guests");
    await shot(page, "4-guests");
    await w(page, "button[type=submit]").click();

    await expectStep(page, "Your cart");
    await expect(w(page, "[data-countdown]")).toHaveText(/^\d+:\d\d$/);
    await expect(w(page, "article.card")).toHaveCount(2);
    await expect(w(page, "[data-total]")).toHaveText(estimate!);
    await expect(w(page, "article.card").first()).toContainText("Airport Transfer");
    await expect(w(page, "article.card").first()).toContainText("Yoga Class");
    const yogaLines = await w(page, "article.card li").filter({ hasText: "Yoga Class" }).locator("span:last-child").allTextContents();
    expect(yogaLines.reduce((t, p) => t + euros(p), 0)).toBeCloseTo(yogaForParty, 2);
    const add = (await events(page)).find((e) => e.name === "add_to_cart")!;
    expect(add.detail.cart_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(add.detail.value).toBeGreaterThan(0);
    // the host page's own storage holds the cart id
    const stored = await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart"));
    expect(JSON.parse(stored!).id).toBe(add.detail.cart_id);
    // pushed to the page's dataLayer too
    const layer = await page.evaluate(() => (window as any).dataLayer.map((e: any) => e.event));
    expect(layer).toEqual(expect.arrayContaining(["booking-widget:view_item", "booking-widget:add_to_cart"]));

    // extend
    await page.getByRole("button", { name: "Keep for 10 more minutes" }).click();
    await expect(w(page, "[role=status]")).toContainText("held until");
    await axe(page, "cart");
    await shot(page, "5-cart");
    await w(page, "button.primary").click();

    await expectStep(page, "Checkout");
    // the whole booking, up to the end: dates, room, each guest, extras, total, and how payment happens
    const summary = w(page, "section.cards");
    await expect(summary.locator("article.card h3")).toHaveText(["Ana Surfer", "Bea Surfer"]);
    for (const text of ["Mixed Garden Dorm", "Airport Transfer", "Yoga Class", "Softboard Rental", "Surf Lessons"]) await expect(summary.locator("article.card").first()).toContainText(text);
    await expect(summary.locator("article.card").first()).toContainText(formatStay(start));
    await expect(summary.locator("[data-total]")).toHaveText(estimate!);
    await expect(summary.locator("[data-payment]")).toContainText("nothing is charged online");
    await expect(w(page, "#c-first_name")).toHaveValue("Ana");
    await expect(w(page, ".terms")).toContainText("Blue Wave Surf Camp booking terms");
    await w(page, "#c-phone_countrycode").selectOption("PT");
    await w(page, "#c-phone").fill("912 345 678");
    await w(page, "#c-city").fill("Ericeira");
    await w(page, "#c-country").selectOption("PT");
    // terms are required
    await w(page, "button[type=submit]").click();
    await expect(w(page, "#terms-err")).toBeVisible();
    await w(page, "#terms").check();
    await page.getByLabel("Send me news and offers by e-mail").check();
    await axe(page, "checkout");
    await shot(page, "6-checkout");
    const checkoutResponse = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
    await w(page, "button[type=submit]").click();
    const booking = await (await checkoutResponse).json();

    await expectStep(page, "Booking confirmed");
    await expect(w(page, "[data-booking-reference]")).toHaveText(booking.reference);
    await expect(w(page, "article.card h3")).toHaveText(["Ana Surfer", "Bea Surfer"]);
    await expect(w(page, "article.card").first()).toContainText("Mixed Garden Dorm");
    await expect(w(page, "[data-total]")).toHaveText(estimate!);
    await expect(w(page, "[data-payment]")).toContainText("Nothing has been charged");
    // the promise of an e-mail names where it went
    expect(booking.confirmation_email).toBe("ana.e2e@example.com");
    await expect(w(page, "[data-confirmation-email]")).toHaveText("A confirmation goes to ana.e2e@example.com.");
    await axe(page, "done");
    await shot(page, "7-done");
    const purchase = (await events(page)).find((e) => e.name === "purchase")!;
    expect(purchase.detail).toMatchObject({ transaction_id: booking.reference, currency: "EUR", value: booking.total });
    expect(await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart"))).toBeNull();
    expect((await events(page)).some((e) => e.name === "begin_checkout")).toBe(true);

    // the back office sees it: booking, booker and guests through the private API
    expect(booking.start_date).toBe(start);
    const record = await server.privateApi(`/private/bookings/${booking.id}`);
    expect(record.status).toBe(200);
    expect(record.body.data).toMatchObject({ id: booking.id, status: "confirmed", start_date: start, newsletter_opt_in: true });
    const booker = await server.privateApi(`/private/bookings/${booking.id}/booker`);
    expect(booker.status).toBe(200);
    expect(booker.body.data.person).toMatchObject({ email: "ana.e2e@example.com", first_name: "Ana", last_name: "Surfer" });
    const guests = await server.privateApi(`/private/guests?booking_id=${booking.id}`);
    expect(guests.status).toBe(200);
    expect(guests.body.map((g: any) => g.person.first_name).sort()).toEqual(["Ana", "Bea"]);
    for (const g of booking.guests) {
      const one = await server.privateApi(`/private/bookings/${booking.id}/guests/${g.id}`);
      expect(one.status).toBe(200);
    }
    const persons = await server.privateApi(`/private/persons?email=bea.e2e@example.com`);
    expect(persons.status).toBe(200);

    // The confirmation as really handed to the send_email binding (wrangler's local one writes it
    // to an .eml file), parsed as MIME: to the booker, in English, with the reference and total.
    const mail = await sentFor(server, booking.reference);
    const confirmation = mail.find((m) => m.to && "value" in m.to && m.to.value[0].address === "ana.e2e@example.com")!;
    expect(confirmation.subject).toBe(`Your booking ${booking.reference} at Blue Wave Surf & Yoga Camp is confirmed`);
    expect(confirmation.from?.value[0]).toMatchObject({ address: "bookings@bluewave.example", name: "Blue Wave Surf & Yoga Camp" });
    expect(confirmation.headers.get("content-language")).toBe("en");
    expect(confirmation.text).toContain(`Booking reference: ${booking.reference}`);
    expect(confirmation.text).toContain(`Total: ${estimate}`);
    for (const text of ["Ana Surfer", "Bea Surfer", "Mixed Garden Dorm", "Yoga Class", "Softboard Rental", "Nothing has been charged online", "Blue Wave Surf Camp booking terms"]) {
      expect(confirmation.text).toContain(text);
    }
    expect(confirmation.html).toContain(booking.reference);
    expect(confirmation.html).toContain(estimate!);
    // nothing remote: no image, stylesheet or link that reports the reading
    expect(confirmation.html).not.toMatch(/<img|\bsrc=|url\(|https?:\/\//i);
    // readable on a phone: at 390 px nothing is wider than the screen
    await page.setViewportSize({ width: 390, height: 800 });
    await page.setContent(confirmation.html as string);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your booking is confirmed");
    // and the business heard of it, at its notification address
    const notice = mail.find((m) => m.to && "value" in m.to && m.to.value[0].address === "bookings@bluewave.example")!;
    expect(notice.subject).toContain(`New booking ${booking.reference}`);
    expect(notice.text).toContain("ana.e2e@example.com");
  });
});

test("two stays in one cart: 'Book another stay' adds to the same cart, and one checkout books both", async ({ page, server }) => {
  await page.goto(`${server.url}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await bookToCart(page, { first: "Sam", last: "First", email: "sam.first@example.com", birth: "1980-01-01" }, { nth: 5 });
  const cartId = JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!).id;
  await page.locator("booking-widget").getByRole("button", { name: "Book another stay" }).click();
  await expectStep(page, "Choose your dates");
  // the party stays as it was (one guest), the typed names of the first stay are not carried into the second
  await bookToCart(page, { first: "Sue", last: "Second", email: "sue.second@example.com", birth: "1982-02-02" }, { nth: 6, party: {} });
  await expect(w(page, "article.card h3")).toHaveText(["Sam First", "Sue Second"]);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("booking-widget:demo:cart")))!).id).toBe(cartId);
  const booking = await checkoutCart(page);
  expect(booking.guests.map((g: any) => g.first_name)).toEqual(["Sam", "Sue"]);
  expect(booking.guests[0].package.start_date).not.toBe(booking.guests[1].package.start_date);
});
