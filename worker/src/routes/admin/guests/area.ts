/** Guests: the filtered list and its CSV. */
import type { Area } from "../kit/area";
import { guestsCsv, guestsPage } from "./guests";

export const guests: Area = {
  name: "guests",
  nav: [{ key: "guests", path: "/guests", permission: "guests" }],
  routes: [
    { method: "get", path: "/:business/guests", permission: "guests", handler: guestsPage },
    { method: "get", path: "/:business/guests.csv", permission: "guests", handler: guestsCsv },
  ],
};
