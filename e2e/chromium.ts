import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

/**
 * How every browser run of the project (Playwright journeys, the /docs test, the widget
 * benchmark) finds and starts Chromium. Browsers are never downloaded implicitly.
 */

/** Flags for a headless Chromium on a closed network (without the background-networking ones
 *  it floods the network with refused connections). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The browser: $PLAYWRIGHT_CHROMIUM_PATH (or $CHROMIUM_PATH), then Debian's /usr/bin/chromium,
 * then a browser Playwright installed itself; otherwise an error naming the install command.
 */
export function chromiumPath(): string {
  const candidates = [process.env.PLAYWRIGHT_CHROMIUM_PATH, process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    /* no Playwright-managed browser */
  }
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) {
    throw new Error(
      "No Chromium found. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), " +
        "or `npx playwright install chromium`, or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium binary.",
    );
  }
  return found;
}
