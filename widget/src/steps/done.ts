import { html, nothing } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { fill } from "../strings";

export function renderDone(w: BookingWidget) {
  const b = w.booking!;
  return html`${w.heading(w.s.steps.done)}
    <p>${b.booker ? fill(w.s.done.thanks, { name: b.booker.first_name }) : w.s.done.confirmed}</p>
    <div class="card" part="card">
      <p class="muted">${w.s.done.reference}</p>
      <p class="ref" data-booking-reference>${b.reference}</p>
      <p class="total" part="total"><span>${w.s.cart.total}</span><span>${w.price(b.total, b.currency)}</span></p>
    </div>
    ${b.booker ? html`<p>${fill(w.s.done.emailed, { email: b.booker.email })}</p>` : nothing}
    <div class="actions"><span class="spacer"></span>
      <button type="button" class="btn" part="button" @click=${() => w.startOver()}>${w.s.done.another}</button>
    </div>`;
}
