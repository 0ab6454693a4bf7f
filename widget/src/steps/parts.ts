import { html, type TemplateResult } from "lit";
import type { Strings } from "../strings";

/** What every step reads: the strings, the language, whether an action runs, prices, and the way back. */
export interface StepBase {
  readonly s: Strings;
  readonly lang: string;
  /** The name of the action running ("" when none): buttons wait for it. */
  readonly busy: string;
  price(value: number, currency?: string): string;
  back(): void;
}

/** A step's heading: where focus lands when the step opens. */
export const heading = (text: string): TemplateResult => html`<h2 tabindex="-1" part="heading" id="step-heading">${text}</h2>`;
