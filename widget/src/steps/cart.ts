import { html, nothing } from "lit";
import type { Cart } from "../api/client";
import { formatDate } from "../format";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface CartView extends StepBase {
  readonly cart: Cart | null;
  readonly timeLeft: { text: string; low: boolean };
  extendCart(): void;
  emptyCart(): void;
  addAnotherStay(): void;
  toCheckout(): void;
}

export function renderCart(v: CartView) {
  const c = v.s.cart;
  const cart = v.cart;
  if (!cart || cart.guests.length === 0) {
    return html`${heading(v.s.steps.cart)}<p>${c.empty}</p>`;
  }
  const open = cart.status === "open";
  const left = v.timeLeft;
  return html`${heading(v.s.steps.cart)}
    ${open
      ? html`<p part="countdown" class="card">
          ${fill(c.expiresIn, { time: "" })}<span class="countdown ${left.low ? "low" : ""}" role="timer" aria-live="off" data-countdown>${left.text}</span>
        </p>`
      : nothing}
    <div class="cards" part="cart">
      ${cart.guests.map((g) => html`<article class="card" part="card">
        <h3>${g.first_name} ${g.last_name}</h3>
        <p class="muted small">${g.package.title} · ${fill(c.nights, { start: formatDate(g.package.start_date, v.lang), end: formatDate(g.package.end_date, v.lang) })}</p>
        <ul class="lines">
          ${g.items.map((i) => html`<li><span>${i.title}${i.role === "srs" ? "" : i.qty > 1 ? ` ×${i.qty}` : ""}</span>
            <span>${i.price ? v.price(i.price, cart.currency) : v.s.extras.included}</span></li>`)}
        </ul>
      </article>`)}
    </div>
    <p class="total" part="total"><span>${c.total}</span><span data-cart-total>${v.price(cart.total, cart.currency)}</span></p>
    <div class="actions">
      ${open
        ? html`<button type="button" class="btn" part="button" ?disabled=${!!v.busy || cart.extensions_left <= 0} @click=${() => v.extendCart()}>${c.extend}</button>
          <button type="button" class="btn link" part="button" ?disabled=${!!v.busy} @click=${() => v.emptyCart()}>${c.remove}</button>
          <button type="button" class="btn link" part="button" @click=${() => v.addAnotherStay()}>${c.addMore}</button>
          <span class="spacer"></span>
          <button type="button" class="btn primary" part="button primary-button" ?disabled=${!!v.busy} @click=${() => v.toCheckout()}>${c.checkout}</button>`
        : nothing}
    </div>`;
}
