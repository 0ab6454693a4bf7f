/**
 * The one way a screen reads a posted form and puts a refused change's errors back at its
 * fields. Every form of the back office is named by the service's own paths where it can be
 * (`guest_fields.minimum_age`, `package.items.1.qty.max`), so an error of a 422 names its field;
 * a screen whose fields are rows (a season's date ranges, timeslots) says how a path maps to them.
 */
import { ApiError, type FieldError } from "../../../lib/errors";
import type { AdminContext } from "./kit";

/** A field's name: the service's path, or a row's name (`seg_start_2`); anything else is dropped. */
const NAME = /^[\w.-]{1,100}$/;
/** The longest text a field keeps (a settings text, the terms, is the longest there is). */
const MAX_TEXT = 60_000;

/** A posted form: every text value of each name (check boxes repeat a name), the CSRF token left out. */
export class Form {
  constructor(readonly all: Record<string, string[]>) {}

  /** The value of a field; the last one when its name repeats; "" when it was not sent. */
  get(name: string): string {
    return this.all[name]?.at(-1) ?? "";
  }

  /** Every value of a repeated field (check boxes), in the order sent. */
  list(name: string): string[] {
    return this.all[name] ?? [];
  }

  /** One value per name (the last): what a form shown again with its errors holds. */
  values(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, values] of Object.entries(this.all)) if (values.length) out[name] = values[values.length - 1];
    return out;
  }
}

/** Reads the request's form (urlencoded or multipart; files are ignored). */
export async function readForm(c: AdminContext): Promise<Form> {
  const body = await c.req.parseBody({ all: true });
  const all: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === "_csrf" || !NAME.test(name)) continue;
    all[name] = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string").map((v) => v.slice(0, MAX_TEXT));
  }
  return new Form(all);
}

/** A refused change as its form shows it: the status to answer, the message, each error at its field, and those no field holds. */
export interface Failure {
  status: 409 | 422;
  message: string;
  fields: Record<string, string>;
  /** `path: message` of the errors `place` found no field for (shown above the form). */
  unplaced: string[];
  /** The service's errors as it sent them (a 409 listing each date, say). */
  errors: FieldError[];
}

/** The field of a path by default: its last part (`guests.0.email` is the form's `email`). */
const lastPart = (path: string) => path.split(".").at(-1);

/**
 * A refused change (422, 409) placed at the form's fields, or null when it is not one the user can
 * fix at the form (the caller rethrows it). `place` names the field of an error's path (undefined:
 * none); where two errors land on one field the first is shown, or all with `join`.
 */
export function failureOf(err: unknown, place: (path: string) => string | undefined = lastPart, options: { join?: boolean } = {}): Failure | null {
  if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 409)) return null;
  const errors = (err.extra.errors ?? []) as FieldError[];
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const e of errors) {
    const field = place(e.path);
    if (field === undefined || field === "") unplaced.push(`${e.path}: ${e.message}`);
    else if (fields[field] === undefined) fields[field] = e.message;
    else if (options.join) fields[field] = `${fields[field]}; ${e.message}`;
  }
  return { status: err.status, message: err.message, fields, unplaced, errors };
}
