import { html, nothing } from "lit";
import type { Confirmation } from "../controllers/store";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";
import { renderStays } from "./summary";

export interface DoneView extends StepBase {
  readonly booking: Confirmation | null;
  /** The business, as the guest knows it. */
  readonly company: string;
}

/** What the step does, through its concern's controller. */
export interface DoneActions {
  startOver(): void;
}

export function renderDone(v: DoneView, act: DoneActions) {
  const b = v.booking!;
  return html`${heading(v.s.steps.done)}
    <p>${b.booker ? fill(v.s.done.thanks, { name: b.booker.first_name }) : v.s.done.confirmed}</p>
    <div class="card" part="card">
      <p class="muted">${v.s.done.reference}</p>
      <p class="ref" data-booking-reference>${b.reference}</p>
    </div>
    ${renderStays(v, b)}
    <p data-payment>${fill(v.s.done.payment, { company: v.company })}</p>
    ${b.confirmation_email ? html`<p data-confirmation-email>${fill(v.s.done.emailed, { email: b.confirmation_email })}</p>` : nothing}
    <div class="actions"><span class="spacer"></span>
      <button type="button" class="btn" part="button" @click=${() => act.startOver()}>${v.s.done.another}</button>
    </div>`;
}
