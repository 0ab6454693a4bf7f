import { describe, expect, it } from "vitest";
import { isPermanentSendError } from "./email";

const failure = (code?: string) => Object.assign(new Error("refused"), code ? { code } : {});

describe("which send errors are permanent", () => {
  it("a recipient the account may not send to, or a suppressed one, fails at once", () => {
    expect(isPermanentSendError(failure("E_RECIPIENT_NOT_ALLOWED"))).toBe(true);
    expect(isPermanentSendError(failure("E_RECIPIENT_SUPPRESSED"))).toBe(true);
    expect(isPermanentSendError(failure("E_HEADER_NOT_ALLOWED"))).toBe(true);
  });

  it("a rate limit, an unknown code, an error without one or no error object is tried again", () => {
    expect(isPermanentSendError(failure("E_RATE_LIMIT_EXCEEDED"))).toBe(false);
    expect(isPermanentSendError(failure("E_SOMETHING_NEW"))).toBe(false);
    expect(isPermanentSendError(failure())).toBe(false);
    expect(isPermanentSendError(null)).toBe(false);
    expect(isPermanentSendError("E_RECIPIENT_NOT_ALLOWED")).toBe(false);
  });
});
