import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv, RequestSession, SessionKind } from "../db/request-env";
import { isLoopbackHost } from "./https";

/**
 * The request's D1 session (docs/design.md "D1 sessions: which read may be stale"), decided here
 * alone: the door that finds the business's shard (middleware/shard.ts) opens it on that shard's
 * binding, and the rest of the request sees it as `c.env.DB`.
 *
 * - `unconstrained`: a GET or HEAD of the catalog and of availability for display, through the
 *   public API, the widget proxy (its carts excepted) and the hosted page. With replication on, a
 *   nearby replica answers; what it shows may be as old as the replica's lag.
 * - `bookmark`: the same reads, and the back office's pages, when the request carries a bookmark
 *   this service gave (the `X-D1-Bookmark` header; the back office's `d1_bookmark` cookie): a
 *   replica answers only once it holds everything up to that bookmark, so the client's own last
 *   write is seen.
 * - `primary`: everything else: every write, the carts and checkout (read too), the private API,
 *   the back office without the cookie. The first query goes to the primary.
 *
 * Every answer of a request that opened a session carries the session's latest bookmark in
 * `X-D1-Bookmark` (the widget sends it back, api/client.ts); a back-office form's redirect sets it
 * in the cookie too, so the page a save redirects to reads at least what the save wrote. The value is
 * `<shard>:<D1 bookmark>`: a bookmark of another shard (a business moved since) or one not in
 * D1's form is ignored, and the request is served as if it carried none (never a 400 or a 500: a
 * client that kept an old bookmark just reads as a new one does).
 */
export const BOOKMARK_HEADER = "X-D1-Bookmark";
export const BOOKMARK_COOKIE = "d1_bookmark";
const BOOKMARK = /^(\d{1,3}):([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;

/** GETs of these doors read the catalog and availability for display, the carts excepted. */
const CATALOG_READ = /^\/(?:api\/pub\/v2|widget\/v1\/[a-z0-9][a-z0-9-]{0,62}|book\/[a-z0-9][a-z0-9-]{0,62})(?:\/|$)/;
const CART_READ = /\/carts(?:\/|$)/;
const BACK_OFFICE = /^\/admin\//;

/** The bookmark the request carries for `shard`, if it is one this service gives. */
function bookmarkFor(c: Context<AppEnv>, shard: number): string | undefined {
  const given = BACK_OFFICE.test(c.req.path) ? getCookie(c, BOOKMARK_COOKIE) : c.req.header(BOOKMARK_HEADER);
  const m = given === undefined ? null : BOOKMARK.exec(given.trim());
  return m && Number(m[1]) === shard ? m[2] : undefined;
}

/** Which session the request gets on `shard`, and the bookmark it starts from. */
export function sessionPlan(c: Context<AppEnv>, shard: number): { kind: SessionKind; bookmark?: string } {
  // a preflight reads the business for its origin check only: a read for display
  const read = c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS";
  const path = c.req.path;
  const catalog = read && CATALOG_READ.test(path) && !CART_READ.test(path);
  const mayUseBookmark = catalog || (read && BACK_OFFICE.test(path));
  const bookmark = mayUseBookmark ? bookmarkFor(c, shard) : undefined;
  if (bookmark) return { kind: "bookmark", bookmark };
  return { kind: catalog ? "unconstrained" : "primary" };
}

/**
 * `db` (a shard's binding) as this request reads it: a session opened as sessionPlan says, kept
 * in the request's variables for the answer's bookmark. Once per request.
 */
export function openSession(c: Context<AppEnv>, db: D1Database, shard: number): D1DatabaseSession {
  const plan = sessionPlan(c, shard);
  const session = db.withSession(plan.kind === "bookmark" ? plan.bookmark : plan.kind === "unconstrained" ? "first-unconstrained" : "first-primary");
  const state: RequestSession = { kind: plan.kind, shard, session, given: plan.bookmark };
  c.set("d1Session", state);
  return session;
}

/** The later of two bookmarks (D1 orders them as strings, as its own sessions keep the latest). */
function later(a: string | null | undefined, b: string | null | undefined): string | undefined {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return a.localeCompare(b) < 0 ? b : a;
}

/**
 * A commit the business's cart desk made for this request (carts/desk.ts), on the request's shard,
 * outside the request's own session: the answer's bookmark is at least it, so the client's next
 * read sees the write.
 */
export function noteDeskBookmark(c: Context<AppEnv>, bookmark: string): void {
  const state = c.get("d1Session");
  if (state) state.desk = later(state.desk, bookmark);
}

/** Put the session's latest bookmark on the answer (and, for the back office, in its cookie). */
export function sessionBookmarks(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const state = c.get("d1Session");
    const bookmark = state && (later(state.session.getBookmark(), state.desk) ?? state.given);
    if (!state || !bookmark) return;
    const value = `${state.shard}:${bookmark}`;
    let cookie = "";
    // A back-office form that did something answers with a redirect (post, redirect, get): the page
    // it redirects to reads from its bookmark. No other answer sets the cookie (a failed sign-in
    // sets none at all).
    if (BACK_OFFICE.test(c.req.path) && c.req.method === "POST" && c.res.status >= 300 && c.res.status < 400) {
      const url = new URL(c.req.url);
      const secure = !(url.protocol === "http:" && isLoopbackHost(url.hostname));
      // Read by the server alone; it names no one and grants nothing: a position in the database.
      cookie = `${BOOKMARK_COOKIE}=${value}; Path=/admin/; Max-Age=3600; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
    }
    const put = (headers: Headers) => {
      headers.set(BOOKMARK_HEADER, value);
      if (cookie) headers.append("Set-Cookie", cookie);
    };
    try {
      put(c.res.headers);
    } catch {
      // an answer whose headers cannot change (a fetched asset): a copy with them
      c.res = new Response(c.res.body, c.res);
      put(c.res.headers);
    }
  };
}
