/**
 * The front desk's day: Today (arrivals, departures, who is on site), the Calendar (what is
 * free, held and booked per date, and blocking dates) and the Manifest (who is on each timeslot
 * of an activity's day). One area because both are the dates view
 * a front desk works from, read from the same allocations; neither belongs to one booking.
 */
import type { Area } from "../kit/area";
import { calendarBlock, calendarPage } from "./calendar";
import { manifestPage } from "./manifest";
import { todayPage } from "./today";

export const frontDesk: Area = {
  name: "front-desk",
  nav: [
    { key: "today", path: "/today", permission: "bookings" },
    { key: "calendar", path: "/calendar", permission: "calendar" },
    { key: "manifest", path: "/manifest", permission: "bookings" },
  ],
  routes: [
    { method: "get", path: "/:business", permission: "signed-in", handler: (c) => c.redirect(`/admin/${c.get("slug")}/today`, 303) },
    { method: "get", path: "/:business/today", permission: "bookings", handler: todayPage },
    { method: "get", path: "/:business/calendar", permission: "calendar", handler: calendarPage },
    { method: "post", path: "/:business/calendar/blocks", permission: "inventory", handler: calendarBlock },
    // who is on each timeslot of an activity's day, to print: guests' data, so the bookings permission
    { method: "get", path: "/:business/manifest", permission: "bookings", handler: manifestPage },
  ],
};
