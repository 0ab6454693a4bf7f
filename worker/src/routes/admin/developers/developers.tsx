/** @jsxImportSource hono/jsx */
/**
 * Developers (owners only): API keys (create: shown once; revoke) and webhook subscriptions
 * (subscribe: the signing secret shown once; delete; enable; the delivery log; deliver again).
 * The same functions as the private API and the keys CLI's rules.
 */
import { EVENT_NAMES, type EventName } from "../../../contract/events";
import { listApiKeyRows } from "../../../db/api-keys";
import { getWebhook, listDeliveries, listWebhooks } from "../../../db/webhooks";
import { notFound } from "../../../lib/errors";
import { createApiKey, revokeApiKey } from "../../../manage/keys";
import { createSubscription, deleteSubscription, enableSubscription, redeliverEvent } from "../../../manage/webhooks";
import { uuidOf } from "../kit/query";
import { base, Csrf, done, Field, flashOf, FormError, Select, staffActor, langOf, stringsOf, fmtDateTime, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";

interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

async function render(c: AdminContext, state: { key?: FormState; hook?: FormState; newKey?: { name: string; token: string }; newSecret?: { url: string; secret: string } } = {}, status: 200 | 201 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const businessId = c.get("staff").business_id;
  const [keys, hooks] = await Promise.all([listApiKeyRows(c.env.DB, businessId), listWebhooks(c.env.DB, businessId)]);
  const root = `${base(c)}/developers`;
  const kv = state.key?.values ?? {};
  const hv = state.hook?.values ?? {};
  const flash = flashOf(c, { revoked: t.developers.keyRevoked(c.req.query("name") ?? ""), deleted: t.developers.deleted, enabled: t.developers.enabled, redelivered: t.developers.redelivered });
  return c.html(
    <Layout c={c} title={t.developers.title} current="developers" flash={flash}>
      <section>
        <h2 id="keys-heading">{t.developers.keys}</h2>
        {state.newKey ? (
          <div class="secret" role="status">
            <p>
              <strong>{state.newKey.name}</strong>: {t.developers.keyShownOnce}
            </p>
            <code id="new-key" data-copy data-copy-label="Copy" data-copied-label="Copied.">
              {state.newKey.token}
            </code>
          </div>
        ) : null}
        <Table
          labelledBy="keys-heading"
          head={
            <tr>
              <th scope="col">{t.developers.keyName}</th>
              <th scope="col">{t.developers.scope}</th>
              <th scope="col">{t.developers.created}</th>
              <th scope="col">{t.developers.status}</th>
            </tr>
          }
        >
          {keys.map((k) => (
            <tr>
              <td>{k.name}</td>
              <td>{k.scope}</td>
              <td>{fmtDateTime(k.created_at)}</td>
              <td>
                {k.revoked_at ? (
                  `${t.developers.revoked} ${fmtDateTime(k.revoked_at)}`
                ) : (
                  <form class="inline" method="post" action={`${root}/keys/${k.id}/revoke`}>
                    <Csrf c={c} />
                    {t.developers.active}{" "}
                    <button type="submit" class="secondary" aria-label={`${t.developers.revoke}: ${k.name}`}>
                      {t.developers.revoke}
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </Table>
        <form class="row" method="post" action={`${root}/keys`}>
          <Csrf c={c} />
          <FormError message={state.key?.message} />
          <Field name="name" label={t.developers.keyName} value={kv.name} error={state.key?.errors?.name} required />
          <Select
            name="scope"
            label={t.developers.scope}
            value={kv.scope ?? "private"}
            error={state.key?.errors?.scope}
            options={[
              ["private", "private"],
              ["public", "public"],
            ]}
          />
          <button type="submit">{t.developers.createKey}</button>
        </form>
      </section>

      <section>
        <h2 id="hooks-heading">{t.developers.webhooks}</h2>
        {state.newSecret ? (
          <div class="secret" role="status">
            <p>
              {state.newSecret.url} · {t.developers.secretShownOnce}
            </p>
            <code id="new-secret" data-copy data-copy-label="Copy" data-copied-label="Copied.">
              {state.newSecret.secret}
            </code>
          </div>
        ) : null}
        {hooks.length ? (
          <Table
            labelledBy="hooks-heading"
            head={
              <tr>
                <th scope="col">{t.developers.url}</th>
                <th scope="col">{t.developers.events}</th>
                <th scope="col">{t.developers.status}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.developers.deliveries}</span>
                </th>
              </tr>
            }
          >
            {hooks.map((h) => (
              <tr>
                <td>{h.url}</td>
                <td>{(JSON.parse(h.events) as string[]).join(", ")}</td>
                <td>
                  {h.disabled_at ? (
                    <form class="inline" method="post" action={`${root}/webhooks/${h.id}/enable`}>
                      <Csrf c={c} />
                      disabled <button type="submit" class="secondary">{t.developers.enable}</button>
                    </form>
                  ) : (
                    "active"
                  )}
                </td>
                <td>
                  <a href={`${root}/webhooks/${h.id}`}>{t.developers.deliveries}</a>
                  <form class="inline" method="post" action={`${root}/webhooks/${h.id}/delete`}>
                    <Csrf c={c} />{" "}
                    <button type="submit" class="link" aria-label={`${t.developers.unsubscribe}: ${h.url}`}>
                      {t.developers.unsubscribe}
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </Table>
        ) : (
          <p>{t.none}</p>
        )}
        <form class="stack" method="post" action={`${root}/webhooks`}>
          <Csrf c={c} />
          <FormError message={state.hook?.message} />
          <Field name="url" type="url" label={t.developers.url} value={hv.url} error={state.hook?.errors?.url} required placeholder="https://example.com/hooks" />
          <fieldset aria-describedby={state.hook?.errors?.events ? "events-error" : undefined}>
            <legend>{t.developers.events}</legend>
            {EVENT_NAMES.map((e) => (
              <div class="check">
                <input type="checkbox" id={`ev-${e}`} name="events" value={e} />
                <label for={`ev-${e}`}>{e}</label>
              </div>
            ))}
            {state.hook?.errors?.events ? (
              <small id="events-error" class="error">
                {state.hook.errors.events}
              </small>
            ) : null}
          </fieldset>
          <button type="submit">{t.developers.subscribe}</button>
        </form>
      </section>
    </Layout>,
    status,
  );
}

export const developersPage = (c: AdminContext) => render(c);

export async function keyCreate(c: AdminContext) {
  const form = (await readForm(c)).values();
  try {
    const key = await createApiKey(c.env, staffActor(c), c.get("staff").business_id, { name: form.name ?? "", scope: form.scope ?? "" }, c.get("now"));
    // Shown once, on this answer: a redirect would have to carry it in a URL.
    return render(c, { newKey: { name: (form.name ?? "").trim(), token: key.token } }, 201);
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return render(c, { key: { values: form, errors: failed.fields, message: failed.message } }, 422);
  }
}

export async function keyRevoke(c: AdminContext) {
  const id = uuidOf(c, "id", "key_id");
  const name = await revokeApiKey(c.env, staffActor(c), c.get("staff").business_id, id, c.get("now"));
  return done(c, `${base(c)}/developers?name=${encodeURIComponent(name)}`, "revoked");
}

export async function hookCreate(c: AdminContext) {
  const posted = await readForm(c);
  const form = posted.values();
  const events = posted.list("events").filter((e): e is EventName => (EVENT_NAMES as readonly string[]).includes(e));
  try {
    const { row, secret } = await createSubscription(c.env, staffActor(c), c.get("staff").business_id, { url: form.url ?? "", events }, c.get("now"));
    return render(c, { newSecret: { url: row.url, secret } }, 201);
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return render(c, { hook: { values: form, errors: failed.fields, message: failed.message } }, 422);
  }
}

export async function hookDelete(c: AdminContext) {
  await deleteSubscription(c.env, staffActor(c), c.get("staff").business_id, uuidOf(c, "id", "webhook_id"), c.get("now"));
  return done(c, `${base(c)}/developers`, "deleted");
}

export async function hookEnable(c: AdminContext) {
  await enableSubscription(c.env, staffActor(c), c.get("staff").business_id, uuidOf(c, "id", "webhook_id"), c.get("now"));
  return done(c, `${base(c)}/developers`, "enabled");
}

/** A subscription's delivery log (newest first) with "deliver again" on each event. */
export async function hookDeliveries(c: AdminContext) {
  const t = stringsOf(c);
  const id = uuidOf(c, "id", "webhook_id");
  const hook = await getWebhook(c.env.DB, c.get("staff").business_id, id);
  if (!hook) throw notFound("The webhook");
  const page = Math.max(1, Number(c.req.query("page")) || 1);
  const { rows } = await listDeliveries(c.env.DB, id, { page, limit: 50 });
  const flash = flashOf(c, { redelivered: t.developers.redelivered });
  return c.html(
    <Layout c={c} title={`${t.developers.deliveries}: ${hook.url}`} current="developers" flash={flash}>
      <p>
        <a href={`${base(c)}/developers`}>{t.developers.title}</a>
      </p>
      {rows.length ? (
        <Table
          label={t.developers.deliveries}
          head={
            <tr>
              <th scope="col">{t.developers.event}</th>
              <th scope="col">{t.developers.attempt}</th>
              <th scope="col">{t.developers.result}</th>
              <th scope="col">{t.developers.at}</th>
              <th scope="col">
                <span class="visually-hidden">{t.developers.redeliver}</span>
              </th>
            </tr>
          }
        >
          {rows.map((d) => (
            <tr>
              <td>
                {d.event} <small>{d.event_id}</small>
              </td>
              <td class="num">
                {d.series}.{d.attempt}
              </td>
              <td>
                {d.status}
                {d.status_code ? ` (${d.status_code})` : ""}
                {d.error ? ` ${d.error}` : ""}
              </td>
              <td>{fmtDateTime(d.attempted_at ?? d.next_retry_at ?? d.created_at)}</td>
              <td>
                {hook.disabled_at ? null : (
                  <form class="inline" method="post" action={`${base(c)}/developers/webhooks/${id}/redeliver`}>
                    <Csrf c={c} />
                    <input type="hidden" name="event_id" value={d.event_id} />
                    <button type="submit" class="secondary" aria-label={`${t.developers.redeliver}: ${d.event} ${d.event_id}`}>
                      {t.developers.redeliver}
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.none}</p>
      )}
    </Layout>,
  );
}

export async function hookRedeliver(c: AdminContext) {
  const id = uuidOf(c, "id", "webhook_id");
  const form = (await readForm(c)).values();
  await redeliverEvent(c.env, staffActor(c), c.get("staff").business_id, id, (form.event_id ?? "").slice(0, 64), c.get("now"));
  return done(c, `${base(c)}/developers/webhooks/${id}`, "redelivered");
}
