import { createRouter } from "../../lib/openapi";
import { cartRoutes } from "./carts";
import { settingsRoutes } from "./settings";

/**
 * The public API v2 resources. Mounted twice by index.ts: under /api/pub/v2 behind API-key auth,
 * and under /widget/v1/{business} behind the widget's origin rules, so both doors run the same
 * handlers on the same tenant context.
 */
export function publicApi() {
  const api = createRouter();
  api.route("/", settingsRoutes);
  api.route("/", cartRoutes);
  return api;
}
