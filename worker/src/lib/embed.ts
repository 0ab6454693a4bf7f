/**
 * What a site owner pastes to embed the booking widget, as the back office's Widget screen prints
 * it (routes/admin/settings/widget.tsx) and the bench measures it (e2e/bench/widget.ts): the
 * service's stylesheet, its script and the element, and the CSP lines the page needs for them.
 *
 * The stylesheet is there so that pasting the snippet as it is moves nothing on the page, also
 * under a strict CSP. widget.js is a module script: it runs after the page is painted, and may
 * come late; until it runs the element is empty, and whatever follows it would move down when the
 * widget draws. Only something the browser applies before it paints the element can keep the
 * room, and under a strict CSP (no 'unsafe-inline' in style-src) that is a stylesheet from an
 * allowed origin: /widget.css (routes/pages.ts), which a stylesheet link placed before the element
 * makes the browser apply before it renders what follows. See docs/widget.md.
 */
export function embedSnippet(origin: string, slug: string, product?: string): string {
  const attrs = `business="${slug}"${product ? ` product="${product}"` : ""}`;
  return `<link rel="stylesheet" href="${origin}/widget.css">\n<script type="module" src="${origin}/widget.js"></script>\n<booking-widget ${attrs}></booking-widget>`;
}

/** The Content-Security-Policy directives a page embedding the widget needs, one a line. */
export function embedCsp(origin: string): string {
  return `script-src ${origin}\nconnect-src ${origin}\nstyle-src ${origin}`;
}

/**
 * /widget.css: the element is a block, and until widget.js has defined it, it keeps the widget's
 * first screen's height (53 × its font size, `--bw-font-size`, 16 px by default: 848 px; the same
 * as the widget's own `--bw-min-height`, below which it never draws). Once defined, the widget
 * keeps that height itself. A page's own rules on the element come after and win.
 */
export const WIDGET_CSS = `booking-widget{display:block}
booking-widget:not(:defined){min-height:calc(53 * var(--bw-font-size, 16px))}
`;
