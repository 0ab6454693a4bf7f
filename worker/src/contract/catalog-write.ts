/**
 * Shapes of the catalog administration (private API /private/catalog/..., the catalog file and
 * the back office): what an owner sends and what they read back. Money is in major units of the
 * business's default currency (rates are stored in it; other currencies convert by exchange rate).
 */
import { z } from "@hono/zod-openapi";
import { DateOut, IntId, IsoDate, MAX_ID, NameText, ProductType } from "./common";
import { paymentPolicySchemas } from "./payment-policy";

export const RefName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62})$/, "must be 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit")
  .openapi({ description: "A handle of the entry, unique in its kind in the business (the catalog file refers to entries by it). Made from the title when not given.", example: "surf-week" });

const Id = z.number().int().min(1).max(MAX_ID);
const Title = NameText(200).min(1);
const Text = z.string().max(20_000);
export const Weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
export const Weekdays = z.object({ mon: z.boolean(), tue: z.boolean(), wed: z.boolean(), thu: z.boolean(), fri: z.boolean(), sat: z.boolean(), sun: z.boolean() }).strict();
const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM");
const Url = z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(2000)]);
export const Amount = z
  .number()
  .min(0)
  .max(100_000_000)
  .openapi({ description: "Major units of the business's default currency (e.g. 55.5 for €55.50); at most the currency's minor digits." });

export const Translations = z
  .record(z.string().regex(/^[a-z]{2}$/, "must be a two-letter language code"), z.object({ title: z.string().max(200), description: Text, extended_description: Text }).partial().strict())
  .openapi({ description: "Texts in the business's other languages: {\"de\": {\"title\": ..., \"description\": ..., \"extended_description\": ...}}." });

export const Duration = z
  .object({
    unit: z.enum(["day", "hour"]).default("day").openapi({ description: "day: stays and rentals (nights or days); hour: sessions, every date its own booking." }),
    default: z.number().int().min(1).max(366).default(1),
    min: z.number().int().min(1).max(366).optional().openapi({ description: "Minimum stay (default: `default`)." }),
    max: z.number().int().min(1).max(366).nullable().default(null).openapi({ description: "Maximum stay of a flexible duration; null: no maximum (366)." }),
    is_flexible: z.boolean().default(false).openapi({ description: "Any length from min to max may be booked; otherwise only `default` (or the variants)." }),
    variants: z.array(z.number().int().min(1).max(366)).max(20).default([]).openapi({ description: "The lengths on offer, when only some are (e.g. [7, 14])." }),
  })
  .strict();

export const Timeslot = z
  .object({
    time: Time,
    capacity: z.number().int().min(0).max(1_000_000).nullable().default(null).openapi({ description: "Units per slot; null: the product's capacity." }),
    days: z.array(Weekday).min(1).max(7).nullable().default(null).openapi({ description: "The weekdays this slot is offered; null: every day." }),
  })
  .strict();

export const Accommodation = z
  .object({
    rooms: z.number().int().min(0).max(10_000),
    beds_per_room: z.number().int().min(1).max(100),
    is_private: z.boolean().openapi({ description: "Private: whole rooms are sold (couples, families, anyone); shared: beds are sold under the gender rule." }),
    gender: z.enum(["male", "female", "mixed"]).nullable().default(null).openapi({ description: "Shared rooms' rule: male-only, female-only or mixed. Couples take a private room, or a whole room of a mixed shared type." }),
    srs: z
      .object({ charge: Amount, fixed: z.boolean().openapi({ description: "true: the charge is for the room per night; false: per unbooked bed per night." }) })
      .strict()
      .nullable()
      .default(null)
      .openapi({ description: "Single room supplement (booking a shared room as private); null: not offered." }),
  })
  .strict()
  .openapi({ description: "A room type: its capacity is rooms (private) or rooms x beds_per_room (shared), per night." });

const Image = z.object({ small: Url, medium: Url, large: Url }).strict();

