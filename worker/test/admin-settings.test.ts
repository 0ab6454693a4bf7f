/**
 * The back office's Settings and Widget screens, and the password reset. Every change goes
 * through updateSettings (as PATCH /private/settings): what a manager saves is what the private
 * and public APIs and the widget then answer; a bad value is a 422 with the message at its field
 * and nothing changed; a front desk user is refused (403) and changes nothing.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { mailStub } from "../src/db/emails";
import { WIDGET_LANGUAGES } from "../src/contract/languages";
import { MAIL_LANGUAGES } from "../src/domain/email/strings";
import { inviteStaff } from "../src/manage/staff";
import { requestPasswordReset } from "../src/manage/password-reset";
import { platformMail } from "../src/domain/email/sender";
import { mailHeader } from "./mail-fixtures";
import { browser, createStaff, PASSWORD, signedIn, type Browser } from "./admin-fixtures";
import { BASE, callJson, createBusiness, createKey, fetchWorker } from "./helpers";
import { placeBusinessesOn } from "./helpers";

// This file still reads and writes its businesses' rows straight in env.DB: they stay on shard 0
// (the rest of the suite places them on both shards; docs/design.md "Shards").
placeBusinessesOn(0);

const first = <T>(sql: string, ...params: unknown[]) => env.DB.prepare(sql).bind(...params).first<T>();

/** A business of its own (sending e-mail), its keys, and a signed-in manager and front desk user. */
async function business(config: Record<string, unknown> = {}) {
  const slug = `set-${crypto.randomUUID().slice(0, 8)}`;
  const businessId = await createBusiness(slug, { email_from: "mail@camp.example", ...config });
  const manager = await createStaff(businessId, "manager");
  const desk = await createStaff(businessId, "front_desk");
  // a client address of its own: sign-in and reset requests count per address
  const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  return {
    slug,
    businessId,
    manager,
    privateKey: await createKey("private", businessId),
    publicKey: await createKey("public", businessId),
    asManager: await signedIn(slug, manager.email, address),
    asDesk: await signedIn(slug, desk.email, address),
  };
}

const privateSettings = async (b: { privateKey: string }) => (await callJson("/private/settings", { key: b.privateKey })).body.data;

/** The error shown at a form field (its `<small id="f-NAME-error">`), if any. */
const fieldError = (html: string, name: string) => new RegExp(`id="f-${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-error"[^>]*>([^<]*)<`).exec(html)?.[1];

/** The decoded text/plain part of a message this service built (base64, UTF-8). */
function textPart(raw: string): string {
  const m = /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(raw);
  if (!m) throw new Error("no text part");
  return new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/\r\n/g, "")), (c) => c.charCodeAt(0)));
}

