import { html, nothing } from "lit";
import type { Confirmation } from "../controllers/booking";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface DoneView extends StepBase {
  readonly booking: Confirmation | null;
  startOver(): void;
}

export function renderDone(v: DoneView) {
  const b = v.booking!;
  return html`${heading(v.s.steps.done)}
    <p>${b.booker ? fill(v.s.done.thanks, { name: b.booker.first_name }) : v.s.done.confirmed}</p>
    <div class="card" part="card">
      <p class="muted">${v.s.done.reference}</p>
      <p class="ref" data-booking-reference>${b.reference}</p>
      <p class="total" part="total"><span>${v.s.cart.total}</span><span>${v.price(b.total, b.currency)}</span></p>
    </div>
    ${b.booker ? html`<p>${fill(v.s.done.emailed, { email: b.booker.email })}</p>` : nothing}
    <div class="actions"><span class="spacer"></span>
      <button type="button" class="btn" part="button" @click=${() => v.startOver()}>${v.s.done.another}</button>
    </div>`;
}
