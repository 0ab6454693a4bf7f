import { html } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { fill } from "../strings";

export function renderDone(w: BookingWidget) {
  const b = w.booking!;
  return html`${w.heading(w.s.steps.done)}
    <p>${fill(w.s.done.thanks, { name: b.booker.first_name })}</p>
    <div class="card" part="card">
      <p class="muted">${w.s.done.reference}</p>
      <p class="ref" data-booking-reference>${b.reference}</p>
      <p class="total" part="total"><span>${w.s.cart.total}</span><span>${w.price(b.total, b.currency)}</span></p>
    </div>
    <p>${fill(w.s.done.emailed, { email: b.booker.email })}</p>
    <div class="actions"><span class="spacer"></span>
      <button type="button" class="btn" part="button" @click=${() => w.startOver()}>${w.s.done.another}</button>
    </div>`;
}