const RateUnit = z.enum(["person", "unit", "room"]);
const RatePer = z.enum(["stay", "night", "day", "hour"]);
const rateFields = {
  amount: Amount,
  unit: RateUnit.default("person"),
  per: RatePer.default("stay"),
  min_qty: z.number().int().min(1).max(1000).default(1).openapi({ description: "A quantity tier: this rate applies from this many items on." }),
};
const Qty = z
  .object({ min: z.number().int().min(0).max(100).default(0), max: z.number().int().min(0).max(100).default(1), default: z.number().int().min(0).max(100).default(1) })
  .strict();
const itemFields = {
  role: z.enum(["default", "option", "alternative", "upgrade"]).openapi({ description: "default: included (priced at its rates and added automatically); option: chosen freely; alternative: one of its group; upgrade: replaces what its group includes." }),
  group: z.string().min(1).max(60).nullable().default(null).openapi({ description: "The name of the package's group the item belongs to (alternatives of one another, an upgrade)." }),
  qty: Qty.default({ min: 0, max: 1, default: 1 }),
  is_configurable_dates: z.boolean().default(false).openapi({ description: "true: the guest picks the days; false: every day of the stay." }),
};
const Group = z.object({ name: NameText(60).min(1), is_configurable_dates: z.boolean().default(false) }).strict();

/**
 * The fields of a product that are the same in the API and in the catalog file. A field left out
 * of a creation takes its default (domain/catalog-write.ts productDefaults: no text, every weekday,
 * a duration of 1 day, pax 1, unlimited capacity, no timeslots); left out of a PATCH, it stays.
 */
const productFields = {
  type: ProductType,
  title: Title,
  backoffice_title: z.string().trim().max(200).openapi({ description: "The name staff see (default: the title)." }),
  description: Text,
  extended_description: Text,
  translations: Translations,
  image: Image,
  is_promoted: z.boolean().openapi({ description: "Listed by GET /products even without a front-office category." }),
  duration: Duration,
  pax: z.object({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) }).strict(),
  allowed_checkin_days: Weekdays,
  default_start_time: Time.nullable(),
  capacity: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .nullable()
    .openapi({ description: "Units per date (per slot for timeslot products) where no inventory row says otherwise; null: unlimited. Accommodations: derived from rooms and beds (leave it out)." }),
  timeslots: z.array(Timeslot).max(100).openapi({ description: "The weekly timeslot schedule; a product with timeslots is sold on them." }),
  accommodation: Accommodation.nullable().openapi({ description: "Required for accommodations; null for every other type." }),
  payment_policy: paymentPolicySchemas().ProductPaymentPolicy.nullable().openapi({
    description: "This product's own deposit and balance due days where they differ from the business's payment_policy (settings); null (the default): as the business.",
  }),
};

// ---- The private API's shapes (references by id) ----

const RateInput = z.object({ season_id: Id.nullable().default(null).openapi({ description: "null: the base rate; else the season it applies in." }), ...rateFields }).strict();
const ItemInput = z
  .object({
    id: Id.optional().openapi({ description: "An existing item of this package (its package_item_id stays); leave out for a new item." }),
    product_id: Id,
    ...itemFields,
  })
  .strict();
export const PackageInput = z
  .object({
    accommodation_ids: z.array(Id).max(100).default([]).openapi({ description: "The room types (accommodation products) the package is booked with; empty: no accommodation." }),
    groups: z.array(Group).max(50).default([]),
    items: z.array(ItemInput).max(200).default([]),
  })
  .strict()
  .openapi("PackageInput", { description: "A package's contents, replaced whole: items not listed are removed (bookings keep their lines)." });
export type PackageInput = z.infer<typeof PackageInput>;

const productRefFields = {
  location_id: Id.nullable(),
  backoffice_category_id: Id.nullable(),
  frontoffice_category_id: Id.nullable().openapi({ description: "A front-office category: the product is listed by GET /products (see `listed`)." }),
  accommodation_type_id: Id.nullable(),
  rates: z.array(RateInput).max(500).openapi({ description: "The product's rates, replaced whole." }),
  package: PackageInput.nullable().openapi({ description: "Packages only." }),
};

/**
 * A creation's fields by `type` (a discriminated union: oneOf with a discriminator in the
 * description): only an accommodation has `accommodation` (required), only a package has
 * `package`; the other types send neither (or null).
 */
