/**
 * An area of the back office (pretix's control panel is the model: one URL table, one navigation
 * table): each area's `area.ts` declares its routes, each with the permission it needs, and its
 * entries in the navigation. `mountAreas` builds the router from the table of areas, and the
 * permission is enforced here, from the declaration, before the handler runs: a handler cannot
 * forget its check, and a refused request reads and writes nothing.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { may, type Permission, type Role } from "../../../domain/staff";
import { refuse, type AdminContext, type AdminEnv, type NavEntry } from "./kit";

/**
 * Who may open a route: one permission of domain/staff.ts; any signed-in user of the business
 * ("signed-in": their own account, sign-out); or anyone ("public": the doors, before a session:
 * choosing the business, sign-in, invitation, password reset).
 */
export type Access = Permission | "signed-in" | "public";

export interface AdminRoute {
  method: "get" | "post";
  /** The path under /admin, as Hono matches it (`/:business/bookings/:id`). */
  path: string;
  permission: Access;
  handler: (c: AdminContext) => Response | Promise<Response>;
}

export interface Area {
  name: string;
  /** In the navigation's order; most areas have one entry, some (auth) none, some two. */
  nav: NavEntry[];
  /** In matching order: where two paths could match one URL, the first declared wins. */
  routes: AdminRoute[];
}

/** The checks of one route's permission, run after the session is read. */
const guard =
  (permission: Permission): MiddlewareHandler<AdminEnv> =>
  async (c, next) => {
    if (!may(c.get("staff").role as Role, permission)) throw refuse(c);
    await next();
  };

/** The navigation of the table of areas, in order; the layout filters it by the user's role. */
export const navOf = (areas: readonly Area[]): NavEntry[] => areas.flatMap((a) => a.nav);

/**
 * Registers every area's routes on `admin`: first the public ones (before the session is
 * required), then `session` for /:business/*, then the signed-in ones, each behind the guard of
 * its declared permission.
 */
export function mountAreas(admin: Hono<AdminEnv>, areas: readonly Area[], session: MiddlewareHandler<AdminEnv>): void {
  const routes = areas.flatMap((a) => a.routes);
  for (const r of routes.filter((r) => r.permission === "public")) admin.on(r.method.toUpperCase(), r.path, (c) => r.handler(c));
  // the navigation first: the error page of a refused session is drawn in the layout too
  const nav = navOf(areas);
  admin.use("/:business/*", async (c, next) => {
    c.set("nav", nav);
    await next();
  });
  admin.use("/:business/*", session);
  for (const r of routes) {
    if (r.permission === "public") continue;
    if (r.permission === "signed-in") admin.on(r.method.toUpperCase(), r.path, (c) => r.handler(c));
    else admin.on(r.method.toUpperCase(), r.path, guard(r.permission), (c) => r.handler(c));
  }
}
