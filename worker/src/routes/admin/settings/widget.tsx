/** @jsxImportSource hono/jsx */
/**
 * Widget (owners, managers; permission `settings`): the websites allowed to embed the booking
 * widget (settings `widget_origins`, `widget_allow_loopback`), its look (`widget_theme`: values
 * for its `--bw-*` custom properties) with a live preview of the real `<booking-widget>` of this
 * business, and the embed snippet and CSP lines to copy.
 *
 * The page is one form: every button (Add, Remove, Save, Save look) saves what is typed on the
 * whole page with its own change, so a website typed and not yet added is not lost to Save look
 * (and the reverse). Every Save is one `updateSettings` (manage/settings.ts), as
 * `PATCH /private/settings` makes it. The status shows under the heading of the section whose
 * button was pressed, where the page opens.
 *
 * The preview is the widget served at /widget.js, on this page: the back office's CSP already
 * allows scripts and fetches from 'self' (and the widget's styles are adopted stylesheets, which
 * CSP does not govern), and the widget proxy always accepts the Worker's own origin
 * (middleware/cors.ts `selfOrigin`), so the preview needs no entry in the business's origins.
 * admin.js applies the look as it is typed (custom properties on the element, which win over the
 * saved theme); without script the preview shows the theme as saved.
 */