const { type: _type, accommodation: _accommodation, ...commonProductFields } = productFields;
const { package: _package, ...commonRefFields } = productRefFields;
const productCreateBase = z.object({ ref: RefName, ...commonProductFields, ...commonRefFields }).partial().extend({ title: Title });
const NoRooms = z.null().optional().openapi({ description: "Only accommodations have rooms and beds: leave out (or null)." });
const NoContents = z.null().optional().openapi({ description: "Only packages have contents: leave out (or null)." });
export const OTHER_PRODUCT_TYPES = ["activity", "rental", "service", "bundle", "item"] as const;
export const ProductCreate = z
  .discriminatedUnion("type", [
    productCreateBase
      .extend({ type: z.literal("package"), accommodation: NoRooms, package: PackageInput.nullable().optional().openapi({ description: "The package's contents (default: none yet)." }) })
      .strict()
      .openapi("ProductCreatePackage", { description: "A package: other products (items, room types) sold together." }),
    productCreateBase
      .extend({ type: z.literal("accommodation"), accommodation: productFields.accommodation.unwrap(), package: NoContents })
      .strict()
      .openapi("ProductCreateAccommodation", { description: "A room type: `accommodation` (rooms, beds) is required; its capacity is derived from them." }),
    productCreateBase
      .extend({ type: z.enum(OTHER_PRODUCT_TYPES), accommodation: NoRooms, package: NoContents })
      .strict()
      .openapi("ProductCreateOther", { description: "An activity, rental, service, bundle or item: neither rooms nor package contents." }),
  ])
  .openapi("ProductCreate");
export type ProductCreate = z.infer<typeof ProductCreate>;

/** A PATCH: any field of ProductCreate (each replaced whole), and `archived`. */
export const ProductPatch = z
  .object({
    ref: RefName,
    ...productFields,
    ...productRefFields,
    type: ProductType.openapi({ description: "Cannot change once made (422)." }),
    archived: z.boolean().openapi({ description: "true archives the product (it leaves the public API and the widget; bookings keep it); false restores it." }),
  })
  .partial()
  .strict()
  .openapi("ProductPatch");
export type ProductPatch = z.infer<typeof ProductPatch>;

const Rate = z.object({ season_id: z.number().int().nullable(), amount: z.number(), unit: RateUnit, per: RatePer, min_qty: z.number().int() });
const PackageItem = z.object({
  id: z.number().int().openapi({ description: "The package_item_id carts and bookings use." }),
  product_id: z.number().int(),
  role: itemFields.role,
  group: z.string().nullable(),
  qty: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
  is_configurable_dates: z.boolean(),
});

export const AdminProduct = z
  .object({
    id: z.number().int(),
    ref: z.string(),
    type: ProductType,
    title: z.string(),
    backoffice_title: z.string(),
    description: z.string(),
    extended_description: z.string(),
    translations: z.record(z.string(), z.object({ title: z.string(), description: z.string(), extended_description: z.string() }).partial()),
    image: z.object({ small: z.string(), medium: z.string(), large: z.string() }),
    location_id: z.number().int().nullable(),
    backoffice_category_id: z.number().int().nullable(),
    frontoffice_category_id: z.number().int().nullable(),
    is_promoted: z.boolean(),
    listed: z.boolean().openapi({ description: "Whether GET /products lists it: not archived, and in a front-office category or promoted. Any product not archived can be fetched and booked by its id." }),
    accommodation_type_id: z.number().int().nullable(),
    duration: z.object({ unit: z.enum(["day", "hour"]), default: z.number().int(), min: z.number().int(), max: z.number().int().nullable(), is_flexible: z.boolean(), variants: z.array(z.number().int()) }),
    pax: z.object({ min: z.number().int(), max: z.number().int() }),
    allowed_checkin_days: z.object({ mon: z.boolean(), tue: z.boolean(), wed: z.boolean(), thu: z.boolean(), fri: z.boolean(), sat: z.boolean(), sun: z.boolean() }),
    default_start_time: z.string().nullable(),
    capacity: z.number().int().nullable(),
    timeslots: z.array(z.object({ time: z.string(), capacity: z.number().int().nullable(), days: z.array(Weekday).nullable() })),
    accommodation: z
      .object({ rooms: z.number().int(), beds_per_room: z.number().int(), is_private: z.boolean(), gender: z.enum(["male", "female", "mixed"]).nullable(), srs: z.object({ charge: z.number(), fixed: z.boolean() }).nullable() })
      .nullable(),
    rates: z.array(Rate),
    payment_policy: paymentPolicySchemas().ProductPaymentPolicy.nullable().openapi({ description: "Its own deposit and balance due days; null: as the business's payment_policy." }),
    package: z.object({ accommodation_ids: z.array(z.number().int()), groups: z.array(z.object({ name: z.string(), is_configurable_dates: z.boolean() })), items: z.array(PackageItem) }).nullable(),
    archived: z.boolean(),
    archived_at: z.string().nullable(),
  })
  .openapi("AdminProduct");
