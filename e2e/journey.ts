import type { Page, Route } from "@playwright/test";
import { expect, heading } from "./fixtures";

/** Steps of the guest's path on the demo package, done with the mouse (see keyboard.spec.ts for keys). */
export const w = (page: Page, selector: string) => page.locator(`booking-widget ${selector}`);

/** Record the booking-widget:* events that reach the document, and the host page's dataLayer. */
export async function recordEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as any).__bwEvents = [];
    for (const name of ["view_item", "add_to_cart", "begin_checkout", "purchase", "cart_expired"]) {
      document.addEventListener(`booking-widget:${name}`, (e) => (window as any).__bwEvents.push({ name, detail: (e as CustomEvent).detail }));
    }
  });
}
export const events = (page: Page) => page.evaluate(() => (window as any).__bwEvents as { name: string; detail: any }[]);

export async function expectStep(page: Page, text: RegExp | string): Promise<void> {
  await expect(heading(page)).toHaveText(text);
  await expect(heading(page)).toBeFocused();
}

/** Pick the nth open check-in day shown (0 = first), and return its date. */
export async function pickDay(page: Page, nth = 0): Promise<string> {
  await expect(w(page, "td.open").first()).toBeVisible();
  for (let shown = await w(page, "td.open").count(); nth >= shown; shown = await w(page, "td.open").count()) {
    // later weeks: the following months of the calendar
    nth -= shown;
    const month = await w(page, "span.month").textContent();
    await page.locator("booking-widget").getByRole("button", { name: "Next month" }).click();
    await expect(w(page, "span.month")).not.toHaveText(month!);
    await expect(w(page, "td.open").first()).toBeVisible();
  }
  const day = w(page, "td.open").nth(nth);
  const date = (await day.getAttribute("data-date"))!;
  await day.click();
  await expect(day).toHaveAttribute("aria-selected", "true");
  return date;
}

export async function continueStep(page: Page): Promise<void> {
  await w(page, "button.primary").click();
}

export interface GuestDetails {
  first: string;
  last: string;
  email?: string;
  birth: string;
}

export async function fillGuest(page: Page, index: number, g: GuestDetails): Promise<void> {
  await w(page, `#g${index}-first_name`).fill(g.first);
  await w(page, `#g${index}-last_name`).fill(g.last);
  if (g.email) await w(page, `#g${index}-email`).fill(g.email);
  await w(page, `#g${index}-birth_date`).fill(g.birth);
}

/** The headings of the steps bookToCart() passes (the widget's own tables: en by default). */
export interface StepHeadings {
  room: string;
  extras: string;
  guests: string;
  cart: string;
}
const ENGLISH: StepHeadings = { room: "Guests and room", extras: "Extras", guests: "Guest details", cart: "Your cart" };

/** On the room step: add guests with the party's "+" buttons (men, women, couples; in any language). */
export async function addGuests(page: Page, party: { males?: number; females?: number; couples?: number }): Promise<void> {
  const steppers = page.locator("booking-widget .stepper");
  for (const [i, n] of [party.males ?? 0, party.females ?? 0, party.couples ?? 0].entries()) {
    for (let k = 0; k < n; k++) await steppers.nth(i).locator("button").last().click();
  }
}

/** From the calendar to an open cart, for one man (or `party`) in the first room listed. */
export async function bookToCart(page: Page, guest: GuestDetails, options: { nth?: number; room?: RegExp; steps?: StepHeadings; party?: { males?: number; females?: number; couples?: number } } = {}): Promise<string> {
  const steps = options.steps ?? ENGLISH;
  const date = await pickDay(page, options.nth ?? 0);
  await continueStep(page);
  await expectStep(page, steps.room);
  await addGuests(page, options.party ?? { males: 1 });
  const room = options.room ? page.locator("booking-widget label.option").filter({ hasText: options.room }) : w(page, "label.option").first();
  await room.locator("input").check();
  await continueStep(page);
  await expectStep(page, steps.extras);
  await continueStep(page);
  await expectStep(page, steps.guests);
  await fillGuest(page, 0, guest);
  await w(page, "button[type=submit]").click();
  await expectStep(page, steps.cart);
  return date;
}

/** Checkout with the details the demo business asks for, accepting the terms. Returns the booking. */
export async function checkoutCart(page: Page, customer: { phone?: string; steps?: { checkout: string; done: string } } = {}): Promise<any> {
  const steps = customer.steps ?? { checkout: "Checkout", done: "Booking confirmed" };
  await w(page, "button.primary").click();
  await expectStep(page, steps.checkout);
  await w(page, "#c-phone").fill(customer.phone ?? "912 345 678");
  await w(page, "#terms").check();
  const response = page.waitForResponse((r) => r.url().includes("/checkout") && r.request().method() === "POST");
  await w(page, "button[type=submit]").click();
  const booking = await (await response).json();
  await expectStep(page, steps.done);
  return booking;
}

/** Press Tab until the element is focused (keyboard only); fails after `max` presses. */
export async function tabTo(page: Page, target: ReturnType<Page["locator"]>, max = 60, key = "Tab"): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === (el.getRootNode() as ShadowRoot | Document).activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Could not reach ${target} with ${key} in ${max} presses`);
}

/** From /demo to the checkout step: one guest in a cart, the phone the demo asks for, terms accepted. */
export async function toCheckout(page: Page, serverUrl: string, guest: GuestDetails, nth: number): Promise<void> {
  await page.goto(`${serverUrl}/demo`);
  await expect(heading(page)).toHaveText("Choose your dates");
  await bookToCart(page, guest, { nth });
  await w(page, "button.primary").click();
  await expectStep(page, "Checkout");
  await w(page, "#c-phone").fill("912 345 678");
  await w(page, "#terms").check();
}

/**
 * The guest sends the checkout; the service books it and the answer never arrives (the
 * connection drops), which the guest is told. Later sends go through to the service unless
 * `then` answers them. Returns the booking the service made.
 */
export async function bookWithAnswerLost(page: Page, then?: (route: Route) => Promise<void>): Promise<any> {
  let made: any;
  await page.route("**/widget/v1/demo/carts/*/checkout", async (route) => {
    if (made) return then ? then(route) : route.fallback();
    made = await (await route.fetch()).json();
    await route.abort("connectionreset");
  });
  await w(page, "button[type=submit]").click();
  await expect(w(page, "[role=alert]")).toContainText("cannot reach the booking service");
  expect(made.reference).toMatch(/^\d{4}-\d+$/);
  return made;
}

