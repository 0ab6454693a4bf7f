import { html, nothing } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import type { GuestForm } from "../selection";
import { fill } from "../strings";

type TextKey = "first_name" | "last_name" | "email" | "birth_date";

function input(w: BookingWidget, i: number, key: TextKey, type: string, label: string, required: boolean, autocomplete: string) {
  const id = `g${i}-${key}`;
  const path = `guests.${i}.${key}`;
  const error = w.fieldErrors[path];
  const g = w.guests[i];
  return html`<div class="field">
    <label for=${id}>${label}${!required && key === "birth_date" ? ` ${w.s.guests.optional}` : ""}</label>
    <input id=${id} type=${type} .value=${g[key]} ?required=${required} autocomplete=${i === 0 ? autocomplete : "off"}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      max=${key === "birth_date" ? (w.boot?.today ?? nothing) : nothing}
      @input=${(e: Event) => update(w, i, { [key]: (e.target as HTMLInputElement).value })} />
    ${error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing}
  </div>`;
}

function update(w: BookingWidget, i: number, patch: Partial<GuestForm>) {
  w.guests = w.guests.map((g, n) => (n === i ? { ...g, ...patch } : g));
  const prefix = `guests.${i}.`;
  const keys = Object.keys(patch).map((k) => prefix + k);
  if (keys.some((k) => k in w.fieldErrors)) w.fieldErrors = Object.fromEntries(Object.entries(w.fieldErrors).filter(([k]) => !keys.includes(k)));
}

function select(w: BookingWidget, i: number, key: "diet_id" | "level_id", label: string, options: { id: number; title: string }[]) {
  if (!options.length) return nothing;
  const id = `g${i}-${key}`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <select id=${id} .value=${w.guests[i][key]} @change=${(e: Event) => update(w, i, { [key]: (e.target as HTMLSelectElement).value })}>
      <option value="">${w.s.guests.noPreference}</option>
      ${options.map((o) => html`<option value=${String(o.id)} ?selected=${String(o.id) === w.guests[i][key]}>${o.title}</option>`)}
    </select>
  </div>`;
}

export function renderGuests(w: BookingWidget) {
  const t = w.s.guests;
  const settings = w.boot!.settings;
  const birthday = settings.settings.guest_fields.birthday;
  return html`${w.heading(w.s.steps.guests)}
    <form novalidate @submit=${(e: Event) => { e.preventDefault(); void w.addToCart(); }}>
      <div class="cards">
        ${w.guests.map((g, i) => html`<fieldset>
          <legend>${fill(t.guest, { n: i + 1 })} · ${g.gender === "m" ? t.male : t.female}</legend>
          <div class="grid2">
            ${input(w, i, "first_name", "text", t.first_name, true, "given-name")}
            ${input(w, i, "last_name", "text", t.last_name, true, "family-name")}
            ${input(w, i, "email", "email", t.email, false, "email")}
            ${birthday.request ? input(w, i, "birth_date", "date", t.birth_date, birthday.required, "bday") : nothing}
            ${g.genderEditable
              ? html`<div class="field">
                  <label for="g${i}-gender">${t.gender}</label>
                  <select id="g${i}-gender" .value=${g.gender} @change=${(e: Event) => update(w, i, { gender: (e.target as HTMLSelectElement).value as "m" | "f" })}>
                    <option value="m" ?selected=${g.gender === "m"}>${t.male}</option>
                    <option value="f" ?selected=${g.gender === "f"}>${t.female}</option>
                  </select>
                </div>`
              : nothing}
            ${select(w, i, "diet_id", t.diet, settings.diets)}
            ${select(w, i, "level_id", t.level, settings.levels)}
          </div>
        </fieldset>`)}
      </div>
      <div class="actions" style="margin-top:1rem">
        <button type="button" class="btn" part="button" @click=${() => w.back()}>${w.s.back}</button>
        <button type="submit" class="btn primary" part="button primary-button" ?disabled=${!!w.busy}>${w.busy === "add" ? t.adding : t.addToCart}</button>
      </div>
    </form>`;
}
