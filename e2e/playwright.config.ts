import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { chromium } from "playwright-core";

/**
 * The browser: $PLAYWRIGHT_CHROMIUM_PATH, then Debian's /usr/bin/chromium, then a browser
 * Playwright installed itself; otherwise stop with the command that installs one. Browsers are
 * never downloaded implicitly.
 */
function chromiumPath(): string {
  const candidates = [process.env.PLAYWRIGHT_CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    /* no Playwright-managed browser */
  }
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) {
    throw new Error(
      "No Chromium found for the end-to-end tests. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), " +
        "or `npx playwright install chromium`, or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium binary.",
    );
  }
  return found;
}

const artifacts = fileURLToPath(new URL("./artifacts/", import.meta.url));

export default defineConfig({
  testDir: fileURLToPath(new URL(".", import.meta.url)),
  testMatch: "*.spec.ts",
  testIgnore: ["bench/**", "artifacts/**"],
  outputDir: `${artifacts}test-results`,
  globalSetup: fileURLToPath(new URL("./global-setup.ts", import.meta.url)),
  // One isolated server per worker (its own port and state); two workers suit a 2-core machine.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  retries: 0,
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? `${artifacts}results.json` }],
  ],
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 900 },
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    },
  },
});
