/**
 * The back office's one stylesheet and one small script, served from the Worker itself
 * (/admin/assets/...) so that the pages' CSP can say `'self'` and nothing else: no inline style
 * or script, no nonce to thread through. Every page works without the script; it adds "copy"
 * buttons next to a secret shown once (and the Widget screen's snippets), and runs the Widget
 * screen's live preview.
 */
import { Hono, type Context } from "hono";
import { THEME_PATTERNS } from "../../../contract/widget-theme";

const CSS = `
:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #ffffff; --muted: #4a4a55; --line: #c9c9d2; --panel: #f3f4f7;
  --accent: #0b57d0; --accent-fg: #ffffff; --danger: #b3261e; --ok: #0f6b2f; --warn-bg: #fff4d6; --focus: #0b57d0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --bg: #16161a; --muted: #b4b4c0; --line: #4a4a55; --panel: #22222a;
  --accent: #8ab4f8; --accent-fg: #0b0b10; --danger: #f2b8b5; --ok: #8fd6a0; --warn-bg: #3a3220; --focus: #8ab4f8; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font-size: 1rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
header.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
header.top nav a { display: inline-block; padding: .35rem .25rem; min-height: 2.25rem; line-height: 1.6rem; text-decoration: none; }
header.top nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; text-underline-offset: .3em; }
header.top .me { margin-left: auto; display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; font-size: .9rem; }
header.top .me form { margin: 0; }
/* An e-mail address has no break opportunity of its own; on a phone it must still wrap. */
header.top .me { min-width: 0; }
header.top .me a { min-width: 0; overflow-wrap: anywhere; }
main { padding: 1rem; max-width: 80rem; margin: 0 auto; overflow-wrap: break-word; }
main.narrow { max-width: 28rem; margin-top: 2rem; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
.flash { background: var(--panel); border-left: 4px solid var(--ok); padding: .5rem .75rem; }
.form-error { border-left: 4px solid var(--danger); padding: .5rem .75rem; background: var(--panel); }
.secret { background: var(--warn-bg); border: 1px solid var(--line); padding: .75rem; border-radius: .375rem; }
.secret code { display: block; word-break: break-all; font-size: .9rem; margin: .5rem 0; }
form.stack { display: grid; gap: .75rem; max-width: 32rem; }
form.row, .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
form.inline { display: inline; margin: 0; }
.field { display: grid; gap: .2rem; min-width: 10rem; }
.field label { font-weight: 600; font-size: .9rem; }
.field input, .field select, textarea { font: inherit; padding: .45rem .5rem; border: 1px solid var(--muted); border-radius: .3rem; background: var(--bg); color: var(--fg); min-height: 2.5rem; }
textarea { width: 100%; min-height: 5rem; }
.field.invalid input, .field.invalid select { border-color: var(--danger); border-width: 2px; }
.hint { color: var(--muted); }
.error { color: var(--danger); font-weight: 600; }
button, .button { font: inherit; padding: .45rem .9rem; min-height: 2.5rem; border-radius: .3rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--bg); }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: .25rem; min-height: 0; }
.check { display: flex; gap: .5rem; align-items: center; }
.check input { width: 1.25rem; height: 1.25rem; }
.table-wrap { overflow-x: auto; max-width: 100%; border: 1px solid var(--line); border-radius: .3rem; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--panel); position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem; margin-bottom: 1rem; }
.card { border: 1px solid var(--line); border-radius: .4rem; padding: .75rem; background: var(--panel); color: var(--fg); text-decoration: none; }
.card:hover .label { text-decoration: underline; }
.field input[type=number] { width: 7rem; }
.card .count { font-size: 1.8rem; font-weight: 700; display: block; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: .25rem; border: 1px solid var(--muted); font-size: .85rem; }
.badge.cancelled, .badge.blocked { border-color: var(--danger); color: var(--danger); }
.calendar td, .calendar th { white-space: nowrap; font-size: .85rem; }
.calendar th[scope="row"] { position: sticky; left: 0; background: var(--bg); white-space: normal; min-width: 9rem; }
.calendar td.blocked { background: repeating-linear-gradient(45deg, var(--panel), var(--panel) 4px, var(--bg) 4px, var(--bg) 8px); }
.pager { display: flex; gap: 1rem; align-items: center; margin: .75rem 0; flex-wrap: wrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.filters { list-style: none; padding: 0; margin: 0 0 1rem; }
pre.message { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 100%; padding: .75rem; border: 1px solid currentColor; border-radius: 4px; font-size: .9rem; }
details { margin: 1rem 0; }
summary { cursor: pointer; font-weight: 600; min-height: 2rem; }
@media (max-width: 40rem) { header.top .me { margin-left: 0; } main { padding: .75rem; } .field { min-width: 100%; } }
/* settings, widget */
.warn { background: var(--warn-bg); border: 1px solid var(--line); border-left: 4px solid var(--danger); padding: .5rem .75rem; border-radius: .3rem; }
.warn h2 { margin-top: 0; font-size: 1.05rem; }
.toc ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.toc a { display: inline-block; min-height: 2rem; line-height: 2rem; }
.settings-section { border-top: 1px solid var(--line); margin-top: 1.5rem; }
.settings-section form.stack, .settings-section div.stack { display: grid; gap: .75rem; max-width: 48rem; }
.field.wide { min-width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: .3rem; padding: .5rem .75rem .75rem; margin: 0; display: grid; gap: .5rem; min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
fieldset.currencies { gap: .75rem; }
.currency-row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.currency-row .field { min-width: 8rem; }
.row-fields { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: end; }
.row-fields .field { flex: 1 1 14rem; }
.row-fields .field input[type=number] { width: 100%; }
ul.origins { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; gap: .5rem; }
ul.origins li { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; overflow-wrap: anywhere; }
form.row .check { min-height: 2.5rem; }
.settings-section div.row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0; }
.settings-section div.row .check { min-height: 2.5rem; }
.theme-layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 2rem; }
@media (min-width: 64rem) { .theme-layout { grid-template-columns: minmax(0, 22rem) minmax(0, 1fr); } .theme-layout .preview { position: sticky; top: 0; align-self: start; } }
.theme-form { display: grid; gap: .6rem; }
.theme-input { display: flex; gap: .5rem; align-items: center; }
.theme-input input[type=text] { flex: 1 1 auto; min-width: 0; }
.swatch-slot { flex: 0 0 2.75rem; height: 2.5rem; }
.swatch-slot input[type=color] { width: 2.75rem; height: 2.5rem; padding: .1rem; border: 1px solid var(--muted); border-radius: .3rem; background: var(--bg); cursor: pointer; }
.preview-frame { max-width: 100%; overflow-x: auto; }
booking-widget:not(:defined) { display: block; min-height: 848px; }
pre.snippet { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); border: 1px solid var(--line); border-radius: .3rem; padding: .75rem; font-size: .9rem; margin: .5rem 0; }
pre.snippet code { display: block; }
/* Prices, Seasons, Inventory */
.price-grid th[scope="row"] { position: sticky; left: 0; background: var(--bg); min-width: 10rem; z-index: 1; }
@media (max-width: 40rem) { .price-grid th[scope="row"] { min-width: 7rem; max-width: 9rem; overflow-wrap: anywhere; } }
.price-grid th small, .price-grid td small { display: block; font-weight: 400; }
.price-grid td input { font: inherit; width: 6.5rem; padding: .35rem .4rem; border: 1px solid var(--muted); border-radius: .3rem; background: var(--bg); color: var(--fg); text-align: right; min-height: 2.5rem; }
.price-grid td select { font: inherit; padding: .35rem .3rem; border: 1px solid var(--muted); border-radius: .3rem; background: var(--bg); color: var(--fg); min-height: 2.5rem; max-width: 12rem; }
.price-grid td.invalid input, .price-grid td.invalid select { border-color: var(--danger); border-width: 2px; }
.price-grid td small.error { max-width: 10rem; white-space: normal; }
.price-grid .tiers { max-width: 14rem; }
fieldset.segments, fieldset.weekdays { border: 1px solid var(--line); border-radius: .3rem; padding: .5rem .75rem; margin: 0; min-width: 0; }
fieldset.segments legend, fieldset.weekdays legend { font-weight: 600; font-size: .9rem; }
fieldset.weekdays { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; }
fieldset.weekdays.invalid { border-color: var(--danger); border-width: 2px; }
fieldset.weekdays small { flex-basis: 100%; }
.row.segment, .row.timeslot { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.row.segment .field, .row.timeslot .field { min-width: 9rem; }
.row.timeslot { border-bottom: 1px solid var(--line); padding: .5rem 0; }
ul.plain { list-style: none; margin: 0; padding: 0; }
.inventory tr.blocked th, .inventory tr.blocked td { background: var(--panel); }
nav.crumbs { margin: 0 0 .75rem; }
/* Catalog */
.subnav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0 0 1rem; padding: 0; }
.subnav a { display: inline-block; padding: .3rem .1rem; min-height: 2.25rem; line-height: 1.6rem; }
.subnav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.section-head { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; margin-top: 1.5rem; }
.section-head h2 { margin: 0; }
section[data-type] .table-wrap, section[data-type] > p { margin-top: .5rem; }
form.editor { display: grid; gap: 1rem; max-width: 60rem; }
fieldset.group { border: 1px solid var(--line); border-radius: .4rem; padding: .75rem; margin: 0; display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: end; min-width: 0; }
fieldset.group > legend { font-weight: 700; padding: 0 .25rem; }
fieldset.group > p, fieldset.group > small, fieldset.group > h2 { flex-basis: 100%; margin: 0; }
h2.sub { font-size: 1.05rem; margin-top: .5rem; }
fieldset.group.nested, fieldset.group > .field.wide { flex-basis: 100%; }
fieldset.group.days, fieldset.group.qty { flex-basis: auto; }
fieldset.group.invalid { border-color: var(--danger); border-width: 2px; }
fieldset.rowset { background: var(--panel); }
form.editor select, ul.entries select { max-width: 100%; }
form.editor .field, ul.entries .field { max-width: 100%; grid-template-columns: minmax(0, 1fr); }
.field.wide { flex-basis: 100%; }
.check.invalid { outline: 2px solid var(--danger); outline-offset: 2px; }
.field-with-hint { display: grid; gap: .2rem; max-width: 26rem; }
.field-with-hint .hint { margin: 0; font-size: .9rem; }
.product-facts ul.links { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: 0 0 .5rem; }
.form-error ul { margin: .25rem 0 0; padding-left: 1.25rem; overflow-wrap: anywhere; }
ul.entries { list-style: none; padding: 0; margin: 0; display: grid; gap: .75rem; }
ul.entries > li { border: 1px solid var(--line); border-radius: .4rem; padding: .75rem; }
fieldset.row { border: 0; padding: 0; margin: 0 0 .5rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; min-width: 0; }
fieldset.row > legend { font-weight: 700; padding: 0; margin-bottom: .25rem; }
fieldset.row > .form-error { flex-basis: 100%; }
.manifest-slot { break-inside: avoid; }
/* Printed pages (the manifest, any screen): the page's content only, black on white. */
@media print {
  :root { --fg: #000; --bg: #fff; --muted: #333; --line: #888; --panel: #fff; }
  header.top, .skip, .no-print, form, .flash, .hint { display: none !important; }
  main { max-width: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  .table-wrap { overflow: visible; border: 0; }
  table { font-size: 10pt; }
  h1 { font-size: 14pt; margin: 0 0 .5rem; }
  h2 { font-size: 12pt; margin: .75rem 0 .25rem; break-after: avoid; }
}
`;

