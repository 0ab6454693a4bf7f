/** The webhook event names (spec section 6, plus the booking events), as subscriptions name them. */
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
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}
