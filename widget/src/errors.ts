import type { WidgetApiError } from "./api/client";
import type { FieldErrors } from "./selection";
import { fill, type Strings } from "./strings";

/** What the guest is told about a failed request: one message, and the fields it is about. */
export interface ErrorText {
  message: string;
  fields: FieldErrors;
}

/** The guest's message for each kind of failure (pretix's habit: distinct, helpful, each with a way out). */
export function describeError(err: WidgetApiError, s: Strings): ErrorText {
  const e = s.errors;
  switch (err.kind) {
    case "network": return { message: e.network, fields: {} };
    case "rate_limited": return { message: fill(e.rateLimited, { s: err.retryAfter }), fields: {} };
    case "sold_out": return { message: e.soldOut, fields: {} };
    case "cart_expired": return { message: e.expired, fields: {} };
    case "cart_not_open": return { message: e.notOpen, fields: {} };
    case "validation": {
      const fields = Object.fromEntries(err.fieldErrors.map((f) => [f.path, f.message]));
      const message = err.fieldErrors.length ? `${e.validation} ${err.fieldErrors.map((f) => `${f.path}: ${f.message}`).join("; ")}` : `${e.validation} ${err.message}`;
      return { message, fields };
    }
    case "not_found": return { message: e.notFound, fields: {} };
    case "origin": return { message: e.origin, fields: {} };
    default: return { message: e.generic, fields: {} };
  }
}
