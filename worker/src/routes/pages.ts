import { Hono, type Context } from "hono";
import { businessBySlug } from "../db/businesses";
import type { AppEnv } from "../db/request-env";
import { ApiError } from "../lib/errors";
import { embedSnippet, WIDGET_CSS } from "../lib/embed";
import { ID_DIGITS } from "../contract/common";

/**
 * Pages and assets: /widget.js (the Vite build in worker/public), /demo (a host site embedding
 * the widget as a site owner would) and /book/{business} (the hosted booking page that deep
 * links open). Mounted on a plain Hono app: none of this belongs in /openapi.json.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** Deep-link query parameters and the widget attribute each preselects. */
const DEEP_LINK_ATTRIBUTES: Record<string, { attr: string; pattern: RegExp }> = {
  product: { attr: "product", pattern: ID_DIGITS },
  product_id: { attr: "product", pattern: ID_DIGITS },
  start_date: { attr: "start-date", pattern: /^\d{4}-\d{2}-\d{2}$/ },
  end_date: { attr: "end-date", pattern: /^\d{4}-\d{2}-\d{2}$/ },
  duration: { attr: "duration", pattern: /^\d{1,4}$/ },
  males: { attr: "males", pattern: /^\d{1,2}$/ },
  females: { attr: "females", pattern: /^\d{1,2}$/ },
  couples: { attr: "couples", pattern: /^\d{1,2}$/ },
  language: { attr: "language", pattern: /^[a-z]{2}$/ },
  currency: { attr: "currency", pattern: /^[A-Z]{3}$/ },
};

/** The widget's attributes for a /book/{business} URL's query; invalid values are dropped. */
export function deepLinkAttributes(query: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const rule = Object.hasOwn(DEEP_LINK_ATTRIBUTES, name) ? DEEP_LINK_ATTRIBUTES[name] : undefined;
    if (rule && rule.pattern.test(value) && !(rule.attr in out)) out[rule.attr] = value;
  }
  return out;
}

