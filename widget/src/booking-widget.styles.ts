import { css, unsafeCSS, type CSSResult } from "lit";
import { WIDGET_PALETTES } from "../../worker/src/contract/widget-theme";

/** A scheme's colours as the widget's private properties, each defaulting to its palette's value unless `--bw-*` is set. */
const palette = (scheme: "light" | "dark"): CSSResult =>
  unsafeCSS(Object.entries(WIDGET_PALETTES[scheme]).map(([name, value]) => `--_${name.slice(5)}:var(${name},${value});`).join("") + `--_scheme:${scheme};`);

/**
 * The first screen's styles (the checkout steps bring theirs: steps/checkout.styles.ts).
 *
 * Theming: every colour, radius and font comes from a `--bw-*` custom property with a default
 * for light and one for dark (prefers-color-scheme, or the `theme` attribute). Host pages set
 * them on `booking-widget { --bw-accent: ... }`, which wins over these :host defaults.
 *
 * The host page is not ours. Its rules on the element itself win over `:host` (`body * {...}`,
 * `* { all: unset }`), and inherited properties cross the shadow boundary. So the box (border,
 * background, sizes) lives on `.root` inside the shadow tree, which no host selector reaches;
 * `.root` sets every inherited property the widget relies on; and sizes are `em` of the
 * widget's own `--bw-font-size` (16px by default), never `rem` of the host's `html`.
 * No `style` attribute anywhere: a host CSP with `style-src 'self'` allows the adopted
 * stylesheet below but no inline style.
 */
