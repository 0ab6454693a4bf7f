/**
 * A site owner's page on another origin (localhost, where the service is 127.0.0.1), built from
 * the embed snippet exactly as the back office's Widget screen prints it, served with a strict
 * Content-Security-Policy: `default-src 'none'` plus the lines the screen prints, and no
 * 'unsafe-inline' anywhere. Used by e2e/host-page.spec.ts and by the bench (e2e/bench/widget.ts),
 * so both measure the same page.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A host page's global reset, the harshest common one. */
export const RESET_CSS = "*, *::before, *::after { all: unset; display: revert }";

export interface HostPage {
  url: string;
  /** The Content-Security-Policy the page is served with. */
  csp: string;
  close(): Promise<void>;
}

/**
 * `snippet` pasted as it is between some text above and below (the part below in view on a
 * phone and a desktop, so a shift would show); `cspLines` the directives one a line; `css` the
 * page's own stylesheet (/site.css, allowed as 'self'), if any.
 */
export async function hostPage(opts: { snippet: string; cspLines: string; css?: string }): Promise<HostPage> {
  const directives = new Map<string, string[]>([["default-src", ["'none'"]]]);
  for (const line of opts.cspLines.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const [name, ...values] = line.split(/\s+/);
    directives.set(name, [...(directives.get(name) ?? []), ...values]);
  }
  if (opts.css) directives.set("style-src", ["'self'", ...(directives.get("style-src") ?? [])]);
  if ([...directives.values()].some((v) => v.includes("'unsafe-inline'"))) throw new Error("not a strict CSP");
  const csp = [...directives].map(([name, values]) => `${name} ${values.join(" ")}`).join("; ");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Surf shop</title>${opts.css ? `<link rel="stylesheet" href="/site.css">` : ""}</head>
<body><header><h1>Surf shop</h1><p>Lessons, rentals and a week by the ocean.</p></header>
<main><h2>Book with us</h2><p>Pick a week or a lesson below.</p>
${opts.snippet}
<h2 id="after-widget">After the widget</h2>
<p>${"Our camp sits above the beach, ten minutes from the best breaks of the coast. ".repeat(12)}</p>
<p>${"Boards, wetsuits and a coach for every six guests. ".repeat(12)}</p></main>
<footer><p>Surf shop, on the coast.</p></footer></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://host").pathname;
    if (path === "/") return res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp }).end(html);
    if (path === "/site.css" && opts.css) return res.writeHead(200, { "Content-Type": "text/css" }).end(opts.css);
    if (path === "/favicon.ico") return res.writeHead(204).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, csp, close: () => new Promise((done) => server.close(() => done())) };
}
