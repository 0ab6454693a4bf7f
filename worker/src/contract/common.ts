import { z } from "@hono/zod-openapi";
import { LANGUAGE_CODES } from "./iso-codes";
import { utf8Length } from "./utf8";

/** 'YYYY-MM-DD', a real calendar date (2026-02-30 is refused). */
export const IsoDate = z.iso.date().openapi({ example: "2026-12-05", description: "Date, YYYY-MM-DD." });
/** A date in an answer: what the server stores is always a real YYYY-MM-DD, so the description says `format: date`. */
export const DateOut = z.string().openapi({ format: "date", example: "2026-12-05" });
export const Language = z
  .string()
  .regex(/^[a-z]{2}$/, "must be a two-letter lower-case language code")
  .openapi({ example: "de" });
/** The ISO 639-1 codes, as the description's enum of a language code entered as data. */
export const LANGUAGE_ENUM = [...LANGUAGE_CODES] as [string, ...string[]];
/** A language code entered as data (a guest's, a customer's): ISO 639-1, not only its shape; the description enumerates the codes. */
export const LanguageCode = z
  .string()
  .regex(/^[a-z]{2}$/, "must be a two-letter lower-case language code")
  .refine((s) => LANGUAGE_CODES.has(s), "is not an ISO 639-1 language code")
  .openapi({ enum: LANGUAGE_ENUM, example: "de", description: "An ISO 639-1 language code, lower case." });

/**
 * 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' (timeslot items), a real calendar date (0000-00-00 and
 * 2026-02-30 are a 422). The description says so as either a `format: date` or the date-time's
 * pattern (months 01-12, days 01-31); the server also checks the day exists in its month.
 */
export const ItemDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}( ([01]\d|2[0-3]):[0-5]\d:[0-5]\d)?$/, "must be YYYY-MM-DD or YYYY-MM-DD HH:mm:ss")
  .refine((s) => {
    const d = new Date(`${s.slice(0, 10)}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s.slice(0, 10);
  }, "is not a calendar date")
  .openapi({
    anyOf: [
      { type: "string", format: "date" },
      { type: "string", pattern: "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]) ([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$" },
    ],
    example: "2026-12-07 08:00:00",
    description: "A real calendar date, YYYY-MM-DD, or with a timeslot's time, YYYY-MM-DD HH:mm:ss.",
  });
export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 currency code")
  .openapi({ example: "EUR" });
/**
 * The largest integer id: JavaScript's largest safe integer (2^53 - 1). Each shard gives its ids in
 * its own range of 10^12 (docs/design.md "Shards"), so ids pass 32 bits from shard 1 on.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The digits of an integer id in a path, a query or a form (at most 16). */
export const ID_DIGITS = /^\d{1,16}$/;
/** Integer ids in paths and queries: positive, at most MAX_ID. */
export const IntId = z.coerce.number().int().min(1).max(MAX_ID);
export const PathId = z.object({ id: IntId.openapi({ param: { name: "id", in: "path" }, example: 101 }) });

/**
 * A list in a query, accepted both as repeated `name[]=a&name[]=b` and as `name=a,b`.
 * Hono gives one value as a string and repeated ones as an array.
 */
export function queryList<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    const values = Array.isArray(v) ? v : v === undefined || v === "" ? undefined : [v];
    return values?.flatMap((s) => String(s).split(",")).filter((s) => s !== "");
  }, z.array(item).max(200).optional());
}

export const ProductType = z.enum(["package", "accommodation", "activity", "rental", "service", "bundle", "item"]);

/**
 * Characters no name or title may hold (issue 28): C0 and C1 controls (NUL, newlines, escapes),
 * the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make
 * "gpj.exe" read as "exe.jpg" in the back office and e-mails, and lone UTF-16 surrogates, which
 * are no character at all. Longer texts (descriptions, terms) may hold newlines and are not
 * checked here.
 */
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isSafeName = (s: string) => !UNSAFE_IN_NAMES.test(s);
export const UNSAFE_NAME_MESSAGE = "must not contain control characters or characters that change the reading direction";
/** A person's name, a title, a company's name: trimmed, at most `max` characters, no control or bidi-override character. */
export const NameText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).refine(isSafeName, UNSAFE_NAME_MESSAGE);

/**
 * An e-mail address the provider will take: RFC 5321's limits (a local part of at most 64
 * octets, labels of at most 63, 254 in all) on top of the address's shape, so that a checkout is
 * refused at the field rather than promised a confirmation that can never be sent.
 */
export const EMAIL_MAX = 254;
export function withinMailLimits(address: string): boolean {
  const at = address.lastIndexOf("@");
  // Not an address at all: its shape's own check says so, once.
  if (at < 1) return true;
  return utf8Length(address) <= EMAIL_MAX && utf8Length(address.slice(0, at)) <= 64 && address.slice(at + 1).split(".").every((label) => utf8Length(label) <= 63);
}
export const EmailAddress = (message = "must be an e-mail address") =>
  z
    .email(message)
    .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
    .refine(withinMailLimits, "is longer than e-mail allows (64 characters before the @, 63 per part of the domain)")
    // The rule the server applies, stated: zod's address pattern (a dot and a top-level domain of
    // two letters or more after the @: a@info is refused), which `format: email` alone does not say.
    .openapi({ pattern: z.regexes.email.source });
