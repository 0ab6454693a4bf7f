/**
 * The webhook event names, as subscriptions name them: the persons, guests and bookers of the
 * private API (spec section 6), the bookings, and the administration of settings and catalog.
 */
export const EVENT_NAMES = [
  "GuestCreated",
  "GuestUpdated",
  "GuestDeleted",
  "BookerCreated",
  "BookerUpdated",
  "PersonCreated",
  "PersonUpdated",
  "PersonDeleted",
  "BookingCreated",
  "BookingCancelled",
  "PaymentReceived",
  "PaymentRefunded",
  "PaymentFailed",
  "SettingsUpdated",
  "ProductCreated",
  "ProductUpdated",
  "ProductArchived",
  "ProductRestored",
  "InventoryUpdated",
  "CatalogUpdated",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}
