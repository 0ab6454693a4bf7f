import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import { property, state } from "lit/decorators.js";
import {
  WidgetApi, WidgetApiError, type AccommodationOption, type Booking, type Bootstrap, type Cart, type CheckoutBody, type DayEntry, type PackageRoot, type Product,
} from "./api/client";
import { styles } from "./booking-widget.styles";
import { loadCart, saveCart, watchCart } from "./cart-store";
import { CountdownController } from "./controllers/countdown";
import { emit, type BookingWidgetEventName, type BookingWidgetItem } from "./events";
import { addDays, formatCountdown, formatPrice, formatTime } from "./format";
import {
  addToCartBody, allItems, endDate, partySize, rebuildBody, resizeGuests, validateGuests, wholeItemDates,
  type FieldErrors, type GuestForm, type Selection,
} from "./selection";
import { renderCart } from "./steps/cart";
import { renderCheckout, type CustomerForm } from "./steps/checkout";
import { renderDates } from "./steps/dates";
import { renderDone } from "./steps/done";
import { renderExtras } from "./steps/extras";
import { renderGuests } from "./steps/guests";
import { renderProducts } from "./steps/product";
import { renderRoom } from "./steps/room";
import { fill, stringsFor, type Strings } from "./strings";

/** The booking as the confirmation step shows it (its booker unknown when found on a stored cart after a reload). */
export type Confirmation = Pick<Booking, "reference" | "total" | "currency"> & { booker: Pick<Booking["booker"], "first_name" | "email"> | null };

/** The confirmation of the booking a checked-out cart names; null for a cart not booked. */
const confirmationOf = (cart: Cart, booker: Confirmation["booker"]): Confirmation | null =>
  cart.status === "checked_out" && cart.booking ? { reference: cart.booking.reference, total: cart.total, currency: cart.currency, booker } : null;

export type Step = "loading" | "product" | "dates" | "room" | "extras" | "guests" | "cart" | "checkout" | "done";
const FLOW: Step[] = ["product", "dates", "room", "extras", "guests", "cart", "checkout", "done"];

/** The origin that served this module: the API's default. */
const SCRIPT_ORIGIN = (() => {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return location.origin;
  }
})();

interface ErrorState {
  kind: WidgetApiError["kind"] | "client";
  message: string;
  actions: { label: string; run: () => void }[];
  retryAt?: number;
}

