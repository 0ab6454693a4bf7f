import { z } from "@hono/zod-openapi";
import { isLanguageCode } from "./iso-codes";

/** 'YYYY-MM-DD', a real calendar date (2026-02-30 is refused). */
export const IsoDate = z.iso.date().openapi({ example: "2026-12-05", description: "Date, YYYY-MM-DD." });
export const Language = z
  .string()
  .regex(/^[a-z]{2}$/, "must be a two-letter lower-case language code")
  .openapi({ example: "de" });
/** A language code entered as data (a guest's, a customer's): ISO 639-1, not only its shape. */
export const LanguageCode = Language.refine(isLanguageCode, "is not an ISO 639-1 language code").openapi({ example: "de" });
export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 currency code")
  .openapi({ example: "EUR" });
/** Integer ids in paths and queries: positive, within 32 bits. */
export const IntId = z.coerce.number().int().min(1).max(2_147_483_647);
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
