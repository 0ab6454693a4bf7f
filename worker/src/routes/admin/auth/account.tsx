/** @jsxImportSource hono/jsx */
/** One's own account: password and language. */
import { PASSWORD_MIN } from "../../../lib/password";
import { changePassword, setLanguage } from "../../../manage/staff";
import { writeSessionCookie } from "./auth";
import { base, Csrf, done, Field, flashOf, FormError, LANGS, Select, langOf, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { failureOf, readForm } from "../kit/form";

function renderAccount(c: AdminContext, state: { errors?: Record<string, string>; message?: string } = {}, status: 200 | 422 = 200) {
  const t = stringsOf(c);
  const s = c.get("staff");
  const flash = flashOf(c, { password: t.account.changed, language: t.account.languageSaved });
  return c.html(
    <Layout c={c} title={t.account.title} current="account" flash={flash}>
      <p>
        {s.email} · {t.roles[s.role as keyof typeof t.roles]}
      </p>
      <section>
        <h2 id="language-heading">{t.language}</h2>
        <form class="row" method="post" action={`${base(c)}/account/language`}>
          <Csrf c={c} />
          <Select
            name="language"
            label={t.language}
            value={s.language ?? ""}
            options={[["", t.languageAuto], ...Object.values(LANGS).map((l) => [l.lang, l.languageName] as [string, string])]}
          />
          <button type="submit">{t.save}</button>
        </form>
      </section>
      <section>
        <h2 id="password-heading">{t.account.password}</h2>
        <form class="stack" method="post" action={`${base(c)}/account/password`}>
          <Csrf c={c} />
          <FormError message={state.message} />
          <input type="hidden" name="username" value={s.email} autocomplete="username" />
          <Field name="current" type="password" label={t.account.current} error={state.errors?.current} required autocomplete="current-password" />
          <Field name="password" type="password" label={t.account.newPassword} hint={t.invite.passwordHint(PASSWORD_MIN)} error={state.errors?.password} required autocomplete="new-password" />
          <button type="submit">{t.account.password}</button>
        </form>
      </section>
    </Layout>,
    status,
  );
}

export const accountPage = (c: AdminContext) => renderAccount(c);

export async function passwordChange(c: AdminContext) {
  const form = (await readForm(c)).values();
  try {
    const session = await changePassword(c.env.DB, c.get("staff"), { current: form.current ?? "", password: form.password ?? "" }, c.get("now"));
    writeSessionCookie(c, session);
    return done(c, `${base(c)}/account`, "password");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderAccount(c, { errors: failed.fields, message: stringsOf(c).fixErrors }, 422);
  }
}

export async function languageChange(c: AdminContext) {
  const form = (await readForm(c)).values();
  const language = form.language && Object.hasOwn(LANGS, form.language) ? form.language : null;
  await setLanguage(c.env.DB, c.get("staff"), language, c.get("now"));
  return done(c, `${base(c)}/account`, "language");
}
