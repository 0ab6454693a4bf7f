/** The analytics events the widget fires: GA4-like e-commerce payloads. */
export interface BookingWidgetItem {
  item_id: string;
  item_name: string;
  item_category?: string;
  price: number;
  quantity: number;
}
export interface BookingWidgetEventDetail {
  business: string;
  currency: string;
  value: number;
  items: BookingWidgetItem[];
  cart_id?: string;
  transaction_id?: string;
}
export type BookingWidgetEventName = "view_item" | "add_to_cart" | "begin_checkout" | "purchase" | "cart_expired";

declare global {
  interface HTMLElementEventMap {
    "booking-widget:view_item": CustomEvent<BookingWidgetEventDetail>;
    "booking-widget:add_to_cart": CustomEvent<BookingWidgetEventDetail>;
    "booking-widget:begin_checkout": CustomEvent<BookingWidgetEventDetail>;
    "booking-widget:purchase": CustomEvent<BookingWidgetEventDetail>;
    "booking-widget:cart_expired": CustomEvent<BookingWidgetEventDetail>;
  }
  interface Window {
    dataLayer?: unknown[];
  }
}

/**
 * Fire `booking-widget:<name>` from the element (bubbling and composed, so it crosses the
 * shadow root and reaches document listeners), and push it to `window.dataLayer` when the host
 * page has one (Google Tag Manager and friends): `{event: "booking-widget:<name>", ecommerce}`.
 */
export function emit(target: HTMLElement, name: BookingWidgetEventName, detail: BookingWidgetEventDetail): void {
  target.dispatchEvent(new CustomEvent(`booking-widget:${name}`, { detail, bubbles: true, composed: true }));
  const layer = (globalThis as { dataLayer?: unknown[] }).dataLayer;
  if (Array.isArray(layer)) layer.push({ event: `booking-widget:${name}`, ecommerce: detail });
}
