import { describe, expect, test } from "vitest";
import { answerErrors, answersPayload, type Question } from "./custom-fields";

const q = (key: string, type: Question["type"], required = false, options: string[] = []): Question => ({ key, title: key, type, options, option_titles: options, required, applies_to: "guest" });
const questions = [q("cert", "select", true, ["None", "Open Water"]), q("size", "number"), q("insured", "boolean", true), q("note", "text", true)];
const msg = { required: "fill", chooseOne: "choose", invalidNumber: "number" };

describe("the business's questions before sending", () => {
  test("unanswered required ones are refused at their field, a list's with its own words; a checkbox is always an answer", () => {
    expect(answerErrors(questions, {}, "guests.1", msg)).toEqual({ "guests.1.custom_fields.cert": "choose", "guests.1.custom_fields.note": "fill" });
    expect(answerErrors(questions, { cert: "Rescue", size: "x", note: " ok " }, "customer", msg)).toEqual({ "customer.custom_fields.cert": "choose", "customer.custom_fields.size": "number" });
  });
  test("answers are sent typed: a number as a number, a checkbox as true or false, blanks left out", () => {
    expect(answersPayload(questions, { cert: "Open Water", size: " 42 ", note: "  " })).toEqual({ cert: "Open Water", size: 42, insured: false });
  });
});