export type AdminProduct = z.infer<typeof AdminProduct>;

// ---- Lookups: locations, categories, accommodation types, diets, levels ----

export const LOOKUP_KINDS = ["location", "category", "accommodation_type", "diet", "level"] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

const CategoryKind = z.enum(["backoffice", "frontoffice"]).openapi({ description: "backoffice groups products for staff; frontoffice lists them (GET /products)." });
const lookupTexts = {
  description: Text.optional(),
  abbreviation: z.string().trim().max(20).nullable().optional(),
};
/** What each kind of lookup has: a title and a ref; a category its kind; diets and levels a description and an abbreviation. */
const lookupCreateShapes = {
  location: { ref: RefName.optional(), title: Title },
  category: { ref: RefName.optional(), title: Title, kind: CategoryKind },
  accommodation_type: { ref: RefName.optional(), title: Title },
  diet: { ref: RefName.optional(), title: Title, ...lookupTexts },
  level: { ref: RefName.optional(), title: Title, ...lookupTexts },
} as const;
const LOOKUP_SCHEMA_NAMES: Record<LookupKind, string> = { location: "Location", category: "Category", accommodation_type: "AccommodationType", diet: "Diet", level: "Level" };
const archivedField = { archived: z.boolean().optional().openapi({ description: "true archives it (refused while products that are not archived use it); false restores it." }) };

/**
 * Each kind's own bodies and answer in the description: a field another kind has is not a field
 * of this one (422 naming it), at every door (manage/catalog/lookups.ts parses with these).
 */
export const LOOKUP_CREATE = Object.fromEntries(
  LOOKUP_KINDS.map((k) => [k, z.object(lookupCreateShapes[k]).strict().openapi(`${LOOKUP_SCHEMA_NAMES[k]}Create`)]),
) as unknown as Record<LookupKind, z.ZodType<LookupCreate>>;
export const LOOKUP_PATCH = Object.fromEntries(
  LOOKUP_KINDS.map((k) => [k, z.object(lookupCreateShapes[k]).partial().extend(archivedField).strict().openapi(`${LOOKUP_SCHEMA_NAMES[k]}Patch`)]),
) as unknown as Record<LookupKind, z.ZodType<LookupPatch>>;
const lookupViewBase = { id: z.number().int(), ref: z.string(), title: z.string(), archived: z.boolean(), archived_at: z.string().nullable() };
const lookupViewExtras: Record<LookupKind, Record<string, z.ZodType>> = {
  location: {},
  category: { kind: z.enum(["backoffice", "frontoffice"]) },
  accommodation_type: {},
  diet: { description: z.string(), abbreviation: z.string().nullable() },
  level: { description: z.string(), abbreviation: z.string().nullable() },
};
export const LOOKUP_VIEW = Object.fromEntries(
  LOOKUP_KINDS.map((k) => [k, z.object({ ...lookupViewBase, ...lookupViewExtras[k] }).strict().openapi(`Admin${LOOKUP_SCHEMA_NAMES[k]}`)]),
) as unknown as Record<LookupKind, z.ZodType<AdminLookup>>;

/** Any kind's body, as the service handles it once parsed by the kind's own schema. */
export interface LookupCreate {
  ref?: string;
  title: string;
  kind?: "backoffice" | "frontoffice";
  description?: string;
  abbreviation?: string | null;
}
export type LookupPatch = Partial<LookupCreate> & { archived?: boolean };
export interface AdminLookup {
  id: number;
  ref: string;
  title: string;
  kind?: "backoffice" | "frontoffice";
  description?: string;
  abbreviation?: string | null;
  archived: boolean;
  archived_at: string | null;
}

