/** @jsxImportSource hono/jsx */
/**
 * The doors of the back office: choosing the business, signing in and out, accepting an
 * invitation, the session every other page needs, and the error pages.
 */
import type { ErrorHandler, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { businessBySlug } from "../../../db/businesses";
import { businessAccess } from "../../../db/tenant-read";
import { toApiError } from "../../../lib/problem";
import { ApiError } from "../../../lib/errors";
import { PASSWORD_MIN } from "../../../lib/password";
import { acceptInvite, openInvite, sessionOf, signIn, signOut, SESSION_MAX_HOURS, type NewSession } from "../../../manage/staff";
import { isLoopbackHost } from "../../../middleware/https";
import { visitorKey } from "../../../middleware/visitor";
import { ADMIN_LANGUAGES, base, Field, FormError, LANGS, pathParam, stringsOf, type AdminContext, type AdminEnv } from "../kit/kit";
import { Bare, Layout } from "../kit/layout";
import type { AdminRoute } from "../kit/area";
import { readForm } from "../kit/form";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const COOKIE = "bo_session";

/** Secure (with the __Host- prefix: this host only, path /) everywhere but on loopback's plain HTTP. */
function cookieSecure(c: AdminContext): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === "http:" && isLoopbackHost(url.hostname));
}

function readSessionCookie(c: AdminContext): string | undefined {
  return cookieSecure(c) ? getCookie(c, COOKIE, "host") : getCookie(c, COOKIE);
}

function writeSessionCookie(c: AdminContext, session: NewSession) {
  const secure = cookieSecure(c);
  // SameSite=Lax: a link to the back office from an e-mail or a chat opens it signed in; no
  // cross-site POST carries the cookie, and every form is also checked (Origin and a token).
  setCookie(c, COOKIE, session.token, { httpOnly: true, secure, sameSite: "Lax", path: "/", maxAge: SESSION_MAX_HOURS * 3600, ...(secure ? { prefix: "host" as const } : {}) });
}

function clearSessionCookie(c: AdminContext) {
  const secure = cookieSecure(c);
  deleteCookie(c, COOKIE, { path: "/", secure, ...(secure ? { prefix: "host" as const } : {}) });
}

/** The address sign-in attempts are counted against: the visitor as the widget's budgets know it (IPv6 by /64). */
const clientAddress = (c: AdminContext) => visitorKey(c.req.raw, c.env);

/** A `next` that stays in this business's back office (no open redirect). */
function safeNext(slug: string, next: string | undefined): string {
  return next && next.startsWith(`/admin/${slug}/`) && !next.startsWith("//") && !/[\\\s]/.test(next) ? next : `/admin/${slug}/today`;
}

async function businessOr404(c: AdminContext, slug: string) {
  const business = SLUG.test(slug) ? await businessBySlug(c.env.DB, slug) : null;
  if (!business) throw new ApiError(404, "not_found", "No business has this name.");
  return business;
}

// ---- Pages ----

function chooseBusinessPage(c: AdminContext, error?: string) {
  const t = stringsOf(c);
  return (
    <Bare t={t} title={t.chooseBusiness.title}>
      <form class="stack" method="get" action="/admin/go">
        <FormError message={error} />
        <Field name="business" label={t.chooseBusiness.business} required autocomplete="organization" error={error ? " " : undefined} />
        <button type="submit">{t.chooseBusiness.go}</button>
      </form>
    </Bare>
  );
}

function signInPage(c: AdminContext, business: { title: string; slug: string }, state: { email?: string; error?: string; note?: string; next?: string }) {
  const t = stringsOf(c);
  return (
    <Bare t={t} title={t.signIn.title(business.title)}>
      {state.note ? (
        <p class="flash" role="status">
          {state.note}
        </p>
      ) : null}
      <form class="stack" method="post" action={`/admin/${business.slug}/sign-in`}>
        <FormError message={state.error} />
        {state.next ? <input type="hidden" name="next" value={state.next} /> : null}
        <Field name="email" type="email" label={t.signIn.email} value={state.email} required autocomplete="username" />
        <Field name="password" type="password" label={t.signIn.password} required autocomplete="current-password" />
        <button type="submit">{t.signIn.submit}</button>
      </form>
      <p>
        <a href={`/admin/${business.slug}/forgot${state.email ? `?email=${encodeURIComponent(state.email)}` : ""}`}>{t.passwordReset.forgot}</a>
      </p>
      <p>
        {ADMIN_LANGUAGES.map((l) => (
          <>
            <a href={`/admin/${business.slug}/sign-in?lang=${l}`} lang={l} hreflang={l}>
              {LANGS[l].languageName}
            </a>{" "}
          </>
        ))}
      </p>
    </Bare>
  );
}

function invitePage(c: AdminContext, token: string, invite: { title: string; email: string; role: string }, errors: { password?: string; confirm?: string; message?: string } = {}) {
  const t = stringsOf(c);
  return (
    <Bare t={t} title={t.invite.title(invite.title)}>
      <p>{t.invite.intro(invite.email, t.roles[invite.role as keyof typeof t.roles] ?? invite.role)}</p>
      <form class="stack" method="post" action={`/admin/invite/${token}`}>
        <FormError message={errors.message} />
        <input type="hidden" name="email" value={invite.email} autocomplete="username" />
        <Field name="password" type="password" label={t.invite.password} hint={t.invite.passwordHint(PASSWORD_MIN)} error={errors.password} required autocomplete="new-password" />
        <Field name="confirm" type="password" label={t.invite.confirm} error={errors.confirm} required autocomplete="new-password" />
        <button type="submit">{t.invite.submit}</button>
      </form>
    </Bare>
  );
}

