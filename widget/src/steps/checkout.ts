import { html, nothing } from "lit";
import type { Cart, Settings } from "../api/client";
import type { CustomerForm, FieldErrors } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface CheckoutView extends StepBase {
  readonly settings: Settings;
  readonly cart: Cart | null;
  readonly customer: CustomerForm;
  readonly fieldErrors: FieldErrors;
  readonly terms: boolean;
  readonly newsletter: boolean;
  readonly timeLeft: { text: string; low: boolean };
  setCustomer(key: keyof CustomerForm, value: string): void;
  setTerms(on: boolean): void;
  setNewsletter(on: boolean): void;
  checkout(): void;
}

function field(v: CheckoutView, key: keyof CustomerForm, type: string, required: boolean, autocomplete: string) {
  const id = `c-${key}`;
  const error = v.fieldErrors[`customer.${key}`];
  const label = v.s.checkout[key];
  return html`<div class="field">
    <label for=${id}>${label}${required ? "" : ` ${v.s.guests.optional}`}</label>
    <input id=${id} type=${type} .value=${v.customer[key]} ?required=${required} autocomplete=${autocomplete}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      @input=${(e: Event) => v.setCustomer(key, (e.target as HTMLInputElement).value)} />
    ${error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing}
  </div>`;
}

export function renderCheckout(v: CheckoutView) {
  const t = v.s.checkout;
  const rules = v.settings.settings.customer_fields;
  const cart = v.cart!;
  const termsError = v.fieldErrors.terms_accepted;
  const left = v.timeLeft;
  return html`${heading(v.s.steps.checkout)}
    <p part="countdown" class="small muted">${fill(v.s.cart.expiresIn, { time: "" })}<span class="countdown ${left.low ? "low" : ""}" role="timer" aria-live="off">${left.text}</span></p>
    <form novalidate @submit=${(e: Event) => { e.preventDefault(); v.checkout(); }}>
      <div class="cards">
        <fieldset>
          <legend>${t.customer}</legend>
          <div class="grid2">
            ${field(v, "first_name", "text", true, "given-name")}
            ${field(v, "last_name", "text", true, "family-name")}
            ${field(v, "email", "email", true, "email")}
            ${rules.phone.request
              ? html`${field(v, "phone_countrycode", "text", false, "tel-country-code")}${field(v, "phone", "tel", rules.phone.required, "tel-national")}`
              : nothing}
            ${rules.address.request
              ? html`${field(v, "address_line_1", "text", rules.address.required, "address-line1")}
                  ${field(v, "zipcode", "text", rules.address.required, "postal-code")}
                  ${field(v, "city", "text", rules.address.required, "address-level2")}
                  ${field(v, "country", "text", rules.address.required, "country-name")}`
              : nothing}
          </div>
        </fieldset>
        <div>
          <h3 id="terms-title">${t.terms}</h3>
          <div class="terms" role="region" aria-labelledby="terms-title" tabindex="0">${v.settings.terms}</div>
        </div>
        <div>
          <label class="check">
            <input type="checkbox" id="terms" .checked=${v.terms} aria-invalid=${termsError ? "true" : "false"} aria-describedby=${termsError ? "terms-err" : nothing}
              @change=${(e: Event) => v.setTerms((e.target as HTMLInputElement).checked)} />
            <span>${t.accept}</span>
          </label>
          ${termsError ? html`<span class="error-text" id="terms-err">${termsError}</span>` : nothing}
          <label class="check">
            <input type="checkbox" .checked=${v.newsletter} @change=${(e: Event) => v.setNewsletter((e.target as HTMLInputElement).checked)} />
            <span>${t.newsletter}</span>
          </label>
        </div>
        <p class="total" part="total"><span>${v.s.cart.total}</span><span>${v.price(cart.total, cart.currency)}</span></p>
      </div>
      <div class="actions" style="margin-top:1rem">
        <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
        <button type="submit" class="btn primary" part="button primary-button" ?disabled=${!!v.busy}>
          ${v.busy === "checkout" ? t.paying : fill(t.pay, { price: v.price(cart.total, cart.currency) })}
        </button>
      </div>
    </form>`;
}