const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The fields of a page's form `[data-sections]` as a browser sends them: in page order, a check box only when ticked. */
function pageForm(html: string, edits: Record<string, string> = {}): [string, string][] {
  const form = /<form class="(?:settings|widget)-form"[\s\S]*?<\/form>/.exec(html)![0];
  const out: [string, string][] = [];
  for (const m of form.matchAll(/<input([^>]*)>|<textarea([^>]*)>([\s\S]*?)<\/textarea>|<select([^>]*)>([\s\S]*?)<\/select>/g)) {
    const attrs = m[1] ?? m[2] ?? m[4];
    const name = /\bname="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /\btype="([^"]*)"/.exec(attrs)?.[1] ?? "text";
    let value: string;
    if (m[1] !== undefined) {
      if ((type === "checkbox" || type === "radio") && !/\bchecked\b/.test(attrs)) continue;
      value = unescape(/\bvalue="([^"]*)"/.exec(attrs)?.[1] ?? (type === "checkbox" ? "on" : ""));
    } else if (m[2] !== undefined) value = unescape(m[3]);
    else value = unescape(/<option value="([^"]*)" selected/.exec(m[5])?.[1] ?? /<option value="([^"]*)"/.exec(m[5])?.[1] ?? "");
    out.push([name, name in edits ? edits[name] : value]);
  }
  return out;
}

describe("Settings", () => {
  it("warns the owner of an enabled language the widget, e-mails or back office have no texts in, from the code's own lists", async () => {
    const b = await business();
    expect((await b.asManager.post(`/admin/${b.slug}/settings/languages`, { default_language: "en", languages: "en, de, ja" })).status).toBe(303);
    const html = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(html).toContain("Some of your languages have no texts here");
    expect(html).toContain('<li data-no-texts-language="ja">Japanese (ja): the booking widget, the e-mails, the back office have no texts in it');
    expect(html).not.toContain('data-no-texts-language="de"');
    // A language the widget has texts in and the e-mails do not (if there is one) names the e-mails alone.
    const partial = WIDGET_LANGUAGES.find((l) => !(MAIL_LANGUAGES as readonly string[]).includes(l));
    if (partial) {
      expect((await b.asManager.post(`/admin/${b.slug}/settings/languages`, { default_language: "en", languages: `en, ${partial}` })).status).toBe(303);
      const one = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
      expect(one).toMatch(new RegExp(`data-no-texts-language="${partial}">[^<]*: the e-mails(, the back office)? have no texts`));
    }
    // Languages with texts everywhere: no warning.
    expect((await b.asManager.post(`/admin/${b.slug}/settings/languages`, { default_language: "en", languages: "en, de, es" })).status).toBe(303);
    expect(await (await b.asManager.get(`/admin/${b.slug}/settings`)).text()).not.toContain("data-no-texts");
  });

  it("keeps every value typed on the page whichever Save is pressed, and says Saved under that Save's section", async () => {
    const b = await business();
    const page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    // The owner types a time zone, a limit and an e-mail contact, then presses Save under Languages.
    const form = pageForm(page, { time_zone: "Europe/Lisbon", languages: "en, de", cart_lifetime_seconds: "840", contact_email: "desk@camp.example" });
    const saved = await b.asManager.post(`/admin/${b.slug}/settings/languages`, form);
    expect(saved.status, (await saved.clone().text()).slice(0, 500)).toBe(303);
    expect(saved.headers.get("Location")).toBe(`/admin/${b.slug}/settings?done=saved&section=languages#h-languages`);
    expect(await privateSettings(b)).toMatchObject({ languages: ["en", "de"], time_zone: "Europe/Lisbon", cart_lifetime_seconds: 840, contact_email: "desk@camp.example" });
    // The status is under the Languages heading (where the page opens), not at the top of the page.
    const after = await (await b.asManager.get(saved.headers.get("Location")!)).text();
    expect(after).toMatch(/<h2 id="h-languages">Languages<\/h2><p class="flash" role="status" data-saved="languages">Settings saved.<\/p>/);
    expect(after.match(/Settings saved\./g)).toHaveLength(1);
    // A refused value elsewhere: nothing saved, every typed value shown again, the message at the Save pressed links the field.
    const bad = await b.asManager.post(`/admin/${b.slug}/settings/email`, pageForm(after, { time_zone: "Mars/Olympus", brand_color: "#123456", company_name: "Surf Camp Lda" }));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(/id="f-time_zone"[^>]*value="Mars\/Olympus"/);
    expect(html).toMatch(/id="f-brand_color"[^>]*value="#123456"/);
    expect(html).toMatch(/<section aria-labelledby="h-email"[\s\S]*?<div class="form-error" role="alert">[\s\S]*?<a href="#f-time_zone">/);
    expect(await privateSettings(b)).toMatchObject({ time_zone: "Europe/Lisbon", brand_color: expect.not.stringMatching(/#123456/) });
  });


  it("a manager changes languages, terms and limits through the forms: the private and public APIs answer them, the audit log names the manager", async () => {
    const b = await business();
    const page = await b.asManager.get(`/admin/${b.slug}/settings`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="600"'); // the cart lifetime's default, shown

    const languages = await b.asManager.post(`/admin/${b.slug}/settings/languages`, { default_language: "en", languages: "en, de, es" });
    expect(languages.status).toBe(303);
    expect(languages.headers.get("Location")).toBe(`/admin/${b.slug}/settings?done=saved&section=languages#h-languages`);
    // the terms section now has a field per language
    const after = await (await b.asManager.get(`/admin/${b.slug}/settings?done=saved`)).text();
    expect(after).toContain("Settings saved.");
    expect(after).toContain('name="terms_translations.de"');

    expect((await b.asManager.post(`/admin/${b.slug}/settings/terms`, { terms: "Pay on arrival.", "terms_translations.de": "Zahlung bei Ankunft.", "terms_translations.es": "" })).status).toBe(303);
    const limits = { cart_lifetime_seconds: "900", max_items_per_cart: "12", max_open_carts_per_client: "3", max_extensions_per_cart: "2", max_guests_held_per_visitor: "8", max_hold_seconds_per_visitor: "1200", rate_limit_per_minute: "300" };
    expect((await b.asManager.post(`/admin/${b.slug}/settings/limits`, limits)).status).toBe(303);

    const s = await privateSettings(b);
    expect(s).toMatchObject({
      languages: ["en", "de", "es"],
      default_language: "en",
      terms: "Pay on arrival.",
      terms_translations: { de: "Zahlung bei Ankunft." },
      cart_lifetime_seconds: 900,
      max_items_per_cart: 12,
      max_open_carts_per_client: 3,
      max_extensions_per_cart: 2,
      max_guests_held_per_visitor: 8,
      max_hold_seconds_per_visitor: 1200,
      rate_limit_per_minute: 300,
    });
    const pub = await callJson("/api/pub/v2/settings?language=de", { key: b.publicKey });
    expect(pub.body).toMatchObject({ languages: ["en", "de", "es"], terms: "Zahlung bei Ankunft." });
    expect((await callJson("/api/pub/v2/settings?language=es", { key: b.publicKey })).body.terms).toBe("Pay on arrival.");

    const audit = await env.DB.prepare("SELECT actor_kind, actor_name, entity, summary FROM audit_log WHERE business_id = ? AND entity = 'settings' ORDER BY id").bind(b.businessId).all<any>();
    expect(audit.results.map((r) => [r.actor_kind, r.actor_name])).toEqual([
      ["staff", b.manager.email],
      ["staff", b.manager.email],
      ["staff", b.manager.email],
    ]);
    expect(audit.results[2].summary).toContain("cart_lifetime_seconds");
    // the Audit log screen shows who
    expect(await (await b.asManager.get(`/admin/${b.slug}/audit?entity=`)).text()).toContain(b.manager.email);
  });

  it("a bad value is a 422 with its message at its field, the user's input kept, and nothing changed", async () => {
    const b = await business();
    const before = await privateSettings(b);
    const res = await b.asManager.post(`/admin/${b.slug}/settings/limits`, {
      cart_lifetime_seconds: "2",
      max_items_per_cart: "lots",
      max_open_carts_per_client: "5",
      max_extensions_per_cart: "6",
      max_guests_held_per_visitor: "10",
      max_hold_seconds_per_visitor: "1800",
      rate_limit_per_minute: "600",
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(fieldError(html, "cart_lifetime_seconds")).toMatch(/>=\s*5|5/);
    expect(fieldError(html, "max_items_per_cart")).toMatch(/number/);
    expect(html).toContain('value="lots"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain("Please correct the fields marked below.");

    const lang = await b.asManager.post(`/admin/${b.slug}/settings/languages`, { default_language: "fr", languages: "en, de" });
    expect(lang.status).toBe(422);
    expect(fieldError(await lang.text(), "default_language")).toContain("must be one of languages (en, de)");

    const zone = await b.asManager.post(`/admin/${b.slug}/settings/time-zone`, { time_zone: "Mars/Olympus" });
    expect(zone.status).toBe(422);
    expect(fieldError(await zone.text(), "time_zone")).toContain("IANA time zone");

    const mail = await b.asManager.post(`/admin/${b.slug}/settings/email`, { email_from: "not an address", contact_email: "", contact_phone: "", brand_color: "teal", notification_emails: "ok@camp.example\nbroken" });
    expect(mail.status).toBe(422);
    const mailHtml = await mail.text();
    expect(fieldError(mailHtml, "email_from")).toBeTruthy();
    expect(fieldError(mailHtml, "brand_color")).toContain("#RRGGBB");
    expect(fieldError(mailHtml, "notification_emails")).toBeTruthy();
    // A sender on a domain the deployment did not onboard (EMAIL_SENDING_DOMAINS) is refused at its field.
    const foreign = await b.asManager.post(`/admin/${b.slug}/settings/email`, { email_from: "bookings@other-business.example", contact_email: "", contact_phone: "", brand_color: "#112233", notification_emails: "" });
    expect(foreign.status).toBe(422);
    expect(fieldError(await foreign.text(), "email_from")).toContain("must be an address on a sending domain of this deployment: platform.example, bluewave.example, camp.example");

    const rate = await b.asManager.post(`/admin/${b.slug}/settings/currencies`, { currency_rows: "1", "currencies.0.iso_code": "EUR", "currencies.0.exchange_rate": "1", default: "0", "currencies.1.iso_code": "gbp", "currencies.1.exchange_rate": "-3" });
    expect(rate.status).toBe(422);
    expect(fieldError(await rate.text(), "currencies.1.exchange_rate")).toBeTruthy();

    expect(await privateSettings(b)).toEqual(before);
    expect(await first("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND entity = 'settings'", b.businessId)).toEqual({ n: 0 });
  });

  it("sets the human check (Turnstile): the site key shown, the secret never, only whether it is set; an empty secret keeps it; turned off removes both", async () => {
    const b = await business();
    const secret = "0x4AAAAAAAback-office-secret-value";
    const saved = await b.asManager.post(`/admin/${b.slug}/settings/human-check`, { turnstile_site_key: "0x4AAAAAAAsiteKey", turnstile_secret: secret });
    expect(saved.status).toBe(303);
    expect(await privateSettings(b)).toMatchObject({ turnstile_site_key: "0x4AAAAAAAsiteKey", turnstile_secret_set: true });
    const page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(page).not.toContain(secret);
    expect(page).toContain('value="0x4AAAAAAAsiteKey"');
    expect(page).toContain("A secret is set. It is never shown");
    // Saved again with the secret left empty: the stored one stays.
    expect((await b.asManager.post(`/admin/${b.slug}/settings/human-check`, { turnstile_site_key: "0x4AAAAAAAotherKey", turnstile_secret: "" })).status).toBe(303);
    expect(await privateSettings(b)).toMatchObject({ turnstile_site_key: "0x4AAAAAAAotherKey", turnstile_secret_set: true });
    expect((await b.asManager.post(`/admin/${b.slug}/settings/human-check`, { turnstile_site_key: "0x4AAAAAAAotherKey", turnstile_secret: "", turnstile_off: "on" })).status).toBe(303);
    expect(await privateSettings(b)).toMatchObject({ turnstile_site_key: null, turnstile_secret_set: false });
    // A site key alone cannot verify anything: refused at the secret's field.
    const alone = await b.asManager.post(`/admin/${b.slug}/settings/human-check`, { turnstile_site_key: "0x4AAAAAAAsiteKey", turnstile_secret: "" });
    expect(alone.status).toBe(422);
    expect(fieldError(await alone.text(), "turnstile_secret")).toContain("secret");
  });

  it("sets currencies and guest fields, and the e-mail settings", async () => {
    const b = await business();
    const cur = await b.asManager.post(`/admin/${b.slug}/settings/currencies`, { currency_rows: "1", "currencies.0.iso_code": "EUR", "currencies.0.exchange_rate": "1", default: "0", "currencies.1.iso_code": "gbp", "currencies.1.exchange_rate": "0.86" });
    expect(cur.status).toBe(303);
    const fields = await b.asManager.post(`/admin/${b.slug}/settings/fields`, {
      "guest_fields.birthday.request": "on",
      "guest_fields.birthday.required": "on",
      "guest_fields.minimum_age": "16",
      "customer_fields.phone.request": "on",
      "customer_fields.minimum_age": "21",
    });
    expect(fields.status).toBe(303);
    const mail = await b.asManager.post(`/admin/${b.slug}/settings/email`, { email_from: "mail@camp.example", contact_email: "hola@camp.example", contact_phone: "+351 912 345 678", brand_color: "#ffd84d", notification_emails: "a@camp.example\nb@camp.example" });
    expect(mail.status).toBe(303);
    const s = await privateSettings(b);
    expect(s.currencies.map((c: any) => [c.iso_code, c.exchange_rate, c.default])).toEqual([
      ["EUR", 1, true],
      ["GBP", 0.86, false],
    ]);
    expect(s.guest_fields).toEqual({ birthday: { request: true, required: true }, minimum_age: 16 });
    expect(s.customer_fields).toEqual({ address: { request: false, required: false }, phone: { request: true, required: false }, minimum_age: 21 });
    expect(s).toMatchObject({ contact_email: "hola@camp.example", contact_phone: "+351 912 345 678", brand_color: "#ffd84d", notification_emails: ["a@camp.example", "b@camp.example"] });
    const pub = await callJson("/api/pub/v2/settings", { key: b.publicKey });
    expect(pub.body.currencies.map((c: any) => c.iso_code)).toEqual(["EUR", "GBP"]);
    expect(pub.body.settings.guest_fields.minimum_age).toBe(16);
  });

  it("custom fields: added, changed and removed through the form; a bad one is shown at its row's field, nothing changed", async () => {
    const b = await business();
    const path = `/admin/${b.slug}/settings/custom-fields`;
    const added = await b.asManager.post(path, {
      custom_field_rows: "0",
      "custom_fields.0.key": "surf_level", "custom_fields.0.title": "Your surf level", "custom_fields.0.type": "select",
      "custom_fields.0.options": "never, beginner, intermediate", "custom_fields.0.applies_to": "guest", "custom_fields.0.required": "on",
      "custom_fields.1.key": "", "custom_fields.1.title": "",
    });
    expect(added.status, await added.clone().text()).toBe(303);
    expect((await privateSettings(b)).custom_fields).toEqual([
      { key: "surf_level", title: "Your surf level", type: "select", options: ["never", "beginner", "intermediate"], required: true, applies_to: "guest", translations: {} },
    ]);
    // The page shows it as a row of its own, with a blank row to add another.
    const page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(page).toContain('data-custom-field="surf_level"');
    expect(page).toMatch(/id="f-custom_fields\.0\.options"[^>]*value="never, beginner, intermediate"/);

    // A second row whose key is bad: 422 at that row's key, the typed values kept, nothing saved.
    const before = await privateSettings(b);
    const bad = await b.asManager.post(path, {
      custom_field_rows: "1",
      "custom_fields.0.key": "surf_level", "custom_fields.0.title": "Your surf level", "custom_fields.0.type": "select",
      "custom_fields.0.options": "never, beginner", "custom_fields.0.applies_to": "guest",
      "custom_fields.1.key": "Board Size", "custom_fields.1.title": "Board size", "custom_fields.1.type": "text", "custom_fields.1.applies_to": "guest",
    });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(fieldError(html, "custom_fields.1.key")).toMatch(/lower-case letters/);
    expect(html).toMatch(/id="f-custom_fields\.1\.key"[^>]*value="Board Size"/);
    expect(await privateSettings(b)).toEqual(before);

    // Removing it.
    const removed = await b.asManager.post(path, { custom_field_rows: "1", "custom_fields.0.key": "surf_level", "custom_fields.0.title": "Your surf level", "custom_fields.0.remove": "on" });
    expect(removed.status).toBe(303);
    expect((await privateSettings(b)).custom_fields).toEqual([]);
  });

  it("custom fields' titles and choices in the other languages: saved through the form, shown again, and uneven choices refused at their field", async () => {
    const b = await business({ languages: ["en", "de", "es"] });
    const path = `/admin/${b.slug}/settings/custom-fields`;
    const row = {
      custom_field_rows: "0",
      "custom_fields.0.key": "certification", "custom_fields.0.title": "Diving certification", "custom_fields.0.type": "select",
      "custom_fields.0.options": "None, Open Water", "custom_fields.0.applies_to": "guest", "custom_fields.0.required": "on",
      "custom_fields.0.translations.de.title": "Tauchschein", "custom_fields.0.translations.de.options": "Keiner, Open Water",
      "custom_fields.0.translations.es.title": "", "custom_fields.0.translations.es.options": "",
    };
    const saved = await b.asManager.post(path, row);
    expect(saved.status, await saved.clone().text()).toBe(303);
    expect((await privateSettings(b)).custom_fields[0].translations).toEqual({ de: { title: "Tauchschein", options: ["Keiner", "Open Water"] } });
    const page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(page).toMatch(/id="f-custom_fields\.0\.translations\.de\.title"[^>]*value="Tauchschein"/);
    expect(page).toContain('id="f-custom_fields.0.translations.es.options"');
    expect(page).not.toContain('id="f-custom_fields.0.translations.en.title"');

    const before = await privateSettings(b);
    const bad = await b.asManager.post(path, { ...row, custom_field_rows: "1", "custom_fields.0.translations.es.options": "Ninguno" });
    expect(bad.status).toBe(422);
    expect(fieldError(await bad.text(), "custom_fields.0.translations.es.options")).toMatch(/as many options/);
    expect(await privateSettings(b)).toEqual(before);
  });

  it("warns of a stored setting that does not parse, naming the field", async () => {
    const b = await business({ cart_lifetime_seconds: "ten minutes" });
    const html = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(html).toContain('data-problem="cart_lifetime_seconds"');
    expect(html).toContain("“cart_lifetime_seconds”");
  });

  it("front desk: 403 on every page and Save of Settings and Widget, nothing changed", async () => {
    const b = await business();
    const before = await privateSettings(b);
    for (const path of ["settings", "widget"]) {
      const res = await b.asDesk.get(`/admin/${b.slug}/${path}`);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Your role does not allow this. Nothing was changed.");
    }
    const posts: [string, Record<string, string>][] = [
      ["settings/limits", { cart_lifetime_seconds: "900" }],
      ["settings/languages", { default_language: "de", languages: "de" }],
      ["settings/custom-fields", { custom_field_rows: "0", "custom_fields.0.key": "desk", "custom_fields.0.title": "Desk" }],
      ["widget/origins/add", { origin: "https://desk.example" }],
      ["widget/theme", { "widget_theme.--bw-accent": "#000000" }],
    ];
    for (const [path, form] of posts) expect((await b.asDesk.post(`/admin/${b.slug}/${path}`, form)).status).toBe(403);
    expect(await privateSettings(b)).toEqual(before);
    // nor does the navigation offer them
    const nav = await (await b.asDesk.get(`/admin/${b.slug}/today`)).text();
    expect(nav).not.toContain(`/admin/${b.slug}/settings`);
    expect(nav).not.toContain(`/admin/${b.slug}/widget`);
  });
});

describe("Widget", () => {
  it("keeps a website typed but not yet added when Save look is pressed (both saved), and says Saved under the look", async () => {
    const b = await business();
    const page = await (await b.asManager.get(`/admin/${b.slug}/widget`)).text();
    const form = pageForm(page, { origin: "https://typed-site.example/", "widget_theme.--bw-accent": "#224466" });
    const saved = await b.asManager.post(`/admin/${b.slug}/widget/theme`, form);
    expect(saved.status, (await saved.clone().text()).slice(0, 500)).toBe(303);
    expect(saved.headers.get("Location")).toBe(`/admin/${b.slug}/widget?done=saved&section=theme#h-theme`);
    expect(await privateSettings(b)).toMatchObject({ widget_origins: ["https://typed-site.example"], widget_theme: { "--bw-accent": "#224466" } });
    const after = await (await b.asManager.get(saved.headers.get("Location")!)).text();
    expect(after).toMatch(/<h2 id="h-theme">[^<]*<\/h2><p class="flash" role="status" data-saved="theme">Widget settings saved.<\/p>/);
    // Removing a website keeps a look typed meanwhile, and a refused look keeps the website typed.
    const removed = await b.asManager.post(`/admin/${b.slug}/widget/origins/remove`, [...pageForm(after, { "widget_theme.--bw-accent": "#335577" }), ["remove", "https://typed-site.example"]]);
    expect(removed.status).toBe(303);
    expect(await privateSettings(b)).toMatchObject({ widget_origins: [], widget_theme: { "--bw-accent": "#335577" } });
    const bad = await b.asManager.post(`/admin/${b.slug}/widget/loopback`, pageForm(after, { origin: "https://next-site.example", "widget_theme.--bw-accent": "red; x" }));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(/id="f-origin"[^>]*value="https:\/\/next-site.example"/);
    expect(html).toContain('<a href="#f-widget_theme.--bw-accent">');
    expect(await privateSettings(b)).toMatchObject({ widget_origins: [], widget_theme: { "--bw-accent": "#335577" } });
  });

  it("an origin added on the Widget screen lets the widget proxy answer that origin; removing it refuses it again", async () => {
    const b = await business();
    const site = "https://surf-site.example";
    const proxy = () => callJson(`/widget/v1/${b.slug}/settings`, { headers: { Origin: site } });
    expect((await proxy()).status).toBe(403);
    const added = await b.asManager.post(`/admin/${b.slug}/widget/origins/add`, { origin: site });
    expect(added.status).toBe(303);
    const page = await (await b.asManager.get(`/admin/${b.slug}/widget?done=saved`)).text();
    expect(page).toContain(`data-origin="${site}"`);
    const ok = await proxy();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Access-Control-Allow-Origin")).toBe(site);
    // the snippet to copy names this business and this service
    expect(page).toContain(`&lt;booking-widget business=&quot;${b.slug}&quot;&gt;&lt;/booking-widget&gt;`);
    expect(page).toContain(`script-src ${BASE}`);

    const bad = await b.asManager.post(`/admin/${b.slug}/widget/origins/add`, { origin: "https://surf-site.example/booking/" });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(fieldError(badHtml, "origin")).toContain("is not an origin");
    expect(badHtml).toContain('value="https://surf-site.example/booking/"');
    expect((await privateSettings(b)).widget_origins).toEqual([site]);

    expect((await b.asManager.post(`/admin/${b.slug}/widget/origins/remove`, { origin: site })).status).toBe(303);
    expect((await proxy()).status).toBe(403);
    expect((await privateSettings(b)).widget_origins).toEqual([]);

    expect((await b.asManager.post(`/admin/${b.slug}/widget/loopback`, { widget_allow_loopback: "on" })).status).toBe(303);
    expect((await callJson(`/widget/v1/${b.slug}/settings`, { headers: { Origin: "http://localhost:5173" } })).status).toBe(200);
  });

  it("a saved theme is in the widget's bootstrap, and the page shows it; a value carrying CSS is refused at its field with nothing changed", async () => {
    const b = await business();
    const saved = await b.asManager.post(`/admin/${b.slug}/widget/theme`, { "widget_theme.--bw-accent": "#b41e5a", "widget_theme.--bw-radius": "0", "widget_theme.--bw-font": 'Georgia, "Times New Roman", serif', "widget_theme.--bw-bg": "" });
    expect(saved.status).toBe(303);
    const theme = { "--bw-accent": "#b41e5a", "--bw-radius": "0", "--bw-font": 'Georgia, "Times New Roman", serif' };
    const boot = await callJson(`/widget/v1/${b.slug}/bootstrap`, { headers: { Origin: BASE } });
    expect(boot.status).toBe(200);
    expect(boot.body.theme).toEqual(theme);
    expect((await privateSettings(b)).widget_theme).toEqual(theme);
    const page = await (await b.asManager.get(`/admin/${b.slug}/widget`)).text();
    expect(page).toContain('value="#b41e5a"');
    expect(page).toContain(`<booking-widget id="preview" business="${b.slug}"`);
    expect(page).toContain('<script type="module" src="/widget.js"></script>');

    for (const evil of ["red;} :host{display:none", "#fff;background:url(https://evil.example/x.png)", "expression(alert(1))", "#12345g"]) {
      const res = await b.asManager.post(`/admin/${b.slug}/widget/theme`, { "widget_theme.--bw-accent": evil });
      expect(res.status, evil).toBe(422);
      expect(fieldError(await res.text(), "widget_theme.--bw-accent"), evil).toContain("must be a colour");
    }
    const font = await b.asManager.post(`/admin/${b.slug}/widget/theme`, { "widget_theme.--bw-font": 'x"}; * {display:none' });
    expect(font.status).toBe(422);
    // the private API refuses the same, and an unknown property
    const api = await callJson("/private/settings", { key: b.privateKey, method: "PATCH", body: { widget_theme: { "--bw-accent": "red}", "--evil": "1px" } } });
    expect(api.status).toBe(422);
    expect(api.body.errors.map((e: any) => e.path).sort()).toEqual(["widget_theme.--bw-accent", "widget_theme.--evil"]);
    expect((await callJson(`/widget/v1/${b.slug}/bootstrap`, { headers: { Origin: BASE } })).body.theme).toEqual(theme);
  });
});

// ---- Password reset ----

/** What the local send_email binding was handed with this Message-ID (worker/test/mail-files.ts). */
async function handedOver(messageId: string): Promise<{ raw: string }[]> {
  const res = await fetch(`http://127.0.0.1:${inject("mailFilesPort")}/mail?message_id=${encodeURIComponent(messageId)}`);
  return res.json();
}

/** The reset e-mails of a business as sent, newest last, with the link each carried. */
async function resetMails(businessId: number) {
  await mailStub(env, businessId).idle();
  const rows = (await env.DB.prepare("SELECT * FROM emails WHERE business_id = ? AND kind = 'staff_password_reset' ORDER BY id").bind(businessId).all<any>()).results;
  return Promise.all(
    rows.map(async (row) => {
      const [file] = await handedOver(row.message_id);
      const text = file ? textPart(file.raw) : "";
      const link = /https?:\/\/\S+\/reset\/[A-Za-z0-9_-]+/.exec(text)?.[0] ?? null;
      return { row, raw: file?.raw ?? "", text, link };
    }),
  );
}

const forgot = (b: Browser, slug: string, email: string, headers: Record<string, string> = {}) => b.post(`/admin/${slug}/forgot`, { email }, headers);

async function setPassword(path: string, password: string, headers: Record<string, string> = {}) {
  return fetchWorker(new URL(path, BASE), {
    method: "POST",
    body: new URLSearchParams({ password, confirm: password }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...headers },
  });
}

describe("password reset", () => {
  it("gives the same answer for an unknown e-mail; a known one gets a one-time link in their language that sets the password and ends every session", async () => {
    const b = await business();
    const signIn = await (await browser().get(`/admin/${b.slug}/sign-in`)).text();
    expect(signIn).toContain(`href="/admin/${b.slug}/forgot"`);
    expect(signIn).toContain("Forgot your password?");

    const unknown = await forgot(browser("203.0.113.10"), b.slug, "nobody@camp.example");
    const known = await forgot(browser("203.0.113.11"), b.slug, b.manager.email.toUpperCase());
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    const strip = (html: string) => html.replace(/value="[^"]*"/g, "");
    expect(strip(await known.text())).toBe(strip(await unknown.text()));

    const [mail] = await resetMails(b.businessId);
    expect(mail.row).toMatchObject({ recipient: b.manager.email, status: "sent", language: "en", params: "{}" });
    expect(mail.link).toContain(`/admin/${b.slug}/reset/`);
    expect(mail.raw).toMatch(/^Subject: Reset your password for Business /m);
    // the kept copy has the link removed; the link is stored only as its SHA-256
    expect(mail.row.raw).not.toContain(mail.link!.split("/").pop());
    const token = mail.link!.split("/").pop()!;
    const stored = await first<{ purpose: string; expires_at: string; created_at: string }>("SELECT purpose, expires_at, created_at FROM staff_invites WHERE staff_id = ? AND purpose = 'reset'", b.manager.staffId);
    expect(stored!.purpose).toBe("reset");
    expect(Date.parse(stored!.expires_at) - Date.parse(stored!.created_at)).toBe(60 * 60_000);
    expect(await first("SELECT COUNT(*) AS n FROM staff_invites WHERE token_hash = ?", token)).toEqual({ n: 0 });

    // the manager is signed in elsewhere; the link sets a new password
    const path = new URL(mail.link!).pathname;
    const form = await fetchWorker(new URL(path, BASE));
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(b.manager.email);
    const set = await setPassword(path, "a brand new password");
    expect(set.status).toBe(303);
    expect(set.headers.get("Location")).toContain(`/admin/${b.slug}/sign-in?reset=1`);
    // every session of the user ended
    const old = await b.asManager.get(`/admin/${b.slug}/settings`);
    expect(old.status).toBe(303);
    expect(old.headers.get("Location")).toContain("/sign-in");
    // the link works once
    expect((await setPassword(path, "another new password")).status).toBe(404);
    expect((await fetchWorker(new URL(path, BASE))).status).toBe(404);
    // the new password signs in, the old one no longer does
    expect((await browser().post(`/admin/${b.slug}/sign-in`, { email: b.manager.email, password: PASSWORD })).status).toBe(401);
    expect((await browser().post(`/admin/${b.slug}/sign-in`, { email: b.manager.email, password: "a brand new password" })).status).toBe(303);
    // nobody else got an e-mail, and the audit log tells the story
    expect((await resetMails(b.businessId)).length).toBe(1);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = 'staff' AND entity_id = ? ORDER BY id").bind(b.businessId, b.manager.staffId).all<any>();
    expect(audit.results.map((r) => r.action)).toEqual(["invited", "accepted", "reset_requested", "accepted"]);
  });

  it("writes the e-mail in the user's own back-office language, else the page's", async () => {
    const b = await business();
    await env.DB.prepare("UPDATE staff_users SET language = 'de' WHERE id = ?").bind(b.manager.staffId).run();
    const desk = await first<{ email: string }>("SELECT email FROM staff_users WHERE business_id = ? AND role = 'front_desk'", b.businessId);
    expect((await forgot(browser("203.0.113.20"), b.slug, b.manager.email, { "Accept-Language": "es" })).status).toBe(200);
    expect((await forgot(browser("203.0.113.21"), b.slug, desk!.email, { "Accept-Language": "es" })).status).toBe(200);
    const mails = await resetMails(b.businessId);
    const byRecipient = Object.fromEntries(mails.map((m) => [m.row.recipient, m]));
    expect(byRecipient[b.manager.email].row.language).toBe("de");
    expect(byRecipient[b.manager.email].text).toContain("Ein neues Passwort für");
    expect(byRecipient[desk!.email].row.language).toBe("es");
    expect(byRecipient[desk!.email].text).toContain("Una contraseña nueva para");
  });

  it("a link expires after an hour, works only on its business's address, and an invitation's link is no reset link", async () => {
    const b = await business();
    // asked two hours ago (the e-mail is due at once and sent now; its link expired an hour ago)
    const at = Date.now() - 2 * 3_600_000;
    const clock = (minutes: number) => ({ "X-Test-Now": new Date(at + minutes * 60_000).toISOString() });
    expect((await forgot(browser("203.0.113.30"), b.slug, b.manager.email, clock(0))).status).toBe(200);
    const [mail] = await resetMails(b.businessId);
    const path = new URL(mail.link!).pathname;
    expect((await fetchWorker(new URL(path, BASE))).status).toBe(404);
    expect((await fetchWorker(new URL(path, BASE), { headers: clock(61) })).status).toBe(404);
    expect((await setPassword(path, "too late for this one", clock(61))).status).toBe(404);
    expect((await fetchWorker(new URL(path.replace(b.slug, "demo"), BASE), { headers: clock(30) })).status).toBe(404);
    const invite = await inviteStaff(env.DB, { kind: "cli", id: "test", name: "test" }, b.businessId, { email: `inv-${crypto.randomUUID().slice(0, 6)}@camp.example`, role: "front_desk" }, new Date());
    expect((await fetchWorker(new URL(`/admin/${b.slug}/reset/${invite.token}`, BASE))).status).toBe(404);
    // within the hour it works
    expect((await setPassword(path, "just in time password", clock(59))).status).toBe(303);
  });

  it("a used link spends the user's other links", async () => {
    const b = await business();
    // Two requests (a user who asked twice): two e-mails, two links, both good until one is used.
    expect((await forgot(browser("203.0.113.71"), b.slug, b.manager.email)).status).toBe(200);
    expect((await forgot(browser("203.0.113.72"), b.slug, b.manager.email)).status).toBe(200);
    const [first, second] = (await resetMails(b.businessId)).map((m) => new URL(m.link!).pathname);
    expect(first).not.toBe(second);
    expect((await fetchWorker(new URL(first, BASE))).status).toBe(200);
    expect((await setPassword(second, "the second link's password")).status).toBe(303);
    // The older link, never used, is spent with it: nobody holding that e-mail can set another.
    expect((await fetchWorker(new URL(first, BASE))).status).toBe(404);
    expect((await setPassword(first, "the first link's password")).status).toBe(404);
    expect((await browser("203.0.113.73").post(`/admin/${b.slug}/sign-in`, { email: b.manager.email, password: "the second link's password" })).status).toBe(303);
  });

  it("is rate-limited per account like sign-in, whoever asks", async () => {
    const b = await business();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await forgot(browser(`203.0.113.${40 + i}`), b.slug, b.manager.email)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await forgot(browser("203.0.113.50"), b.slug, b.manager.email);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await limited.text()).toContain("Too many requests");
    expect((await resetMails(b.businessId)).length).toBe(3);
  });

  it("a business without a sender of its own sends the link from the platform's; with no sender at all it makes no link", async () => {
    const b = await business({ email_from: null });
    expect((await forgot(browser("203.0.113.60"), b.slug, b.manager.email)).status).toBe(200);
    expect(await first("SELECT COUNT(*) AS n FROM staff_invites WHERE staff_id = ? AND purpose = 'reset'", b.manager.staffId)).toEqual({ n: 1 });
    expect((await resetMails(b.businessId)).map((e) => [e.row.sender, e.row.status, mailHeader(e.raw, "From")])).toEqual([["bookings@platform.example", "sent", `"Business ${b.slug}" <bookings@platform.example>`]]);
    // A deployment with no platform sender (EMAIL_DEFAULT_FROM empty): nothing to send, so no link.
    const none = await business({ email_from: null });
    const asked = await requestPasswordReset(env.DB, none.businessId, none.slug, { email: none.manager.email, address: "203.0.113.61", origin: "http://127.0.0.1", language: "en", platform: platformMail({ ...env, EMAIL_DEFAULT_FROM: "" }) }, new Date());
    expect(asked.mailed).toBe(false);
    expect(await first("SELECT COUNT(*) AS n FROM staff_invites WHERE staff_id = ? AND purpose = 'reset'", none.manager.staffId)).toEqual({ n: 0 });
  });
});

describe("Settings: Payments (issue 31)", () => {
  it("saves the payment policy from its form, says whether Stripe is connected, shows a bad value at its field with nothing saved, and refuses the front desk", async () => {
    const b = await business();
    let page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(page).toContain('id="h-payments"');
    expect(/data-stripe-connected="([^"]*)"/.exec(page)?.[1]).toBe("no");
    expect(page).toContain("Stripe is not connected");

    const edits = {
      "payment_policy.deposit.type": "percent",
      "payment_policy.deposit.value": "30",
      "payment_policy.balance_due_days": "30",
      "payment_policy.reminder_days": "5",
      "payment_policy.cancellation_rules.0.days_before": "30",
      "payment_policy.cancellation_rules.0.refund_percent": "100",
      "payment_policy.cancellation_rules.1.days_before": "7",
      "payment_policy.cancellation_rules.1.refund_percent": "50",
    };
    const saved = await b.asManager.post(`/admin/${b.slug}/settings/payments`, [...pageForm(page, edits), ["payment_policy.online_payment", "on"]]);
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toMatch(/section=payments#h-payments$/);
    const policy = {
      online_payment: true,
      deposit: { type: "percent", percent: 30 },
      balance_due_days: 30,
      pay_to_confirm: false,
      payment_hold_minutes: 60,
      reminder_days: 5,
      cancellation_rules: [{ days_before: 30, refund_percent: 100 }, { days_before: 7, refund_percent: 50 }],
    };
    expect((await privateSettings(b)).payment_policy).toEqual(policy);
    page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(page).toMatch(/name="payment_policy\.cancellation_rules\.1\.refund_percent"[^>]*value="50"|value="50"[^>]*name="payment_policy\.cancellation_rules\.1\.refund_percent"/);

    // a bad deposit and a bad rule: each at its field, what was typed kept, nothing saved
    const bad = await b.asManager.post(`/admin/${b.slug}/settings/payments`, pageForm(page, { "payment_policy.deposit.value": "130", "payment_policy.cancellation_rules.1.refund_percent": "150", "payment_policy.online_payment": "on" }));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(fieldError(html, "payment_policy.deposit.value")).toBe("must be at most 100");
    expect(fieldError(html, "payment_policy.cancellation_rules.1.refund_percent")).toBe("must be at most 100");
    expect(html).toMatch(/value="130"/);
    expect((await privateSettings(b)).payment_policy).toEqual(policy);

    // the front desk may not
    expect((await b.asDesk.post(`/admin/${b.slug}/settings/payments`, { "payment_policy.deposit.type": "none" })).status).toBe(403);
    expect((await privateSettings(b)).payment_policy).toEqual(policy);

    // with Stripe connected, the screen says so
    expect((await callJson("/private/settings/stripe", { key: b.privateKey, method: "PUT", body: { secret_key: "rk_test_settingsPage0123456789" } })).status).toBe(200);
    page = await (await b.asManager.get(`/admin/${b.slug}/settings`)).text();
    expect(/data-stripe-connected="([^"]*)"/.exec(page)?.[1]).toBe("yes");
  });
});
