import { z } from "@hono/zod-openapi";

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
    }),
    terms: z.string(),
  })
  .openapi("Settings", { description: "Business settings. The first currency is the business's default." });
export type Settings = z.infer<typeof Settings>;
