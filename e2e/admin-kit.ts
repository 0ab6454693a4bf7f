/**
 * What the back office's Playwright journeys share: axe and 390 px checks, the guests CSV reader,
 * signing in and accepting an invitation through the forms. (A module of its own: a spec file
 * must not import another spec file.)
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The password every journey's staff set. */
export const PASSWORD = "surf & yoga every day";

/** axe finds no violation on the page as it is now. */
export async function axeClean(page: Page, step: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `axe violations on "${step}"`).toEqual([]);
}

/** The page fits `width` px: nothing but a table's own scroller is wider; the elements and text past the edge are named. */
export async function fitsWidth(page: Page, width: number, step: string): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  const wide = await page.evaluate((limit) => {
    const elements = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > limit + 1 && !el.closest(".table-wrap"))
      .slice(-5)
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
    // Text can overflow a box that fits (a long address with no break opportunity): name it too.
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest(".table-wrap")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = range.getBoundingClientRect().right;
      if (right > limit) texts.push(`text "${(node.textContent ?? "").trim().slice(0, 40)}" ${Math.round(right)}`);
    }
    return [...elements, ...texts.slice(-5)];
  }, width);
  expect(scrollWidth, `horizontal overflow on "${step}": ${wide.join(", ")}`).toBeLessThanOrEqual(width);
}

/** The page fits a 390 px phone. */
export const fitsNarrow = (page: Page, step: string) => fitsWidth(page, 390, step);

/** A tiny CSV reader (quoted fields, doubled quotes), enough for the guests download's rows. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\n") row.push(field.replace(/\r$/, "")), rows.push(row), (row = []), (field = "");
    else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
}

/** Fill and send the sign-in form the page shows. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Open an invitation link and set the password. */
export async function acceptInvite(page: Page, link: string, password = PASSWORD): Promise<void> {
  await page.goto(link);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password is set. Sign in with it.");
}
