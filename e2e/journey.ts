import type { Page } from "@playwright/test";
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
  const day = w(page, "button.day.open").nth(nth);
  const date = (await day.getAttribute("data-date"))!;
  await day.click();
  await expect(day).toHaveAttribute("aria-pressed", "true");
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

/** From the calendar to an open cart, for one man in the first room listed. */
export async function bookToCart(page: Page, guest: GuestDetails, options: { nth?: number; room?: RegExp } = {}): Promise<string> {
  const date = await pickDay(page, options.nth ?? 0);
  await continueStep(page);
  await expectStep(page, "Guests and room");
  const room = options.room ? page.locator("booking-widget label.option").filter({ hasText: options.room }) : w(page, "label.option").first();
  await room.locator("input").check();
  await continueStep(page);
  await expectStep(page, "Extras");
  await continueStep(page);
  await expectStep(page, "Guest details");
  await fillGuest(page, 0, guest);
  await w(page, "button[type=submit]").click();
  await expectStep(page, "Your cart");
  return date;
}
