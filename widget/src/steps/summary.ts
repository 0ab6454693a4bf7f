import { html } from "lit";
import type { CartGuest } from "../api/client";
import { addDays, formatDate } from "../format";
import { fill } from "../strings";
import type { StepBase } from "./parts";

/**
 * The whole booking as the cart holds it: each guest with their stay (package and dates), room,
 * included items and extras with prices, then the total. The cart, the checkout and the
 * confirmation all show it, so the guest sees what they pay for right up to the end.
 */
/**
 * When: a stay's check-in and check-out; without a room, the days it covers (its last day is
 * the one before end_date), and the time of an activity on timeslots.
 */
function when(v: StepBase, g: CartGuest): string {
  const p = g.package;
  const last = addDays(p.end_date, -1);
  const time = g.items.flatMap((i) => i.dates).find((d) => d.length > 10)?.slice(11, 16);
  if (p.accommodation_id) return fill(v.s.cart.nights, { start: formatDate(p.start_date, v.lang), end: formatDate(p.end_date, v.lang) });
  const days = last === p.start_date ? formatDate(p.start_date, v.lang) : fill(v.s.cart.nights, { start: formatDate(p.start_date, v.lang), end: formatDate(last, v.lang) });
  return time ? `${days}, ${time}` : days;
}

export function renderStays(v: StepBase, stays: { guests: CartGuest[]; currency: string; total: number }) {
  const c = v.s.cart;
  return html`<div class="cards" part="cart">
      ${stays.guests.map((g) => html`<article class="card" part="card">
        <h3>${g.first_name} ${g.last_name}</h3>
        <p class="muted small">${g.package.title} · ${when(v, g)}</p>
        <ul class="lines">
          ${g.items.map((i) => html`<li><span>${i.title}${i.role === "srs" ? "" : i.qty > 1 ? ` ×${i.qty}` : ""}</span>
            <span>${i.price ? v.price(i.price, stays.currency) : v.s.extras.included}</span></li>`)}
        </ul>
      </article>`)}
    </div>
    <p class="total" part="total"><span>${c.total}</span><span data-total>${v.price(stays.total, stays.currency)}</span></p>`;
}
