import { css } from "lit";

/**
 * The styles only the steps after the calendar use: adopted by the element next to its own
 * (booking-widget.styles.ts, whose custom properties these use) when those steps arrive.
 */
export const checkoutStyles = css`
  form > .actions { margin-top: 0.25em; }
  fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75em 1em 1em; margin: 0; min-width: 0; }
  legend { font-weight: 600; padding: 0 0.25em; }
  .field .error, .error-text { color: var(--_danger); font-size: 0.875em; }
  [aria-invalid="true"] { border-color: var(--_danger) !important; border-width: 2px !important; }
  .grid2 { display: grid; gap: 0.75em; grid-template-columns: 1fr; }
  @container (min-width: 30em) { .grid2 { grid-template-columns: 1fr 1fr; } }
  .check { display: flex; gap: 0.6em; align-items: flex-start; min-height: var(--_tap); padding: 0.35em 0; }
  .check input { width: 1.25em; height: 1.25em; margin: 0.1em 0 0; flex: none; accent-color: var(--_accent); }
  .option { display: flex; flex-wrap: wrap; gap: 0.5em 0.75em; align-items: flex-start; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75em; background: var(--_surface); cursor: pointer; }
  .option:has(input:checked) { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
  .option:has(input:disabled) { opacity: 0.7; cursor: not-allowed; }
  .option input { width: 1.25em; height: 1.25em; margin: 0.15em 0 0; flex: none; accent-color: var(--_accent); }
  .option .grow { flex: 1 1 12em; min-width: 0; display: grid; gap: 0.15em; }
  .option .price { margin-left: auto; }
  .stepper { display: flex; align-items: center; justify-content: space-between; gap: 0.75em; padding: 0.4em 0; }
  .stepper .ctl { display: flex; align-items: center; gap: 0.5em; }
  .stepper .ctl button { width: var(--_tap); height: var(--_tap); padding: 0; font-size: 1.25em; }
  .stepper output { min-width: 1.5em; text-align: center; font-weight: 600; }
  .days { display: flex; flex-wrap: wrap; gap: 0.25em 1em; }
  .days .field { min-width: 9em; }
  .lines { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.25em; }
  .lines li { display: flex; justify-content: space-between; gap: 1em; }
  .total { display: flex; justify-content: space-between; font-size: 1.15em; font-weight: 700; border-top: 1px solid var(--_border); padding-top: 0.5em; }
  .terms { max-height: 10em; overflow-y: auto; padding: 0.75em; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); white-space: pre-wrap; font-size: 0.9em; }
  .human-check { min-height: 65px; }
  .ref { font-size: 1.6em; font-weight: 700; letter-spacing: 0.03em; }
  .skeleton-block.short { min-height: 8em; }
`;
