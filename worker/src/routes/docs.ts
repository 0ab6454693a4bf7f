import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";

/** Where the Worker serves Scalar's standalone bundle (copied into worker/public by `npm run build:docs`). */
export const SCALAR_ASSET = "/docs/scalar.js";

/**
 * GET /docs: the API reference, rendered in the browser from /openapi.json by Scalar
 * (@scalar/hono-api-reference), a maintained renderer, instead of a page of our own. Its bundle is
 * served by this Worker, so the page makes no request to another host (no CDN, no fonts, no
 * telemetry, no AI agent); its inline script carries a per-request nonce, so the page's CSP allows
 * no 'unsafe-inline' script.
 */
export function docsRoutes() {
  const app = new Hono<AppEnv>();
  app.get(SCALAR_ASSET, async (c) => {
    const res = await c.env.ASSETS.fetch(new Request(new URL(SCALAR_ASSET, c.req.url), { headers: c.req.raw.headers }));
    if (res.status !== 200 && res.status !== 304) {
      throw new ApiError(404, "not_found", "The /docs renderer has not been built: run `npm run build`.");
    }
    const out = new Response(res.body, res);
    out.headers.set("Content-Type", "text/javascript; charset=utf-8");
    out.headers.set("Cache-Control", "public, max-age=3600");
    return out;
  });
  // Browsers ask every page's host for one; an answer without a body keeps their console clean.
  app.get("/favicon.ico", (c) => c.body(null, 204, { "Cache-Control": "public, max-age=86400" }));
  app.get("/docs", async (c, next) => {
    const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    const render = Scalar({
      url: "/openapi.json",
      cdn: SCALAR_ASSET,
      nonce,
      pageTitle: "Booking platform API reference",
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
      showDeveloperTools: "never",
      // Features that talk to Scalar's own services: off, the page stays on this host.
      agent: { disabled: true },
      mcp: { disabled: true },
      documentDownloadType: "json",
    });
    // (Scalar's middleware is typed for a plain Hono context; it reads nothing of ours.)
    const res = await render(c as unknown as Parameters<typeof render>[0], next);
    if (!res) return res;
    const headers = new Headers(res.headers);
    headers.set("Cache-Control", "no-cache");
    headers.set(
      "Content-Security-Policy",
      [
        "default-src 'none'",
        `script-src 'self' 'nonce-${nonce}'`,
        // Scalar's components set style attributes, which no nonce can cover: styles (never
        // scripts) may be inline.
        "style-src 'self' 'unsafe-inline'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join("; "),
    );
    return new Response(res.body, { status: res.status, headers });
  });
  return app;
}
