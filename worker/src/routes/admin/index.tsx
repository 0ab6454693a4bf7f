/**
 * The back office at /admin (issue 20): pages rendered by Hono's JSX on the Worker, plain HTML
 * forms (POST, then a redirect to a GET), a strict CSP (scripts and styles from this origin only,
 * no inline code), every change through manage/ as the private API makes it.
 *
 *   /admin                              choose the business
 *   /admin/invite/:token                accept an invitation (set a password)
 *   /admin/:business/sign-in            sign in (e-mail and password)
 *   /admin/:business/...                behind a session of THIS business's staff: today, calendar,
 *                                       bookings, guests, catalog, prices (seasons, inventory),
 *                                       settings, widget, emails (the Outbox), developers, staff,
 *                                       audit, account; each behind its permission (domain/staff.ts)
 *                                       and in the navigation (kit.tsx NAV)
 */
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { languageDetector } from "hono/language";
import { secureHeaders } from "hono/secure-headers";
import { ApiError } from "../../lib/errors";
import { accountPage, auditPage, languageChange, passwordChange } from "./account";
import { adminAssets } from "./assets";
import { adminError, mountDoors, signOutRoute, staffSession } from "./auth";
import { bookerSave, bookingCancel, bookingPage, bookingsPage, guestCheck, noteAdd } from "./bookings";
import { calendarBlock, calendarPage } from "./calendar";
import { mountCatalog } from "./catalog";
import { emailPage, emailResend, emailsPage } from "./emails";
import { developersPage, hookCreate, hookDelete, hookDeliveries, hookEnable, hookRedeliver, keyCreate, keyRevoke } from "./developers";
import { guestsCsv, guestsPage } from "./guests";
import type { AdminEnv } from "./kit";
import { mountPrices } from "./prices";
import { staffInvite, staffPage, staffRemove, staffRole } from "./staff";
import { todayPage } from "./today";
import { mountSettings } from "./widget";
import { mountReset } from "./reset";

export function adminRoutes() {
  const admin = new Hono<AdminEnv>();
  admin.onError(adminError);
  admin.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      // Invitation links carry their token in the path: never send it on as a Referer.
      referrerPolicy: "no-referrer",
      xFrameOptions: "DENY",
      strictTransportSecurity: "max-age=31536000",
    }),
  );
  admin.use("*", languageDetector({ supportedLanguages: ["en", "de", "es"], fallbackLanguage: "en", order: ["querystring", "header"], caches: false }));
  // Cross-site form posts are refused before anything runs: the browser's Origin (or
  // Sec-Fetch-Site) must be this origin. Signed-in forms also carry the session's token.
  admin.use("*", csrf());

  admin.route("/assets", adminAssets());
  mountDoors(admin);
  mountReset(admin);

  admin.use("/:business/*", staffSession());
  admin.post("/:business/sign-out", signOutRoute);
  admin.get("/:business", (c) => c.redirect(`/admin/${c.req.param("business")}/today`, 303));
  admin.get("/:business/today", todayPage);
  admin.get("/:business/calendar", calendarPage);
  admin.post("/:business/calendar/blocks", calendarBlock);
  admin.get("/:business/bookings", bookingsPage);
  admin.get("/:business/bookings/:id", bookingPage);
  admin.post("/:business/bookings/:id/cancel", bookingCancel);
  admin.post("/:business/bookings/:id/booker", bookerSave);
  admin.post("/:business/bookings/:id/notes", noteAdd);
  admin.post("/:business/bookings/:id/guests/:guest/check-in", (c) => guestCheck(c, "in"));
  admin.post("/:business/bookings/:id/guests/:guest/check-out", (c) => guestCheck(c, "out"));
  admin.get("/:business/guests", guestsPage);
  admin.get("/:business/guests.csv", guestsCsv);
  admin.get("/:business/emails", emailsPage);
  admin.get("/:business/emails/:id", emailPage);
  admin.post("/:business/emails/:id/resend", emailResend);
  mountSettings(admin);
  mountPrices(admin);
  mountCatalog(admin);
  admin.get("/:business/developers", developersPage);
  admin.post("/:business/developers/keys", keyCreate);
  admin.post("/:business/developers/keys/:id/revoke", keyRevoke);
  admin.post("/:business/developers/webhooks", hookCreate);
  admin.get("/:business/developers/webhooks/:id", hookDeliveries);
  admin.post("/:business/developers/webhooks/:id/delete", hookDelete);
  admin.post("/:business/developers/webhooks/:id/enable", hookEnable);
  admin.post("/:business/developers/webhooks/:id/redeliver", hookRedeliver);
  admin.get("/:business/staff", staffPage);
  admin.post("/:business/staff/invite", staffInvite);
  admin.post("/:business/staff/:id/role", staffRole);
  admin.post("/:business/staff/:id/remove", staffRemove);
  admin.get("/:business/audit", auditPage);
  admin.get("/:business/account", accountPage);
  admin.post("/:business/account/password", passwordChange);
  admin.post("/:business/account/language", languageChange);
  admin.all("*", (c) => {
    throw new ApiError(404, "not_found", `No page at ${c.req.path}.`);
  });
  return admin;
}
