/** @jsxImportSource hono/jsx */
/**
 * Widget (owners, managers; permission `settings`): the websites allowed to embed the booking
 * widget (settings `widget_origins`, `widget_allow_loopback`), its look (`widget_theme`: values
 * for its `--bw-*` custom properties) with a live preview of the real `<booking-widget>` of this
 * business, and the embed snippet and CSP lines to copy.
 *
 * Every Save is `updateSettings` (manage/settings.ts), as `PATCH /private/settings` makes it.
 *
 * The preview is the widget served at /widget.js, on this page: the back office's CSP already
 * allows scripts and fetches from 'self' (and the widget's styles are adopted stylesheets, which
 * CSP does not govern), and the widget proxy always accepts the Worker's own origin
 * (middleware/cors.ts `selfOrigin`), so the preview needs no entry in the business's origins.
 * admin.js applies the look as it is typed (custom properties on the element, which win over the
 * saved theme); without script the preview shows the theme as saved.
 */
import { THEME_NAMES, THEME_PROPERTIES, WIDGET_PALETTES, type ThemeProperty } from "../../../contract/widget-theme";
import { getSettings, updateSettings } from "../../../manage/settings";
import { sectionFailure, type Failed } from "./settings";
import { readForm } from "../kit/form";
import { base, Check, Csrf, Field, FieldMessage, flashOf, FormError, staffActor, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { embedCsp, embedSnippet } from "../../../lib/embed";

/**
 * The widget's own light defaults, shown as placeholders: its colours from the one palette the
 * widget's styles are built from (contract/widget-theme.ts), and its sizes and font as its styles set them.
 */
const DEFAULTS: Record<ThemeProperty, string> = {
  ...WIDGET_PALETTES.light,
  "--bw-radius": "0.5em",
  "--bw-font": "system-ui, sans-serif",
  "--bw-font-size": "16px",
  "--bw-min-height": "53em",
  "--bw-max-width": "44em",
};

type WidgetSection = "origins" | "loopback" | "theme";

async function render(c: AdminContext, failed?: Failed) {
  const t = stringsOf(c);
  const tw = t.widgetScreen;
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  const root = `${base(c)}/widget`;
  const origin = new URL(c.req.url).origin;
  const slug = c.get("staff").slug;
  const flash = flashOf(c, { saved: tw.saved, removed: tw.removed });
  const mine = (section: WidgetSection) => (failed?.section === section ? failed : undefined);
  const formMessage = (section: WidgetSection) => {
    const f = mine(section);
    return f ? `${t.fixErrors} ${f.errors[""] ?? ""}`.trim() : undefined;
  };
  const themeValues = mine("theme")?.values ?? Object.fromEntries(Object.entries(s.widget_theme).map(([k, v]) => [`widget_theme.${k}`, v]));
  const themeErrors = mine("theme")?.errors ?? {};
  const hintOf = (name: ThemeProperty) => {
    const kind = THEME_PROPERTIES[name];
    return `${kind === "color" ? tw.colourHint : kind === "length" ? tw.lengthHint : tw.fontHint}. ${tw.defaultIs(DEFAULTS[name])}`;
  };
  // the stylesheet line keeps the page still while widget.js loads (lib/embed.ts)
  const snippet = embedSnippet(origin, slug);
  const csp = embedCsp(origin);

  return c.html(
    <Layout c={c} title={tw.title} current="widget" flash={flash}>
      <p class="hint">{tw.intro}</p>

      <section aria-labelledby="h-origins" class="settings-section">
        <h2 id="h-origins">{tw.originsTitle}</h2>
        <p class="hint">{tw.originsHint}</p>
        {s.widget_origins.length ? (
          <ul class="origins" data-origins>
            {s.widget_origins.map((o) => (
              <li data-origin={o}>
                <code>{o}</code>
                <form class="inline" method="post" action={`${root}/origins/remove`}>
                  <Csrf c={c} />
                  <input type="hidden" name="origin" value={o} />
                  <button type="submit" class="secondary">
                    {t.settings.remove}
                    <span class="visually-hidden"> {o}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        ) : (
          <p>{tw.originsNone}</p>
        )}
        <form class="row" method="post" action={`${root}/origins/add`} novalidate>
          <Csrf c={c} />
          <FormError message={formMessage("origins")} />
          <Field name="origin" type="url" label={tw.addOrigin} value={mine("origins")?.values.origin} error={mine("origins")?.errors.origin} placeholder="https://surfcamp.example" autocomplete="off" />
          <button type="submit">{tw.add}</button>
        </form>
        <form class="row" method="post" action={`${root}/loopback`}>
          <Csrf c={c} />
          <FormError message={formMessage("loopback")} />
          <Check name="widget_allow_loopback" label={tw.loopback} checked={s.widget_allow_loopback} />
          <button type="submit" class="secondary">
            {t.save}
          </button>
        </form>
      </section>

      <div class="theme-layout">
        <section aria-labelledby="h-theme" class="settings-section">
          <h2 id="h-theme">{tw.themeTitle}</h2>
          <p class="hint">{tw.themeHint}</p>
          <form class="theme-form" method="post" action={`${root}/theme`} novalidate data-theme-form>
            <Csrf c={c} />
            <FormError message={formMessage("theme")} />
            {THEME_NAMES.map((name) => {
              const field = `widget_theme.${name}`;
              const id = `f-${field}`;
              const error = themeErrors[field];
              const hint = hintOf(name);
              return (
                <div class={`field${error ? " invalid" : ""}`}>
                  <label for={id}>{tw.themeLabels[name] ?? name}</label>
                  <div class="theme-input">
                  <input
                    id={id}
                    name={field}
                    type="text"
                    value={themeValues[field] ?? ""}
                    placeholder={DEFAULTS[name]}
                    autocomplete="off"
                    spellcheck={false}
                    data-theme-prop={name}
                    data-theme-kind={THEME_PROPERTIES[name]}
                    data-pick-label={THEME_PROPERTIES[name] === "color" ? tw.pickColour(tw.themeLabels[name] ?? name) : undefined}
                    aria-invalid={error ? "true" : undefined}
                    aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
                  />
                  {/* admin.js puts a colour picker here; the slot keeps its room, so nothing moves when it comes */}
                  {THEME_PROPERTIES[name] === "color" ? <span class="swatch-slot" /> : null}
                  </div>
                  <small id={`${id}-hint`} class="hint">
                    <code>{name}</code> · {hint}
                  </small>
                  <FieldMessage id={id} error={error} />
                </div>
              );
            })}
            <div>
              <button type="submit">{tw.saveTheme}</button>
            </div>
          </form>
        </section>

        <section aria-labelledby="h-preview" class="settings-section preview">
          <h2 id="h-preview">{tw.previewTitle}</h2>
          <p class="hint">{tw.previewHint}</p>
          <div class="preview-frame">
            <booking-widget id="preview" business={slug} product={/^\d{1,12}$/.test(c.req.query("product") ?? "") ? c.req.query("product") : undefined} theme="light" data-theme-preview></booking-widget>
          </div>
          <script type="module" src="/widget.js"></script>
        </section>
      </div>

      <section aria-labelledby="h-embed" class="settings-section">
        <h2 id="h-embed">{tw.embedTitle}</h2>
        <p class="hint">{tw.embedHint}</p>
        <pre class="snippet">
          <code id="embed-snippet" data-copy data-copy-label={tw.copy} data-copied-label={tw.copied}>
            {snippet}
          </code>
        </pre>
        <h3 id="h-csp">{tw.cspTitle}</h3>
        <p class="hint">{tw.cspHint}</p>
        <pre class="snippet">
          <code id="csp-lines" data-copy data-copy-label={tw.copy} data-copied-label={tw.copied}>
            {csp}
          </code>
        </pre>
      </section>
    </Layout>,
    failed ? 422 : 200,
  );
}

export const widgetPage = (c: AdminContext) => render(c);

/** Save one change of the widget's settings; a refused one is the page again with the message at its field (422). */
async function save(c: AdminContext, section: WidgetSection, form: Record<string, string>, patch: Record<string, unknown>, fieldOf: (path: string) => string, message = "saved") {
  try {
    await updateSettings(c.env, staffActor(c), c.get("staff").business_id, patch as never, c.get("now"));
  } catch (err) {
    const failed = sectionFailure(err, section, form, fieldOf);
    if (!failed) throw err;
    return render(c, failed);
  }
  return c.redirect(`${base(c)}/widget?done=${message}#h-${section === "loopback" ? "origins" : section}`, 303);
}

export async function originAdd(c: AdminContext) {
  const form = (await readForm(c)).values();
  const origin = (form.origin ?? "").trim();
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  if (!origin) return render(c, { section: "origins", values: form, errors: { origin: "is required" }, message: "" });
  if (s.widget_origins.includes(origin)) return c.redirect(`${base(c)}/widget?done=saved#h-origins`, 303);
  const at = s.widget_origins.length;
  return save(c, "origins", form, { widget_origins: [...s.widget_origins, origin] }, (path) => (path === `widget_origins.${at}` || path === "widget_origins" ? "origin" : ""));
}

export async function originRemove(c: AdminContext) {
  const form = (await readForm(c)).values();
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  return save(c, "origins", {}, { widget_origins: s.widget_origins.filter((o) => o !== form.origin) }, () => "", "removed");
}

export async function loopbackSave(c: AdminContext) {
  const form = (await readForm(c)).values();
  return save(c, "loopback", form, { widget_allow_loopback: form.widget_allow_loopback === "on" }, () => "");
}

export async function themeSave(c: AdminContext) {
  const form = (await readForm(c)).values();
  const theme: Record<string, string> = {};
  for (const name of THEME_NAMES) {
    const value = (form[`widget_theme.${name}`] ?? "").trim();
    if (value) theme[name] = value;
  }
  const fields = new Set(THEME_NAMES.map((n) => `widget_theme.${n}`));
  return save(c, "theme", form, { widget_theme: theme }, (path) => (fields.has(path) ? path : ""));
}

