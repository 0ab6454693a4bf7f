/** Schemas of the price endpoints. */
import { z } from "@hono/zod-openapi";
import { CurrencyCode, IntId, IsoDate, ItemDate, LanguageCode, queryList } from "./common";
import { CurrencyQuery, queryInt } from "./catalog";
import { CustomAnswersInput } from "./cart";

const DurationUnit = z.enum(["day", "hour"]).optional().openapi({ description: "Must be the product's own unit (default)." });

export const ProductPriceQuery = z.object({
  start_date: IsoDate,
  pax: queryInt(1, 100).openapi({ description: "Number of guests." }),
  currency: CurrencyQuery,
  duration: queryInt(1, 366).optional().openapi({ description: "In duration_unit; default: the product's default duration." }),
  duration_unit: DurationUnit,
});
export const ProductPrice = z.object({ total_price: z.number() }).openapi("ProductPrice");

export const ProductPricesQuery = z.object({
  start_date: IsoDate,
  pax: queryInt(1, 100),
  "product_ids[]": queryList(IntId).openapi({ description: "Product ids, repeated: product_ids[]=1&product_ids[]=2. This or product_ids is required." }),
  product_ids: queryList(IntId).openapi({ description: "Product ids, comma-separated: product_ids=1,2 (combines with product_ids[])." }),
  duration: queryInt(1, 366),
  duration_unit: DurationUnit,
  currency: CurrencyQuery,
});
export const ProductPrices = z.record(z.string(), z.number()).openapi("ProductPrices", { description: "Total price keyed by product id." });

const PriceGuest = z.object({
  unique_id: z.string().min(1).max(100).openapi({ description: "Chosen by the consumer; keys the response." }),
  first_name: z.string().max(255).optional(),
  last_name: z.string().max(255).optional(),
  email: z.string().max(255).optional(),
  gender: z.enum(["m", "f"]),
  language_code: LanguageCode.optional(),
  birth_date: IsoDate.optional(),
  custom_fields: CustomAnswersInput("guest").openapi({ description: "Accepted as in POST /bookings/add (the same body) and not checked here: answers change no price." }),
  package: z.object({
    id: IntId,
    start_date: IsoDate,
    end_date: IsoDate,
    accommodation_id: IntId.optional(),
    srs: z.boolean().optional(),
    items: z.array(z.object({ package_item_id: IntId, dates: z.array(ItemDate).max(400) })).max(100).optional(),
  }),
});

export const PackagePricesBody = z
  .object({
    currency: CurrencyCode.optional(),
    currency_id: CurrencyCode.optional().openapi({ description: "The spec's sample names the currency code currency_id; either name is accepted." }),
    cart_id: z.string().optional().openapi({ description: "Accepted and ignored (the body is the same as for adding to a cart)." }),
    guests: z.array(PriceGuest).min(1).max(50),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.guests.forEach((g, i) => {
      if (seen.has(g.unique_id)) ctx.addIssue({ code: "custom", path: ["guests", i, "unique_id"], message: `is the same as guests.${seen.get(g.unique_id)}.unique_id` });
      else seen.set(g.unique_id, i);
    });
    if (body.currency && body.currency_id && body.currency !== body.currency_id) {
      ctx.addIssue({ code: "custom", path: ["currency_id"], message: "differs from currency; send one of them" });
    }
  })
  .openapi("PackagePricesRequest");
export type PackagePricesBody = z.infer<typeof PackagePricesBody>;

export const PriceLine = z.object({
  package_item_id: z.number().int().openapi({
    description:
      "The package item's id. The package's own price, its accommodation and the single room supplement are not package items of GET /packages/{id}: " +
      "their lines carry the package's own ids for them (above 1000000000, stable); sent back as items of POST /bookings/add they are ignored, as default items are.",
  }),
  product_id: z.number().int(),
  price: z.number().openapi({ description: "Major units of the requested currency, rounded half-up." }),
  is_fixed: z.boolean().openapi({ description: "The price is one amount for the whole line (a per-stay rate or a fixed srs), not accumulated per night, day, hour or unbooked bed." }),
  guest_to_charge: z.array(z.string()).openapi({ description: "unique_ids of the guests sharing this line (a private room for two is listed once, under the first)." }),
});
export const PackagePrices = z.record(z.string(), z.array(PriceLine)).openapi("PackagePrices", { description: "Keyed by each guest's unique_id." });
