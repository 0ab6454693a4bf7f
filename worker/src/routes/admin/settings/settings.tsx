/** @jsxImportSource hono/jsx */
/**
 * Settings (owners, managers): the business's languages, currencies and exchange rates, terms per
 * language, what the booking form asks, limits, time zone and e-mail. The page is one form with
 * a Save under each section, and every Save saves the whole page: a value typed in one section
 * is never dropped by a Save pressed under another (the owner's Save means "keep what I typed").
 * Each Save is one `updateSettings` (manage/settings.ts), the function `PATCH /private/settings`
 * calls, with the fields of every section on the page: the same validation, audit entry and
 * SettingsUpdated event. "Settings saved." is shown under the heading of the section whose Save
 * was pressed, where the page opens. A refused value is shown at its field (422), with every
 * typed value kept; the message at the pressed Save links each refused field. The form fields are named by the settings' own paths
 * (`guest_fields.minimum_age`), so an error's path finds its field.
 */
import type { Child, FC } from "hono/jsx";
import { ApiError } from "../../../lib/errors";
import { getSettings, updateSettings, type SettingsView } from "../../../manage/settings";
import { stripeSettings } from "../../../manage/stripe";
import { base, Check, Csrf, describedBy, Field, FieldHint, FieldMessage, flashOf, FormError, LANGS, langOf, Select, staffActor, stringsOf, TextArea, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { WIDGET_LANGUAGES } from "../../../contract/languages";
import { MAIL_LANGUAGES } from "../../../domain/email/strings";
import { failureOf, readForm } from "../kit/form";

export type SectionName = "languages" | "currencies" | "terms" | "fields" | "custom-fields" | "limits" | "time-zone" | "email" | "human-check" | "payments";
const SECTIONS: SectionName[] = ["languages", "currencies", "terms", "fields", "custom-fields", "limits", "time-zone", "email", "human-check", "payments"];
/** Blank cancellation rule rows shown below the stored ones, for adding without script. */
const NEW_RULE_ROWS = 2;
const FIELD_TYPES = ["text", "number", "boolean", "date", "select"] as const;
const APPLIES_TO = ["guest", "customer", "both"] as const;
/** Blank rows the custom fields form offers for new fields. */
const NEW_FIELD_ROWS = 2;
const LIMITS = [
  "cart_lifetime_seconds",
  "max_items_per_cart",
  "max_open_carts_per_client",
  "max_extensions_per_cart",
  "max_guests_held_per_visitor",
  "max_hold_seconds_per_visitor",
  "rate_limit_per_minute",
  "max_bookings_per_visitor_per_hour",
  "max_bookings_per_visitor_per_day",
  "max_emails_per_recipient_per_day",
] as const;

/** A failed section: what the user sent, each error by its form field ("" for the form as a whole). */
export interface Failed {
  section: string;
  /** The sections whose fields the form sent (all of them from the Settings page), each showing what was sent. */
  sections?: string[];
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string;
}


/** The message of a refused page at the Save that was pressed: what is wrong, each refused field linked (it may be in another section). */
export const Refused: FC<{ c: AdminContext; failed?: Failed }> = ({ c, failed }) => {
  if (!failed) return null;
  const t = stringsOf(c);
  const refused = Object.entries(failed.errors).filter(([field]) => field !== "");
  return (
    <div class="form-error" role="alert">
      <p>{`${t.fixErrors} ${failed.errors[""] ?? ""}`.trim()}</p>
      {refused.length ? (
        <ul>
          {refused.map(([field, message]) => (
            <li>
              <a href={`#f-${field}`}>{message}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
};

const Section: FC<{ c: AdminContext; name: SectionName; title: string; failed?: Failed; saved?: boolean; children?: Child; hint?: string }> = ({ c, name, title, failed, saved, hint, children }) => {
  const t = stringsOf(c);
  const mine = failed?.section === name ? failed : undefined;
  return (
    <section aria-labelledby={`h-${name}`} class="settings-section" data-section={name}>
      <h2 id={`h-${name}`}>{title}</h2>
      {saved ? (
        <p class="flash" role="status" data-saved={name}>
          {t.settings.saved}
        </p>
      ) : null}
      {hint ? <p class="hint">{hint}</p> : null}
      <div class="stack">
        <input type="hidden" name="sections" value={name} />
        <Refused c={c} failed={mine} />
        {children}
        <div>
          <button type="submit" formaction={`${base(c)}/settings/${name}`} data-save>
            {t.save}
          </button>
        </div>
      </div>
    </section>
  );
};

// ---- Values: from the settings, or as the user sent them ----

const num = (v: number | undefined | null) => (v === undefined || v === null ? "" : String(v));
const on = (b: boolean) => (b ? "on" : "");

/** Every field of the screen as the form shows it, from the stored settings. */
export function valuesOf(s: SettingsView): Record<string, string> {
  const v: Record<string, string> = {
    default_language: s.default_language,
    languages: s.languages.join(", "),
    terms: s.terms,
    "guest_fields.birthday.request": on(s.guest_fields.birthday.request),
    "guest_fields.birthday.required": on(s.guest_fields.birthday.required),
    "guest_fields.minimum_age": num(s.guest_fields.minimum_age),
    "customer_fields.address.request": on(s.customer_fields.address.request),
    "customer_fields.address.required": on(s.customer_fields.address.required),
    "customer_fields.phone.request": on(s.customer_fields.phone.request),
    "customer_fields.phone.required": on(s.customer_fields.phone.required),
    "customer_fields.minimum_age": num(s.customer_fields.minimum_age),
    time_zone: s.time_zone,
    email_from: s.email_from ?? "",
    contact_email: s.contact_email ?? "",
    contact_phone: s.contact_phone ?? "",
    company_name: s.company_name ?? "",
    company_address: s.company_address ?? "",
    brand_color: s.brand_color,
    notification_emails: s.notification_emails.join("\n"),
    turnstile_site_key: s.turnstile_site_key ?? "",
    // write-only: never shown, typed anew to replace it
    turnstile_secret: "",
    currency_rows: String(s.currencies.length),
    default: String(Math.max(0, s.currencies.findIndex((c) => c.default))),
  };
  for (const [lang, text] of Object.entries(s.terms_translations)) v[`terms_translations.${lang}`] = text;
  for (const k of LIMITS) v[k] = num(s[k]);
  v.custom_field_rows = String(s.custom_fields.length);
  s.custom_fields.forEach((f, i) => {
    v[`custom_fields.${i}.key`] = f.key;
    v[`custom_fields.${i}.title`] = f.title;
    v[`custom_fields.${i}.type`] = f.type;
    v[`custom_fields.${i}.options`] = f.options.join(", ");
    v[`custom_fields.${i}.required`] = on(f.required);
    v[`custom_fields.${i}.applies_to`] = f.applies_to;
    for (const [lang, t] of Object.entries(f.translations)) {
      if (t.title) v[`custom_fields.${i}.translations.${lang}.title`] = t.title;
      if (t.options) v[`custom_fields.${i}.translations.${lang}.options`] = t.options.join(", ");
    }
  });
  s.currencies.forEach((c, i) => {
    v[`currencies.${i}.iso_code`] = c.iso_code;
    v[`currencies.${i}.exchange_rate`] = num(c.exchange_rate);
  });
  // the payment policy (issue 31)
  const pp = s.payment_policy;
  v["payment_policy.online_payment"] = on(pp.online_payment);
  v["payment_policy.deposit.type"] = pp.deposit.type;
  v["payment_policy.deposit.value"] = pp.deposit.type === "percent" ? num(pp.deposit.percent) : pp.deposit.type === "per_person" ? num(pp.deposit.amount) : "";
  v["payment_policy.balance_due_days"] = num(pp.balance_due_days);
  v["payment_policy.pay_to_confirm"] = on(pp.pay_to_confirm);
  v["payment_policy.payment_hold_minutes"] = num(pp.payment_hold_minutes);
  v["payment_policy.reminder_days"] = num(pp.reminder_days);
  v.cancellation_rule_rows = String(pp.cancellation_rules.length);
  pp.cancellation_rules.forEach((r, i) => {
    v[`payment_policy.cancellation_rules.${i}.days_before`] = num(r.days_before);
    v[`payment_policy.cancellation_rules.${i}.refund_percent`] = num(r.refund_percent);
  });
  return v;
}

/** A number as typed: a number when it reads as one, else the text itself (so the settings' own check names the field). */
function numberOf(text: string | undefined): number | string | undefined {
  const v = (text ?? "").trim();
  if (v === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}
const list = (text: string | undefined, split: RegExp) =>
  (text ?? "")
    .split(split)
    .map((x) => x.trim())
    .filter(Boolean);
const orNull = (text: string | undefined) => ((text ?? "").trim() === "" ? null : (text ?? "").trim());

/**
 * The PATCH of one section from its form, and how an error's path (of the PATCH) names the form's
 * field. Only the section's own fields are sent: a field left out stays as it is.
 */
export function patchOf(section: SectionName, form: Record<string, string>, s: SettingsView): { patch: Record<string, unknown>; fieldOf: (path: string) => string } {
  const fields = new Set(Object.keys(form));
  // the longest leading part of the path that is a field of the form, else the form as a whole
  const byPath = (path: string) => {
    const parts = path.split(".");
    for (let n = parts.length; n > 0; n--) {
      const name = parts.slice(0, n).join(".");
      if (fields.has(name)) return name;
    }
    return "";
  };
  switch (section) {
    case "languages":
      fields.add("languages").add("default_language");
      return { patch: { default_language: (form.default_language ?? "").trim(), languages: list(form.languages, /[\s,;]+/) }, fieldOf: byPath };
    case "currencies": {
      const rows = Math.min(21, Math.max(0, Number(form.currency_rows) || 0));
      const sent: number[] = [];
      for (let i = 0; i <= rows; i++) {
        const code = (form[`currencies.${i}.iso_code`] ?? "").trim().toUpperCase();
        if (code && form[`currencies.${i}.remove`] !== "on") sent.push(i);
      }
      const currencies = sent.map((i) => ({
        iso_code: (form[`currencies.${i}.iso_code`] ?? "").trim().toUpperCase(),
        exchange_rate: numberOf(form[`currencies.${i}.exchange_rate`]) ?? 1,
        default: form.default === String(i),
      }));
      // An error of currencies.K names the K-th currency sent: the form's row sent[K].
      const fieldOf = (path: string) => {
        const m = /^currencies\.(\d+)\.(\w+)/.exec(path);
        if (m && sent[Number(m[1])] !== undefined) {
          const name = `currencies.${sent[Number(m[1])]}.${m[2]}`;
          return fields.has(name) ? name : `currencies.${sent[Number(m[1])]}.iso_code`;
        }
        return "";
      };
      return { patch: { currencies }, fieldOf };
    }
    case "terms": {
      const translations: Record<string, string> = {};
      for (const lang of s.languages) {
        const text = form[`terms_translations.${lang}`];
        if (lang !== s.default_language && text !== undefined && text.trim() !== "") translations[lang] = text;
      }
      return { patch: { terms: form.terms ?? "", terms_translations: translations }, fieldOf: byPath };
    }
    case "fields": {
      const rule = (name: string) => ({ request: form[`${name}.request`] === "on", required: form[`${name}.required`] === "on" });
      fields.add("guest_fields.minimum_age").add("customer_fields.minimum_age");
      return {
        patch: {
          guest_fields: { birthday: rule("guest_fields.birthday"), minimum_age: numberOf(form["guest_fields.minimum_age"]) ?? 0 },
          customer_fields: { address: rule("customer_fields.address"), phone: rule("customer_fields.phone"), minimum_age: numberOf(form["customer_fields.minimum_age"]) ?? 0 },
        },
        fieldOf: byPath,
      };
    }
    case "custom-fields": {
      // The stored fields' rows, then the blank ones; a row without key and title, or marked
      // "remove", is not sent. The list is replaced whole, as PATCH /private/settings does.
      const rows = Math.min(100, Math.max(0, Number(form.custom_field_rows) || 0)) + NEW_FIELD_ROWS;
      const sent: number[] = [];
      for (let i = 0; i < rows; i++) {
        const at = (k: string) => (form[`custom_fields.${i}.${k}`] ?? "").trim();
        if ((at("key") || at("title")) && form[`custom_fields.${i}.remove`] !== "on") sent.push(i);
      }
      const custom_fields = sent.map((i) => {
        const at = (k: string) => (form[`custom_fields.${i}.${k}`] ?? "").trim();
        // A translation of the title and the choices per other language, each left out when empty.
        const translations: Record<string, { title?: string; options?: string[] }> = {};
        for (const lang of s.languages) {
          if (lang === s.default_language) continue;
          const title = at(`translations.${lang}.title`);
          const options = list(at(`translations.${lang}.options`), /\s*,\s*/);
          if (title || options.length) translations[lang] = { ...(title ? { title } : {}), ...(options.length ? { options } : {}) };
        }
        return { key: at("key"), title: at("title"), type: at("type") || "text", options: list(at("options"), /\s*,\s*/), required: at("required") === "on", applies_to: at("applies_to") || "guest", translations };
      });
      // An error of custom_fields.K names the K-th field sent: the form's row sent[K].
      const fieldOf = (path: string) => {
        const m = /^custom_fields\.(\d+)(?:\.(translations\.\w+\.\w+|\w+))?/.exec(path);
        if (!m || sent[Number(m[1])] === undefined) return "";
        const row = sent[Number(m[1])];
        const name = `custom_fields.${row}.${m[2] ?? "key"}`;
        return fields.has(name) ? name : `custom_fields.${row}.key`;
      };
      return { patch: { custom_fields }, fieldOf };
    }
    case "limits": {
      const patch: Record<string, unknown> = {};
      for (const k of LIMITS) {
        // A limit the form did not send (a form older than the limit) stays as it is.
        if (form[k] === undefined) continue;
        fields.add(k);
        const v = numberOf(form[k]);
        patch[k] = v === undefined ? "" : v;
      }
      return { patch, fieldOf: byPath };
    }
    case "time-zone":
      fields.add("time_zone");
      return { patch: { time_zone: (form.time_zone ?? "").trim() }, fieldOf: byPath };
    case "email":
      for (const k of ["email_from", "contact_email", "contact_phone", "company_name", "company_address", "brand_color", "notification_emails"]) fields.add(k);
      return {
        patch: {
          email_from: orNull(form.email_from),
          contact_email: orNull(form.contact_email),
          contact_phone: orNull(form.contact_phone),
          // Only what the form sent: a post of an older form leaves the legal name and address as they are.
          ...(form.company_name === undefined ? {} : { company_name: form.company_name.trim() }),
          ...(form.company_address === undefined ? {} : { company_address: orNull(form.company_address) }),
          brand_color: (form.brand_color ?? "").trim(),
          notification_emails: list(form.notification_emails, /[\s,;]+/),
        },
        fieldOf: byPath,
      };
    case "payments": {
      const P = "payment_policy";
      for (const k of ["online_payment", "deposit.type", "deposit.value", "balance_due_days", "pay_to_confirm", "payment_hold_minutes", "reminder_days"]) fields.add(`${P}.${k}`);
      const kind = (form[`${P}.deposit.type`] ?? "none").trim() || "none";
      const value = numberOf((form[`${P}.deposit.value`] ?? "").replace(",", "."));
      const deposit = kind === "percent" ? { type: kind, percent: value ?? "" } : kind === "per_person" ? { type: kind, amount: value ?? "" } : { type: kind };
      // The stored rules' rows, then the blank ones; a row with both fields blank is not sent.
      const rows = Math.min(10, Math.max(0, Number(form.cancellation_rule_rows) || 0)) + NEW_RULE_ROWS;
      const sent: number[] = [];
      for (let i = 0; i < rows; i++) {
        const at = (k: string) => (form[`${P}.cancellation_rules.${i}.${k}`] ?? "").trim();
        if (at("days_before") || at("refund_percent")) sent.push(i);
      }
      const rules = sent.map((i) => ({
        days_before: numberOf(form[`${P}.cancellation_rules.${i}.days_before`]) ?? "",
        refund_percent: numberOf(form[`${P}.cancellation_rules.${i}.refund_percent`]) ?? "",
      }));
      const fieldOf = (path: string) => {
        // the deposit's percent or amount is the form's one value field
        if (/^payment_policy\.deposit\.(percent|amount)/.test(path)) return `${P}.deposit.value`;
        if (path === `${P}.deposit` || path.startsWith(`${P}.deposit.type`)) return `${P}.deposit.type`;
        // an error of cancellation_rules.K names the K-th rule sent: the form's row sent[K]
        const m = /^payment_policy\.cancellation_rules\.(\d+)(?:\.(\w+))?/.exec(path);
        if (m && sent[Number(m[1])] !== undefined) return `${P}.cancellation_rules.${sent[Number(m[1])]}.${m[2] === "refund_percent" ? "refund_percent" : "days_before"}`;
        if (m || path === `${P}.cancellation_rules`) return `${P}.cancellation_rules.0.days_before`;
        return byPath(path);
      };
      return {
        patch: {
          payment_policy: {
            online_payment: form[`${P}.online_payment`] === "on",
            deposit,
            balance_due_days: numberOf(form[`${P}.balance_due_days`]) ?? 0,
            pay_to_confirm: form[`${P}.pay_to_confirm`] === "on",
            payment_hold_minutes: numberOf(form[`${P}.payment_hold_minutes`]) ?? "",
            reminder_days: numberOf(form[`${P}.reminder_days`]) ?? "",
            cancellation_rules: rules,
          },
        },
        fieldOf,
      };
    }
    case "human-check": {
      fields.add("turnstile_site_key");
      fields.add("turnstile_secret");
      if (form.turnstile_off === "on") return { patch: { turnstile_site_key: null, turnstile_secret: null }, fieldOf: byPath };
      // The secret is write-only: left empty, the stored one stays.
      const secret = orNull(form.turnstile_secret);
      return { patch: { turnstile_site_key: orNull(form.turnstile_site_key), ...(secret === null ? {} : { turnstile_secret: secret }) }, fieldOf: byPath };
    }
  }
}

/** A refused section as the page shows it (null: not one to show at the form): each error at its field, the rest above the form. */
export function sectionFailure(c: AdminContext, err: unknown, section: string, values: Record<string, string>, fieldOf: (path: string) => string): Failed | null {
  const failed = failureOf(err, fieldOf, { lang: langOf(c) });
  if (!failed) return null;
  const errors = { ...failed.fields };
  if (failed.unplaced.length || !Object.keys(errors).length) errors[""] = failed.unplaced.join("; ") || failed.message;
  return { section, values, errors, message: failed.message };
}

// ---- The page ----

type TextPart = "widget" | "emails" | "backOffice";
/** Where each part of the service has texts: read from the code's own lists, so a language added there stops the warning. */
const TEXTS: Record<TextPart, readonly string[]> = { widget: WIDGET_LANGUAGES, emails: MAIL_LANGUAGES, backOffice: Object.keys(LANGS) };

/** The business's languages that some part of the service has no texts in, each with those parts. */
export function languagesWithoutTexts(languages: string[]): { language: string; parts: TextPart[] }[] {
  return languages
    .map((language) => ({ language, parts: (Object.keys(TEXTS) as TextPart[]).filter((part) => !TEXTS[part].includes(language)) }))
    .filter((x) => x.parts.length > 0);
}

function languageName(code: string, lang: string): string {
  try {
    const name = new Intl.DisplayNames([lang], { type: "language" }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

function timeZones(): string[] {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

async function render(c: AdminContext, failed?: Failed) {
  const t = stringsOf(c);
  const ts = t.settings;
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  const stored = valuesOf(s);
  const sent = (section: SectionName) => !!failed && (failed.sections ?? [failed.section]).includes(section);
  /** A section's values: as sent when the page was refused, else as stored. */
  const vOf = (section: SectionName) => (sent(section) ? failed!.values : stored);
  const errOf = (section: SectionName) => (sent(section) ? failed!.errors : {});
  // "Settings saved." under the heading of the section whose Save was pressed (the page opens there).
  const savedAt = flashOf(c, { saved: "saved" }) ? (SECTIONS as string[]).find((n) => n === c.req.query("section")) ?? "languages" : undefined;

  const lv = vOf("languages");
  const le = errOf("languages");
  const cv = vOf("currencies");
  const ce = errOf("currencies");
  const rows = Math.min(20, Math.max(0, Number(cv.currency_rows) || 0));
  const tv = vOf("terms");
  const te = errOf("terms");
  const fv = vOf("fields");
  const fe = errOf("fields");
  const xv = vOf("custom-fields");
  const xe = errOf("custom-fields");
  const fieldRows = Math.min(100, Math.max(0, Number(xv.custom_field_rows) || 0)) + NEW_FIELD_ROWS;
  const mv = vOf("limits");
  const me = errOf("limits");
  const zv = vOf("time-zone");
  const ze = errOf("time-zone");
  const ev = vOf("email");
  const ee = errOf("email");
  const hv = vOf("human-check");
  const he = errOf("human-check");
  const pv = vOf("payments");
  const pe = errOf("payments");
  const ruleRows = Math.min(10, Math.max(0, Number(pv.cancellation_rule_rows) || 0)) + NEW_RULE_ROWS;
  const stripe = await stripeSettings(c.env, c.get("staff").business_id);
  const zones = timeZones();
  const untranslated = languagesWithoutTexts(s.languages);

  return c.html(
    <Layout c={c} title={ts.title} current="settings">
      <p class="hint">{ts.intro}</p>
      {s.problems.length ? (
        <div class="warn" role="alert" data-problems>
          <h2 id="h-problems">{ts.problemsTitle}</h2>
          <ul>
            {s.problems.map((p) => (
              <li data-problem={p.field}>{ts.problem(p.field, p.message)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <nav class="toc" aria-label={ts.title}>
        <ul>
          {SECTIONS.map((name) => (
            <li>
              <a href={`#h-${name}`}>{sectionTitle(t, name)}</a>
            </li>
          ))}
        </ul>
      </nav>

      <form class="settings-form" method="post" action={`${base(c)}/settings/languages`} novalidate data-sections>
      <Csrf c={c} />
      <Section c={c} name="languages" saved={savedAt === "languages"} title={ts.languagesTitle} failed={failed}>
        <Field name="default_language" label={ts.defaultLanguage} value={lv.default_language} error={le.default_language} hint={ts.defaultLanguageHint} autocomplete="off" />
        <Field name="languages" label={ts.languages} value={lv.languages} error={le.languages} hint={ts.languagesHint} autocomplete="off" />
        {untranslated.length ? (
          <div class="warn" data-no-texts>
            <p>
              <strong>{ts.noTextsTitle}</strong>
            </p>
            <ul>
              {untranslated.map((x) => (
                <li data-no-texts-language={x.language}>{ts.noTexts(languageName(x.language, langOf(c)), x.parts.map((p) => ts.textParts[p]))}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </Section>

      <Section c={c} name="currencies" saved={savedAt === "currencies"} title={ts.currenciesTitle} failed={failed} hint={ts.currenciesHint}>
        <input type="hidden" name="currency_rows" value={String(rows)} />
        <fieldset class="currencies">
          <legend class="visually-hidden">{ts.currenciesTitle}</legend>
          {[...Array(rows + 1).keys()].map((i) => {
            const code = cv[`currencies.${i}.iso_code`] ?? "";
            const adding = i === rows;
            return (
              <div class="currency-row" data-currency={code || undefined}>
                <Field name={`currencies.${i}.iso_code`} label={adding ? ts.addCurrency : ts.code} value={adding ? cv[`currencies.${i}.iso_code`] : code} error={ce[`currencies.${i}.iso_code`]} autocomplete="off" />
                <Field name={`currencies.${i}.exchange_rate`} label={ts.rate} value={cv[`currencies.${i}.exchange_rate`]} error={ce[`currencies.${i}.exchange_rate`]} inputmode="decimal" autocomplete="off" />
                <div class="check">
                  <input type="radio" id={`f-default-${i}`} name="default" value={String(i)} checked={cv.default === String(i)} />
                  <label for={`f-default-${i}`}>
                    {ts.isDefault}
                    <span class="visually-hidden"> {code || ts.addCurrency}</span>
                  </label>
                </div>
                {adding ? null : <Check name={`currencies.${i}.remove`} label={`${ts.remove} ${code}`} checked={cv[`currencies.${i}.remove`] === "on"} />}
              </div>
            );
          })}
        </fieldset>
        {ce.currencies ? <p class="error">{ce.currencies}</p> : null}
      </Section>

      <Section c={c} name="terms" saved={savedAt === "terms"} title={ts.termsTitle} failed={failed} hint={ts.termsHint}>
        <TextArea name="terms" label={ts.termsDefault(s.default_language)} value={tv.terms} error={te.terms} rows={6} />
        {s.languages
          .filter((l) => l !== s.default_language)
          .map((lang) => (
            <TextArea name={`terms_translations.${lang}`} label={ts.termsIn(lang)} value={tv[`terms_translations.${lang}`]} error={te[`terms_translations.${lang}`]} rows={6} />
          ))}
      </Section>

      <Section c={c} name="fields" saved={savedAt === "fields"} title={ts.fieldsTitle} failed={failed}>
        <fieldset>
          <legend>{ts.guestFields}</legend>
          <Check name="guest_fields.birthday.request" label={ts.request(ts.birthday)} checked={fv["guest_fields.birthday.request"] === "on"} />
          <Check name="guest_fields.birthday.required" label={ts.required(ts.birthday)} checked={fv["guest_fields.birthday.required"] === "on"} />
          <Field name="guest_fields.minimum_age" type="number" label={ts.minimumAge} value={fv["guest_fields.minimum_age"]} error={fe["guest_fields.minimum_age"]} inputmode="numeric" />
        </fieldset>
        <fieldset>
          <legend>{ts.customerFields}</legend>
          <Check name="customer_fields.address.request" label={ts.request(ts.address)} checked={fv["customer_fields.address.request"] === "on"} />
          <Check name="customer_fields.address.required" label={ts.required(ts.address)} checked={fv["customer_fields.address.required"] === "on"} />
          <Check name="customer_fields.phone.request" label={ts.request(ts.phone)} checked={fv["customer_fields.phone.request"] === "on"} />
          <Check name="customer_fields.phone.required" label={ts.required(ts.phone)} checked={fv["customer_fields.phone.required"] === "on"} />
          <Field name="customer_fields.minimum_age" type="number" label={ts.minimumAge} value={fv["customer_fields.minimum_age"]} error={fe["customer_fields.minimum_age"]} inputmode="numeric" />
        </fieldset>
      </Section>

      <Section c={c} name="custom-fields" saved={savedAt === "custom-fields"} title={ts.customFieldsTitle} failed={failed} hint={ts.customFieldsHelp}>
        <input type="hidden" name="custom_field_rows" value={String(fieldRows - NEW_FIELD_ROWS)} />
        {[...Array(fieldRows).keys()].map((i) => {
          const key = xv[`custom_fields.${i}.key`] ?? "";
          const adding = i >= fieldRows - NEW_FIELD_ROWS;
          const n = (k: string) => `custom_fields.${i}.${k}`;
          return (
            <fieldset class="custom-field" data-custom-field={key || undefined}>
              <legend>{adding ? ts.addCustomField : key}</legend>
              <div class="row-fields">
                <Field name={n("key")} label={ts.key} value={xv[n("key")]} error={xe[n("key")]} hint={ts.keyHint} autocomplete="off" />
                <Field name={n("title")} label={ts.fieldTitle} value={xv[n("title")]} error={xe[n("title")]} autocomplete="off" />
                <Select name={n("type")} label={ts.type} value={xv[n("type")] || "text"} error={xe[n("type")]} options={FIELD_TYPES.map((v) => [v, ts.fieldTypes[v]])} />
                <Select name={n("applies_to")} label={ts.appliesTo} value={xv[n("applies_to")] || "guest"} error={xe[n("applies_to")]} options={APPLIES_TO.map((v) => [v, ts.appliesToValues[v]])} />
                <Field name={n("options")} label={ts.options} value={xv[n("options")]} error={xe[n("options")]} hint={ts.optionsHint} autocomplete="off" />
              </div>
              {s.languages
                .filter((l) => l !== s.default_language)
                .map((lang) => (
                  <div class="row-fields" data-translation={lang}>
                    <Field name={n(`translations.${lang}.title`)} label={ts.fieldTitleIn(lang)} value={xv[n(`translations.${lang}.title`)]} error={xe[n(`translations.${lang}.title`)]} autocomplete="off" />
                    <Field name={n(`translations.${lang}.options`)} label={ts.optionsIn(lang)} value={xv[n(`translations.${lang}.options`)]} error={xe[n(`translations.${lang}.options`)]} hint={ts.optionsInHint} autocomplete="off" />
                  </div>
                ))}
              <Check name={n("required")} label={ts.fieldRequired} checked={xv[n("required")] === "on"} error={xe[n("required")]} />
              {adding ? null : <Check name={n("remove")} label={`${ts.remove} ${key}`} checked={xv[n("remove")] === "on"} />}
            </fieldset>
          );
        })}
      </Section>

      <Section c={c} name="limits" saved={savedAt === "limits"} title={ts.limitsTitle} failed={failed}>
        <div class="row-fields">
          {LIMITS.map((k) => (
            <Field name={k} type="number" label={ts.limits[k]} value={mv[k]} error={me[k]} inputmode="numeric" />
          ))}
        </div>
      </Section>

      <Section c={c} name="time-zone" saved={savedAt === "time-zone"} title={ts.timeZoneTitle} failed={failed}>
        <div class={`field${ze.time_zone ? " invalid" : ""}`}>
          <label for="f-time_zone">{ts.timeZone}</label>
          <input
            id="f-time_zone"
            name="time_zone"
            type="text"
            value={zv.time_zone ?? ""}
            list={zones.length ? "time-zones" : undefined}
            autocomplete="off"
            aria-invalid={ze.time_zone ? "true" : undefined}
            aria-describedby={describedBy("f-time_zone", ts.timeZoneHint, ze.time_zone)}
          />
          <FieldHint id="f-time_zone" hint={ts.timeZoneHint} />
          <FieldMessage id="f-time_zone" error={ze.time_zone} />
          {zones.length ? (
            <datalist id="time-zones">
              {zones.map((z) => (
                <option value={z} />
              ))}
            </datalist>
          ) : null}
        </div>
      </Section>

      <Section c={c} name="email" saved={savedAt === "email"} title={ts.emailTitle} failed={failed}>
        <Field name="email_from" type="email" label={ts.emailFrom} value={ev.email_from} error={ee.email_from} hint={ts.emailFromHint} autocomplete="off" />
        <Field name="contact_email" type="email" label={ts.contactEmail} value={ev.contact_email} error={ee.contact_email} hint={ts.contactEmailHint} autocomplete="off" />
        <Field name="contact_phone" type="tel" label={ts.contactPhone} value={ev.contact_phone} error={ee.contact_phone} autocomplete="off" />
        <Field name="company_name" label={ts.companyName} value={ev.company_name} error={ee.company_name} hint={ts.companyNameHint} autocomplete="organization" />
        <TextArea name="company_address" label={ts.companyAddress} value={ev.company_address} error={ee.company_address} hint={ts.companyAddressHint} rows={3} />
        <Field name="brand_color" label={ts.brandColor} value={ev.brand_color} error={ee.brand_color} hint={ts.brandColorHint} autocomplete="off" />
        <TextArea name="notification_emails" label={ts.notificationEmails} value={ev.notification_emails} error={ee.notification_emails} hint={ts.notificationEmailsHint} rows={4} />
      </Section>

      <Section c={c} name="human-check" saved={savedAt === "human-check"} title={ts.humanCheckTitle} hint={ts.humanCheckHint} failed={failed}>
        <Field name="turnstile_site_key" label={ts.turnstileSiteKey} value={hv.turnstile_site_key} error={he.turnstile_site_key} hint={ts.turnstileSiteKeyHint} autocomplete="off" />
        <Field name="turnstile_secret" type="password" label={ts.turnstileSecret} value="" error={he.turnstile_secret} hint={s.turnstile_secret_set ? ts.turnstileSecretSet : ts.turnstileSecretUnset} autocomplete="new-password" />
        {s.turnstile_secret_set || s.turnstile_site_key ? <Check name="turnstile_off" label={ts.turnstileOff} checked={hv.turnstile_off === "on"} /> : null}
      </Section>

      <Section c={c} name="payments" saved={savedAt === "payments"} title={ts.paymentsTitle} hint={ts.paymentsHint} failed={failed}>
        <p class={stripe.secret_key_set ? "hint" : "warn"} data-stripe-connected={stripe.secret_key_set ? "yes" : "no"}>
          {stripe.secret_key_set ? ts.stripeOn : ts.stripeOff}
        </p>
        <Check name="payment_policy.online_payment" label={ts.onlinePayment} checked={pv["payment_policy.online_payment"] === "on"} error={pe["payment_policy.online_payment"]} />
        <div class="row-fields">
          <Select
            name="payment_policy.deposit.type"
            label={ts.depositKind}
            value={pv["payment_policy.deposit.type"] || "none"}
            options={(["none", "percent", "per_person"] as const).map((k): [string, string] => [k, ts.depositKinds[k]])}
            error={pe["payment_policy.deposit.type"]}
          />
          <Field name="payment_policy.deposit.value" label={ts.depositValue} value={pv["payment_policy.deposit.value"]} error={pe["payment_policy.deposit.value"]} inputmode="decimal" />
        </div>
        <Field name="payment_policy.balance_due_days" type="number" label={ts.balanceDueDays} value={pv["payment_policy.balance_due_days"]} error={pe["payment_policy.balance_due_days"]} hint={ts.balanceDueDaysHint} inputmode="numeric" />
        <Check name="payment_policy.pay_to_confirm" label={ts.payToConfirm} checked={pv["payment_policy.pay_to_confirm"] === "on"} error={pe["payment_policy.pay_to_confirm"]} />
        <Field name="payment_policy.payment_hold_minutes" type="number" label={ts.holdMinutes} value={pv["payment_policy.payment_hold_minutes"]} error={pe["payment_policy.payment_hold_minutes"]} hint={ts.holdMinutesHint} inputmode="numeric" />
        <Field name="payment_policy.reminder_days" type="number" label={ts.reminderDays} value={pv["payment_policy.reminder_days"]} error={pe["payment_policy.reminder_days"]} hint={ts.reminderDaysHint} inputmode="numeric" />
        <fieldset class="group nested" aria-describedby="g-cancellation-hint">
          <legend>{ts.rulesLegend}</legend>
          <p id="g-cancellation-hint" class="hint">
            {ts.rulesHint}
          </p>
          <input type="hidden" name="cancellation_rule_rows" value={String(ruleRows - NEW_RULE_ROWS)} />
          {Array.from({ length: ruleRows }, (_, i) => {
            const at = `payment_policy.cancellation_rules.${i}`;
            return (
              <div class="row-fields" data-rule-row={i} role="group" aria-label={ts.ruleRow(i + 1)}>
                <Field name={`${at}.days_before`} type="number" label={ts.daysBefore} value={pv[`${at}.days_before`]} error={pe[`${at}.days_before`]} inputmode="numeric" />
                <Field name={`${at}.refund_percent`} type="number" label={ts.refundPercent} value={pv[`${at}.refund_percent`]} error={pe[`${at}.refund_percent`]} inputmode="decimal" />
              </div>
            );
          })}
        </fieldset>
      </Section>
      </form>
    </Layout>,
    failed ? 422 : 200,
  );
}

function sectionTitle(t: ReturnType<typeof stringsOf>, name: SectionName): string {
  const ts = t.settings;
  return { languages: ts.languagesTitle, currencies: ts.currenciesTitle, terms: ts.termsTitle, fields: ts.fieldsTitle, "custom-fields": ts.customFieldsTitle, limits: ts.limitsTitle, "time-zone": ts.timeZoneTitle, email: ts.emailTitle, "human-check": ts.humanCheckTitle, payments: ts.paymentsTitle }[name];
}

export const settingsPage = (c: AdminContext) => render(c);

/**
 * The PATCH of every section the form sent (the Settings page sends them all; a form of one
 * section, as older pages posted, that section alone), and how an error's path names its field.
 * The languages come first: the terms and custom fields are asked in the languages being saved.
 */
export function pagePatchOf(sections: SectionName[], form: Record<string, string>, s: SettingsView): { patch: Record<string, unknown>; fieldOf: (path: string) => string } {
  const patch: Record<string, unknown> = {};
  const placers: ((path: string) => string)[] = [];
  let view = s;
  for (const name of SECTIONS.filter((n) => sections.includes(n))) {
    const one = patchOf(name, form, view);
    Object.assign(patch, one.patch);
    placers.push(one.fieldOf);
    if (name === "languages") view = { ...view, languages: one.patch.languages as string[], default_language: one.patch.default_language as string };
  }
  return { patch, fieldOf: (path) => placers.map((place) => place(path)).find((field) => field !== "") ?? "" };
}

/** POST /admin/:business/settings/:section: the page's fields through updateSettings, as PATCH /private/settings; `section` is the Save pressed. */
export async function settingsSave(c: AdminContext) {
  const section = c.req.param("section") as SectionName;
  if (!SECTIONS.includes(section)) throw new ApiError(404, "not_found", `No settings section ${section}.`);
  const posted = await readForm(c);
  const form = posted.values();
  const listed = posted.list("sections").filter((n): n is SectionName => (SECTIONS as string[]).includes(n));
  const sections = listed.length ? listed : [section];
  const businessId = c.get("staff").business_id;
  const stored = await getSettings(c.env.DB, businessId);
  const { patch, fieldOf } = pagePatchOf(sections, form, stored);
  try {
    await updateSettings(c.env, staffActor(c), businessId, patch as never, c.get("now"));
  } catch (err) {
    const failed = sectionFailure(c, err, section, form, fieldOf);
    if (!failed) throw err;
    return render(c, { ...failed, sections });
  }
  // POST/redirect/GET, back at the section whose Save was pressed, its status under its heading
  return c.redirect(`${base(c)}/settings?done=saved&section=${section}#h-${section}`, 303);
}
