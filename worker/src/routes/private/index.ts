import { createRouter } from "../router";
import { bookerRoutes } from "./bookers";
import { bookingRoutes } from "./bookings";
import { paymentRoutes } from "./payments";
import { emailRoutes } from "./emails";
import { guestRoutes } from "./guests";
import { personRoutes } from "./persons";
import { webhookRoutes } from "./webhooks";
import { auditRoutes } from "./audit";
import { lookupAdminRoutes, seasonAdminRoutes } from "./catalog/lookups";
import { productAdminRoutes } from "./catalog/products";
import { settingsAdminRoutes } from "./settings";

/**
 * The private API (spec private-api.md): persons, guests, bookers, bookings, webhooks and e-mails
 * of the authenticated key's business, and its administration: settings, catalog, audit log.
 * Mounted by index.ts under /private behind a private-scope key.
 *
 * Envelopes (the spec fixes some, we decided the rest):
 * - GET /guests: a JSON array (spec); a Guest alone elsewhere (spec).
 * - GET/PUT /bookings/{id}/booker: {data: Booker} (spec).
 * - Persons and bookings: {data: Person} for one, {data: [...], meta: {page, limit, total}} for a list.
 * - Every list also answers X-Total-Count and a Link header (first, prev, next, last).
 */
export function privateApi() {
  const api = createRouter();
  api.route("/", personRoutes);
  api.route("/", guestRoutes);
  api.route("/", bookerRoutes);
  api.route("/", bookingRoutes);
  api.route("/", paymentRoutes);
  api.route("/", webhookRoutes);
  // Administration (issue 19): settings, the catalog, the audit log. Thin handlers over manage/.
  api.route("/", settingsAdminRoutes);
  api.route("/", productAdminRoutes);
  api.route("/", lookupAdminRoutes);
  api.route("/", seasonAdminRoutes);
  api.route("/", auditRoutes);
  api.route("/", emailRoutes);
  return api;
}
