/**
 * The business's own questions (settings' custom_fields, in the widget's language since the
 * bootstrap): which are asked of a guest or of the booker, the checks before sending (the server
 * checks the same: domain/custom-fields.ts), and the answers as the service wants them. Pure.
 */
import type { Settings } from "./api/client";
import type { FieldErrors } from "./selection";

export type Question = Settings["settings"]["custom_fields"][number];
/** What the guest typed or ticked, by field key: text for inputs and lists, true/false for a checkbox. */
export type AnswerForm = Record<string, string | boolean>;

/** The questions asked of a guest or of the booker (applies_to both: of each). */
export const questionsFor = (settings: Settings, who: "guest" | "customer"): Question[] =>
  (settings.settings.custom_fields ?? []).filter((q) => q.applies_to === who || q.applies_to === "both");

/** Field errors of one person's answers, keyed as the server names them (`${prefix}.custom_fields.<key>`). */
export function answerErrors(questions: Question[], form: AnswerForm | undefined, prefix: string, msg: { required: string; chooseOne: string; invalidNumber: string }): FieldErrors {
  const errors: FieldErrors = {};
  for (const q of questions) {
    const v = form && Object.prototype.hasOwnProperty.call(form, q.key) ? form[q.key] : undefined;
    const path = `${prefix}.custom_fields.${q.key}`;
    if (q.type === "boolean") continue; // a checkbox is always an answer: ticked or not
    const text = typeof v === "string" ? v.trim() : "";
    if (!text) {
      if (q.required) errors[path] = q.type === "select" ? msg.chooseOne : msg.required;
    } else if (q.type === "number" && !Number.isFinite(Number(text))) errors[path] = msg.invalidNumber;
    else if (q.type === "select" && !q.options.includes(text)) errors[path] = msg.chooseOne;
  }
  return errors;
}

/** The answers to send: each typed by its question (a number as a number), unanswered ones left out. */
export function answersPayload(questions: Question[], form: AnswerForm | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const q of questions) {
    const v = form && Object.prototype.hasOwnProperty.call(form, q.key) ? form[q.key] : undefined;
    if (q.type === "boolean") out[q.key] = v === true;
    else if (typeof v === "string" && v.trim()) out[q.key] = q.type === "number" ? Number(v.trim()) : v.trim();
  }
  return out;
}
