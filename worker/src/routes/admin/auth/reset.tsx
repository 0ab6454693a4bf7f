/** @jsxImportSource hono/jsx */
/**
 * Password reset, before any session (manage/password-reset.ts):
 *
 *   GET/POST /admin/:business/forgot          ask for a link by e-mail; always the same answer
 *   GET/POST /admin/:business/reset/:token    the link: set a new password (every session ends)
 */
import { publicOrigin } from "../../../lib/origin";
import { businessBySlug } from "../../../db/businesses";
import { ApiError } from "../../../lib/errors";
import { PASSWORD_MIN } from "../../../lib/password";
import { waitUntil } from "../../../lib/wait-until";
import { openReset, requestPasswordReset, resetPassword, RESET_MINUTES, sendResetMail } from "../../../manage/password-reset";
import { visitorKey } from "../../../middleware/visitor";
import { Field, FormError, langOf, pathParam, stringsOf, type AdminContext } from "../kit/kit";
import { Bare } from "../kit/layout";
import type { AdminRoute } from "../kit/area";
import { readForm } from "../kit/form";
import { platformMail } from "../../../domain/email/sender";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

async function businessOr404(c: AdminContext, slug: string) {
  const business = SLUG.test(slug) ? await businessBySlug(c.env.DB, slug) : null;
  if (!business) throw new ApiError(404, "not_found", "No business has this name.");
  return business;
}

function forgotPage(c: AdminContext, business: { title: string; slug: string }, state: { email?: string; sent?: boolean; error?: string } = {}) {
  const t = stringsOf(c);
  const tr = t.passwordReset;
  return (
    <Bare t={t} title={tr.title(business.title)}>
      {state.sent ? (
        <p class="flash" role="status" data-reset-sent>
          {tr.sent(RESET_MINUTES)}
        </p>
      ) : (
        <p>{tr.intro}</p>
      )}
      <form class="stack" method="post" action={`/admin/${business.slug}/forgot`}>
        <FormError message={state.error} />
        <Field name="email" type="email" label={tr.email} value={state.email} required autocomplete="username" />
        <button type="submit">{tr.submit}</button>
      </form>
      <p>
        <a href={`/admin/${business.slug}/sign-in`}>{tr.back}</a>
      </p>
    </Bare>
  );
}

function newPasswordPage(c: AdminContext, slug: string, token: string, link: { title: string; email: string }, errors: { password?: string; confirm?: string; message?: string } = {}) {
  const t = stringsOf(c);
  const tr = t.passwordReset;
  return (
    <Bare t={t} title={tr.newTitle(link.title)}>
      <p>{tr.newIntro(link.email)}</p>
      <form class="stack" method="post" action={`/admin/${slug}/reset/${token}`}>
        <FormError message={errors.message} />
        <input type="hidden" name="email" value={link.email} autocomplete="username" />
        <Field name="password" type="password" label={tr.password} hint={t.invite.passwordHint(PASSWORD_MIN)} error={errors.password} required autocomplete="new-password" />
        <Field name="confirm" type="password" label={tr.confirm} error={errors.confirm} required autocomplete="new-password" />
        <button type="submit">{tr.save}</button>
      </form>
    </Bare>
  );
}

/** The reset pages, public like the sign-in (before the session is required). */
export const resetRoutes: AdminRoute[] = [
  { method: "get", path: "/:business/forgot", permission: "public", handler: async (c) => {
    const business = await businessOr404(c, pathParam(c, "business"));
    return c.html(forgotPage(c, business, { email: c.req.query("email") }));
  } },
  { method: "post", path: "/:business/forgot", permission: "public", handler: async (c) => {
    const business = await businessOr404(c, pathParam(c, "business"));
    const email = (await readForm(c)).get("email").slice(0, 320);
    try {
      const { mailed } = await requestPasswordReset(
        c.env.DB,
        business.id,
        business.slug,
        { email, address: visitorKey(c.req.raw, c.env), origin: publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url), language: langOf(c), platform: platformMail(c.env) },
        c.get("now"),
      );
      // told after the answer: the answer takes the same time whether an e-mail was written or not
      if (mailed) waitUntil(c as never, sendResetMail(c.env, business.id, c.get("requestId")));
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      return c.html(forgotPage(c, business, { email, error: err.message }), 429, err.extra.headers ?? {});
    }
    return c.html(forgotPage(c, business, { email, sent: true }));
  } },

  { method: "get", path: "/:business/reset/:token", permission: "public", handler: async (c) => {
    const slug = pathParam(c, "business");
    const link = await openReset(c.env.DB, slug, pathParam(c, "token"), c.get("now"));
    return c.html(newPasswordPage(c, slug, pathParam(c, "token"), link));
  } },
  { method: "post", path: "/:business/reset/:token", permission: "public", handler: async (c) => {
    const slug = pathParam(c, "business");
    const token = pathParam(c, "token");
    const link = await openReset(c.env.DB, slug, token, c.get("now"));
    const form = await readForm(c);
    const password = form.get("password");
    const t = stringsOf(c);
    if (password !== form.get("confirm")) return c.html(newPasswordPage(c, slug, token, link, { confirm: t.invite.mismatch, message: t.fixErrors }), 422);
    try {
      const { email } = await resetPassword(c.env.DB, slug, token, password, c.get("now"));
      return c.redirect(`/admin/${slug}/sign-in?reset=1&email=${encodeURIComponent(email)}`, 303);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) return c.html(newPasswordPage(c, slug, token, link, { password: err.extra.errors?.[0]?.message, message: t.fixErrors }), 422);
      throw err;
    }
  } },
];
