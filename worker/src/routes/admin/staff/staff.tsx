/** @jsxImportSource hono/jsx */
/**
 * Staff (owners only): who works in this back office, with which role; invite someone (the
 * one-time link is shown to the owner to pass on: the e-mail issue will send the same link),
 * change a role, remove someone (their open sessions end at once).
 */
import { publicOrigin } from "../../../lib/origin";
import { ROLES, type Role } from "../../../domain/staff";
import { listStaff } from "../../../db/staff";
import { changeRole, invitePath, inviteStaff, removeStaff } from "../../../manage/staff";
import { uuidOf } from "../kit/query";
import { base, Csrf, done, Field, flashOf, FormError, langOf, Select, staffActor, stringsOf, fmtDateTime, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";

interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

async function render(c: AdminContext, state: { invite?: FormState; link?: { email: string; url: string; expires: string; emailed: string | null } } = {}, status: 200 | 201 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const me = c.get("staff");
  const users = await listStaff(c.env.DB, me.business_id, c.get("now"));
  const root = `${base(c)}/staff`;
  const roleOptions = ROLES.map((r) => [r, t.roles[r]] as [string, string]);
  const iv = state.invite?.values ?? {};
  const flash = flashOf(c, { removed: t.staff.removed, role: t.staff.roleChanged });
  return c.html(
    <Layout c={c} title={t.staff.title} current="staff" flash={flash}>
      <p class="hint">{t.staff.roleHelp}</p>
      {state.link ? (
        <div class="secret" role="status">
          <p>
            <strong>{state.link.email}</strong>: {t.staff.inviteLink} ({fmtDateTime(state.link.expires)} UTC)
          </p>
          <code id="invite-link" data-copy data-copy-label="Copy" data-copied-label="Copied.">
            {state.link.url}
          </code>
          {state.link.emailed ? <p data-invite-emailed>{t.staff.inviteEmailed(state.link.emailed)}</p> : null}
        </div>
      ) : null}
      <Table
        label={t.staff.title}
        head={
          <tr>
            <th scope="col">{t.staff.email}</th>
            <th scope="col">{t.staff.name}</th>
            <th scope="col">{t.staff.role}</th>
            <th scope="col">{t.staff.status}</th>
            <th scope="col">
              <span class="visually-hidden">{t.staff.remove}</span>
            </th>
          </tr>
        }
      >
        {users.map((u) => (
          <tr data-staff={u.email}>
            <td>
              {u.email}
              {u.id === me.staff_id ? ` (${t.staff.you})` : ""}
            </td>
            <td>{u.name}</td>
            <td>
              <form class="row" method="post" action={`${root}/${u.id}/role`}>
                <Csrf c={c} />
                <Select name="role" id={`role-${u.id}`} label={`${t.staff.role}: ${u.email}`} value={u.role} options={roleOptions} />
                <button type="submit" class="secondary">
                  {t.staff.changeRole}
                </button>
              </form>
            </td>
            <td>{u.password_hash ? t.staff.activeSessions(u.open_sessions) : u.invite_expires_at ? t.staff.pending(fmtDateTime(u.invite_expires_at)) : "—"}</td>
            <td>
              {u.id === me.staff_id ? null : (
                <details>
                  <summary>
                    {t.staff.remove}
                    <span class="visually-hidden"> {u.email}</span>
                  </summary>
                  <form method="post" action={`${root}/${u.id}/remove`}>
                    <Csrf c={c} />
                    <button type="submit" class="danger">
                      {t.staff.removeConfirm}
                      <span class="visually-hidden"> {u.email}</span>
                    </button>
                  </form>
                </details>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <section>
        <h2 id="invite-heading">{t.staff.inviteTitle}</h2>
        <form class="row" method="post" action={`${root}/invite`}>
          <Csrf c={c} />
          <FormError message={state.invite?.message} />
          <Field name="email" type="email" label={t.staff.email} value={iv.email} error={state.invite?.errors?.email} required autocomplete="off" />
          <Field name="name" label={t.staff.name} value={iv.name} error={state.invite?.errors?.name} autocomplete="off" />
          <Select name="role" label={t.staff.role} value={iv.role ?? "front_desk"} options={roleOptions} error={state.invite?.errors?.role} />
          <button type="submit">{t.staff.invite}</button>
        </form>
      </section>
    </Layout>,
    status,
  );
}

export const staffPage = (c: AdminContext) => render(c);

export async function staffInvite(c: AdminContext) {
  const form = (await readForm(c)).values();
  try {
    const origin = publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url);
    const invite = await inviteStaff(c.env.DB, staffActor(c), c.get("staff").business_id, { email: form.email ?? "", name: form.name, role: form.role ?? "" }, c.get("now"), undefined, {
      env: c.env,
      origin,
      language: langOf(c),
    });
    const url = `${origin}${invitePath(invite.token)}`;
    return render(c, { link: { email: (form.email ?? "").trim(), url, expires: invite.expiresAt.toISOString(), emailed: invite.emailedTo } }, 201);
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return render(c, { invite: { values: form, errors: failed.fields, message: failed.message } }, 422);
  }
}

export async function staffRole(c: AdminContext) {
  const form = (await readForm(c)).values();
  await changeRole(c.env.DB, staffActor(c), c.get("staff").business_id, uuidOf(c, "id", "staff_id"), (form.role ?? "") as Role, c.get("now"));
  return done(c, `${base(c)}/staff`, "role");
}

export async function staffRemove(c: AdminContext) {
  await removeStaff(c.env.DB, staffActor(c), c.get("staff").business_id, uuidOf(c, "id", "staff_id"), c.get("now"));
  return done(c, `${base(c)}/staff`, "removed");
}
