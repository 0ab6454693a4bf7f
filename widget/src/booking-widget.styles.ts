import { css } from "lit";

/**
 * Theming: every colour, radius and font comes from a `--bw-*` custom property with a default
 * for light and one for dark (prefers-color-scheme, or the `theme` attribute). Host pages set
 * them on `booking-widget { --bw-accent: ... }`, which wins over these :host defaults.
 */
export const styles = css`
  :host {
    --_accent: var(--bw-accent, #0a5d7a);
    --_accent-text: var(--bw-accent-text, #ffffff);
    --_bg: var(--bw-bg, #ffffff);
    --_surface: var(--bw-surface, #f3f6f8);
    --_text: var(--bw-text, #17232b);
    --_muted: var(--bw-muted, #4f5e68);
    --_border: var(--bw-border, #b9c6ce);
    --_danger: var(--bw-danger, #a8201a);
    --_success: var(--bw-success, #1d6b3a);
    --_radius: var(--bw-radius, 0.5rem);
    --_font: var(--bw-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_focus: var(--bw-focus, #c2410c);
    display: block;
    color-scheme: light;
    container-type: inline-size;
    font-family: var(--_font);
    font-size: var(--bw-font-size, 1rem);
    line-height: 1.45;
    color: var(--_text);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
    /* reserve the first screen's height so the page does not jump when data arrives */
    min-height: var(--bw-min-height, 34rem);
    max-width: var(--bw-max-width, 44rem);
    box-sizing: border-box;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme="light"])) {
      --_accent: var(--bw-accent, #6cc4e4);
      --_accent-text: var(--bw-accent-text, #06212c);
      --_bg: var(--bw-bg, #121a1f);
      --_surface: var(--bw-surface, #1c272e);
      --_text: var(--bw-text, #e8eef2);
      --_muted: var(--bw-muted, #a9b8c2);
      --_border: var(--bw-border, #3b4a54);
      --_danger: var(--bw-danger, #ff9c94);
      --_success: var(--bw-success, #8fd8a8);
      --_focus: var(--bw-focus, #fdba74);
      color-scheme: dark;
    }
  }
  :host([theme="dark"]) {
    --_accent: var(--bw-accent, #6cc4e4);
    --_accent-text: var(--bw-accent-text, #06212c);
    --_bg: var(--bw-bg, #121a1f);
    --_surface: var(--bw-surface, #1c272e);
    --_text: var(--bw-text, #e8eef2);
    --_muted: var(--bw-muted, #a9b8c2);
    --_border: var(--bw-border, #3b4a54);
    --_danger: var(--bw-danger, #ff9c94);
    --_success: var(--bw-success, #8fd8a8);
    --_focus: var(--bw-focus, #fdba74);
    color-scheme: dark;
  }
  *, *::before, *::after { box-sizing: border-box; }
  [hidden] { display: none !important; }
  .root { padding: 1rem; display: grid; gap: 1rem; }
  .step, form { display: grid; gap: 0.75rem; }
  header.bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; }
  .progress { color: var(--_muted); font-size: 0.875rem; }
  .switchers { display: flex; gap: 0.5rem; }
  .switchers label { display: flex; gap: 0.35rem; align-items: center; font-size: 0.875rem; color: var(--_muted); }
  h2 { font-size: 1.3rem; margin: 0; line-height: 1.25; }
  h2:focus { outline: none; }
  h2:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
  h3 { font-size: 1.05rem; margin: 0 0 0.5rem; }
  p { margin: 0; }
  .muted { color: var(--_muted); }
  .small { font-size: 0.875rem; }
  .sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  button, input, select, textarea { font: inherit; color: inherit; }
  button { cursor: pointer; }
  :is(button, input, select, textarea, a, [tabindex]):focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
  .btn {
    display: inline-flex; align-items: center; justify-content: center; gap: 0.4rem;
    min-height: 2.75rem; padding: 0.5rem 1.1rem; border-radius: var(--_radius);
    border: 1px solid var(--_border); background: var(--_bg); color: var(--_text);
  }
  .btn.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-text); font-weight: 600; }
  .btn[disabled], .btn[aria-disabled="true"] { opacity: 0.6; cursor: not-allowed; }
  .btn.link { border: none; background: none; text-decoration: underline; padding: 0.25rem; min-height: 2.75rem; color: var(--_accent); }
  .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; justify-content: space-between; align-items: center; }
  .actions .spacer { flex: 1; }
  select, input[type="text"], input[type="email"], input[type="tel"], input[type="date"] {
    min-height: 2.75rem; padding: 0.4rem 0.6rem; border: 1px solid var(--_border); border-radius: var(--_radius);
    background: var(--_bg); width: 100%;
  }
  .switchers select { width: auto; min-height: 2.25rem; padding: 0.2rem 0.4rem; }
  fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem 1rem 1rem; margin: 0; min-width: 0; }
  legend { font-weight: 600; padding: 0 0.25rem; }
  .field { display: grid; gap: 0.25rem; }
  .field label { font-weight: 500; }
  .field .error, .error-text { color: var(--_danger); font-size: 0.875rem; }
  [aria-invalid="true"] { border-color: var(--_danger) !important; border-width: 2px !important; }
  .grid2 { display: grid; gap: 0.75rem; grid-template-columns: 1fr; }
  @container (min-width: 30rem) { .grid2 { grid-template-columns: 1fr 1fr; } }
  .check { display: flex; gap: 0.6rem; align-items: flex-start; min-height: 2.75rem; padding: 0.35rem 0; }
  .check input { width: 1.25rem; height: 1.25rem; margin-top: 0.1rem; flex: none; accent-color: var(--_accent); }
  .card { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; background: var(--_surface); }
  .cards { display: grid; gap: 0.75rem; }
  .option { display: flex; flex-wrap: wrap; gap: 0.5rem 0.75rem; align-items: flex-start; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; background: var(--_surface); cursor: pointer; }
  .option:has(input:checked) { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
  .option input { width: 1.25rem; height: 1.25rem; margin-top: 0.15rem; flex: none; accent-color: var(--_accent); }
  .option .grow { flex: 1 1 12rem; min-width: 0; display: grid; gap: 0.15rem; }
  /* on a narrow screen the price goes under the description, aligned with it */
  .option .price { margin-left: auto; }
  .price { font-weight: 600; white-space: nowrap; }
  .banner { border-radius: var(--_radius); padding: 0.75rem 1rem; border: 2px solid var(--_danger); background: var(--_surface); display: grid; gap: 0.5rem; }
  .banner.info { border-color: var(--_accent); }
  .banner .actions { justify-content: flex-start; }
  /* calendar */
  .cal-head { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; }
  .cal-head .month { font-weight: 600; text-transform: capitalize; }
  .cal-nav { width: 2.75rem; height: 2.75rem; padding: 0; }
  table.cal { width: 100%; border-collapse: collapse; table-layout: fixed; }
  table.cal th { font-size: 0.75rem; font-weight: 500; color: var(--_muted); padding: 0.25rem 0; text-transform: uppercase; }
  table.cal td { padding: 2px; height: 3.5rem; }
  .day {
    width: 100%; height: 100%; min-height: 2.75rem; border-radius: var(--_radius); border: 1px solid transparent;
    background: none; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 0; gap: 0.05rem;
  }
  .day .n { font-size: 0.95rem; }
  .day .p { font-size: 0.7rem; color: var(--_muted); }
  .day.open { border-color: var(--_border); background: var(--_surface); }
  .day.open .p { color: var(--_text); }
  .day.closed { color: var(--_muted); cursor: default; }
  .day.closed .n { text-decoration: line-through; }
  .day.other { visibility: hidden; }
  .day[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); }
  .day[aria-pressed="true"] .p { color: var(--_accent-text); }
  .day.skeleton { background: var(--_surface); border-color: transparent; }
  .legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; font-size: 0.8rem; color: var(--_muted); }
  .stepper { display: flex; align-items: center; justify-content: space-between; gap: 0.75rem; padding: 0.4rem 0; }
  .stepper .ctl { display: flex; align-items: center; gap: 0.5rem; }
  .stepper .ctl button { width: 2.75rem; height: 2.75rem; padding: 0; font-size: 1.25rem; }
  .stepper output { min-width: 1.5rem; text-align: center; font-weight: 600; }
  .days { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
  .lines { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.25rem; }
  .lines li { display: flex; justify-content: space-between; gap: 1rem; }
  .total { display: flex; justify-content: space-between; font-size: 1.15rem; font-weight: 700; border-top: 1px solid var(--_border); padding-top: 0.5rem; }
  .countdown { font-variant-numeric: tabular-nums; font-weight: 700; }
  .countdown.low { color: var(--_danger); }
  .terms { max-height: 10rem; overflow-y: auto; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); white-space: pre-wrap; font-size: 0.9rem; }
  .ref { font-size: 1.6rem; font-weight: 700; letter-spacing: 0.03em; }
  .skeleton-block { background: var(--_surface); border-radius: var(--_radius); min-height: 22rem; }
  img.thumb { width: 100%; max-height: 10rem; object-fit: cover; border-radius: var(--_radius); }
  @media (prefers-reduced-motion: no-preference) { .day, .btn, .option { transition: background-color 0.15s, border-color 0.15s; } }
`;
