import { html, nothing } from "lit";
import { CALLING_CODES } from "../../../worker/src/contract/calling-codes";
import type { Cart, Settings } from "../api/client";
import type { CustomerForm, FieldErrors } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";
import { renderStays } from "./summary";
import { questionsFor } from "../custom-fields";
import { renderQuestions } from "./questions";

export interface CheckoutView extends StepBase {
  readonly settings: Settings;
  readonly cart: Cart | null;
  /** The cart's holds are live: it can be booked. */
  readonly held: boolean;
  readonly customer: CustomerForm;
  readonly fieldErrors: FieldErrors;
  readonly terms: boolean;
  readonly newsletter: boolean;
  /** The bootstrap: whether the business asks for the human check at checkout. */
  readonly boot: { human_check?: { site_key: string } | null; payment?: { pay_to_confirm: boolean } | null } | null;
}

/** What the step does, through its concern's controller. */
export interface CheckoutActions {
  setCustomer(key: Exclude<keyof CustomerForm, "custom_fields">, value: string): void;
  answerCustomer(key: string, value: string | boolean): void;
  setTerms(on: boolean): void;
  setNewsletter(on: boolean): void;
  checkout(): void;
}

/** Countries by their name in the guest's language (ISO codes are what the service stores). */
function countries(lang: string): [code: string, name: string][] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([lang], { type: "region" });
  } catch {
    /* an engine without region names: the codes themselves */
  }
  return Object.keys(CALLING_CODES)
    .map((code): [string, string] => [code, names?.of(code) ?? code])
    .sort((a, b) => a[1].localeCompare(b[1], lang));
}

type Labelled = Exclude<keyof CustomerForm, "phone_country" | "custom_fields">;

function field(v: CheckoutView, key: Labelled, required: boolean, control: (attrs: { id: string; error: string | undefined }) => unknown) {
  const id = `c-${key}`;
  const error = v.fieldErrors[`customer.${key}`];
  return html`<div class="field">
    <label for=${id}>${v.s.checkout[key]}${required ? "" : ` ${v.s.guests.optional}`}</label>
    ${control({ id, error })}
    ${error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing}
  </div>`;
}

function input(v: CheckoutView, act: CheckoutActions, key: Labelled, type: string, required: boolean, autocomplete: string) {
  return field(v, key, required, ({ id, error }) => html`<input id=${id} type=${type} .value=${v.customer[key]} ?required=${required} autocomplete=${autocomplete}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      @input=${(e: Event) => act.setCustomer(key, (e.target as HTMLInputElement).value)} />`);
}

/** A list to choose from: the country, or the phone number's country (its calling code goes with it). */
function choice(v: CheckoutView, act: CheckoutActions, key: "country" | "phone_countrycode", required: boolean, autocomplete: string, list: [string, string][]) {
  const bound = key === "country" ? "country" : "phone_country";
  return field(v, key, required, ({ id, error }) => html`<select id=${id} .value=${v.customer[bound]} ?required=${required} autocomplete=${autocomplete}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      @change=${(e: Event) => {
        const code = (e.target as HTMLSelectElement).value;
        // a phone's country: the service wants its calling code; a home country: the phone's too, until chosen
        if (key === "phone_countrycode" || !v.customer.phone_country) {
          act.setCustomer("phone_country", code);
          act.setCustomer("phone_countrycode", CALLING_CODES[code] ?? "");
        }
        if (key === "country") act.setCustomer("country", code);
      }}>
      <option value="">${v.s.checkout.choose}</option>
      ${list.map(([value, label]) => html`<option value=${value} ?selected=${value === v.customer[bound]}>${label}</option>`)}
    </select>`);
}

export function renderCheckout(v: CheckoutView, act: CheckoutActions) {
  const t = v.s.checkout;
  const rules = v.settings.settings.customer_fields;
  const cart = v.cart!;
  const termsError = v.fieldErrors.terms_accepted;
  const list = countries(v.lang);
  return html`${heading(v.s.steps.checkout)}
    <form novalidate @submit=${(e: Event) => { e.preventDefault(); if (v.held) act.checkout(); }}>
      <section class="cards" aria-labelledby="summary-title">
        <h3 id="summary-title">${t.summary}</h3>
        ${renderStays(v, cart)}
        <p class="small" data-payment>${v.boot?.payment ? (v.boot.payment.pay_to_confirm ? t.paymentFirst : t.paymentAfter) : fill(t.payment, { company: v.settings.company_name })}</p>
      </section>
      <fieldset>
        <legend>${t.customer}</legend>
        <div class="grid2">
          ${input(v, act, "first_name", "text", true, "given-name")}
          ${input(v, act, "last_name", "text", true, "family-name")}
          ${input(v, act, "email", "email", true, "email")}
          ${rules.phone.request
            ? html`${choice(v, act, "phone_countrycode", false, "tel-country-code", list.map(([code, name]) => [code, `${name} +${CALLING_CODES[code]}`]))}
                ${input(v, act, "phone", "tel", rules.phone.required, "tel-national")}`
            : nothing}
          ${rules.address.request
            ? html`${input(v, act, "address_line_1", "text", rules.address.required, "address-line1")}
                ${input(v, act, "zipcode", "text", rules.address.required, "postal-code")}
                ${input(v, act, "city", "text", rules.address.required, "address-level2")}
                ${choice(v, act, "country", rules.address.required, "country", list)}`
            : nothing}
          ${renderQuestions(v, questionsFor(v.settings, "customer"), "customer", v.customer.custom_fields, (key, value) => act.answerCustomer(key, value))}
        </div>
      </fieldset>
      <div>
        <h3 id="terms-title">${t.terms}</h3>
        <div class="terms" role="region" aria-labelledby="terms-title" tabindex="0">${v.settings.terms}</div>
      </div>
      <div>
        <label class="check">
          <input type="checkbox" id="terms" .checked=${v.terms} aria-invalid=${termsError ? "true" : "false"} aria-describedby=${termsError ? "terms-err" : nothing}
            @change=${(e: Event) => act.setTerms((e.target as HTMLInputElement).checked)} />
          <span>${t.accept}</span>
        </label>
        ${termsError ? html`<span class="error-text" id="terms-err">${termsError}</span>` : nothing}
        <label class="check">
          <input type="checkbox" .checked=${v.newsletter} @change=${(e: Event) => act.setNewsletter((e.target as HTMLInputElement).checked)} />
          <span>${t.newsletter}</span>
        </label>
      </div>
      ${v.boot?.human_check ? html`<div class="human-check" data-human-check><slot name="human-check"></slot></div>` : nothing}
      <div class="actions">
        <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
        <button type="submit" class="btn primary" part="button primary-button" ?disabled=${!!v.busy || !v.held}>
          ${v.busy === "checkout" ? t.paying : fill(t.pay, { price: v.price(cart.total, cart.currency) })}
        </button>
      </div>
    </form>`;
}
