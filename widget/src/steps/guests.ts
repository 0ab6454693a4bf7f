import { html, nothing } from "lit";
import type { Settings } from "../api/client";
import type { FieldErrors, GuestForm } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";
import { questionsFor } from "../custom-fields";
import { renderQuestions } from "./questions";

export interface GuestsView extends StepBase {
  readonly settings: Settings;
  readonly today: string;
  readonly guests: GuestForm[];
  readonly fieldErrors: FieldErrors;
  /** Booked with a room: each guest's gender came from the party (participants have none). */
  readonly byRoom: boolean;
}

/** What the step does, through its concern's controller. */
export interface GuestsActions {
  updateGuest(i: number, patch: Partial<GuestForm>): void;
  answerGuest(i: number, key: string, value: string | boolean): void;
  addToCart(): void;
}

type TextKey = "first_name" | "last_name" | "email" | "birth_date";

function input(v: GuestsView, act: GuestsActions, i: number, key: TextKey, type: string, label: string, required: boolean, autocomplete: string) {
  const id = `g${i}-${key}`;
  const error = v.fieldErrors[`guests.${i}.${key}`];
  return html`<div class="field">
    <label for=${id}>${label}${!required && key === "birth_date" ? ` ${v.s.guests.optional}` : ""}</label>
    <input id=${id} type=${type} .value=${v.guests[i][key]} ?required=${required} autocomplete=${i === 0 ? autocomplete : "off"}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-err` : nothing}
      max=${key === "birth_date" ? v.today || nothing : nothing}
      @input=${(e: Event) => act.updateGuest(i, { [key]: (e.target as HTMLInputElement).value })} />
    ${error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing}
  </div>`;
}

function select(v: GuestsView, act: GuestsActions, i: number, key: "diet_id" | "level_id", label: string, options: { id: number; title: string }[]) {
  if (!options.length) return nothing;
  const id = `g${i}-${key}`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <select id=${id} .value=${v.guests[i][key]} @change=${(e: Event) => act.updateGuest(i, { [key]: (e.target as HTMLSelectElement).value })}>
      <option value="">${v.s.guests.noPreference}</option>
      ${options.map((o) => html`<option value=${String(o.id)} ?selected=${String(o.id) === v.guests[i][key]}>${o.title}</option>`)}
    </select>
  </div>`;
}

export function renderGuests(v: GuestsView, act: GuestsActions) {
  const t = v.s.guests;
  const settings = v.settings;
  const birthday = settings.settings.guest_fields.birthday;
  const questions = questionsFor(settings, "guest");
  return html`${heading(v.s.steps.guests)}
    <form novalidate @submit=${(e: Event) => { e.preventDefault(); act.addToCart(); }}>
      <div class="cards">
        ${v.guests.map((g, i) => html`<fieldset>
          <legend>${fill(t.guest, { n: i + 1 })}${v.byRoom ? ` · ${g.gender === "m" ? t.male : t.female}` : ""}</legend>
          <div class="grid2">
            ${input(v, act, i, "first_name", "text", t.first_name, true, "given-name")}
            ${input(v, act, i, "last_name", "text", t.last_name, true, "family-name")}
            ${input(v, act, i, "email", "email", t.email, false, "email")}
            ${birthday.request ? input(v, act, i, "birth_date", "date", t.birth_date, birthday.required, "bday") : nothing}
            ${g.genderEditable
              ? html`<div class="field">
                  <label for="g${i}-gender">${t.gender}</label>
                  <select id="g${i}-gender" .value=${g.gender} @change=${(e: Event) => act.updateGuest(i, { gender: (e.target as HTMLSelectElement).value as "m" | "f" })}>
                    <option value="m" ?selected=${g.gender === "m"}>${t.male}</option>
                    <option value="f" ?selected=${g.gender === "f"}>${t.female}</option>
                  </select>
                </div>`
              : nothing}
            ${select(v, act, i, "diet_id", t.diet, settings.diets)}
            ${select(v, act, i, "level_id", t.level, settings.levels)}
            ${renderQuestions(v, questions, `guests.${i}`, g.custom_fields, (key, value) => act.answerGuest(i, key, value))}
          </div>
        </fieldset>`)}
      </div>
      <div class="actions">
        <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
        <button type="submit" class="btn primary" part="button primary-button" ?disabled=${!!v.busy}>${v.busy === "add" ? t.adding : t.addToCart}</button>
      </div>
    </form>`;
}
