import { html, nothing } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { formatDate } from "../format";
import { fill } from "../strings";

export function renderCart(w: BookingWidget) {
  const c = w.s.cart;
  const cart = w.cart;
  if (!cart || cart.guests.length === 0) {
    return html`${w.heading(w.s.steps.cart)}<p>${c.empty}</p>`;
  }
  const open = cart.status === "open";
  const left = w.timeLeft;
  return html`${w.heading(w.s.steps.cart)}
    ${open
      ? html`<p part="countdown" class="card">
          ${fill(c.expiresIn, { time: "" })}<span class="countdown ${left.low ? "low" : ""}" role="timer" aria-live="off" data-countdown>${left.text}</span>
        </p>`
      : nothing}
    <div class="cards" part="cart">
      ${cart.guests.map((g) => html`<article class="card" part="card">
        <h3>${g.first_name} ${g.last_name}</h3>
        <p class="muted small">${g.package.title} · ${fill(c.nights, { start: formatDate(g.package.start_date, w.lang), end: formatDate(g.package.end_date, w.lang) })}</p>
        <ul class="lines">
          ${g.items.map((i) => html`<li><span>${i.title}${i.role === "srs" ? "" : i.qty > 1 ? ` ×${i.qty}` : ""}</span>
            <span>${i.price ? w.price(i.price, cart.currency) : w.s.extras.included}</span></li>`)}
        </ul>
      </article>`)}
    </div>
    <p class="total" part="total"><span>${c.total}</span><span data-cart-total>${w.price(cart.total, cart.currency)}</span></p>
    <div class="actions">
      ${open
        ? html`<button type="button" class="btn" part="button" ?disabled=${!!w.busy || cart.extensions_left <= 0} @click=${() => void w.extendCart()}>${c.extend}</button>
          <button type="button" class="btn link" part="button" ?disabled=${!!w.busy} @click=${() => void w.emptyCart()}>${c.remove}</button>
          <button type="button" class="btn link" part="button" @click=${() => { w.sel = { ...w.sel, accommodationId: null, srs: false, items: {} }; w.guests = w.guests.map((g) => ({ ...g, first_name: "", last_name: "", email: "", birth_date: "" })); w.go("dates"); }}>${c.addMore}</button>
          <span class="spacer"></span>
          <button type="button" class="btn primary" part="button primary-button" ?disabled=${!!w.busy} @click=${() => { w.prefillCustomer(); w.go("checkout"); }}>${c.checkout}</button>`
        : nothing}
    </div>`;
}
