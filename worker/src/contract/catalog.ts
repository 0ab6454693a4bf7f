/** Schemas of the public catalog: products, packages, accommodations, seasons, deep links. */
import { z } from "@hono/zod-openapi";
import { CurrencyCode, IntId, IsoDate, Language, ProductType } from "./common";

/**
 * An integer query parameter: digits only (no 1e3, no 1.5), within [min, max].
 * A missing required one says "is required" rather than "expected number, received NaN".
 */
export function queryInt(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v === "" ? undefined : v),
    z.number({ error: (iss) => (iss.input === undefined ? "is required" : "must be an integer") }).int().min(min).max(max),
  );
}

/** 0/1 or false/true in a query. */
export const QueryFlag = z
  .enum(["0", "1", "false", "true"], { error: "must be 0, 1, false or true" })
  .transform((v) => v === "1" || v === "true");

export const LanguageQuery = Language.optional().openapi({ description: "Two-letter code; translated fields fall back to the business's default language." });
export const CurrencyQuery = CurrencyCode.optional().openapi({ description: "ISO code of one of the business's currencies; default: the business's default currency." });

const Ref = z.object({ id: z.number().int(), title: z.string() });
const Image = z.object({ small: z.string(), medium: z.string(), large: z.string() });
const Weekdays = z.object({ mon: z.boolean(), tue: z.boolean(), wed: z.boolean(), thu: z.boolean(), fri: z.boolean(), sat: z.boolean(), sun: z.boolean() });

export const Money = z.object({ value: z.number(), currency: z.string().openapi({ description: "ISO currency code." }) });

export const Product = z
  .object({
    id: z.number().int(),
    type: ProductType,
    title: z.string(),
    backoffice_title: z.string(),
    description: z.string(),
    extended_description: z.string(),
    image: Image,
    gender: z.string().openapi({ description: "male, female or mixed (shared rooms' policy; mixed for every other product)." }),
    backoffice_category: Ref.nullable(),
    frontoffice_category: Ref.nullable(),
    location: Ref.nullable(),
    accommodation_type: Ref.nullable(),
    duration: z.object({
      is_flexible: z.boolean(),
      min: z.number().int(),
      default: z.number().int(),
      unit: z.enum(["day", "hour"]),
      variants: z.array(z.number().int()),
    }),
    pax: z.object({ min: z.number().int(), max: z.number().int() }),
    default_start_time: z.string().nullable().openapi({ description: "HH:MM, or null." }),
    is_private: z.boolean(),
    allowed_checkin_days: Weekdays,
    is_on_timeslots: z.boolean(),
    price_from: z.array(Money).openapi({ description: "In each of the business's currencies, the lowest price: of a product, its lowest rate for one item; of a package, one guest's shortest stay with its default items (the room the guest chooses apart). Empty when nothing is priced." }),
  })
  .openapi("Product");
export type Product = z.infer<typeof Product>;

export const ProductListQuery = z.object({
  language: LanguageQuery,
  location: IntId.optional().openapi({ description: "Location id." }),
  type: ProductType.optional(),
});
export const LanguageOnlyQuery = z.object({ language: LanguageQuery });

// ---- Packages ----

export const PackageQuery = z.object({
  start_date: IsoDate,
  duration: queryInt(1, 366).openapi({ description: "Nights.", example: 7 }),
  currency: CurrencyQuery,
  language: LanguageQuery,
});

const Unlimited = z.union([z.number().int(), z.literal("unlimited")]);
export const ItemDateEntry = z.object({
  date: IsoDate,
  available: Unlimited.nullable().openapi({ description: "Units left; \"unlimited\"; null when defined in timeslots." }),
  capacity: Unlimited.nullable(),
  timeslots: z.array(z.object({ time: z.string(), available: z.number().int(), capacity: z.number().int() })).nullable(),
});

export const PriceObject = Money.extend({ type: z.string().openapi({ description: "What the value is for: person, unit or room." }) });

export const PackageItem = z
  .object({
    package_item_id: z.number().int().openapi({ description: "The package item's id (not the product id)." }),
    role: z.enum(["default", "alternative", "option", "upgrade"]),
    product: z.object({
      id: z.number().int(),
      type: ProductType,
      title: z.string(),
      backoffice_title: z.string(),
      description: z.string(),
      extended_description: z.string(),
      image: Image,
      is_on_timeslots: z.boolean(),
      price: PriceObject.extend({ from_price: z.boolean().openapi({ description: "True when quantity prices exist (a discount for multiple items)." }) }).openapi({
        description: "The product's rate for one item on the start date.",
      }),
    }),
    qty: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
    price: PriceObject.openapi({
      description: "What the item adds for one guest: over every day of the stay when its dates are not configurable, else for one date.",
    }),
    is_configurable_dates: z.boolean(),
    dates: z.array(ItemDateEntry).openapi({ description: "The days of the stay (start_date to end_date − 1) with availability." }),
  })
  .openapi("PackageItem");

export const PackageRoot = z
  .object({
    start_date: IsoDate,
    end_date: IsoDate,
    single_items: z.array(PackageItem),
    groups: z.array(z.object({ is_configurable_dates: z.boolean(), items: z.array(PackageItem) })),
  })
  .openapi("PackageItems");

// ---- Accommodations ----

export const AccommodationQuery = z.object({
  start_date: IsoDate,
  duration: queryInt(1, 366).openapi({ description: "Nights.", example: 7 }),
  males: queryInt(0, 100).openapi({ example: 1, description: "Males in the party. males + females + couples must be at least 1 (an empty party is a 422 at males)." }),
  females: queryInt(0, 100).openapi({ example: 1, description: "Females in the party; see males." }),
  couples: queryInt(0, 50).openapi({ example: 0, description: "Couples in the party (each two persons); see males." }),
  currency: CurrencyQuery,
  group: QueryFlag.optional().openapi({ description: "Default 0. 1: options ordered as the front office groups them, by accommodation type then price." }),
  language: LanguageQuery,
});

export const AccommodationOption = z
  .object({
    start_date: IsoDate,
    end_date: IsoDate,
    available: z.number().int().openapi({ description: "Units left over the whole stay (the fewest on any night): beds of shared types, rooms of private types." }),
    price: PriceObject.openapi({ description: "The stay's price for one person (rates per person) or one room (rates per room)." }),
    product: Product.extend({
      srs: z
        .object({
          charge: z.number().openapi({ description: "For the whole stay, in the requested currency." }),
          fixed: z.boolean().openapi({ description: "true: the charge is for the whole room; false: per unbooked bed." }),
        })
        .nullable(),
    }),
  })
  .openapi("AccommodationOption");

// ---- Seasons ----

export const Season = z
  .object({
    id: z.number().int(),
    title: z.string(),
    segments: z.array(z.object({ id: z.number().int(), start_date: IsoDate, end_date: IsoDate })).openapi({ description: "Inclusive bounds." }),
  })
  .openapi("Season");

// ---- Deep link ----

export const DeeplinkQuery = z.object({
  product_id: IntId.optional().openapi({ description: "The product id; when sent it must equal the path's id." }),
  start_date: IsoDate.optional(),
  end_date: IsoDate.optional(),
  duration: queryInt(1, 366).optional(),
  males: queryInt(0, 100).optional(),
  females: queryInt(0, 100).optional(),
  couples: queryInt(0, 50).optional(),
  language: LanguageQuery,
  currency: CurrencyQuery,
});
export const Deeplink = z.object({ url: z.url() }).openapi("Deeplink");
