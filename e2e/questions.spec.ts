import { expect, heading, test } from "./fixtures";
import { de } from "../widget/src/strings/de";
import { deCheckout } from "../widget/src/strings/de-checkout";
import { addGuests, checkoutCart, continueStep, expectStep, fillGuest, pickDay, w } from "./journey";

/**
 * The business's own question to its guests (settings' custom_fields), asked in the guest's
 * language: a required list the guest must answer before anything is held, whose answer (the
 * option as stored, in the business's default language) reaches the booking's guest.
 */
test("a required question is asked in German, refused unanswered at its field with nothing held, and its answer reaches the booking", async ({ page, server, axe }) => {
  const question = {
    key: "certification",
    title: "Diving certification",
    type: "select",
    options: ["None", "Open Water", "Advanced"],
    required: true,
    applies_to: "guest",
    translations: { de: { title: "Tauchschein", options: ["Keiner", "Open Water (OWD)", "Fortgeschritten"] } },
  };
  // For this test only: the demo's settings get the question, and lose it again at the end.
  await server.setDemoConfig({ custom_fields: [question] });
  try {
    const adds: string[] = [];
    page.on("request", (r) => r.url().includes("/bookings/add") && adds.push(r.method()));
    await page.goto(`${server.url}/book/demo?product=101&language=de`);
    await expect(heading(page)).toHaveText(de.steps.dates);
    await pickDay(page, 0);
    await continueStep(page);
    await expectStep(page, de.steps.room);
    await addGuests(page, { males: 1 });
    await w(page, "label.option").first().locator("input").check();
    await continueStep(page);
    await expectStep(page, de.steps.extras);
    await continueStep(page);
    await expectStep(page, de.steps.guests);

    // The question in German, its choices in German.
    const answer = page.locator("booking-widget").getByLabel("Tauchschein");
    await expect(answer).toBeVisible();
    await expect(answer.locator("option")).toHaveText([deCheckout.checkout.choose, "Keiner", "Open Water (OWD)", "Fortgeschritten"]);
    await axe(page, "guests-question");

    // Unanswered: the message at the field, focus on it, and no request to hold anything.
    await fillGuest(page, 0, { first: "Lena", last: "Taucher", email: "lena.questions@example.com", birth: "1991-06-03" });
    await w(page, "button[type=submit]").click();
    await expect(answer).toHaveAttribute("aria-invalid", "true");
    await expect(w(page, "[data-question=certification] .error")).toHaveText(deCheckout.guests.chooseOne);
    await expect(answer).toBeFocused();
    expect(adds).toEqual([]);

    // Answered: the cart, then the booking.
    await answer.selectOption({ label: "Open Water (OWD)" });
    await expect(w(page, "[data-question=certification] .error")).toHaveCount(0);
    await w(page, "button[type=submit]").click();
    await expectStep(page, de.steps.cart);
    expect(adds).toEqual(["POST"]);
    const booking = await checkoutCart(page, { steps: { checkout: de.steps.checkout, done: de.steps.done } });

    // Read back through the private API: the answer is the option as stored, not its German title.
    const guests = await server.privateApi(`/private/guests?booking_id=${booking.id}`);
    expect(guests.status).toBe(200);
    expect(guests.body.map((g: any) => g.person.custom_fields)).toEqual([{ certification: "Open Water" }]);
  } finally {
    await server.setDemoConfig({ custom_fields: [] });
  }
});
