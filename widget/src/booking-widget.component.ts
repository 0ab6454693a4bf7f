import { adoptStyles, html, LitElement, nothing, unsafeCSS, type CSSResultOrNative, type PropertyValues, type TemplateResult } from "lit";
import { property } from "lit/decorators.js";
import { styles } from "./booking-widget.styles";
import { Booking } from "./booking";
import type { BookingOptions } from "./controllers/store";
import { emit, type BookingWidgetEventDetail, type BookingWidgetEventName } from "./events";
import { languageName } from "./format";
import { focusAndReveal } from "./reveal";
import { renderDates } from "./steps/dates";
import { renderProducts } from "./steps/product";
import { fill } from "./strings";

/** The origin that served this module: the API's default. */
const SCRIPT_ORIGIN = (() => {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return location.origin;
  }
})();

/**
 * The business's saved theme (its bootstrap's `theme`, checked strictly by the service:
 * worker/src/contract/widget-theme.ts) as the CSS the shadow root adopts. Checked again here for
 * its characters alone (widget.js has a size budget): a `--bw-` name, and a value of letters,
 * digits, spaces and `#().,%/"'-`, so nothing can end the declaration. Colours apply to the light
 * scheme only (over the dark defaults they could be unreadable); sizes and the font to both.
 */
function themeCss(theme: Record<string, string> = {}): string {
  let colours = "";
  let others = "";
  for (const [name, value] of Object.entries(theme)) {
    if (!/^--bw-[a-z-]{1,20}$/.test(name) || !/^[\w\s#().,%/"'-]{1,200}$/.test(value) || /url/i.test(value)) continue;
    if (/^--bw-(radius|font|font-size|min-height|max-width)$/.test(name)) others += `${name}:${value};`;
    else colours += `${name}:${value};`;
  }
  return `:host{${others}}@media (prefers-color-scheme:light){:host(:not([theme=dark])){${colours}}}:host([theme=light]){${colours}}`;
}

/**
 * `<booking-widget>`: a guest books a stay end to end, inside the host page (shadow DOM, no
 * iframe), talking only to the edge proxy `/widget/v1/{business}`. The element holds the
 * attributes, the shell (header, error banner, announcements) and focus; the booking itself,
 * its state and actions, live in a Booking (booking.ts: a shared store and a controller per
 * concern), and each step renders from the store and its concern's controller.
 *
 * @fires booking-widget:view_item - a product was shown (detail: currency, value, items)
 * @fires booking-widget:add_to_cart - the party's holds were added to the cart
 * @fires booking-widget:begin_checkout - the guest opened the checkout
 * @fires booking-widget:purchase - checkout succeeded (detail.transaction_id: booking reference)
 * @fires booking-widget:cart_expired - the cart's holds lapsed while the guest watched
 *
 * @csspart root - the widget's box
 * @csspart header - the bar with progress and the language and currency switchers
 * @csspart heading - each step's heading
 * @csspart button - every button; primary-button - the main action of a step
 * @csspart calendar - the check-in calendar; day - each day of it
 * @csspart card - product, room and cart cards
 * @csspart error - the error banner
 * @csspart countdown - the cart's countdown
 * @csspart total - the total line
 *
 * @cssproperty --bw-accent - main colour (buttons, selected day); --bw-accent-text - text on it
 * @cssproperty --bw-bg - background; --bw-surface - cards; --bw-text; --bw-muted; --bw-border
 * @cssproperty --bw-danger; --bw-success; --bw-focus - focus ring
 * @cssproperty --bw-radius; --bw-font; --bw-font-size; --bw-min-height; --bw-max-width
 */
export class BookingWidget extends LitElement {
  static override styles = styles;

  /** The business's slug (required). */
  @property() business = "";
  /** A product id; without it the widget lists the business's bookable products. */
  @property() product?: string;
  /** Two-letter language; default: the page's `<html lang>`, then the business's default. */
  @property() language?: string;
  /** ISO currency code; default: the business's default currency. */
  @property() currency?: string;
  /** Preselected check-in day, YYYY-MM-DD. */
  @property({ attribute: "start-date" }) startDate?: string;
  /** Preselected check-out day (sets the duration when it is one the product offers). */
  @property({ attribute: "end-date" }) endDate?: string;
  /** Preselected number of nights. */
  @property() duration?: string;
  /** Preselected party. */
  @property() males?: string;
  @property() females?: string;
  @property() couples?: string;
  /** The service's origin; default: the origin that served widget.js. */
  @property() api?: string;
  /** "light", "dark" or absent (follow the system). */
  @property({ reflect: true }) theme?: string;

  /** The guest's booking: state and actions. */
  readonly booking = new Booking(this);
  private focusHeadingNext = false;
  private checkoutStyles: CSSResultOrNative | null = null;
  /** The saved theme last applied (the bootstrap's `theme`), and its stylesheet. */
  private appliedTheme: Record<string, string> | undefined;
  private themeSheet: CSSResultOrNative | null = null;

  /** The attributes the booking starts from (read by the controllers). */
  get options(): BookingOptions {
    return {
      business: this.business, product: this.product, language: this.language, currency: this.currency, startDate: this.startDate,
      endDate: this.endDate, duration: this.duration, males: this.males, females: this.females, couples: this.couples, api: this.api ?? SCRIPT_ORIGIN,
    };
  }

  track(name: BookingWidgetEventName, detail: BookingWidgetEventDetail): void {
    emit(this, name, detail);
  }

  focusHeading(): void {
    this.focusHeadingNext = true;
  }

  async focusError(): Promise<void> {
    await this.updateComplete;
    const banner = this.renderRoot.querySelector<HTMLElement>(".banner");
    if (banner) focusAndReveal(banner);
  }

  async focusInvalid(): Promise<void> {
    await this.updateComplete;
    const field = this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) focusAndReveal(field);
  }

  async focusDay(date: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-date="${date}"]`)?.focus();
  }

  leaveFor(url: string): void {
    window.location.assign(url);
  }

  protected override firstUpdated(): void {
    void this.booking.load().then(() => this.booking.steps().catch(() => undefined));
  }

  /**
   * The shadow root's stylesheets: the first screen's, the checkout steps' once loaded, and the
   * business's saved theme last. The theme sets `--bw-*` on :host inside the shadow tree, so it
   * beats the widget's defaults while the host page's own `booking-widget { --bw-... }` rules
   * (the outer context) still win over it.
   */
  private adopt(): void {
    adoptStyles(this.renderRoot as ShadowRoot, [styles, ...(this.checkoutStyles ? [this.checkoutStyles] : []), ...(this.themeSheet ? [this.themeSheet] : [])]);
  }

  protected override willUpdate(): void {
    const theme = this.booking.store.boot?.theme;
    if (theme !== this.appliedTheme) {
      this.appliedTheme = theme;
      this.themeSheet = theme ? unsafeCSS(themeCss(theme)) : null;
      this.adopt();
    }
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has("language")) this.booking.catalog.languageChanged(this.language);
    const h2 = this.focusHeadingNext && this.renderRoot.querySelector<HTMLElement>("h2[tabindex]");
    if (h2) {
      this.focusHeadingNext = false;
      focusAndReveal(h2);
    }
  }

  private renderSwitchers(): TemplateResult | typeof nothing {
    const b = this.booking.store;
    const catalog = this.booking.catalog;
    const settings = b.boot?.settings;
    if (!settings) return nothing;
    const cartCurrency = b.cart?.status === "open";
    // the language chosen, when the business offers it (shown in English when the widget lacks it)
    const shown = settings.languages.includes(b.wanted) ? b.wanted : b.lang;
    return html`<div class="switchers">
      ${settings.languages.length > 1
        ? html`<label><span class="lbl">${b.s.language}</span>
            <select @change=${(e: Event) => catalog.setLanguage((e.target as HTMLSelectElement).value)} .value=${shown}>
              ${settings.languages.map((l) => html`<option value=${l} ?selected=${l === shown}>${languageName(l)}</option>`)}
            </select></label>`
        : nothing}
      ${settings.currencies.length > 1
        ? html`<label><span class="lbl">${b.s.currency}</span>
            <select ?disabled=${cartCurrency} @change=${(e: Event) => catalog.setCurrency((e.target as HTMLSelectElement).value)} .value=${b.cur}>
              ${settings.currencies.map((c) => html`<option value=${c.iso_code} ?selected=${c.iso_code === b.cur}>${c.iso_code} (${c.symbol})</option>`)}
            </select></label>`
        : nothing}
    </div>`;
  }

  private renderError(): TemplateResult | typeof nothing {
    const b = this.booking.store;
    const err = b.error;
    if (!err) return nothing;
    return html`<div class="banner" part="error" tabindex="-1">
      <p>${err.message}</p>
      <div class="actions">
        ${err.actions.map((a, i) => html`<button type="button" class="btn ${i === 0 ? "primary" : ""}" part="button" @click=${a.run}>${a.label}</button>`)}
        ${err.kind === "origin" ? nothing : html`<button type="button" class="btn link" part="button" @click=${() => b.dismissError()}>${b.s.errors.dismiss}</button>`}
      </div>
    </div>`;
  }

  private renderStep(): TemplateResult {
    const b = this.booking.store;
    const catalog = this.booking.catalog;
    const skeleton = html`<div aria-busy="true"><h2>${b.s.loading}</h2><div class="skeleton-block"></div></div>`;
    // a first load that failed says why in the banner: no skeleton promising more (a refused origin gets nothing more);
    // with a product, the skeleton is the calendar's own layout, empty (no jump when it fills)
    if (b.step === "loading") return b.error ? html`` : b.productFixed ? renderDates(b, catalog) : skeleton;
    if (b.step === "product") return renderProducts(b, catalog);
    if (b.step === "dates") return renderDates(b, catalog);
    const loaded = b.checkoutReady && this.booking.loaded;
    if (!loaded) {
      // a stored cart resumed at once, or a guest faster than the network: rendered again when it is here
      this.booking.steps().catch(() => b.unreachable(() => this.requestUpdate()));
      return skeleton;
    }
    const { module: steps, party, cart } = loaded;
    if (!this.checkoutStyles) {
      this.checkoutStyles = steps.checkoutStyles;
      this.adopt();
    }
    switch (b.step) {
      case "room": return steps.renderRoom(b, party);
      case "extras": return steps.renderExtras(b, party);
      case "guests": return steps.renderGuests(b, cart);
      case "cart": return steps.renderCart(b, cart);
      case "checkout": return steps.renderCheckout(b, cart);
      case "done": return steps.renderDone(b, { startOver: () => catalog.startOver(), checkPayment: () => void cart.confirmPayment(), tryAgain: () => void cart.rebuildCart() });
    }
  }

  override render(): TemplateResult {
    const b = this.booking.store;
    const flow = b.flow;
    const index = flow.indexOf(b.step);
    return html`<section class="root" part="root" aria-label=${b.boot?.settings.title ?? b.s.widgetLabel} lang=${b.lang}>
      <header class="bar" part="header">
        <span class="progress">${index >= 0 ? fill(b.s.stepOf, { n: index + 1, total: flow.length }) : ""}</span>
        ${this.renderSwitchers()}
      </header>
      ${b.cart?.status === "open" && b.step !== "done"
        ? html`<p part="countdown" class="small">${fill(b.s.hold.expiresIn, { time: "" })}<span class="countdown ${b.timeLeft.low ? "low" : ""}" role="timer" aria-live="off" data-countdown>${b.timeLeft.text}</span></p>`
        : nothing}
      ${b.untranslated ? html`<p class="small muted" data-untranslated>${fill(b.s.untranslated, { language: languageName(b.untranslated) })}</p>` : nothing}
      <div role="alert">${this.renderError()}</div>
      <div class="step" aria-busy=${b.busy || (b.step === "loading" && !b.error) ? "true" : "false"} ?inert=${b.step === "loading"}>${this.renderStep()}</div>
      <div class="sr-only" role="status" aria-live="polite">${b.status}</div>
    </section>`;
  }
}