const attrs = (a: Record<string, string>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join("");

function html(c: Context<AppEnv>, body: string, status: 200 | 404 = 200) {
  return c.html(body, status, {
    "Cache-Control": "no-cache",
    // Scripts only from files of this origin (/pages.js, /widget.js): no inline script runs, so
    // markup injected into a page cannot run script either. Cloudflare's challenge origin serves
    // the script and frame of a business's human check at checkout (Turnstile; docs/widget.md).
    "Content-Security-Policy": "default-src 'self'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; script-src 'self' https://challenges.cloudflare.com; frame-src https://challenges.cloudflare.com; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  });
}

const pageHead = (title: string, extra = "") => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<script src="/pages.js"></script>
<script type="module" src="/widget.js"></script>
${extra}
</head>`;

/**
 * The pages' own script, as a file of this origin (the pages' CSP allows no inline script): the
 * page's dataLayer, before the widget (a module script, so it runs later) pushes to it, and the
 * demo's "Copy snippet" button.
 */
const PAGES_SCRIPT = `"use strict";
window.dataLayer = window.dataLayer || [];
document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("copy-snippet");
  if (!button) return;
  button.addEventListener("click", async function () {
    var code = document.getElementById("snippet-code");
    var status = document.getElementById("copy-status");
    try { await navigator.clipboard.writeText(code.textContent); status.textContent = "Copied."; }
    catch (e) { var r = document.createRange(); r.selectNodeContents(code);
      var s = getSelection(); s.removeAllRanges(); s.addRange(r); status.textContent = "Selected: press Ctrl+C to copy."; }
  });
});
`;

/**
 * The second demo's host page: the dive centre (worker/seed/dive.catalog.json), whose widget lists
 * everything it sells (no product attribute): boat dives on timeslots, a course, a rental, a
 * room, a tour and a weekend without a room.
 */
function diveDemoPage(origin: string) {
  const snippet = embedSnippet(origin, "dive");
  return `${pageHead(
    "Atlantic Dive Centre — dives, courses and rentals",
    `<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.55; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  header.site { background: #0b3c5d; color: #fff; padding: 1.25rem 1rem; }
  header.site p { margin: .25rem 0 0; opacity: .9; }
  main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
  h1 { margin: 0; font-size: 1.6rem; }
  /* no product attribute: the first screen is the list of the six products, taller than the
     calendar's 848 px and taller the narrower the screen (measured: 1141 px from 600 px wide,
     1164 at 540, 1257 at 414, 1348 at 360, 1494 at 320). The widget's loading skeleton is the
     calendar's height, so the list's height is kept on the element itself, not only until
     widget.js has run: nothing below moves when the list arrives (docs/widget.md) */
  booking-widget { display: block; min-height: 1170px; }
  @media (max-width: 539.98px) { booking-widget { min-height: 1265px; } }
  @media (max-width: 413.98px) { booking-widget { min-height: 1355px; } }
  @media (max-width: 359.98px) { booking-widget { min-height: 1500px; } }
  .snippet pre { overflow-x: auto; background: color-mix(in srgb, CanvasText 8%, Canvas); padding: .75rem; border-radius: .375rem; font-size: .85rem; white-space: pre-wrap; word-break: break-all; }
  footer { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; font-size: .9rem; opacity: .8; }
</style>`,
  )}
<body>
<header class="site">
  <h1>Atlantic Dive Centre</h1>
  <p>Sesimbra, Portugal · two boats a day, courses every Monday</p>
</header>
<main>
  <section class="booking" aria-labelledby="book-heading">
    <h2 id="book-heading">Book a dive, a course or your gear</h2>
    <booking-widget business="dive"></booking-widget>
  </section>
  <section class="snippet" aria-labelledby="snippet-heading">
    <h2 id="snippet-heading">The snippet on this page</h2>
    <pre id="snippet-code"><code>${esc(snippet)}</code></pre>
  </section>
</main>
<footer>Atlantic Dive Centre · This is the second demo host page for the booking widget.</footer>
</body>
</html>`;
}

function demoPage(origin: string) {
  const snippet = embedSnippet(origin, "demo", "101");
  return `${pageHead(
    "Blue Wave Surf & Yoga Camp — book your week",
    `<style>
  :root { color-scheme: light dark; font-family: Georgia, "Times New Roman", serif; line-height: 1.55; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  header.site { background: #0b4f6c; color: #fff; padding: 1.25rem 1rem; }
  header.site p { margin: .25rem 0 0; opacity: .9; }
  main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
  h1 { margin: 0; font-size: 1.6rem; }
  .intro { font-size: 1.05rem; }
  section.booking { margin: 1.5rem 0; }
  /* the widget's first screen is 848 px high (53 x its 16 px font): kept free until widget.js has
     run, so nothing on the page moves when it arrives (docs/widget.md) */
  booking-widget:not(:defined) { display: block; min-height: 848px; }
  .snippet { margin-top: 2rem; border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); border-radius: .5rem; padding: 1rem; }
  .snippet pre { overflow-x: auto; background: color-mix(in srgb, CanvasText 8%, Canvas); padding: .75rem; border-radius: .375rem; font-size: .85rem; white-space: pre-wrap; word-break: break-all; }
  .snippet button { font: inherit; padding: .4rem .9rem; border-radius: .375rem; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
  footer { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; font-size: .9rem; opacity: .8; }
</style>`,
  )}
<body>
<header class="site">
  <h1>Blue Wave Surf &amp; Yoga Camp</h1>
  <p>Ericeira, Portugal · waves, yoga and good food since 2012</p>
</header>
<main>
  <p class="intro">Seven nights by the ocean: two surf sessions a day with certified coaches, yoga at sunrise or sunset,
  and long dinners with fellow surfers. Pick your week below; your room and extras are held for you while you book.</p>
  <section class="booking" aria-labelledby="book-heading">
    <h2 id="book-heading">Book your surf week</h2>
    <booking-widget business="demo" product="101"></booking-widget>
  </section>
  <section>
    <h2>What is included</h2>
    <ul>
      <li>Seven nights in the room type of your choice</li>
      <li>Daily surf lessons with boards and wetsuits</li>
      <li>Optional yoga classes, board rental and an airport transfer</li>
    </ul>
  </section>
  <section class="snippet" aria-labelledby="snippet-heading">
    <h2 id="snippet-heading">Add this booking widget to your own site</h2>
    <p>Paste these lines where the widget should appear. Theme it with <code>--bw-*</code> custom properties and <code>::part()</code>.</p>
    <pre id="snippet-code"><code>${esc(snippet)}</code></pre>
    <button type="button" id="copy-snippet">Copy snippet</button>
    <span id="copy-status" role="status" aria-live="polite"></span>
  </section>
</main>
<footer>Blue Wave Adventures Lda. · This is a demo host page for the booking widget.</footer>
</body>
</html>`;
}

function bookPage(title: string, slug: string, attributes: Record<string, string>) {
  return `${pageHead(
    `Book — ${title}`,
    `<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  header { padding: 1rem; border-bottom: 1px solid color-mix(in srgb, CanvasText 15%, transparent); }
  h1 { margin: 0; font-size: 1.25rem; }
  main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
  booking-widget:not(:defined) { display: block; min-height: 848px; }
</style>`,
  )}
<body>
<header><h1>${esc(title)}</h1></header>
<main>
  <booking-widget business="${esc(slug)}"${attrs(attributes)}></booking-widget>
</main>
</body>
</html>`;
}

export function pageRoutes() {
  const pages = new Hono<AppEnv>();

  /**
   * widget.js and its chunks (widget-<name>-<hash>.js: the later steps, the texts of other
   * languages), from the Vite build in worker/public. Module scripts from another origin are
   * fetched in CORS mode: every host page may load them.
   */
  const widgetAsset = async (c: Context<AppEnv>, file: string, cacheControl: string) => {
    const res = c.env.ASSETS ? await c.env.ASSETS.fetch(new Request(new URL(`/${file}`, c.req.url), { headers: c.req.raw.headers })) : null;
    if (!res || (res.status !== 200 && res.status !== 304)) {
      throw new ApiError(404, "not_found", `${file} has not been built: run \`npm run build:widget\`.`);
    }
    const out = new Response(res.body, res);
    out.headers.set("Content-Type", "text/javascript; charset=utf-8");
    out.headers.set("Cache-Control", cacheControl);
    out.headers.set("Access-Control-Allow-Origin", "*");
    out.headers.set("Cross-Origin-Resource-Policy", "cross-origin");
    out.headers.set("X-Content-Type-Options", "nosniff");
    return out;
  };
  // The file name is not versioned and names its chunks by their hashes, which a deploy replaces: a
  // stale copy would ask for chunks that are gone. So browsers revalidate it on every page load
  // (a 304 with the ETag while it is the same), and a page gets the chunks of the widget.js it ran.
  pages.get("/widget.js", (c) => widgetAsset(c, "widget.js", "public, no-cache"));
  // A chunk's name changes with its content: kept for a year.
  pages.get("/:chunk{widget-[A-Za-z0-9_-]+\\.js}", (c) => widgetAsset(c, c.req.param("chunk"), "public, max-age=31536000, immutable"));

  // The stylesheet of the embed snippet (lib/embed.ts): keeps the widget's room before widget.js runs.
  pages.get("/widget.css", (c) =>
    c.body(WIDGET_CSS, 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "X-Content-Type-Options": "nosniff",
    }),
  );

  pages.get("/pages.js", (c) =>
    c.body(PAGES_SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    }),
  );

  pages.get("/demo", (c) => html(c, demoPage(new URL(c.req.url).origin)));
  pages.get("/demo/dive", (c) => html(c, diveDemoPage(new URL(c.req.url).origin)));

  pages.get("/book/:business", async (c) => {
    const slug = c.req.param("business");
    const business = /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? await businessBySlug(c.env.DB, slug) : null;
    if (!business) {
      return html(c, `${pageHead("Not found")}<body><main><h1>Not found</h1><p>There is no business called “${esc(slug)}”.</p></main></body></html>`, 404);
    }
    return html(c, bookPage(business.title, business.slug, deepLinkAttributes(c.req.query())));
  });
  return pages;
}
