import type { ReactiveControllerHost } from "lit";
import type { Booking, Cart, WidgetApiError } from "../api/client";
import type { BookingWidgetEventDetail, BookingWidgetEventName } from "../events";

/**
 * The shapes of the booking's state, shared by BookingController and its parts that load
 * later (cart-actions.ts), so that neither imports the other.
 */

export type Step = "loading" | "product" | "dates" | "room" | "extras" | "guests" | "cart" | "checkout" | "done";
export const FLOW: Step[] = ["product", "dates", "room", "extras", "guests", "cart", "checkout", "done"];

/**
 * The booking as the confirmation step shows it (its booker unknown when found on a stored cart
 * after a reload). `confirmation_email`: where the service is sending the confirmation, as the
 * checkout answered; null when it sends none, or when the booking was found on a cart (the cart
 * does not say), and the step then promises no e-mail.
 */
export type Confirmation = Pick<Booking, "reference" | "total" | "currency" | "guests" | "confirmation_email"> & { booker: Pick<Booking["booker"], "first_name" | "email"> | null };

/** The confirmation of the booking a checked-out cart names; null for a cart not booked. */
export const confirmationOf = (cart: Cart, booker: Confirmation["booker"]): Confirmation | null =>
  cart.status === "checked_out" && cart.booking
    ? { reference: cart.booking.reference, total: cart.total, currency: cart.currency, guests: cart.guests, booker, confirmation_email: null }
    : null;

export interface ErrorState {
  kind: WidgetApiError["kind"] | "client";
  message: string;
  actions: { label: string; run: () => void }[];
}

/** The element's attributes the guest's path starts from. */
export interface BookingOptions {
  business: string;
  product?: string;
  language?: string;
  currency?: string;
  startDate?: string;
  endDate?: string;
  duration?: string;
  males?: string;
  females?: string;
  couples?: string;
  /** The service's origin. */
  api: string;
}

/** What the controller needs of its element: attributes, events and focus. */
export interface BookingHost extends ReactiveControllerHost {
  readonly options: BookingOptions;
  /** Fire `booking-widget:<name>` (and push it to the page's dataLayer). */
  track(name: BookingWidgetEventName, detail: BookingWidgetEventDetail): void;
  /** After the next render: focus the step's heading. */
  focusHeading(): void;
  /** After the next render: focus the first invalid field. */
  focusInvalid(): Promise<void>;
  /** After the next render: focus the error banner. */
  focusError(): Promise<void>;
  /** After the next render: focus a calendar day. */
  focusDay(date: string): Promise<void>;
}


export const round2 = (n: number): number => Math.round(n * 100) / 100;