export const styles = css`
  :host {
    ${palette("light")}
    --_radius: var(--bw-radius, 0.5em);
    --_font: var(--bw-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_size: var(--bw-font-size, 16px);
    /* a comfortable touch target, whatever the font size of the element it is on */
    --_tap: calc(2.75 * var(--_size));
    /* !important: a host page's reset (\`* { all: unset; display: revert }\`) targets this very
       element, and a page's normal declaration beats a plain :host rule; an !important one in
       :host beats the page's normal ones (the cascade reverses for !important), so the box stays
       a block. The border and the background are on .root, which no page selector reaches. */
    display: block !important;
  }
  /* !important for the same reason, and to stay hidden against the display above */
  :host([hidden]) { display: none !important; }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme="light"])) { ${palette("dark")} }
  }
  :host([theme="dark"]) { ${palette("dark")} }
  *, *::before, *::after { box-sizing: border-box; }
  [hidden] { display: none !important; }
  .root {
    /* every inherited property the widget relies on, whatever the host page sets above it */
    color-scheme: var(--_scheme);
    font: normal 400 var(--_size) / 1.45 var(--_font);
    color: var(--_text);
    letter-spacing: normal; word-spacing: normal; text-transform: none; text-align: start; text-indent: 0;
    text-shadow: none; white-space: normal; word-break: normal; overflow-wrap: break-word; hyphens: manual;
    font-kerning: auto; font-feature-settings: normal; font-variation-settings: normal; font-size-adjust: none;
    visibility: visible; cursor: auto; direction: ltr; writing-mode: horizontal-tb; -webkit-text-fill-color: currentcolor;
    border-collapse: separate; list-style: none; quotes: auto; tab-size: 8;
    /* the box */
    display: grid; gap: 1em; padding: 1em;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
    /* at least the first screen's height (the calendar's, from 320 px to any width, in English), so
       that a host page reserving the same before widget.js arrives never moves: see docs/widget.md */
    min-height: var(--bw-min-height, 53em);
    align-content: start;
    max-width: var(--bw-max-width, 44em);
    container-type: inline-size;
  }
  .step, form { display: grid; gap: 0.75em; }
  /* the bar keeps one height, switchers or not (they come with the first answer): on a narrow
     widget their labels are read, not shown */
  header.bar { display: flex; gap: 0.5em 1em; align-items: center; justify-content: space-between; min-height: calc(2.25 * var(--_size)); }
  .progress { color: var(--_muted); font-size: 0.875em; white-space: nowrap; }
  @container (max-width: 30em) {
    .switchers .lbl { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .legend, .picked { min-height: calc(2 * 1.45em); }
  }
  @container (max-width: 22em) { .legend { min-height: calc(3 * 1.45em + 0.5em); } }
  .switchers { display: flex; gap: 0.5em; }
  .switchers label { display: flex; gap: 0.35em; align-items: center; font-size: 0.875em; color: var(--_muted); }
  h2 { font-size: 1.3em; margin: 0; line-height: 1.25; font-weight: 700; scroll-margin-top: calc(var(--bw-scroll-offset, 0px) + 0.75em); }
  h2:focus { outline: none; }
  h2:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
  h3 { font-size: 1.05em; margin: 0 0 0.5em; font-weight: 700; }
  p { margin: 0; }
  strong { font-weight: 700; }
  .muted { color: var(--_muted); }
  .small { font-size: 0.875em; }
  .sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  button, input, select, textarea { font: inherit; color: inherit; letter-spacing: inherit; text-transform: none; }
  button { cursor: pointer; }
  :is(button, input, select, textarea, a, [tabindex]):focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
  .btn {
    display: inline-flex; align-items: center; justify-content: center; gap: 0.4em;
    min-height: var(--_tap); padding: 0.5em 1.1em; border-radius: var(--_radius);
    border: 1px solid var(--_border); background: var(--_bg); color: var(--_text);
  }
  .btn.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  .btn[disabled], .btn[aria-disabled="true"] { opacity: 0.6; cursor: not-allowed; }
  .btn.link { border: none; background: none; text-decoration: underline; padding: 0.25em; color: var(--_accent); }
  .actions { display: flex; flex-wrap: wrap; gap: 0.75em; justify-content: space-between; align-items: center; }
  .actions .spacer { flex: 1; }
  select, input[type="text"], input[type="email"], input[type="tel"], input[type="date"] {
    min-height: var(--_tap); padding: 0.4em 0.6em; border: 1px solid var(--_border); border-radius: var(--_radius);
    background: var(--_bg); width: 100%;
  }
  .field { display: grid; gap: 0.25em; align-content: start; }
  .field label { font-weight: 500; }
  .countdown { font-variant-numeric: tabular-nums; font-weight: 700; }
  .countdown.low { color: var(--_danger); }
  .switchers select { width: auto; min-height: calc(2.25 * var(--_size)); padding: 0.2em 0.4em; }
  .card { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75em; background: var(--_surface); }
  .cards { display: grid; gap: 0.75em; }
  /* on a narrow screen the price goes under the description, aligned with it */
  .price { font-weight: 600; white-space: nowrap; }
  .banner { border-radius: var(--_radius); padding: 0.75em 1em; border: 2px solid var(--_danger); background: var(--_surface); display: grid; gap: 0.5em; }
  .banner .actions { justify-content: flex-start; }
  /* calendar */
  .cal-head { display: flex; align-items: center; justify-content: space-between; gap: 0.5em; }
  .cal-head .month { font-weight: 600; text-transform: capitalize; }
  .cal-nav { width: var(--_tap); height: var(--_tap); padding: 0; }
  table.cal { width: 100%; border-collapse: collapse; table-layout: fixed; }
  table.cal th { font-size: 0.75em; font-weight: 500; color: var(--_muted); padding: 0.33em 0; text-transform: uppercase; }
  table.cal td { padding: 2px; height: 3.5em; }
  table.cal td[tabindex] { cursor: pointer; border-radius: var(--_radius); }
  table.cal td.closed { cursor: default; }
  .day {
    width: 100%; height: 100%; min-height: var(--_tap); border-radius: var(--_radius); border: 1px solid transparent;
    display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.05em;
  }
  .day .n { font-size: 0.95em; }
  .day .p { font-size: 0.7em; color: var(--_muted); }
  .open .day { border-color: var(--_border); background: var(--_surface); }
  .open .day .p { color: var(--_text); }
  .closed .day, .day.past { color: var(--_muted); }
  .closed .day .n, .day.past { text-decoration: line-through; }
  [aria-selected="true"] .day { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); }
  [aria-selected="true"] .day .p { color: var(--_accent-text); }
  .day.skeleton { background: var(--_surface); }
  .legend { display: flex; flex-wrap: wrap; gap: 0.25em 1em; font-size: 0.8em; color: var(--_muted); }
  .skeleton-block { background: var(--_surface); border-radius: var(--_radius); min-height: 22em; }
  @media (prefers-reduced-motion: no-preference) { .day, .btn, .option { transition: background-color 0.15s, border-color 0.15s; } }
`;
