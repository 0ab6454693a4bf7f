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
import { STRIPE_EVENTS, StripeSettingsUpdate } from "../../../contract/payments";
import { saveStripeSettings, stripeSettings } from "../../../manage/stripe";
import { publicOrigin } from "../../../lib/origin";
import { ApiError } from "../../../lib/errors";
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

async function render(
  c: AdminContext,
  state: { key?: FormState; hook?: FormState; stripe?: FormState; newKey?: { name: string; token: string }; newSecret?: { url: string; secret: string } } = {},
  status: 200 | 201 | 409 | 422 | 503 = 200,
) {
  const t = stringsOf(c);
  const businessId = c.get("staff").business_id;
  const [keys, hooks, stripe] = await Promise.all([listApiKeyRows(c.env.DB, businessId), listWebhooks(c.env.DB, businessId), stripeSettings(c.env, businessId)]);
  let origin = "https://<PUBLIC_ORIGIN>";
  try {
    origin = publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url);
  } catch {
    /* the URL is shown with the setting's name */
  }
  const root = `${base(c)}/developers`;
  const kv = state.key?.values ?? {};
  const hv = state.hook?.values ?? {};
  const flash = flashOf(c, { stripe: t.developers.stripeSaved, revoked: t.developers.keyRevoked(c.req.query("name") ?? ""), deleted: t.developers.deleted, enabled: t.developers.enabled, redelivered: t.developers.redelivered });
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

      <section data-stripe>
        <h2 id="stripe-heading">{t.developers.stripe}</h2>
        <p class="hint" id="stripe-help">
          {t.developers.stripeHelp}
        </p>
        <dl class="facts">
          <dt>{t.developers.stripeKey}</dt>
          <dd data-stripe-key={stripe.secret_key_set ? "set" : "unset"}>{stripe.secret_key_set ? t.developers.isSet : t.developers.notSet}</dd>
          <dt>{t.developers.stripeWebhookSecret}</dt>
          <dd data-stripe-webhook={stripe.webhook_secret_set ? "set" : "unset"}>{stripe.webhook_secret_set ? t.developers.isSet : t.developers.notSet}</dd>
          <dt>{t.developers.stripeWebhookUrl}</dt>
          <dd>
            <code>{`${origin}/stripe/webhook/${c.req.param("business") ?? ""}`}</code>
          </dd>
          <dt>{t.developers.stripeEvents}</dt>
          <dd>{STRIPE_EVENTS.join(", ")}</dd>
        </dl>
        <form class="stack" method="post" action={`${root}/stripe`} aria-describedby="stripe-help" autocomplete="off">
          <Csrf c={c} />
          <FormError message={state.stripe?.message} />
          <Field id="f-stripe-key" name="secret_key" type="password" label={t.developers.stripeKey} value="" error={state.stripe?.errors?.secret_key} autocomplete="off" />
          <Field id="f-stripe-webhook" name="webhook_secret" type="password" label={t.developers.stripeWebhookSecret} value="" error={state.stripe?.errors?.webhook_secret} autocomplete="off" />
          <button type="submit">{t.developers.stripeSave}</button>
        </form>
      </section>
    </Layout>,
    status,
  );
}

export const developersPage = (c: AdminContext) => render(c);

/** POST /developers/stripe: the Stripe key and webhook signing secret (write-only; an empty field keeps what is set). */
export async function stripeSave(c: AdminContext) {
  const form = (await readForm(c)).values();
  const given = (v: string | undefined) => ((v ?? "").trim() ? (v ?? "").trim() : undefined);
  try {
    const parsed = StripeSettingsUpdate.safeParse({ secret_key: given(form.secret_key), webhook_secret: given(form.webhook_secret) });
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new ApiError(422, "validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
    }
    await saveStripeSettings(c.env, staffActor(c), c.get("staff").business_id, parsed.data, c.get("now"));
    return done(c, `${base(c)}/developers`, "stripe");
  } catch (err) {
    if (err instanceof ApiError && err.status === 503) return render(c, { stripe: { message: err.message } }, 503);
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return render(c, { stripe: { errors: failed.fields, message: failed.message } }, 422);
  }
}

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