// ---- Seasons ----

const Segment = z.object({ start_date: IsoDate, end_date: IsoDate }).strict();
export const SeasonCreate = z
  .object({
    ref: RefName.optional(),
    title: Title,
    priority: z.number().int().min(-1000).max(1000).default(0).openapi({ description: "Where segments of seasons overlap, the higher priority sets the price." }),
    segments: z.array(Segment).max(500).default([]).openapi({ description: "Date ranges, both ends included; the service gives each its id (an id sent is a 422: a new season has no segments to keep)." }),
  })
  .strict()
  .openapi("SeasonCreate");
export type SeasonCreate = z.infer<typeof SeasonCreate>;
export const SeasonPatch = z
  .object({
    ref: RefName.optional(),
    title: Title.optional(),
    priority: z.number().int().min(-1000).max(1000).optional(),
    segments: z
      .array(Segment.extend({ id: Id.optional().openapi({ description: "An existing segment of this season, to keep its id; leave out for a new one." }) }).strict())
      .max(500)
      .optional()
      .openapi({ description: "Date ranges, both ends included; replaced whole (a segment sent with its id keeps it)." }),
    archived: z.boolean().optional().openapi({ description: "true archives the season: its segments no longer set prices; false restores it." }),
  })
  .strict()
  .openapi("SeasonPatch");
export type SeasonPatch = z.infer<typeof SeasonPatch>;
export const AdminSeason = z
  .object({
    id: z.number().int(),
    ref: z.string(),
    title: z.string(),
    priority: z.number().int(),
    segments: z.array(z.object({ id: z.number().int(), start_date: DateOut, end_date: DateOut })),
    archived: z.boolean(),
    archived_at: z.string().nullable(),
  })
  .openapi("AdminSeason");
export type AdminSeason = z.infer<typeof AdminSeason>;

// ---- Inventory ----

export const InventoryPatch = z
  .object({
    from: IsoDate,
    to: IsoDate.openapi({ description: "Included; at most 731 days after `from`." }),
    slot: Time.optional().openapi({ description: "One timeslot; leave out for the whole date." }),
    days: z.array(Weekday).min(1).max(7).optional().openapi({ description: "Only these weekdays of the range." }),
    capacity: z.number().int().min(0).max(1_000_000_000).nullable().optional().openapi({ description: "Units on each date (an override of the product's capacity); null removes the override." }),
    blocked: z.boolean().optional().openapi({ description: "true blocks the dates (no capacity); false unblocks them." }),
  })
  .strict()
  // The server wants capacity, blocked or both (else a 422 at capacity): said as the schema's rule.
  .openapi("InventoryPatch", { anyOf: [{ required: ["capacity"] }, { required: ["blocked"] }] });
export type InventoryPatch = z.infer<typeof InventoryPatch>;

export const InventoryDay = z.object({
  date: z.string(),
  slot: z.string().openapi({ description: "\"\" for the date as a whole; HH:MM for a timeslot." }),
  capacity: z.number().int().nullable().openapi({ description: "null: unlimited." }),
  source: z.enum(["default", "schedule", "override", "blocked", "off_schedule"]),
  blocked: z.boolean(),
  booked: z.number().int(),
  held: z.number().int(),
  available: z.number().int().nullable(),
});
export const InventoryView = z.object({ data: z.object({ product_id: z.number().int(), from: z.string(), to: z.string(), days: z.array(InventoryDay) }) }).openapi("Inventory");
export const InventoryQuery = z.object({
  from: IsoDate.optional().openapi({ description: "Default: today." }),
  to: IsoDate.optional().openapi({ description: "Default: 30 days after from; at most 366 days after it." }),
});

// ---- Lists ----

export const ArchivedQuery = z.object({
  archived: z.enum(["false", "true", "all"]).default("false").openapi({ description: "false (default): the live ones; true: the archived ones; all: both." }),
});
export const ProductListQuery = ArchivedQuery.extend({ type: ProductType.optional() });

export const PathIdParam = z.object({ id: IntId.openapi({ param: { name: "id", in: "path" }, example: 101 }) });
