import { describe, expect, it } from "vitest";
import { call } from "./helpers";

// The pages (/demo, /book/{business}) run no inline script: their CSP allows scripts only from
// this origin's files, so markup that ever slipped into a page could not run script.
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>/i;

describe("the pages' Content-Security-Policy", () => {
  it.each(["/demo", "/book/demo?product=101&start_date=2027-05-01", "/book/no-such-business"])("%s allows no inline script and has none", async (path) => {
    const res = await call(path);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    // this origin's files, and Cloudflare Turnstile's script for a business's human check
    expect(scriptSrc.trim()).toBe("'self' https://challenges.cloudflare.com");
    expect(csp).toContain("frame-src https://challenges.cloudflare.com");
    expect(csp).toContain("object-src 'none'");
    const html = await res.text();
    expect(html).not.toMatch(INLINE_SCRIPT);
    expect(html).toContain('<script src="/pages.js"></script>');
  });

  it("serves the pages' script as a file: the dataLayer and the demo's copy button", async () => {
    const res = await call("/pages.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    const js = await res.text();
    expect(js).toContain("window.dataLayer = window.dataLayer || []");
    expect(js).toContain('getElementById("copy-snippet")');
  });
});
