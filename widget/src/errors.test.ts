import { describe, expect, test } from "vitest";
import { classify } from "./api/client";
import { describeError } from "./errors";
import { en } from "./strings/en";
import { enCheckout } from "./strings/en-checkout";

const problem = (status: number, code: string, errors: { path: string; message: string }[] = [], detail = "raw detail from the service") =>
  classify(status, { code, detail, errors }, null);

describe("what the guest is told", () => {
  test("a refused field is marked with the widget's own words, never the service's", () => {
    const told = describeError(problem(422, "validation_failed", [{ path: "guests.1.email", message: "is the same as guests.0.email; each guest needs their own e-mail" }]), en);
    expect(told).toEqual({ message: en.errors.validation, fields: { "guests.1.email": en.errors.field } });
    expect(JSON.stringify(told)).not.toContain("same as");
  });
  test("a refusal about nothing the guest can correct gets a plain message, without the raw text", () => {
    // what Prototype.js's Array.prototype.toJSON used to cause: the guests list arrived as a string
    const told = describeError(problem(422, "validation_failed", [{ path: "guests", message: "Invalid input: expected array, received string" }]), en);
    expect(told).toEqual({ message: en.errors.refused, fields: {} });
    expect(describeError(problem(400, "malformed_json"), en).message).toBe(en.errors.refused);
  });
  test("each other kind has its own message", () => {
    expect(describeError(problem(409, "sold_out"), en).message).toBe(en.errors.soldOut);
    expect(describeError(problem(410, "cart_expired"), en).message).toBe(en.errors.expired);
    expect(describeError(problem(403, "origin_not_allowed"), en).message).toBe(en.errors.origin);
    expect(describeError(classify(429, null, "3"), en).message).toBe("Too many requests in a short time. Please wait 3 seconds, then try again.");
    expect(describeError(problem(500, "internal_error"), en).message).toBe(en.errors.generic);
  });
  test("a checkout's own refusals are said in the checkout's words: the human check, the payment service down (nothing charged, places held)", () => {
    const s = { ...en, ...enCheckout };
    expect(describeError(problem(403, "human_check_failed"), s).message).toBe("We could not confirm that you are a person. Please complete the check above the button, then book again.");
    expect(describeError(problem(503, "stripe_unavailable"), s).message).toMatch(/^The payment service is not answering\. Nothing was booked or charged, and your places are still held/);
    expect(describeError(problem(502, "stripe_error"), s).message).toBe(enCheckout.refusals.payment);
  });
});
