import { z } from "@hono/zod-openapi";
import { configFields, configSchemas, isWriteOnly, type BusinessConfig } from "./config";
import { NameText } from "./common";

const FieldRule = z.object({ request: z.boolean(), required: z.boolean() });
const Titled = z.object({ id: z.number().int(), title: z.string(), description: z.string(), abbreviation: z.string().nullable() });

export const Settings = z
  .object({
    id: z.number().int(),
    title: z.string(),
    company_name: z.string(),
    frontoffice_domain: z.string(),
    currencies: z.array(z.object({ id: z.number().int(), title: z.string(), symbol: z.string(), iso_code: z.string() })),
    diets: z.array(Titled),
    levels: z.array(Titled),
    languages: z.array(z.string()),
    settings: z.object({
      guest_fields: z.object({ birthday: FieldRule, minimum_age: z.number().int() }),
      customer_fields: z.object({ address: FieldRule, phone: FieldRule, minimum_age: z.number().int() }),
      custom_fields: z
        .array(
          z.object({
            key: z.string().openapi({ description: "Names the answer: `custom_fields.<key>` of a guest (POST /bookings/add) or of the customer (checkout)." }),
            title: z.string().openapi({ description: "In `language` where the business translated it, else in its default language." }),
            type: z.enum(["text", "number", "boolean", "date", "select"]),
            options: z.array(z.string()).openapi({ description: "A select's choices as stored: the value to send, whatever the language." }),
            option_titles: z.array(z.string()).openapi({ description: "What each option reads in `language` (same order as options)." }),
            required: z.boolean(),
            applies_to: z.enum(["guest", "customer", "both"]).openapi({ description: "Asked of each guest, of the customer, or of both." }),
          }),
        )
        .openapi({ description: "The business's own questions to guests and the customer." }),
    }),
    terms: z.string(),
  })
  .openapi("Settings", { description: "Business settings. The first currency is the business's default." });
export type Settings = z.infer<typeof Settings>;

// ---- Administration: GET and PATCH /private/settings ----


/** Every field of BusinessConfig (a field added there is in the settings API at once), without its default: left out, it stays. */
const configShape = Object.fromEntries(
  configFields().map((field) => {
    const schema = configSchemas().BusinessConfig.shape[field] as z.ZodType;
    const inner = schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema;
    const described = isWriteOnly(field) ? inner.openapi({ description: "Write-only: set it (or null to remove it); settings answer only whether it is set." }) : inner;
    return [field, described.optional()];
  }),
) as { [K in keyof BusinessConfig]: z.ZodOptional<z.ZodType<BusinessConfig[K]>> };

export const CurrencySetting = z
  .object({
    iso_code: z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code"),
    title: NameText(100).min(1).optional().openapi({ description: "Default: the code's English name where known." }),
    symbol: z.string().trim().min(1).max(10).optional(),
    exchange_rate: z.number().positive().max(1_000_000).default(1).openapi({ description: "Units of this currency for one unit of the default currency (the default's is 1)." }),
    default: z.boolean().default(false).openapi({ description: "The currency prices are kept in; exactly one (or none: the first)." }),
  })
  .strict();

/** Every field optional; a field sent replaces the stored one whole (an object or a list included). */
export const SettingsPatch = z
  .object({
    title: NameText(200).min(1).optional(),
    company_name: NameText(200).optional(),
    frontoffice_domain: z.string().trim().max(253).optional(),
    currencies: z.array(CurrencySetting).min(1).max(20).optional().openapi({ description: "The business's currencies, replaced whole. The default cannot change while products have rates." }),
    ...configShape,
  })
  .strict()
  .openapi("SettingsPatch");
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const AdminSettings = z
  .object({
    data: z
      .object({
        id: z.number().int(),
        slug: z.string(),
        title: z.string(),
        company_name: z.string(),
        frontoffice_domain: z.string(),
        currencies: z.array(z.object({ id: z.number().int(), iso_code: z.string(), title: z.string(), symbol: z.string(), exchange_rate: z.number(), default: z.boolean() })),
        ...Object.fromEntries(configFields().filter((f) => !isWriteOnly(f)).map((f) => [f, z.unknown()])),
        turnstile_secret_set: z.boolean().openapi({ description: "Whether a Turnstile secret is set (`turnstile_secret` is write-only: never answered)." }),
        problems: z
          .array(z.object({ field: z.string(), message: z.string(), stored: z.unknown() }))
          .openapi({ description: "Stored settings that do not parse: each such field works with its default until a PATCH sets it. Empty when all is well." }),
      })
      .openapi({ description: "The business row's fields, its currencies, and every field of its configuration." }),
  })
  .openapi("AdminSettings");
