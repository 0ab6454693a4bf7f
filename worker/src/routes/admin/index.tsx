/**
 * The back office at /admin (issue 20): pages rendered by Hono's JSX on the Worker, plain HTML
 * forms (POST, then a redirect to a GET), a strict CSP (scripts and styles from this origin only,
 * no inline code), every change through manage/ as the private API makes it.
 *
 *   /admin                              choose the business
 *   /admin/invite/:token                accept an invitation (set a password)
 *   /admin/:business/sign-in            sign in (e-mail and password)
 *   /admin/:business/...                behind a session of THIS business's staff: the areas of
 *                                       AREAS below, one folder each (front-desk, bookings, money, guests,
 *                                       catalog, prices, settings, outbox, developers, staff, audit,
 *                                       auth), each route behind the permission its area.ts declares
 *                                       (domain/staff.ts), the navigation built from the same table
 */
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { languageDetector } from "hono/language";
import { secureHeaders } from "hono/secure-headers";
import { ApiError } from "../../lib/errors";
import { adminAssets } from "./kit/assets";
import { mountAreas, type Area } from "./kit/area";
import { ADMIN_LANGUAGES, type AdminEnv } from "./kit/kit";
import { adminError, staffSession } from "./auth/auth";
import { audit } from "./audit/area";
import { auth } from "./auth/area";
import { bookings } from "./bookings/area";
import { catalog } from "./catalog/area";
import { developers } from "./developers/area";
import { frontDesk } from "./front-desk/area";
import { guests } from "./guests/area";
import { money } from "./money/area";
import { outbox } from "./outbox/area";
import { prices } from "./prices/area";
import { settings } from "./settings/area";
import { staff } from "./staff/area";

/**
 * The table of areas: it builds the router (each route behind its declared permission) and the
 * navigation, in this order. A new screen is a route in its area's area.ts; a new area is a
 * folder with its area.ts and a line here.
 */
export const AREAS: readonly Area[] = [frontDesk, bookings, money, guests, catalog, prices, settings, outbox, developers, staff, audit, auth];

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
  admin.use("*", languageDetector({ supportedLanguages: [...ADMIN_LANGUAGES], fallbackLanguage: "en", order: ["querystring", "header"], caches: false }));
  // Cross-site form posts are refused before anything runs: the browser's Origin (or
  // Sec-Fetch-Site) must be this origin. Signed-in forms also carry the session's token.
  admin.use("*", csrf());
  // No page of the back office is kept by a browser or a proxy: signed-in pages hold guests' data,
  // and those before a session hold an invitation's or a reset's token in their URL and form, or
  // an e-mail address (sign-in?email=). Its stylesheet and script (/assets) set their own caching.
  admin.use("*", async (c, next) => {
    await next();
    if (!c.req.path.startsWith("/admin/assets/") && !c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });

  admin.route("/assets", adminAssets());
  mountAreas(admin, AREAS, staffSession());
  admin.all("*", (c) => {
    throw new ApiError(404, "not_found", `No page at ${c.req.path}.`);
  });
  return admin;
}
