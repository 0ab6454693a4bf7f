/** Schemas of the availability endpoints. */
import { z } from "@hono/zod-openapi";
import { IntId, IsoDate, ProductType, queryList } from "./common";

const window = {
  start_date: IsoDate.optional().openapi({ description: "Default: today, the business's date in its time zone (settings time_zone, default UTC)." }),
  end_date: IsoDate.optional().openapi({ description: "Default: 30 days after start_date. At most 366 days after start_date." }),
};
export const AvailabilityQuery = z.object(window);
export const AvailabilitiesQuery = z.object({
  ...window,
  "ids[]": queryList(IntId).openapi({ description: "Product ids, repeated: ids[]=1&ids[]=2." }),
  ids: queryList(IntId).openapi({ description: "Product ids, comma-separated: ids=1,2 (combines with ids[])." }),
  type: ProductType.optional(),
  backoffice_category_id: IntId.optional(),
});

export const DayEntry = z
  .object({
    available_for_checkin: z.boolean(),
    available_for_checkout: z.boolean(),
    blocked: z.boolean(),
    available: z.number().int(),
    capacity: z.number().int(),
    timeslots: z.null(),
  })
  .openapi("AvailabilityEntry", {
    description:
      "A product without a capacity limit shows available and capacity as 1000000000 (the spec types them as integers). " +
      "available_for_checkin: an allowed check-in weekday whose shortest stay (the default duration, or the minimum when flexible) has room for one guest. " +
      "available_for_checkout: some allowed duration ending on this date started on a check-in day with room every night.",
  });
export const TimeslotEntry = z
  .object({
    blocked: z.boolean(),
    timeslots: z.array(z.object({ time: z.string().openapi({ example: "08:00" }), available: z.number().int(), capacity: z.number().int() })),
  })
  .openapi("TimeslotAvailabilityEntry", { description: "For products on timeslots. A blocked day has no timeslots." });

export const ProductAvailability = z.record(IsoDate, z.union([DayEntry, TimeslotEntry])).openapi("ProductAvailability", { description: "Keyed by date." });
export const AvailabilitiesByProduct = z.record(z.string(), ProductAvailability).openapi({ description: "Keyed by product id." });