/** The back office's error pages (403, 404, 409, 429, ...) from the one error path (lib/problem.ts's toApiError). */
export const adminError: ErrorHandler<AdminEnv> = (err, c) => {
  const e = toApiError(c as never, err);
  const t = stringsOf(c);
  const title = t.error.title(e.status);
  const body = (
    <>
      <p>{e.message}</p>
      <p>
        <a href={c.get("staff") ? `${base(c)}/today` : "/admin"}>{t.error.back}</a>
      </p>
      <p class="hint">
        {t.error.requestId}: {c.get("requestId")}
      </p>
    </>
  );
  const page = c.get("staff") ? (
    <Layout c={c} title={title}>
      {body}
    </Layout>
  ) : (
    <Bare t={t} title={title}>
      {body}
    </Bare>
  );
  return c.html(page, e.status as 400, e.extra.headers ?? {});
};

// ---- Routes ----

/** Pages without a session: /admin, /admin/go, /admin/invite/:token, /admin/:business/sign-in. */
export const doorRoutes: AdminRoute[] = [
  { method: "get", path: "/", permission: "public", handler: (c) => c.html(chooseBusinessPage(c)) },
  { method: "get", path: "/go", permission: "public", handler: (c) => {
    const slug = (c.req.query("business") ?? "").trim().toLowerCase();
    if (!SLUG.test(slug)) return c.html(chooseBusinessPage(c, "?"), 422);
    return c.redirect(`/admin/${slug}/sign-in`, 303);
  } },

  { method: "get", path: "/invite/:token", permission: "public", handler: async (c) => {
    const invite = await openInvite(c.env.DB, pathParam(c, "token"), c.get("now"));
    return c.html(invitePage(c, pathParam(c, "token"), invite));
  } },
  { method: "post", path: "/invite/:token", permission: "public", handler: async (c) => {
    const token = pathParam(c, "token");
    const invite = await openInvite(c.env.DB, token, c.get("now"));
    const form = await readForm(c);
    const password = form.get("password");
    const confirm = form.get("confirm");
    const t = stringsOf(c);
    if (password !== confirm) return c.html(invitePage(c, token, invite, { confirm: t.invite.mismatch, message: t.fixErrors }), 422);
    try {
      const { slug, email } = await acceptInvite(c.env.DB, token, password, c.get("now"));
      return c.redirect(`/admin/${slug}/sign-in?accepted=1&email=${encodeURIComponent(email)}`, 303);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) return c.html(invitePage(c, token, invite, { password: err.extra.errors?.[0]?.message, message: t.fixErrors }), 422);
      throw err;
    }
  } },

  { method: "get", path: "/:business/sign-in", permission: "public", handler: async (c) => {
    const business = await businessOr404(c, pathParam(c, "business"));
    const t = stringsOf(c);
    const q = c.req.query();
    const note = q.accepted ? t.signIn.accepted : q.reset ? t.passwordReset.done : q.out ? t.signIn.signedOut : q.expired ? t.signIn.expired : undefined;
    return c.html(signInPage(c, business, { email: q.email, note, next: q.next }));
  } },
  { method: "post", path: "/:business/sign-in", permission: "public", handler: async (c) => {
    const business = await businessOr404(c, pathParam(c, "business"));
    const form = await readForm(c);
    const email = form.get("email");
    const password = form.get("password");
    const next = form.list("next").length ? form.get("next") : undefined;
    try {
      const session = await signIn(c.env, business.id, { email, password, address: clientAddress(c) }, c.get("now"));
      writeSessionCookie(c, session);
      return c.redirect(safeNext(business.slug, next), 303);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 429)) throw err;
      const message = err.status === 401 ? stringsOf(c).signIn.failed : err.message;
      return c.html(signInPage(c, business, { email, error: message, next }), err.status as 401, err.extra.headers ?? {});
    }
  } },
];

/**
 * The session of /admin/:business/*: the cookie's session must be open and of THIS business (a
 * session of another business's staff opens nothing here: it is sent to this business's sign-in).
 * Every request that changes something must carry the session's CSRF token (the Origin check of
 * hono/csrf ran before). Sets the staff user, and the tenant and access the shared reads use.
 */
export function staffSession(): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const slug = pathParam(c, "business") ?? "";
    c.set("slug", slug);
    const token = readSessionCookie(c);
    const session = await sessionOf(c.env.DB, token, c.get("now"));
    if (!session || session.slug !== slug) {
      if (c.req.method !== "GET" && c.req.method !== "HEAD") throw new ApiError(403, "forbidden", "You are not signed in to this business. Nothing was changed.");
      const url = new URL(c.req.url);
      const expired = token && !session ? "&expired=1" : "";
      return c.redirect(`/admin/${slug}/sign-in?next=${encodeURIComponent(url.pathname + url.search)}${expired}`, 303);
    }
    c.set("staff", session);
    c.set("tenant", { businessId: session.business_id, slug: session.slug, actor: `staff:${session.email}`, clientId: `staff:${session.staff_id}` });
    c.set("access", businessAccess(session.business_id));
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      // the token is the session's, not a field of the form: read here, before any screen reads its form
      const form = await c.req.parseBody();
      if (form._csrf !== session.csrf_token) throw new ApiError(403, "forbidden", "This form has expired or came from another site. Nothing was changed; reload the page and try again.");
    }
    await next();
    c.header("Cache-Control", "no-store");
  };
}

/** POST /admin/:business/sign-out (behind staffSession: the token and Origin were checked). */
export async function signOutRoute(c: AdminContext) {
  const token = readSessionCookie(c);
  if (token) await signOut(c.env.DB, token, c.get("now"));
  clearSessionCookie(c);
  return c.redirect(`/admin/${c.get("slug")}/sign-in?out=1`, 303);
}

/** After a password change: this browser's new session. */
export { writeSessionCookie };
