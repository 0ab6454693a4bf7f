/** Payments: the money taken by day and method, the ledger's entries of a period (also as CSV), and what confirmed bookings still owe. */
import type { Area } from "../kit/area";
import { paymentsCsv, paymentsPage } from "./payments";

export const money: Area = {
  name: "money",
  // Whoever records payments (the front desk) cashes up with this screen too.
  nav: [{ key: "payments", path: "/payments", permission: "bookings" }],
  routes: [
    { method: "get", path: "/:business/payments", permission: "bookings", handler: paymentsPage },
    { method: "get", path: "/:business/payments.csv", permission: "bookings", handler: paymentsCsv },
  ],
};
