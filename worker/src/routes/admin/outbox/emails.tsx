/** @jsxImportSource hono/jsx */
/**
 * Outbox (owners and managers): every e-mail written for the business, newest first, with its
 * status and, when an attempt failed, why; one e-mail as it was sent (its text and the whole MIME
 * message); and, for owners, sending one again. The same reads and the same resend as the private
 * API's /emails (manage/emails.ts).
 */
import { EMAIL_STATUSES, type EMAIL_KIND_NAMES } from "../../../contract/private-emails";
import { emailById, listEmails } from "../../../db/emails";
import { readParts } from "../../../domain/email/mime";
import { SECRET_KINDS } from "../../../domain/email/plan";
import { may, type Role } from "../../../domain/staff";
import { notFound } from "../../../lib/errors";
import { resendEmail } from "../../../manage/emails";
import { base, Csrf, done, flashOf, fmtDateTime, Pager, staffActor, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";

const LIMIT = 25;

export async function emailsPage(c: AdminContext) {
  const t = stringsOf(c);
  const status = (EMAIL_STATUSES as readonly string[]).includes(c.req.query("status") ?? "") ? c.req.query("status")! : undefined;
  const page = Math.max(1, Math.min(100_000, Number(c.req.query("page")) || 1));
  const { rows, total } = await listEmails(c.env.DB, c.get("staff").business_id, { status: status ? [status] : undefined, page, limit: LIMIT });
  const root = `${base(c)}/emails`;
  return c.html(
    <Layout c={c} title={t.emails.title} current="emails">
      <p>{t.emails.intro}</p>
      <nav aria-label={t.emails.status}>
        <ul class="filters">
          {[undefined, ...EMAIL_STATUSES].map((s) => (
            <li>
              <a href={s ? `${root}?status=${s}` : root} aria-current={s === status ? "page" : undefined}>
                {s ? t.emails.statuses[s] : t.emails.all}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {rows.length ? (
        <Table
          captionId="emails-heading"
          caption={t.emails.title}
          hiddenCaption
          head={
            <tr>
              <th scope="col">{t.emails.created}</th>
              <th scope="col">{t.emails.kind}</th>
              <th scope="col">{t.emails.recipient}</th>
              <th scope="col">{t.emails.subject}</th>
              <th scope="col">{t.emails.status}</th>
            </tr>
          }
        >
          {rows.map((e) => (
            <tr data-email={e.id}>
              <td>{fmtDateTime(e.created_at)}</td>
              <td>{t.emails.kinds[e.kind] ?? e.kind}</td>
              <td>{e.recipient}</td>
              <td>
                <a href={`${root}/${e.id}`}>{e.subject ?? t.emails.notComposed}</a>
              </td>
              <td data-status={e.status}>
                {t.emails.statuses[e.status]}
                {e.last_error && e.status !== "sent" ? <small> {e.last_error}</small> : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.none}</p>
      )}
      <Pager c={c} page={page} limit={LIMIT} total={total} />
    </Layout>,
  );
}

export async function emailPage(c: AdminContext) {
  const t = stringsOf(c);
  const row = await emailById(c.env.DB, c.get("staff").business_id, c.req.param("id") ?? "");
  if (!row) throw notFound("The e-mail");
  // sent, but an earlier attempt's outcome is unknown: the recipient may have it twice (as GET /private/emails/{id} says)
  const e = { ...row, kind: row.kind as (typeof EMAIL_KIND_NAMES)[number], possible_duplicate: row.unconfirmed_attempts > 0 && row.status === "sent" };
  const parts = row.raw ? readParts(row.raw) : { text: null, html: null };
  const canResend = may(c.get("staff").role as Role, "emails_resend") && (e.status === "sent" || e.status === "failed") && !SECRET_KINDS.includes(e.kind);
  const flash = flashOf(c, { resent: t.emails.resent });
  return c.html(
    <Layout c={c} title={e.subject ?? t.emails.kinds[e.kind] ?? e.kind} current="emails" flash={flash}>
      <p>
        <a href={`${base(c)}/emails`}>{t.emails.title}</a>
      </p>
      <dl class="facts">
        <dt>{t.emails.kind}</dt>
        <dd>{t.emails.kinds[e.kind] ?? e.kind}</dd>
        <dt>{t.emails.recipient}</dt>
        <dd>{e.recipient}</dd>
        <dt>{t.emails.status}</dt>
        <dd data-status={e.status}>
          {t.emails.statuses[e.status]} · {t.emails.attempts(e.attempts)}
          {e.sent_at ? ` · ${fmtDateTime(e.sent_at)} UTC` : ""}
        </dd>
        {e.last_error && e.status !== "sent" ? (
          <>
            <dt>{t.emails.reason}</dt>
            <dd data-reason>
              {e.last_error}
              {e.next_attempt_at && e.status === "retrying" ? ` · ${t.emails.nextAttempt(fmtDateTime(e.next_attempt_at))}` : ""}
            </dd>
          </>
        ) : null}
        {e.booking_id ? (
          <>
            <dt>{t.emails.booking}</dt>
            <dd>
              <a href={`${base(c)}/bookings/${e.booking_id}`}>{e.booking_id}</a>
            </dd>
          </>
        ) : null}
        {e.resend_of ? (
          <>
            <dt>{t.emails.resendOf}</dt>
            <dd>
              <a href={`${base(c)}/emails/${e.resend_of}`}>{e.resend_of}</a>
            </dd>
          </>
        ) : null}
        <dt>Message-ID</dt>
        <dd>
          <code>{e.message_id}</code>
        </dd>
      </dl>
      {e.possible_duplicate ? <p role="note">{t.emails.duplicate}</p> : null}
      {canResend ? (
        <form method="post" action={`${base(c)}/emails/${e.id}/resend`}>
          <Csrf c={c} />
          <button type="submit">{t.emails.resend}</button>
        </form>
      ) : null}
      {parts.text ? (
        <section>
          <h2 id="message-heading">{t.emails.message}</h2>
          <pre class="message" tabindex={0} aria-labelledby="message-heading" data-message>
            {parts.text}
          </pre>
        </section>
      ) : null}
      {row.body_removed_at ? <p class="hint" data-body-removed>{t.emails.bodyRemoved(fmtDateTime(row.body_removed_at))}</p> : null}
      {row.raw ? (
        <details>
          <summary>{t.emails.raw}</summary>
          <pre class="message" tabindex={0}>
            {row.raw}
          </pre>
        </details>
      ) : null}
    </Layout>,
  );
}

export async function emailResend(c: AdminContext) {
  const row = await resendEmail(c.env, staffActor(c), c.get("staff").business_id, c.req.param("id") ?? "", c.get("now"));
  return done(c, `${base(c)}/emails/${row.id}`, "resent");
}