import { THEME_NAMES, THEME_PROPERTIES, WIDGET_PALETTES, type ThemeProperty } from "../../../contract/widget-theme";
import { asOrigin, getSettings, updateSettings } from "../../../manage/settings";
import { Refused, sectionFailure, type Failed } from "./settings";
import { readForm } from "../kit/form";
import { base, Check, Csrf, Field, FieldMessage, flashOf, staffActor, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { embedCsp, embedSnippet } from "../../../lib/embed";
import { ID_DIGITS } from "../../../contract/common";

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
const WIDGET_SECTIONS: WidgetSection[] = ["origins", "loopback", "theme"];
/** The heading a section's status and errors show under. */
const headingOf = (section: WidgetSection) => (section === "loopback" ? "origins" : section);

async function render(c: AdminContext, failed?: Failed) {
  const t = stringsOf(c);
  const tw = t.widgetScreen;
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  const root = `${base(c)}/widget`;
  const origin = new URL(c.req.url).origin;
  const slug = c.get("staff").slug;
  const message = flashOf(c, { saved: tw.saved, removed: tw.removed });
  const savedAt = message ? (c.req.query("section") === "theme" ? "theme" : "origins") : undefined;
  const Status = ({ at }: { at: string }) =>
    savedAt === at ? (
      <p class="flash" role="status" data-saved={at}>
        {message}
      </p>
    ) : null;
  /** Whether the refused page sent a section's fields (each is shown as sent then). */
  const sent = (section: WidgetSection) => !!failed && (failed.sections ?? [failed.section]).includes(section);
  const refusedAt = (heading: string) => (failed && headingOf(failed.section as WidgetSection) === heading ? failed : undefined);
  const themeValues = sent("theme") ? failed!.values : Object.fromEntries(Object.entries(s.widget_theme).map(([k, v]) => [`widget_theme.${k}`, v]));
  const themeErrors = sent("theme") ? failed!.errors : {};
  const hintOf = (name: ThemeProperty) => {
    const kind = THEME_PROPERTIES[name];
    return `${kind === "color" ? tw.colourHint : kind === "length" ? tw.lengthHint : tw.fontHint}. ${tw.defaultIs(DEFAULTS[name])}`;
  };
  // the stylesheet line keeps the page still while widget.js loads (lib/embed.ts)
  const snippet = embedSnippet(origin, slug);
  const csp = embedCsp(origin);

  return c.html(
    <Layout c={c} title={tw.title} current="widget">
      <p class="hint">{tw.intro}</p>

      <form class="widget-form" method="post" action={`${root}/origins/add`} novalidate data-sections>
      <Csrf c={c} />
      <section aria-labelledby="h-origins" class="settings-section" data-section="origins">
        <h2 id="h-origins">{tw.originsTitle}</h2>
        <Status at="origins" />
        <p class="hint">{tw.originsHint}</p>
        <Refused c={c} failed={refusedAt("origins")} />
        <input type="hidden" name="sections" value="origins" />
        <div class="row">
          <Field name="origin" type="url" label={tw.addOrigin} value={sent("origins") ? failed!.values.origin : undefined} error={sent("origins") ? failed!.errors.origin : undefined} placeholder="https://surfcamp.example" autocomplete="off" />
          <button type="submit" formaction={`${root}/origins/add`} data-save>
            {tw.add}
          </button>
        </div>
        {s.widget_origins.length ? (
          <ul class="origins" data-origins>
            {s.widget_origins.map((o) => (
              <li data-origin={o}>
                <code>{o}</code>
                <button type="submit" class="secondary" formaction={`${root}/origins/remove`} name="remove" value={o}>
                  {t.settings.remove}
                  <span class="visually-hidden"> {o}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p>{tw.originsNone}</p>
        )}
        <div class="row">
          <input type="hidden" name="sections" value="loopback" />
          <Check name="widget_allow_loopback" label={tw.loopback} checked={sent("loopback") ? failed!.values.widget_allow_loopback === "on" : s.widget_allow_loopback} />
          <button type="submit" class="secondary" formaction={`${root}/loopback`}>
            {t.save}
          </button>
        </div>
      </section>

      <div class="theme-layout">
        <section aria-labelledby="h-theme" class="settings-section">
          <h2 id="h-theme">{tw.themeTitle}</h2>
          <Status at="theme" />
          <p class="hint">{tw.themeHint}</p>
          <div class="theme-form" data-theme-form>
            <Refused c={c} failed={refusedAt("theme")} />
            <input type="hidden" name="sections" value="theme" />
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
              <button type="submit" formaction={`${root}/theme`} data-save>
                {tw.saveTheme}
              </button>
            </div>
          </div>
        </section>

        <section aria-labelledby="h-preview" class="settings-section preview">
          <h2 id="h-preview">{tw.previewTitle}</h2>
          <p class="hint">{tw.previewHint}</p>
          <div class="preview-frame">
            <booking-widget id="preview" business={slug} product={ID_DIGITS.test(c.req.query("product") ?? "") ? c.req.query("product") : undefined} theme="light" data-theme-preview></booking-widget>
          </div>
          <script type="module" src="/widget.js"></script>
        </section>
      </div>
      </form>

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

type Action = "add" | "remove" | "loopback" | "theme";

/**
 * One button of the Widget page: its own change (add or remove a website, the loopback box, the
 * look) with everything else the page sent (a website typed, the box, the look), in one
 * updateSettings; a refused one is the page again with every value as sent (422).
 */
async function save(c: AdminContext, action: Action) {
  const posted = await readForm(c);
  const form = posted.values();
  const listed = posted.list("sections").filter((n): n is WidgetSection => (WIDGET_SECTIONS as string[]).includes(n));
  const own: WidgetSection = action === "loopback" ? "loopback" : action === "theme" ? "theme" : "origins";
  const sections = listed.length ? listed : [own];
  const s = await getSettings(c.env.DB, c.get("staff").business_id);
  const patch: Record<string, unknown> = {};
  const typed = (form.origin ?? "").trim();
  if (action === "add" && !typed) return render(c, { section: "origins", sections, values: form, errors: { origin: "is required" }, message: "" });
  let origins = s.widget_origins;
  // The page's remove button names its website (`remove`); an older page's form sent it as `origin`.
  if (action === "remove") origins = origins.filter((o) => o !== (listed.length ? form.remove : form.origin));
  // A website typed in the Add field is added by any button of the page (by Add alone on an older page's form).
  let addedAt = -1;
  if (typed && (action === "add" || listed.includes("origins")) && !origins.includes(asOrigin(typed))) {
    addedAt = origins.length;
    origins = [...origins, typed];
  }
  if (origins !== s.widget_origins) patch.widget_origins = origins;
  if (sections.includes("loopback")) patch.widget_allow_loopback = form.widget_allow_loopback === "on";
  if (sections.includes("theme")) {
    const theme: Record<string, string> = {};
    for (const name of THEME_NAMES) {
      const value = (form[`widget_theme.${name}`] ?? "").trim();
      if (value) theme[name] = value;
    }
    patch.widget_theme = theme;
  }
  const themeFields = new Set(THEME_NAMES.map((n) => `widget_theme.${n}`));
  const fieldOf = (path: string) => (path === `widget_origins.${addedAt}` || (path === "widget_origins" && addedAt >= 0) ? "origin" : themeFields.has(path) ? path : "");
  try {
    await updateSettings(c.env, staffActor(c), c.get("staff").business_id, patch as never, c.get("now"));
  } catch (err) {
    const failed = sectionFailure(c, err, own, form, fieldOf);
    if (!failed) throw err;
    return render(c, { ...failed, sections });
  }
  const heading = headingOf(own);
  return c.redirect(`${base(c)}/widget?done=${action === "remove" ? "removed" : "saved"}&section=${heading}#h-${heading}`, 303);
}

export const originAdd = (c: AdminContext) => save(c, "add");
export const originRemove = (c: AdminContext) => save(c, "remove");
export const loopbackSave = (c: AdminContext) => save(c, "loopback");
export const themeSave = (c: AdminContext) => save(c, "theme");