const JS = `
// Adds a "copy" button to each [data-copy] element (a secret shown once). The page works without it.
for (const el of document.querySelectorAll("[data-copy]")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = el.getAttribute("data-copy-label") || "Copy";
  const status = document.createElement("span");
  status.setAttribute("role", "status");
  button.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(el.textContent.trim()); status.textContent = " " + (el.getAttribute("data-copied-label") || "Copied."); }
    catch { const r = document.createRange(); r.selectNodeContents(el); const s = getSelection(); s.removeAllRanges(); s.addRange(r); }
  });
  el.after(button, status);
}

// A page that is one form with a Save per section (Settings, Widget): Enter in a field presses the
// Save of its own section, so the status shows there. Without the script Enter presses the first
// Save, which saves the whole page all the same.
for (const form of document.querySelectorAll("form[data-sections]")) {
  form.addEventListener("keydown", (e) => {
    const field = e.target;
    if (e.key !== "Enter" || !(field instanceof HTMLInputElement) || ["submit", "button", "checkbox", "radio", "file"].includes(field.type)) return;
    const save = field.closest("section")?.querySelector("button[type=submit][data-save]");
    if (save) { e.preventDefault(); save.click(); }
  });
}

// A "print" button (the manifest): shown only where the script runs; the browser's own print works without it.
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}

// The Widget screen's live preview: the look's fields apply to the real <booking-widget> on the
// page as they are typed (custom properties on the element, checked with the service's own
// patterns); an emptied field shows the widget's default. Each colour gets a picker in its slot.
const preview = document.querySelector("[data-theme-preview]");
const patterns = ${JSON.stringify(Object.fromEntries(Object.entries(THEME_PATTERNS).map(([kind, list]) => [kind, list.map((r) => r.source)])))};
const valid = (kind, v) => (patterns[kind] || []).some((p) => new RegExp(p).test(v));
const hex = (v) => {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((v || "").trim());
  return m ? "#" + (m[1].length === 3 ? [...m[1]].map((x) => x + x).join("") : m[1]).toLowerCase() : null;
};
for (const input of document.querySelectorAll("[data-theme-prop]")) {
  const name = input.getAttribute("data-theme-prop");
  const kind = input.getAttribute("data-theme-kind");
  const apply = () => {
    const v = input.value.trim();
    if (!preview) return;
    if (v === "") preview.style.setProperty(name, "initial");
    else if (valid(kind, v)) preview.style.setProperty(name, v);
  };
  input.addEventListener("input", apply);
  const slot = input.parentElement.querySelector(".swatch-slot");
  if (kind === "color" && slot) {
    const pick = document.createElement("input");
    pick.type = "color";
    pick.setAttribute("aria-label", input.getAttribute("data-pick-label") || name);
    pick.value = hex(input.value) || hex(input.placeholder) || "#000000";
    pick.addEventListener("input", () => { input.value = pick.value; apply(); });
    input.addEventListener("input", () => { const h = hex(input.value); if (h) pick.value = h; });
    slot.append(pick);
  }
}
`;

/** FNV-1a, 32 bits, as 8 hex digits: a fingerprint of an asset's text, not a secret. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

const VERSION = { css: fingerprint(CSS), js: fingerprint(JS) };

/** The URLs the pages link: each carries its asset's fingerprint, so a deployment that changes it is a new URL. */
export const ASSET_CSS = `/admin/assets/admin.css?v=${VERSION.css}`;
export const ASSET_JS = `/admin/assets/admin.js?v=${VERSION.js}`;

/**
 * /admin/assets/*: kept by the browser for a year under the URL of its current fingerprint (that
 * URL never changes content); any other URL (none, or an older page's) is served the current text
 * and revalidated each time, so no page ever runs a script older than the deployment.
 */
export function adminAssets() {
  const assets = new Hono();
  const serve = (body: string, type: string, version: string) => (c: Context) =>
    c.body(body, 200, {
      "Content-Type": type,
      "Cache-Control": c.req.query("v") === version ? "public, max-age=31536000, immutable" : "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
  assets.get("/admin.css", serve(CSS, "text/css; charset=utf-8", VERSION.css));
  assets.get("/admin.js", serve(JS, "text/javascript; charset=utf-8", VERSION.js));
  return assets;
}
