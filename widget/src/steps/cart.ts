import { html, nothing } from "lit";
import { formatTime } from "../format";
import { fill } from "../strings";
import type { Cart } from "../api/client";
import { heading, type StepBase } from "./parts";
import { renderStays } from "./summary";

export interface CartView extends StepBase {
  readonly cart: Cart | null;
}

/** What the step does, through its concern's controller. */
export interface CartActions {
  extendCart(): void;
  emptyCart(): void;
  addAnotherStay(): void;
  toCheckout(): void;
}

export function renderCart(v: CartView, act: CartActions) {
  const c = v.s.cart;
  const cart = v.cart;
  if (!cart || cart.guests.length === 0) {
    return html`${heading(v.s.steps.cart)}<p>${c.empty}</p>`;
  }
  const open = cart.status === "open";
  const paying = open && cart.payment?.status === "awaiting" ? cart.payment : null;
  if (paying) {
    // the guest is paying (or came back without paying): the cart takes no change; pay, or let it go
    const p = v.s.payment;
    return html`${heading(v.s.steps.cart)}
      ${renderStays(v, cart)}
      <p data-payment-awaiting>${fill(p.awaiting, { price: v.price(paying.amount, paying.currency), time: formatTime(new Date(cart.expiry_date), v.lang) })}</p>
      <div class="actions">
        <button type="button" class="btn link" part="button" ?disabled=${!!v.busy} @click=${() => act.emptyCart()}>${c.remove}</button>
        <span class="spacer"></span>
        <a class="btn primary" part="button primary-button" href=${paying.url ?? "#"} data-pay-now>${fill(p.payNow, { price: v.price(paying.amount, paying.currency) })}</a>
      </div>`;
  }
  return html`${heading(v.s.steps.cart)}
    ${renderStays(v, cart)}
    <div class="actions">
      ${open
        ? html`<button type="button" class="btn" part="button" ?disabled=${!!v.busy || cart.extensions_left <= 0} @click=${() => act.extendCart()}>${c.extend}</button>
          <button type="button" class="btn link" part="button" ?disabled=${!!v.busy} @click=${() => act.emptyCart()}>${c.remove}</button>
          <button type="button" class="btn link" part="button" @click=${() => act.addAnotherStay()}>${c.addMore}</button>
          <span class="spacer"></span>
          <button type="button" class="btn primary" part="button primary-button" ?disabled=${!!v.busy} @click=${() => act.toCheckout()}>${c.checkout}</button>`
        : nothing}
    </div>`;
}
