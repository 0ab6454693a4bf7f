import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures";

const BUDGET_GZIP_BYTES = 30 * 1024;

test.describe("widget.js and the pages", () => {
  test("widget.js is one ES module within the 30 kB gzipped budget, served with caching and CORS headers", async ({ server }) => {
    const res = await fetch(`${server.url}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = Buffer.from(await res.arrayBuffer());
    const gzipped = gzipSync(body, { level: 9 }).length;
    test.info().annotations.push({ type: "widget.js size", description: `${body.length} B raw, ${gzipped} B gzipped (budget ${BUDGET_GZIP_BYTES} B)` });
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    // one module: no further imports to fetch
    expect(body.toString()).not.toMatch(/\bimport\s*\(|\bimport\s+[\w{*].*\bfrom\s*["']/);
  });

  test("a page on another origin loads widget.js as a module and its widget talks to the proxy (CORS)", async ({ page, server }) => {
    // A real host page on another loopback origin (a fulfilled route would count as a public
    // address, and Chromium's local network access rules would then block the loopback API).
    const host = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`<!doctype html><html lang="en"><title>Host</title><script type="module" src="${server.url}/widget.js"></script><booking-widget business="demo" product="101"></booking-widget>`);
    });
    await new Promise<void>((done) => host.listen(8839, "127.0.0.1", done));
    try {
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto("http://localhost:8839/");
      await expect.poll(() => page.evaluate(() => !!customElements.get("booking-widget"))).toBe(true);
      await expect(page.locator("booking-widget h2#step-heading")).toHaveText(/Choose your dates/);
      expect(errors).toEqual([]);
    } finally {
      await new Promise((done) => host.close(done));
    }
  });
});
