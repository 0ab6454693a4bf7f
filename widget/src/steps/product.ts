import { html } from "lit";
import type { Product } from "../api/client";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface ProductView extends StepBase {
  readonly cur: string;
  readonly products: Product[];
}

/** What the step does, through its concern's controller. */
export interface ProductActions {
  chooseProduct(product: Product): void;
}

/** No product attribute: everything the business lists (a product listed on its own sells as its own one-item package). */
export function renderProducts(v: ProductView, act: ProductActions) {
  const products = v.products;
  return html`${heading(v.s.steps.product)}
    ${products.length === 0
      ? html`<p>${v.s.product.none}</p>`
      : html`<div class="cards">
          ${products.map((p) => {
            const from = p.price_from?.find((x) => x.currency === v.cur) ?? p.price_from?.[0];
            return html`<article class="card" part="card">
              <h3>${p.title}</h3>
              <p>${p.description}</p>
              ${from ? html`<p class="price">${fill(v.s.product.from, { price: v.price(from.value, from.currency) })}</p>` : ""}
              <div class="actions">
                <span class="spacer"></span>
                <button type="button" class="btn primary" part="button primary-button" ?disabled=${!!v.busy} @click=${() => act.chooseProduct(p)}>
                  ${fill(v.s.product.choose, { title: p.title })}
                </button>
              </div>
            </article>`;
          })}
        </div>`}`;
}
