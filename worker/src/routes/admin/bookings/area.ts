/** Bookings: the searchable list and a booking's page (guests, booker, lines, notes, cancellation, payments and refunds). */
import type { Area } from "../kit/area";
import { newBookingCreate, newBookingPage } from "./new-booking";
import { bookerSave, bookingCancel, bookingPage, bookingsPage, guestCheck, lineMove, noteAdd, paymentAdd, refundAdd, linkAdd } from "./bookings";

export const bookings: Area = {
  name: "bookings",
  nav: [{ key: "bookings", path: "/bookings", permission: "bookings" }],
  routes: [
    { method: "get", path: "/:business/bookings", permission: "bookings", handler: bookingsPage },
    // a phone or walk-in booking (front desk and up), declared before /bookings/:id
    { method: "get", path: "/:business/bookings/new", permission: "bookings", handler: newBookingPage },
    { method: "post", path: "/:business/bookings/new", permission: "bookings", handler: newBookingCreate },
    { method: "get", path: "/:business/bookings/:id", permission: "bookings", handler: bookingPage },
    { method: "post", path: "/:business/bookings/:id/cancel", permission: "bookings", handler: bookingCancel },
    { method: "post", path: "/:business/bookings/:id/booker", permission: "bookings", handler: bookerSave },
    { method: "post", path: "/:business/bookings/:id/notes", permission: "bookings", handler: noteAdd },
    // the front desk takes payments; money going back out is a manager's or the owner's call
    { method: "post", path: "/:business/bookings/:id/payments", permission: "bookings", handler: paymentAdd },
    { method: "post", path: "/:business/bookings/:id/refunds", permission: "refunds", handler: refundAdd },
    { method: "post", path: "/:business/bookings/:id/payment-links", permission: "bookings", handler: linkAdd },
    // a guest to another timeslot or day (front desk too: rearranging the boats is its daily work)
    { method: "post", path: "/:business/bookings/:id/move", permission: "bookings", handler: lineMove },
    { method: "post", path: "/:business/bookings/:id/guests/:guest/check-in", permission: "check_in", handler: (c) => guestCheck(c, "in") },
    { method: "post", path: "/:business/bookings/:id/guests/:guest/check-out", permission: "check_in", handler: (c) => guestCheck(c, "out") },
  ],
};
