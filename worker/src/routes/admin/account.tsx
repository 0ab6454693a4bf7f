/** @jsxImportSource hono/jsx */
/** Audit log (owners, managers) and one's own account: password and language. */
import { listAuditEntries } from "../../db/audit-log";
import { PASSWORD_MIN } from "../../lib/password";
import { changePassword, setLanguage } from "../../manage/staff";
import { writeSessionCookie } from "./auth";
import { base, Csrf, done, Field, flashOf, formErrors, FormError, formOf, Layout, LANGS, need, Pager, Select, stringsOf, fmtDateTime, type AdminContext } from "./kit";

const ENTITIES = ["booking", "guest", "booker", "api_key", "webhook", "staff", "inventory"];

export async function auditPage(c: AdminContext) {
  need(c, "audit");
  const t = stringsOf(c);
  const entity = c.req.query("entity");
  const page = Math.min(1_000_000, Math.max(1, Number(c.req.query("page")) || 1));
  const limit = 50;
  const { rows, total } = await listAuditEntries(c.env.DB, c.get("staff").business_id, { entity: entity || undefined, page, limit });
  return c.html(
    <Layout c={c} title={t.audit.title} current="audit">
      <form class="row" method="get" action={`${base(c)}/audit`}>
        <Select name="entity" label={t.audit.entity} value={entity ?? ""} options={[["", t.audit.all], ...ENTITIES.map((e) => [e, e] as [string, string])]} />
        <button type="submit">{t.apply}</button>
      </form>
      <div class="table-wrap" tabindex={0} role="region" aria-label={t.audit.title}>
        <table>
          <caption class="visually-hidden">{t.audit.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.audit.at}</th>
              <th scope="col">{t.audit.who}</th>
              <th scope="col">{t.audit.what}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td>{fmtDateTime(r.at)}</td>
                <td>
                  {r.actor_name} <small>({r.actor_kind})</small>
                </td>
                <td>{r.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={page} limit={limit} total={total} />
    </Layout>,
  );
}

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
  const form = await formOf(c);
  try {
    const session = await changePassword(c.env.DB, c.get("staff"), { current: form.current ?? "", password: form.password ?? "" }, c.get("now"));
    writeSessionCookie(c, session);
    return done(c, `${base(c)}/account`, "password");
  } catch (err) {
    const failed = formErrors(err);
    if (!failed) throw err;
    return renderAccount(c, { errors: failed.fields, message: stringsOf(c).fixErrors }, 422);
  }
}

export async function languageChange(c: AdminContext) {
  const form = await formOf(c);
  const language = form.language && Object.hasOwn(LANGS, form.language) ? form.language : null;
  await setLanguage(c.env.DB, c.get("staff"), language, c.get("now"));
  return done(c, `${base(c)}/account`, "language");
}
