import { BookingWidget } from "./booking-widget.component";

export { BookingWidget };
export type { BookingWidgetEventDetail, BookingWidgetEventName, BookingWidgetItem } from "./events";

// Registration only. A page that loads widget.js twice keeps the first definition.
if (!customElements.get("booking-widget")) customElements.define("booking-widget", BookingWidget);

declare global {
  interface HTMLElementTagNameMap {
    "booking-widget": BookingWidget;
  }
}
