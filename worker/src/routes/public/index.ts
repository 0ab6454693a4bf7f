import { createRouter } from "../router";
import { availabilityRoutes } from "./availability";
import { cartRoutes } from "./carts";
import { deeplinkRoutes } from "./deeplink";
import { packageRoutes } from "./packages";
import { priceRoutes } from "./prices";
import { productRoutes } from "./products";
import { seasonRoutes } from "./seasons";
import { settingsRoutes } from "./settings";

/**
 * The public API v2 resources. Mounted twice by index.ts: under /api/pub/v2 behind API-key auth,
 * and under /widget/v1/{business} behind the widget's origin rules, so both doors run the same
 * handlers on the same tenant context.
 */
export function publicApi() {
  const api = createRouter();
  api.route("/", settingsRoutes);
  // /products/availabilities and /products/prices before /products/{id}, which would take them.
  api.route("/", availabilityRoutes);
  api.route("/", priceRoutes);
  api.route("/", deeplinkRoutes);
  api.route("/", productRoutes);
  api.route("/", packageRoutes);
  api.route("/", seasonRoutes);
  api.route("/", cartRoutes);
  return api;
}
