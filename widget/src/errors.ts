import type { WidgetApiError } from "./api/client";
import type { FieldErrors } from "./selection";
import { fill, type FirstStrings, type Strings } from "./strings";

/** What the guest is told about a failed request: one message, and the fields it is about. */
export interface ErrorText {
  message: string;
  fields: FieldErrors;
}

/** The paths of the fields the guest can see and correct (the service names them the same way). */
const FORM_FIELD = /^((guests\.\d+|customer)\.custom_fields\.[a-z][a-z0-9_]*|guests\.\d+\.(first_name|last_name|email|birth_date|gender|diet_id|level_id)|customer\.(first_name|last_name|email|phone_countrycode|phone|address_line_1|city|zipcode|country)|terms_accepted)$/;

/**
 * The guest's message for each kind of failure (pretix's habit: distinct, helpful, each with a
 * way out). The service's own wording is for developers: a refused field is marked with our
 * message, and a refusal the guest cannot act on gets a plain one (the details go to the console).
 */
export function describeError(err: WidgetApiError, s: FirstStrings & Partial<Pick<Strings, "refusals">>): ErrorText {
  const e = s.errors;
  switch (err.kind) {
    case "network": return { message: e.network, fields: {} };
    case "rate_limited": return { message: fill(e.rateLimited, { s: err.retryAfter }), fields: {} };
    case "sold_out": return { message: e.soldOut, fields: {} };
    case "cart_expired": return { message: e.expired, fields: {} };
    case "cart_not_open": return { message: e.notOpen, fields: {} };
    case "validation": {
      const fields: FieldErrors = {};
      for (const f of err.fieldErrors) if (FORM_FIELD.test(f.path)) fields[f.path] = e.field;
      return { message: Object.keys(fields).length ? e.validation : e.refused, fields };
    }
    case "not_found": return { message: e.notFound, fields: {} };
    case "origin": return { message: e.origin, fields: {} };
    // both only at a checkout, whose strings are loaded by then
    case "human_check": return { message: s.refusals?.humanCheck ?? e.generic, fields: {} };
    case "payment": return { message: s.refusals?.payment ?? e.generic, fields: {} };
    default: return { message: e.generic, fields: {} };
  }
}
