import { html, nothing } from "lit";
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
