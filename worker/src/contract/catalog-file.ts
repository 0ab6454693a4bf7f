/**
 * The catalog file: a business's whole settings and catalog as one JSON document, made by
 * `npm run catalog -- export` and applied by `npm run catalog -- apply` (through the same code as
 * the private API). Entries refer to one another by `ref`; `id` is the service's own id, which an
 * export writes so that the file moves between databases with its ids (an apply creates an entry
 * with its id when that id is free, else with a new one). Its JSON Schema, generated from these
 * shapes, is served at /schemas/catalog.json.
 */
import { z } from "@hono/zod-openapi";
import { Accommodation, Amount, Duration, RefName, Timeslot, Translations, Weekdays } from "./catalog-write";
import { IsoDate, MAX_ID, NameText, ProductType } from "./common";
import { configSchemas } from "./config";
import { CurrencySetting } from "./settings";
import { paymentPolicySchemas } from "./payment-policy";

const Id = z.number().int().min(1).max(MAX_ID);
const Title = NameText(200).min(1);
const Text = z.string().max(20_000);
const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM");
const Url = z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(2000)]);
const Archived = z.boolean().default(false);

const FileLookup = z.object({ id: Id.optional(), ref: RefName, title: Title, archived: Archived }).strict();
const FileCategory = FileLookup.extend({ kind: z.enum(["backoffice", "frontoffice"]) }).strict();
const FileTitled = FileLookup.extend({ description: Text.default(""), abbreviation: z.string().trim().max(20).nullable().default(null) }).strict();

const FileSeason = z
  .object({
    id: Id.optional(),
    ref: RefName,
    title: Title,
    priority: z.number().int().min(-1000).max(1000).default(0),
    segments: z.array(z.object({ id: Id.optional(), start_date: IsoDate, end_date: IsoDate }).strict()).max(500).default([]),
    archived: Archived,
  })
  .strict();

const FileRate = z
  .object({
    season: RefName.nullable().default(null),
    amount: Amount,
    unit: z.enum(["person", "unit", "room"]).default("person"),
    per: z.enum(["stay", "night", "day", "hour"]).default("stay"),
    min_qty: z.number().int().min(1).max(1000).default(1),
  })
  .strict();

const FilePackage = z
  .object({
    accommodations: z.array(RefName).max(100).default([]),
    groups: z.array(z.object({ name: NameText(60).min(1), is_configurable_dates: z.boolean().default(false) }).strict()).max(50).default([]),
    items: z
      .array(
        z
          .object({
            id: Id.optional(),
            product: RefName,
            role: z.enum(["default", "option", "alternative", "upgrade"]),
            group: z.string().min(1).max(60).nullable().default(null),
            qty: z.object({ min: z.number().int().min(0).max(100).default(0), max: z.number().int().min(0).max(100).default(1), default: z.number().int().min(0).max(100).default(1) }).strict().default({ min: 0, max: 1, default: 1 }),
            is_configurable_dates: z.boolean().default(false),
          })
          .strict(),
      )
      .max(200)
      .default([]),
  })
  .strict();

const DateRange = { from: IsoDate, to: IsoDate, slot: Time.optional() };

const FileProduct = z
  .object({
    id: Id.optional(),
    ref: RefName,
    type: ProductType,
    title: Title,
    backoffice_title: z.string().trim().max(200).optional(),
    description: Text.optional(),
    extended_description: Text.optional(),
    translations: Translations.optional(),
    image: z.object({ small: Url, medium: Url, large: Url }).strict().optional(),
    location: RefName.nullable().default(null),
    backoffice_category: RefName.nullable().default(null),
    frontoffice_category: RefName.nullable().default(null),
    is_promoted: z.boolean().optional(),
    accommodation_type: RefName.nullable().default(null),
    duration: Duration.optional(),
    pax: z.object({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) }).strict().optional(),
    allowed_checkin_days: Weekdays.optional(),
    default_start_time: Time.nullable().optional(),
    capacity: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
    timeslots: z.array(Timeslot).max(100).optional(),
    accommodation: Accommodation.nullable().optional(),
    payment_policy: paymentPolicySchemas().ProductPaymentPolicy.nullable().optional(),
    rates: z.array(FileRate).max(500).default([]),
    package: FilePackage.nullable().default(null),
    inventory: z.array(z.object({ ...DateRange, capacity: z.number().int().min(0).max(1_000_000_000) }).strict()).max(5000).default([]),
    blocked: z.array(z.object(DateRange).strict()).max(5000).default([]),
    archived: Archived,
  })
  .strict();

// The file never carries a write-only setting (the Turnstile secret): it is exported without it, and applying keeps the stored one.
const FileSettings = configSchemas().BusinessConfig.omit({ turnstile_secret: true }).extend({
  title: Title,
  company_name: NameText(200).default(""),
  frontoffice_domain: z.string().trim().max(253).default(""),
  currencies: z.array(CurrencySetting).min(1).max(20),
}).strict();

export const CatalogFile = z
  .object({
    $schema: z.string().max(2000).optional(),
    version: z.literal(1).default(1),
    settings: FileSettings,
    locations: z.array(FileLookup).max(1000).default([]),
    categories: z.array(FileCategory).max(1000).default([]),
    accommodation_types: z.array(FileLookup).max(1000).default([]),
    diets: z.array(FileTitled).max(1000).default([]),
    levels: z.array(FileTitled).max(1000).default([]),
    seasons: z.array(FileSeason).max(1000).default([]),
    products: z.array(FileProduct).max(5000).default([]),
  })
  .strict();
export type CatalogFile = z.infer<typeof CatalogFile>;
export type CatalogFileInput = z.input<typeof CatalogFile>;
export type FileProduct = z.infer<typeof FileProduct>;

