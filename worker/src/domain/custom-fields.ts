/**
 * The business's own questions (settings' custom_fields) as a booking meets them: which apply to a
 * guest or to the customer, the answers' checks, the questions in a guest's language, and an
 * answer as text (the back office, the CSV). Pure.
 */
import type { CustomField } from "../contract/config";
import type { FieldError } from "../lib/errors";

/** An answer as sent: by the field's type; null (or "") stands for "not answered". */
export type CustomAnswer = string | number | boolean | null;
export type CustomAnswers = Record<string, CustomAnswer>;

/** Who is asked. */
export type Asked = "guest" | "customer";

/** The fields asked of a guest (applies_to guest or both) or of the customer (customer or both). */
export function fieldsFor(fields: readonly CustomField[], who: Asked): CustomField[] {
  return fields.filter((f) => f.applies_to === who || f.applies_to === "both");
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (s: string) => ISO_DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
/** A person's answer to the question `key`: its own property only (a key may be "constructor"). */
export const answerOf = (answers: Record<string, unknown> | null | undefined, key: string): unknown =>
  answers && Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : undefined;
const unanswered = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** Why an answer does not fit its field's type or options; null when it does. */
function answerProblem(f: CustomField, v: CustomAnswer): string | null {
  switch (f.type) {
    case "text":
      return typeof v === "string" ? null : "must be text";
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? null : "must be a number";
    case "boolean":
      return typeof v === "boolean" ? null : "must be true or false";
    case "date":
      return typeof v === "string" && isRealDate(v) ? null : "must be a date, YYYY-MM-DD";
    case "select":
      return typeof v === "string" && f.options.includes(v) ? null : `must be one of: ${f.options.join(", ")}`;
  }
}

/**
 * Field errors of one person's answers, each at `${path}.custom_fields.<key>`: a required field
 * not answered, an answer of the wrong type or not among a select's options, a key that is not a
 * question asked of `who`.
 */
export function customFieldErrors(fields: readonly CustomField[], who: Asked, answers: CustomAnswers | undefined, path: string): FieldError[] {
  const asked = fieldsFor(fields, who);
  const errors: FieldError[] = [];
  const given = answers ?? {};
  for (const key of Object.keys(given)) {
    if (!asked.some((f) => f.key === key)) errors.push({ path: `${path}.custom_fields.${key}`, message: `is not one of this business's questions for ${who === "guest" ? "guests" : "the customer"}` });
  }
  for (const f of asked) {
    const v = answerOf(given, f.key);
    if (unanswered(v)) {
      if (f.required) errors.push({ path: `${path}.custom_fields.${f.key}`, message: "is required by this business" });
      continue;
    }
    const problem = answerProblem(f, v as CustomAnswer);
    if (problem) errors.push({ path: `${path}.custom_fields.${f.key}`, message: problem });
  }
  return errors;
}

/** The answers worth keeping: the answered ones (text trimmed), in the fields' order. */
export function keptAnswers(fields: readonly CustomField[], answers: CustomAnswers | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    const v = answerOf(answers, f.key);
    if (unanswered(v)) continue;
    out[f.key] = typeof v === "string" ? v.trim() : (v as number | boolean);
  }
  return out;
}

/** A question as the guest sees it: its title and options' titles in one language. */
export interface LocalizedField {
  key: string;
  title: string;
  type: CustomField["type"];
  /** The values to send (the options as stored). */
  options: string[];
  /** What each option reads in the language, in the same order. */
  option_titles: string[];
  required: boolean;
  applies_to: CustomField["applies_to"];
}

/** The fields in `lang` where the business translated them, else in its default language. */
export function localizedFields(fields: readonly CustomField[], lang: string | undefined): LocalizedField[] {
  return fields.map((f) => {
    const t = lang ? f.translations[lang] : undefined;
    const titles = t?.options && t.options.length === f.options.length ? t.options : f.options;
    return { key: f.key, title: t?.title || f.title, type: f.type, options: f.options, option_titles: titles, required: f.required, applies_to: f.applies_to };
  });
}

/** An answer as text for people (the back office, the CSV): yes/no for booleans, "" when none. */
export function answerText(v: unknown, yesNo: { yes: string; no: string } = { yes: "yes", no: "no" }): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "boolean") return v ? yesNo.yes : yesNo.no;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}
