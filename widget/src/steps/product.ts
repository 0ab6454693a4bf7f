import { html } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { fill } from "../strings";

/** No product attribute: the business's bookable products (packages: the cart books packages). */
export function renderProducts(w: BookingWidget) {
  const products = (w.boot?.products ?? []).filter((p) => p.type === "package");
  return html`${w.heading(w.s.steps.product)}
    ${products.length === 0
      ? html`<p>${w.s.product.none}</p>`
      : html`<div class="cards">
          ${products.map((p) => {
            const from = p.price_from?.find((x) => x.currency === w.cur) ?? p.price_from?.[0];
            return html`<article class="card" part="card">
              <h3>${p.title}</h3>
              <p>${p.description}</p>
              ${from ? html`<p class="price">${fill(w.s.product.from, { price: w.price(from.value, from.currency) })}</p>` : ""}
              <div class="actions">
                <span class="spacer"></span>
                <button type="button" class="btn primary" part="button primary-button" ?disabled=${!!w.busy} @click=${() => void w.chooseProduct(p)}>
                  ${fill(w.s.product.choose, { title: p.title })}
                </button>
              </div>
            </article>`;
          })}
        </div>`}`;
}
