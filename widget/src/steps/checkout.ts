import { html, nothing } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { fill } from "../strings";

export interface CustomerForm {
  first_name: string;
  last_name: string;
  email: string;
  phone_countrycode: string;
  phone: string;
  address_line_1: string;
  city: string;
  zipcode: string;
  country: string;
}

function field(w: BookingWidget, key: keyof CustomerForm, type: string, required: boolean, autocomplete: string) {
  const id = `c-${key}`;
  const error = w.fieldErrors[`customer.${key}`];
  const label = w.s.checkout[key];
  return html`<div class="field">
    <label for=${id}>${label}${required ? "" : ` ${w.s.guests.optional}`}</label>
    <input id=${id} type=${type} .value=${w.customer[key]} ?required=${required} autocomplete=${autocomplete}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      @input=${(e: Event) => {
        w.customer = { ...w.customer, [key]: (e.target as HTMLInputElement).value };
        if (w.fieldErrors[`customer.${key}`]) w.fieldErrors = Object.fromEntries(Object.entries(w.fieldErrors).filter(([k]) => k !== `customer.${key}`));
      }} />
    ${error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing}
  </div>`;
}

export function renderCheckout(w: BookingWidget) {
  const t = w.s.checkout;
  const rules = w.boot!.settings.settings.customer_fields;
  const cart = w.cart!;
  const termsError = w.fieldErrors.terms_accepted;
  const left = w.timeLeft;
  return html`${w.heading(w.s.steps.checkout)}
    <p part="countdown" class="small muted">${fill(w.s.cart.expiresIn, { time: "" })}<span class="countdown ${left.low ? "low" : ""}" role="timer" aria-live="off">${left.text}</span></p>
    <form novalidate @submit=${(e: Event) => { e.preventDefault(); void w.checkout(); }}>
      <div class="cards">
        <fieldset>
          <legend>${t.customer}</legend>
          <div class="grid2">
            ${field(w, "first_name", "text", true, "given-name")}
            ${field(w, "last_name", "text", true, "family-name")}
            ${field(w, "email", "email", true, "email")}
            ${rules.phone.request
              ? html`${field(w, "phone_countrycode", "text", false, "tel-country-code")}${field(w, "phone", "tel", rules.phone.required, "tel-national")}`
              : nothing}
            ${rules.address.request
              ? html`${field(w, "address_line_1", "text", rules.address.required, "address-line1")}
                  ${field(w, "zipcode", "text", rules.address.required, "postal-code")}
                  ${field(w, "city", "text", rules.address.required, "address-level2")}
                  ${field(w, "country", "text", rules.address.required, "country-name")}`
              : nothing}
          </div>
        </fieldset>
        <div>
          <h3 id="terms-title">${t.terms}</h3>
          <div class="terms" role="region" aria-labelledby="terms-title" tabindex="0">${w.boot!.settings.terms}</div>
        </div>
        <div>
          <label class="check">
            <input type="checkbox" id="terms" .checked=${w.terms} aria-invalid=${termsError ? "true" : "false"} aria-describedby=${termsError ? "terms-err" : nothing}
              @change=${(e: Event) => { w.terms = (e.target as HTMLInputElement).checked; if (w.terms) w.fieldErrors = Object.fromEntries(Object.entries(w.fieldErrors).filter(([k]) => k !== "terms_accepted")); }} />
            <span>${t.accept}</span>
          </label>
          ${termsError ? html`<span class="error-text" id="terms-err">${termsError}</span>` : nothing}
          <label class="check">
            <input type="checkbox" .checked=${w.newsletter} @change=${(e: Event) => (w.newsletter = (e.target as HTMLInputElement).checked)} />
            <span>${t.newsletter}</span>
          </label>
        </div>
        <p class="total" part="total"><span>${w.s.cart.total}</span><span>${w.price(cart.total, cart.currency)}</span></p>
      </div>
      <div class="actions" style="margin-top:1rem">
        <button type="button" class="btn" part="button" @click=${() => w.back()}>${w.s.back}</button>
        <button type="submit" class="btn primary" part="button primary-button" ?disabled=${!!w.busy}>
          ${w.busy === "checkout" ? t.paying : fill(t.pay, { price: w.price(cart.total, cart.currency) })}
        </button>
      </div>
    </form>`;
}
