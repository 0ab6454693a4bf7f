/**
 * The embed snippet as the back office's Widget screen prints it, pasted as it is into a site
 * owner's page on another origin with a strict CSP (the screen's CSP lines, no 'unsafe-inline'):
 * the page does not move while the widget loads (CLS below 0.1 on a desktop and a phone, widget.js
 * on time and 300 ms late), and the widget's box survives the page's global reset.
 */
import type { Browser } from "@playwright/test";
import { hashPassword } from "../worker/src/lib/password";
import { signInToBackOffice } from "./admin-settings-steps";
import { PASSWORD } from "./admin-kit";
import { clsOf, SCREENS } from "./cls";
import { expect, test, type E2EServer } from "./fixtures";
import { hostPage, RESET_CSS } from "./host-page";

/** The snippet and the CSP lines, read off the demo business's Widget screen by its owner. */
async function fromWidgetScreen(browser: Browser, server: E2EServer): Promise<{ snippet: string; cspLines: string }> {
  const email = `owner.${Date.now().toString(36)}@demo.example`;
  const now = new Date().toISOString();
  const [{ id }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  await server.exec(
    "INSERT INTO staff_users (id, business_id, email, email_norm, name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'Owner', 'owner', ?, ?, ?)",
    crypto.randomUUID(), id, email, email.toLowerCase(), await hashPassword(PASSWORD), now, now,
  );
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToBackOffice(page, server.url, "demo", email, PASSWORD);
  await page.goto(`${server.url}/admin/demo/widget`);
  const snippet = (await page.locator("#embed-snippet").textContent())!.trim();
  const cspLines = (await page.locator("#csp-lines").textContent())!.trim();
  await context.close();
  expect(snippet).toContain(`<booking-widget business="demo"></booking-widget>`);
  return { snippet, cspLines };
}

test("the snippet as the Widget screen prints it, on a page with a strict CSP: CLS below 0.1 on a desktop and a phone, widget.js on time and 300 ms late", async ({ browser, server }) => {
  const { snippet, cspLines } = await fromWidgetScreen(browser, server);
  const site = await hostPage({ snippet, cspLines });
  try {
    expect(site.csp).not.toContain("unsafe-inline");
    for (const screen of SCREENS) {
      for (const lateMs of [0, 300]) {
        // the first screen without a product attribute: the business's list of products
        const cls = await clsOf(browser, site.url, screen, lateMs, "booking-widget article.card button");
        test.info().annotations.push({ type: `CLS snippet ${screen.name}, widget.js ${lateMs} ms late`, description: cls.toFixed(3) });
        expect(cls, `${screen.name}, widget.js ${lateMs} ms late`).toBeLessThan(0.1);
      }
    }
  } finally {
    await site.close();
  }
});

test("the widget's box survives a host page's global reset (all: unset; display: revert): a block with its border and background", async ({ browser, server }) => {
  const { snippet, cspLines } = await fromWidgetScreen(browser, server);
  // the snippet as printed, and the two lines without the stylesheet (docs/widget.md's first
  // example, or a snippet copied before it had one): the widget's own :host rule must hold alone
  const bare = snippet.split("\n").filter((line) => !line.startsWith("<link")).join("\n");
  const pages = {
    plain: await hostPage({ snippet, cspLines }),
    reset: await hostPage({ snippet, cspLines, css: RESET_CSS }),
    bareReset: await hostPage({ snippet: bare, cspLines, css: RESET_CSS }),
  };
  try {
    const boxOf = async (url: string) => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(url);
      await expect(page.locator("booking-widget article.card button").first()).toBeVisible();
      const seen = await page.evaluate(() => {
        const host = document.querySelector("booking-widget")!;
        const root = host.shadowRoot!.querySelector(".root")!;
        const h = getComputedStyle(host);
        const r = getComputedStyle(root);
        return {
          box: {
            display: h.display,
            // a block fills the width of what holds it
            fillsItsLine: Math.round(host.getBoundingClientRect().width) === Math.round(host.parentElement!.getBoundingClientRect().width),
            border: `${r.borderTopWidth} ${r.borderTopStyle} ${r.borderTopColor}`,
            background: r.backgroundColor,
          },
          headingMargin: getComputedStyle(document.querySelector("h1")!).marginTop,
        };
      });
      await page.context().close();
      return seen;
    };
    const plain = await boxOf(pages.plain.url);
    expect(plain.box.display).toBe("block");
    expect(plain.box.border).toMatch(/^1px solid /);
    for (const name of ["reset", "bareReset"] as const) {
      const seen = await boxOf(pages[name].url);
      expect(seen.headingMargin, `${name}: the page's reset is in force`).toBe("0px");
      expect(seen.box, name).toEqual(plain.box);
    }
  } finally {
    for (const p of Object.values(pages)) await p.close();
  }
});
