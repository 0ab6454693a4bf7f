import { html } from "lit";
import type { CartGuest } from "../api/client";
import { formatDate } from "../format";
import { fill } from "../strings";
import type { StepBase } from "./parts";

/**
 * The whole booking as the cart holds it: each guest with their stay (package and dates), room,
 * included items and extras with prices, then the total. The cart, the checkout and the
 * confirmation all show it, so the guest sees what they pay for right up to the end.
 */
export function renderStays(v: StepBase, stays: { guests: CartGuest[]; currency: string; total: number }) {
  const c = v.s.cart;
  return html`<div class="cards" part="cart">
      ${stays.guests.map((g) => html`<article class="card" part="card">
        <h3>${g.first_name} ${g.last_name}</h3>
        <p class="muted small">${g.package.title} · ${fill(c.nights, { start: formatDate(g.package.start_date, v.lang), end: formatDate(g.package.end_date, v.lang) })}</p>
        <ul class="lines">
          ${g.items.map((i) => html`<li><span>${i.title}${i.role === "srs" ? "" : i.qty > 1 ? ` ×${i.qty}` : ""}</span>
            <span>${i.price ? v.price(i.price, stays.currency) : v.s.extras.included}</span></li>`)}
        </ul>
      </article>`)}
    </div>
    <p class="total" part="total"><span>${c.total}</span><span data-total>${v.price(stays.total, stays.currency)}</span></p>`;
}