/**
 * `<booking-widget>`: a guest books a stay end to end, inside the host page (shadow DOM, no
 * iframe), talking only to the edge proxy `/widget/v1/{business}`.
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

  @state() step: Step = "loading";
  @state() boot: Bootstrap | null = null;
  @state() lang = "en";
  @state() cur = "EUR";
  @state() sel: Selection = { productId: null, startDate: null, duration: 7, males: 1, females: 0, couples: 0, accommodationId: null, srs: false, items: {} };
  @state() days: Record<string, DayEntry> = {};
  @state() month = "";
  @state() pkg: PackageRoot | null = null;
  @state() rooms: AccommodationOption[] | null = null;
  @state() guests: GuestForm[] = [];
  @state() customer: CustomerForm = { first_name: "", last_name: "", email: "", phone_countrycode: "", phone: "", address_line_1: "", city: "", zipcode: "", country: "" };
  @state() terms = false;
  @state() newsletter = false;
  @state() cart: Cart | null = null;
  /** What the confirmation shows: the booking answered, or found on its cart (see checkout()). */
  @state() booking: Confirmation | null = null;
  @state() error: ErrorState | null = null;
  @state() fieldErrors: FieldErrors = {};
  @state() busy = "";
  /** The selection's price from POST /packages/prices (null while unknown). */
  @state() estimate: number | null = null;
  /** Polite announcements (countdown thresholds, confirmations). */
  @state() status = "";

  api$!: WidgetApi;
  /** The calendar day holding the roving tab stop. */
  calFocus: string | null = null;
  s: Strings = stringsFor("en");
  private focusHeading = false;
  private unwatch?: () => void;
  private idempotency = new Map<string, string>();
  private roomsRequest = 0;
  countdown = new CountdownController(this, {
    onThreshold: (left) => this.announce(Math.abs(left - 60) <= 1 ? this.s.cart.expiresMinute : fill(this.s.cart.expiresSoon, { time: formatCountdown(left) })),
    onExpire: () => void this.onCartExpired(),
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.unwatch = watchCart(this.business, (stored) => void this.onOtherTab(stored?.id ?? null));
  }
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unwatch?.();
  }

  protected override firstUpdated(): void {
    void this.load();
  }

  protected override willUpdate(changed: PropertyValues): void {
    // the guest fixed every field the banner was about: the banner goes too
    if (changed.has("fieldErrors") && this.error?.kind === "client" && Object.keys(this.fieldErrors).length === 0) this.error = null;
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has("language") && this.boot && this.language && this.language !== this.lang) this.setLanguage(this.language);
    if (this.focusHeading) {
      this.focusHeading = false;
      this.renderRoot.querySelector<HTMLElement>("h2[tabindex]")?.focus();
    }
  }

  // ---- loading and navigation ---------------------------------------------------------------

  private initialLanguage(): string | undefined {
    return this.language ?? (document.documentElement.lang?.slice(0, 2).toLowerCase() || undefined);
  }

  async load(): Promise<void> {
    this.api$ = new WidgetApi(this.api ?? SCRIPT_ORIGIN, this.business);
    await this.run("load", async () => {
      const duration = this.duration ? Number(this.duration) : this.endDate && this.startDate ? Math.round((Date.parse(this.endDate) - Date.parse(this.startDate)) / 86_400_000) : undefined;
      const boot = await this.api$.bootstrap({ product: this.product, start_date: this.startDate, duration: duration && duration > 0 ? duration : undefined, language: this.initialLanguage(), currency: this.currency });
      this.applyBoot(boot);
      const party = { males: num(this.males), females: num(this.females), couples: num(this.couples) };
      if (party.males !== null || party.females !== null || party.couples !== null) {
        this.sel = { ...this.sel, males: party.males ?? 0, females: party.females ?? 0, couples: party.couples ?? 0 };
      }
      if (boot.product) {
        const variants = durationChoices(boot.product);
        this.sel = { ...this.sel, productId: boot.product.id, duration: duration && variants.includes(duration) ? duration : boot.calendar?.duration ?? boot.product.duration.default, startDate: boot.start_date };
        this.pkg = boot.package;
        this.applyDefaults();
        this.viewItem(boot.product);
      }
      this.guests = resizeGuests(this.guests, this.sel);
      const stored = loadCart(this.business);
      if (stored && (await this.resumeCart(stored.id))) return;
      this.go(boot.product ? "dates" : "product", false);
    });
  }

  private applyBoot(boot: Bootstrap): void {
    this.boot = boot;
    this.lang = boot.language;
    this.cur = boot.currency;
    this.s = stringsFor(boot.language);
    if (boot.calendar) {
      this.days = { ...boot.calendar.dates };
      this.month = `${(boot.start_date ?? boot.calendar.from).slice(0, 7)}-01`;
    }
  }

  /** Move to a step; focus lands on its heading (not on first load, which must not steal focus from the host page). */
  go(step: Step, focus = true): void {
    this.step = step;
    if (step === "extras") {
      this.estimate = null;
      this.scheduleEstimate();
    }
    this.focusHeading = focus;
    if (step === "checkout" && this.cart) this.track("begin_checkout", this.cartItems(this.cart), this.cart.total, this.cart.cart_id);
  }

  get flow(): Step[] {
    return FLOW.filter((s) => s !== "product" || !this.product);
  }

  back(): void {
    const i = this.flow.indexOf(this.step);
    if (i > 0) this.go(this.flow[i - 1]);
  }

  // ---- errors and busy states ----------------------------------------------------------------

  /** Run an action; a failure becomes a banner with its own message and a way forward. */
  async run(name: string, action: () => Promise<void>, onError?: (err: WidgetApiError) => ErrorState | null): Promise<boolean> {
    this.busy = name;
    this.error = null;
    try {
      await action();
      return true;
    } catch (err) {
      if (!(err instanceof WidgetApiError)) {
        console.error(err);
        this.error = { kind: "server", message: this.s.errors.generic, actions: [{ label: this.s.errors.retry, run: () => void this.run(name, action, onError) }] };
        return false;
      }
      this.error = onError?.(err) ?? this.errorFor(err, () => void this.run(name, action, onError));
      if (err.kind === "rate_limited") this.scheduleRateLimitNotice(err.retryAfter);
      return false;
    } finally {
      this.busy = "";
    }
  }

  errorFor(err: WidgetApiError, retry: () => void): ErrorState {
    const e = this.s.errors;
    switch (err.kind) {
      case "network": return { kind: err.kind, message: e.network, actions: [{ label: e.retry, run: retry }] };
      case "rate_limited": return { kind: err.kind, message: fill(e.rateLimited, { s: err.retryAfter }), actions: [{ label: e.retry, run: retry }], retryAt: Date.now() + err.retryAfter * 1000 };
      case "sold_out": return { kind: err.kind, message: e.soldOut, actions: [{ label: this.s.steps.dates, run: () => void this.afterSoldOut() }] };
      case "cart_expired": return { kind: err.kind, message: e.expired, actions: [{ label: e.rebuild, run: () => void this.rebuildCart() }, { label: e.startOver, run: () => this.startOver() }] };
      case "cart_not_open": return { kind: err.kind, message: e.notOpen, actions: [{ label: e.startOver, run: () => this.startOver() }] };
      case "validation": {
        const mapped = Object.fromEntries(err.fieldErrors.map((f) => [f.path, f.message]));
        this.fieldErrors = { ...this.fieldErrors, ...mapped };
        return { kind: err.kind, message: err.fieldErrors.length ? `${e.validation} ${err.fieldErrors.map((f) => `${f.path}: ${f.message}`).join("; ")}` : `${e.validation} ${err.message}`, actions: [] };
      }
      case "not_found": return { kind: err.kind, message: e.notFound, actions: [{ label: e.startOver, run: () => this.startOver() }] };
      case "origin": return { kind: err.kind, message: e.origin, actions: [] };
      default: return { kind: err.kind, message: e.generic, actions: [{ label: e.retry, run: retry }] };
    }
  }

  private scheduleRateLimitNotice(seconds: number): void {
    setTimeout(() => {
      if (this.error?.kind === "rate_limited") this.announce(this.s.errors.rateLimitedNow);
    }, seconds * 1000);
  }

  private clientError(n: number): ErrorState {
    return { kind: "client", message: n === 1 ? this.s.errors.fieldError : fill(this.s.errors.fieldErrors, { n }), actions: [] };
  }

  announce(text: string): void {
    // re-announce identical text: clear first, set on the next frame
    this.status = "";
    requestAnimationFrame(() => (this.status = text));
  }

  /** An idempotency key per logical action, reused by its retries so nothing is booked twice. */
  private keyFor(action: string, payload: unknown): string {
    const id = `${action}:${JSON.stringify(payload)}`;
    let key = this.idempotency.get(id);
    if (!key) {
      key = crypto.randomUUID();
      this.idempotency.set(id, key);
    }
    return key;
  }

  // ---- catalog: language, currency, dates, rooms, extras --------------------------------------

  setLanguage(language: string): void {
    this.lang = language;
    this.s = stringsFor(language);
    void this.refreshCatalog();
  }

  setCurrency(currency: string): void {
    this.cur = currency;
    void this.refreshCatalog();
  }

  /** Re-read what depends on language and currency, keeping every choice and every typed value. */
  async refreshCatalog(): Promise<void> {
    await this.run("catalog", async () => {
      const boot = await this.api$.bootstrap({ product: this.sel.productId ? String(this.sel.productId) : this.product, start_date: this.sel.startDate ?? undefined, duration: this.sel.productId ? this.sel.duration : undefined, language: this.lang, currency: this.cur });
      const month = this.month;
      this.applyBoot(boot);
      if (month) this.month = month;
      if (this.sel.productId && this.sel.startDate) {
        this.pkg = await this.api$.packageItems(this.sel.productId, { start_date: this.sel.startDate, duration: this.sel.duration, currency: this.cur, language: this.lang });
        if (this.step === "room" || this.rooms) await this.loadRooms();
      }
    });
  }

  async chooseProduct(product: Product): Promise<void> {
    await this.run("product", async () => {
      const boot = await this.api$.bootstrap({ product: String(product.id), language: this.lang, currency: this.cur });
      const products = this.boot?.products;
      this.applyBoot({ ...boot, products: products ?? boot.products });
      this.sel = { ...this.sel, productId: product.id, startDate: boot.start_date, duration: boot.calendar?.duration ?? product.duration.default, accommodationId: null, srs: false, items: {} };
      this.pkg = boot.package;
      this.applyDefaults();
      this.viewItem(product);
      this.go("dates");
    });
  }

  get currentProduct(): Product | null {
    return this.boot?.product ?? this.boot?.products.find((p) => p.id === this.sel.productId) ?? null;
  }

  async showMonth(month: string): Promise<void> {
    this.month = month;
    const from = month;
    const to = addDays(`${month.slice(0, 7)}-01`, 40).slice(0, 7) + "-01";
    if (this.days[from] && this.days[addDays(to, -1)]) return;
    await this.run("calendar", async () => {
      const cal = await this.api$.calendar({ product: this.sel.productId!, from, to: addDays(to, -1), currency: this.cur, duration: this.sel.duration });
      this.days = { ...this.days, ...cal.dates };
    });
  }

  async pickDate(date: string): Promise<void> {
    this.sel = { ...this.sel, startDate: date, accommodationId: null, srs: false };
    this.rooms = null;
    await this.loadPackage();
  }

  async setDuration(duration: number): Promise<void> {
    this.sel = { ...this.sel, duration, accommodationId: null, srs: false };
    this.rooms = null;
    await this.run("calendar", async () => {
      const from = this.month > (this.boot?.today ?? "") ? this.month : this.boot!.today;
      const cal = await this.api$.calendar({ product: this.sel.productId!, from, currency: this.cur, duration });
      this.days = { ...cal.dates };
      if (this.sel.startDate && !this.days[this.sel.startDate]?.available_for_checkin) this.sel = { ...this.sel, startDate: null };
    });
    await this.loadPackage();
  }

  private async loadPackage(): Promise<void> {
    const product = this.currentProduct;
    if (!product || product.type !== "package" || !this.sel.startDate) return;
    await this.run("package", async () => {
      this.pkg = await this.api$.packageItems(product.id, { start_date: this.sel.startDate!, duration: this.sel.duration, currency: this.cur, language: this.lang });
      this.applyDefaults();
    });
  }

  /** Drop chosen item dates that the new package window no longer has. */
  private applyDefaults(): void {
    const items = allItems(this.pkg);
    const next: Record<number, string[]> = {};
    for (const item of items) {
      const chosen = this.sel.items[item.package_item_id];
      if (!chosen || item.role === "default") continue;
      const valid = new Set(wholeItemDates(item).map((d) => d.slice(0, 10)));
      const kept = chosen.filter((d) => valid.has(d.slice(0, 10)));
      if (kept.length) next[item.package_item_id] = kept;
    }
    this.sel = { ...this.sel, items: next };
  }

  setParty(part: "males" | "females" | "couples", value: number): void {
    const max = this.currentProduct?.pax.max ?? 20;
    const next = { ...this.sel, [part]: Math.max(0, value) };
    if (partySize(next) > max) return;
    this.sel = { ...next, accommodationId: null, srs: false };
    this.guests = resizeGuests(this.guests, this.sel);
    void this.loadRooms();
  }

  async loadRooms(): Promise<void> {
    const product = this.currentProduct;
    if (!product || !this.sel.startDate || partySize(this.sel) === 0) {
      this.rooms = partySize(this.sel) === 0 ? [] : null;
      return;
    }
    const ticket = ++this.roomsRequest;
    await this.run("rooms", async () => {
      const rooms = await this.api$.accommodations(product.id, { start_date: this.sel.startDate!, duration: this.sel.duration, males: this.sel.males, females: this.sel.females, couples: this.sel.couples, currency: this.cur, language: this.lang });
      if (ticket !== this.roomsRequest) return; // a newer party was asked for meanwhile
      this.rooms = rooms;
      if (this.sel.accommodationId && !rooms.some((r) => r.product.id === this.sel.accommodationId)) this.sel = { ...this.sel, accommodationId: null, srs: false };
    });
  }

  setItemDates(itemId: number, dates: string[]): void {
    const items = { ...this.sel.items };
    if (dates.length) items[itemId] = dates;
    else delete items[itemId];
    this.sel = { ...this.sel, items };
    this.scheduleEstimate();
  }

  private estimateTimer: ReturnType<typeof setTimeout> | undefined;
  private estimateAbort: AbortController | undefined;

  /** Re-price the selection shortly after the guest stops changing it (one request per pause). */
  scheduleEstimate(): void {
    clearTimeout(this.estimateTimer);
    this.estimateTimer = setTimeout(() => void this.updateEstimate(), 250);
  }

  private async updateEstimate(): Promise<void> {
    const s = this.sel;
    if (!s.productId || !s.startDate || !s.accommodationId || partySize(s) === 0) return;
    this.estimateAbort?.abort();
    const abort = (this.estimateAbort = new AbortController());
    const draft = addToCartBody(s, this.pkg, resizeGuests([], s), this.cart?.status === "open" ? this.cart.currency : this.cur, this.lang);
    const body = { currency: draft.currency, guests: draft.guests.map(({ first_name: _f, last_name: _l, ...g }, i) => ({ ...g, unique_id: `g${i}` })) };
    try {
      const prices = await this.api$.packagePrices(body, abort.signal);
      this.estimate = Math.round(Object.values(prices).flat().reduce((t, l) => t + l.price, 0) * 100) / 100;
    } catch {
      // an estimate is a courtesy: without it the cart still shows the real total
      if (!abort.signal.aborted) this.estimate = null;
    }
  }

  // ---- cart -----------------------------------------------------------------------------------

  async addToCart(): Promise<void> {
    const product = this.currentProduct!;
    const settings = this.boot!.settings.settings.guest_fields;
    this.fieldErrors = validateGuests(this.guests, { birthdayRequired: settings.birthday.required, minimumAge: settings.minimum_age, startDate: this.sel.startDate! }, {
      required: this.s.guests.required, tooYoung: fill(this.s.guests.tooYoung, { age: settings.minimum_age }), invalidEmail: this.s.guests.invalidEmail,
    });
    if (Object.keys(this.fieldErrors).length) {
      this.error = this.clientError(Object.keys(this.fieldErrors).length);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const openCart = this.cart?.status === "open" ? this.cart.cart_id : undefined;
    const body = addToCartBody(this.sel, this.pkg, this.guests, openCart ? this.cart!.currency : this.cur, this.lang, openCart);
    await this.run("add", async () => {
      const cart = await this.api$.addToCart(body, this.keyFor("add", body));
      // first the general "held for" line; a countdown threshold crossed at once (a short
      // lifetime) announces after it and wins
      this.announce(fill(this.s.cart.expiresIn, { time: formatCountdown(cart.seconds_left) }));
      this.setCart(cart);
      this.idempotency.clear();
      const added = cart.guests.slice(-this.guests.length);
      this.track("add_to_cart", this.cartItems({ ...cart, guests: added }), added.reduce((t, g) => t + g.total, 0), cart.cart_id);
      this.fieldErrors = {};
      this.go("cart");
      void product;
    });
  }

  setCart(cart: Cart | null): void {
    this.cart = cart;
    if (cart && cart.status === "open") {
      saveCart(this.business, { id: cart.cart_id, expiry_date: cart.expiry_date, currency: cart.currency });
      // the server's seconds_left is immune to a wrong clock on the guest's device
      this.countdown.set(new Date(Date.now() + cart.seconds_left * 1000).toISOString());
    } else {
      this.countdown.set(null);
    }
  }

  private async resumeCart(id: string): Promise<boolean> {
    try {
      const cart = await this.api$.cart(id);
      if (cart.status === "open" && cart.seconds_left > 0 && cart.guests.length) {
        this.setCart(cart);
        this.cur = cart.currency;
        this.go("cart", false);
        this.status = this.s.cart.resumed;
        return true;
      }
      const booked = confirmationOf(cart, null);
      if (booked) {
        // A checkout answered shows its confirmation and forgets the cart, so a stored cart that
        // was checked out is one whose answer never arrived: show the booking it names (once).
        this.booking = booked;
        this.cur = cart.currency;
        this.track("purchase", this.cartItems(cart), cart.total, cart.cart_id, booked.reference);
        saveCart(this.business, null);
        this.go("done", false);
        return true;
      }
      if (cart.status === "abandoned" && cart.abandon_reason === "expired" && cart.guests.length) {
        this.cart = cart;
        this.go("cart", false);
        this.error = this.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
        return true;
      }
    } catch (err) {
      if (err instanceof WidgetApiError && (err.kind === "network" || err.kind === "rate_limited")) throw err;
    }
    saveCart(this.business, null);
    return false;
  }

  async refreshCart(): Promise<void> {
    if (!this.cart) return;
    await this.run("cart", async () => this.setCart(await this.api$.cart(this.cart!.cart_id)));
  }

  async extendCart(): Promise<void> {
    await this.run("extend", async () => {
      const res = await this.api$.extend(this.cart!.cart_id);
      const cart = await this.api$.cart(res.cart_id);
      this.setCart(cart);
      this.announce(fill(this.s.cart.extended, { time: formatTime(new Date(res.expiry_date), this.lang) }));
    });
  }

  async emptyCart(): Promise<void> {
    await this.run("remove", async () => {
      try {
        await this.api$.abandon(this.cart!.cart_id);
      } catch (err) {
        if (!(err instanceof WidgetApiError) || !["cart_expired", "cart_not_open", "not_found"].includes(err.kind)) throw err;
      }
      this.setCart(null);
      saveCart(this.business, null);
      this.announce(this.s.cart.removeConfirm);
      this.go(this.product ? "dates" : "product");
    });
  }

  private async onCartExpired(): Promise<void> {
    if (!this.cart || this.step === "done") return;
    const expired = this.cart;
    this.track("cart_expired", this.cartItems(expired), expired.total, expired.cart_id);
    try {
      this.cart = await this.api$.cart(expired.cart_id);
    } catch {
      /* keep what we showed */
    }
    this.error = this.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
  }

  /** Hold the same selection again in a new cart, from what the server shows of the old one. */
  async rebuildCart(): Promise<void> {
    const old = this.cart;
    if (!old) return this.startOver();
    const body = rebuildBody(old);
    await this.run("rebuild", async () => {
      const cart = await this.api$.addToCart(body, this.keyFor("rebuild", { from: old.cart_id }));
      this.setCart(cart);
      this.track("add_to_cart", this.cartItems(cart), cart.total, cart.cart_id);
      this.go("cart");
    });
  }

  private async afterSoldOut(): Promise<void> {
    this.error = null;
    this.rooms = null;
    this.go("dates");
    await this.setDuration(this.sel.duration);
  }

  startOver(): void {
    this.setCart(null);
    saveCart(this.business, null);
    this.booking = null;
    this.error = null;
    this.terms = false;
    this.sel = { ...this.sel, accommodationId: null, srs: false, items: {} };
    this.rooms = null;
    this.idempotency.clear();
    this.go(this.product ? "dates" : "product");
    if (this.sel.productId) void this.setDuration(this.sel.duration);
  }

  /** Another tab changed the cart: follow it. */
  private async onOtherTab(id: string | null): Promise<void> {
    if (this.step === "done") return;
    if (!id) {
      if (this.cart) {
        this.setCart(null);
        if (this.step === "cart" || this.step === "checkout") this.go(this.product ? "dates" : "product", false);
      }
      return;
    }
    try {
      const cart = await this.api$.cart(id);
      if (cart.status === "open") {
        this.setCart(cart);
        if (this.step !== "guests" && this.step !== "checkout") this.go("cart", false);
      }
    } catch {
      /* the next action will tell */
    }
  }

  // ---- checkout -------------------------------------------------------------------------------

  prefillCustomer(): void {
    const g = this.guests[0];
    if (g && !this.customer.first_name && !this.customer.last_name && !this.customer.email) {
      this.customer = { ...this.customer, first_name: g.first_name, last_name: g.last_name, email: g.email };
    }
  }

  async checkout(): Promise<void> {
    const rules = this.boot!.settings.settings.customer_fields;
    const c = this.customer;
    const errors: FieldErrors = {};
    const req = this.s.guests.required;
    if (!c.first_name.trim()) errors["customer.first_name"] = req;
    if (!c.last_name.trim()) errors["customer.last_name"] = req;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email.trim())) errors["customer.email"] = c.email.trim() ? this.s.guests.invalidEmail : req;
    if (rules.phone.request && rules.phone.required && !c.phone.trim()) errors["customer.phone"] = req;
    if (rules.address.request && rules.address.required) {
      for (const k of ["address_line_1", "city", "zipcode", "country"] as const) if (!c[k].trim()) errors[`customer.${k}`] = req;
    }
    if (!this.terms) errors.terms_accepted = this.s.checkout.mustAccept;
    this.fieldErrors = errors;
    if (Object.keys(errors).length) {
      this.error = this.clientError(Object.keys(errors).length);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const customer: CheckoutBody["customer"] & Record<string, string> = { first_name: c.first_name.trim(), last_name: c.last_name.trim(), email: c.email.trim(), language_code: this.lang };
    for (const k of ["phone_countrycode", "phone", "address_line_1", "city", "zipcode", "country"] as const) if (c[k].trim()) (customer as Record<string, string>)[k] = c[k].trim().replace(/^\+/, "");
    const body = { terms_accepted: true as const, newsletter_opt_in: this.newsletter, customer };
    const cart = this.cart!;
    await this.run("checkout", async () => {
      let booking: Confirmation;
      try {
        booking = await this.api$.checkout(cart.cart_id, body, this.keyFor("checkout", { cart: cart.cart_id, body }));
      } catch (err) {
        // "Not open": an earlier attempt may have booked it and its answer never arrived (the
        // connection dropped, the guest changed a field and sent again with a new key). "In
        // progress": the same attempt is still running, or its server died after booking. Either
        // way a booked cart names its booking: confirm that one rather than tell the guest to
        // start over (or retry on a cart already booked).
        const unsure = err instanceof WidgetApiError && (err.kind === "cart_not_open" || err.code === "idempotency_in_progress");
        const found = unsure ? await this.bookingOnCart(cart.cart_id, customer) : null;
        if (!found) throw err;
        booking = found;
      }
      this.booking = booking;
      this.track("purchase", this.cartItems(cart), booking.total, cart.cart_id, booking.reference);
      this.setCart(null);
      saveCart(this.business, null);
      this.idempotency.clear();
      this.fieldErrors = {};
      this.go("done");
    });
  }

  /** The booking a checked-out cart names, shown with the details this checkout sent; null otherwise. */
  private async bookingOnCart(cartId: string, customer: { first_name: string; email: string }): Promise<Confirmation | null> {
    const cart = await this.api$.cart(cartId).catch(() => null);
    return cart && confirmationOf(cart, { first_name: customer.first_name, email: customer.email });
  }

  // ---- analytics ------------------------------------------------------------------------------

  private viewItem(product: Product): void {
    const day = this.sel.startDate ? this.days[this.sel.startDate] : undefined;
    const price = day?.price ?? product.price_from?.find((p) => p.currency === this.cur)?.value ?? 0;
    this.track("view_item", [{ item_id: String(product.id), item_name: product.title, item_category: product.type, price, quantity: 1 }], price);
  }

  cartItems(cart: Cart): BookingWidgetItem[] {
    return cart.guests.flatMap((g) => g.items.map((i) => ({ item_id: String(i.product_id), item_name: i.title, item_category: i.role, price: i.price, quantity: i.qty })));
  }

  private track(name: BookingWidgetEventName, items: BookingWidgetItem[], value: number, cartId?: string, transactionId?: string): void {
    emit(this, name, {
      business: this.business,
      currency: this.cart?.currency ?? this.cur,
      value: Math.round(value * 100) / 100,
      items,
      ...(cartId ? { cart_id: cartId } : {}),
      ...(transactionId ? { transaction_id: transactionId } : {}),
    });
  }

  // ---- rendering ------------------------------------------------------------------------------

  price(value: number, currency = this.cur): string {
    return formatPrice(value, currency, this.lang);
  }

  heading(text: string): TemplateResult {
    return html`<h2 tabindex="-1" part="heading" id="step-heading">${text}</h2>`;
  }

  private renderSwitchers(): TemplateResult | typeof nothing {
    const settings = this.boot?.settings;
    if (!settings) return nothing;
    const cartCurrency = this.cart?.status === "open";
    return html`<div class="switchers">
      ${settings.languages.length > 1
        ? html`<label>${this.s.language}
            <select @change=${(e: Event) => this.setLanguage((e.target as HTMLSelectElement).value)} .value=${this.lang}>
              ${settings.languages.map((l) => html`<option value=${l} ?selected=${l === this.lang}>${languageName(l)}</option>`)}
            </select></label>`
        : nothing}
      ${settings.currencies.length > 1
        ? html`<label>${this.s.currency}
            <select ?disabled=${cartCurrency} @change=${(e: Event) => this.setCurrency((e.target as HTMLSelectElement).value)} .value=${this.cur}>
              ${settings.currencies.map((c) => html`<option value=${c.iso_code} ?selected=${c.iso_code === this.cur}>${c.iso_code} (${c.symbol})</option>`)}
            </select></label>`
        : nothing}
    </div>`;
  }

  private renderError(): TemplateResult | typeof nothing {
    const err = this.error;
    if (!err) return nothing;
    return html`<div class="banner" part="error">
      <p>${err.message}</p>
      <div class="actions">
        ${err.actions.map((a, i) => html`<button type="button" class="btn ${i === 0 ? "primary" : ""}" part="button" @click=${a.run}>${a.label}</button>`)}
        <button type="button" class="btn link" part="button" @click=${() => (this.error = null)}>${this.s.errors.dismiss}</button>
      </div>
    </div>`;
  }

  private renderStep(): TemplateResult {
    switch (this.step) {
      case "loading": return html`<div aria-busy="true"><h2>${this.s.loading}</h2><div class="skeleton-block"></div></div>`;
      case "product": return renderProducts(this);
      case "dates": return renderDates(this);
      case "room": return renderRoom(this);
      case "extras": return renderExtras(this);
      case "guests": return renderGuests(this);
      case "cart": return renderCart(this);
      case "checkout": return renderCheckout(this);
      case "done": return renderDone(this);
    }
  }

  override render(): TemplateResult {
    const flow = this.flow;
    const index = flow.indexOf(this.step);
    return html`<section class="root" part="root" aria-label=${this.boot?.settings.title ?? this.s.widgetLabel} lang=${this.lang}>
      <header class="bar" part="header">
        <span class="progress">${index >= 0 ? fill(this.s.stepOf, { n: index + 1, total: flow.length }) : ""}</span>
        ${this.renderSwitchers()}
      </header>
      <div role="alert">${this.renderError()}</div>
      <div class="step" aria-busy=${this.busy ? "true" : "false"}>${this.renderStep()}</div>
      <div class="sr-only" role="status" aria-live="polite">${this.status}</div>
    </section>`;
  }

  /** For the cart step: seconds left, formatted, and whether time is short. */
  get timeLeft(): { text: string; low: boolean; seconds: number } {
    const s = this.countdown.secondsLeft;
    return { text: formatCountdown(s), low: s <= 60, seconds: s };
  }

  get stayEnd(): string | null {
    return endDate(this.sel);
  }
}

function num(v: string | undefined): number | null {
  if (v === undefined || !/^\d{1,2}$/.test(v)) return null;
  return Number(v);
}

export function durationChoices(product: Product): number[] {
  const d = product.duration;
  const list = d.variants.length ? d.variants : [d.default];
  return [...new Set(list)].filter((n) => n >= d.min).sort((a, b) => a - b);
}

function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : code;
  } catch {
    return code;
  }
}
