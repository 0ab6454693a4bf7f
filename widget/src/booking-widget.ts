import { BookingWidget } from "./booking-widget.component";

export { BookingWidget };
export type { BookingWidgetEventDetail, BookingWidgetEventName, BookingWidgetItem } from "./events";

/**
 * Registration only. The tag is `booking-widget`, or the `data-tag` of the script element that
 * loaded this module (`<script type="module" src=".../widget.js" data-tag="acme-booking">`)
 * for a page where that name is taken. A page that loads widget.js twice keeps the first
 * definition quietly; a name taken by someone else's element is said in the console, with the
 * fix, instead of leaving the guest a blank space.
 */
const OURS = Symbol.for("booking-widget");
(BookingWidget as unknown as Record<symbol, boolean>)[OURS] = true;

const script = [...document.querySelectorAll<HTMLScriptElement>("script[data-tag]")].find((s) => s.src === import.meta.url);
const tag = script?.dataset.tag?.trim().toLowerCase() || "booking-widget";
const taken = customElements.get(tag) as (CustomElementConstructor & Record<symbol, boolean>) | undefined;
if (!taken) {
  try {
    customElements.define(tag, BookingWidget);
  } catch (err) {
    console.error(`booking-widget: cannot use "${tag}" as the tag name (${(err as Error).message}). Give data-tag a name with a hyphen, e.g. data-tag="acme-booking".`);
  }
} else if (!taken[OURS]) {
  console.error(
    `booking-widget: another script on this page already defined <${tag}>, so the booking widget cannot use that name. ` +
      `Fix: name it with data-tag on its script (<script type="module" src="${import.meta.url}" data-tag="acme-booking">, then <acme-booking ...>), ` +
      `or define the exported BookingWidget in a scoped custom element registry.`,
  );
}

declare global {
  interface HTMLElementTagNameMap {
    "booking-widget": BookingWidget;
  }
}
