import { html, nothing } from "lit";
import type { AnswerForm, Question } from "../custom-fields";
import type { FieldErrors } from "../selection";
import type { Strings } from "../strings";

/**
 * The business's own questions of one person, an input per question by its type (text, number,
 * date, a checkbox, a list), labelled in the guest's language; `prefix` names the person as the
 * service does ("guests.0", "customer"), so its errors land at the field.
 */
export function renderQuestions(
  v: { readonly s: Strings; readonly fieldErrors: FieldErrors },
  questions: Question[],
  prefix: string,
  answers: AnswerForm | undefined,
  set: (key: string, value: string | boolean) => void,
) {
  return questions.map((q) => {
    const id = `${prefix.replace(".", "")}-q-${q.key}`;
    const error = v.fieldErrors[`${prefix}.custom_fields.${q.key}`];
    const described = error ? `${id}-err` : nothing;
    const err = error ? html`<span class="error" id="${id}-err">${error}</span>` : nothing;
    const value = answers?.[q.key];
    if (q.type === "boolean") {
      return html`<div class="field" data-question=${q.key}>
        <label class="check"><input type="checkbox" id=${id} .checked=${value === true} aria-invalid=${error ? "true" : "false"} aria-describedby=${described}
          @change=${(e: Event) => set(q.key, (e.target as HTMLInputElement).checked)} /><span>${q.title}</span></label>${err}
      </div>`;
    }
    const label = html`<label for=${id}>${q.title}${q.required ? "" : ` ${v.s.guests.optional}`}</label>`;
    const text = typeof value === "string" ? value : "";
    const onInput = (e: Event) => set(q.key, (e.target as HTMLInputElement | HTMLSelectElement).value);
    const control =
      q.type === "select"
        ? html`<select id=${id} .value=${text} ?required=${q.required} aria-invalid=${error ? "true" : "false"} aria-describedby=${described} @change=${onInput}>
            <option value="">${v.s.checkout.choose}</option>
            ${q.options.map((o, n) => html`<option value=${o} ?selected=${o === text}>${q.option_titles[n] ?? o}</option>`)}
          </select>`
        : html`<input id=${id} type=${q.type === "number" ? "number" : q.type === "date" ? "date" : "text"} .value=${text} ?required=${q.required}
            inputmode=${q.type === "number" ? "decimal" : nothing} autocomplete="off" aria-invalid=${error ? "true" : "false"} aria-describedby=${described} @input=${onInput} />`;
    return html`<div class="field" data-question=${q.key}>${label}${control}${err}</div>`;
  });
}
