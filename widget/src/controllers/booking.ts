import type { ReactiveController } from "lit";
import {
  WidgetApi, WidgetApiError, type AccommodationOption, type Bootstrap, type Cart, type DayEntry, type PackageRoot, type Product, type RoomType, type Settings,
} from "../api/client";
import { loadCart, saveCart, watchCart } from "../cart-store";
import { describeError } from "../errors";
import { laterLoaded, loadLater, type Later } from "../load-later";
import type { BookingWidgetEventName, BookingWidgetItem } from "../events";
import { addDays, formatCountdown, formatPrice } from "../format";
import {
  allItems, durationChoices, endDate, wholeItemDates,
  type CustomerForm, type FieldErrors, type GuestForm, type Selection,
} from "../selection";
import { fallbackStrings, fill, hasStrings, loadLaterStrings, loadStrings, type Strings } from "../strings";
import {
  FLOW, type BookingHost, type BookingOptions, type Confirmation, type ErrorState, type Step,
} from "./booking-state";
import type { CountdownController } from "./countdown";
import { reactive } from "./reactive";

export type { BookingHost, BookingOptions, Confirmation, Step };

/**
 * The guest's booking: every piece of state of the path (selection, party, cart, errors) and
 * every action on it (API calls, navigation, validation). The element renders it; the steps get
 * it through the narrow views they declare (steps/*.ts), so no step reaches the element.
 */
export class BookingController implements ReactiveController {
  // Reactive (see the end of this file): every assignment renders the element again.
  step: Step = "loading";
  boot: Bootstrap | null = null;
  lang = "en";
  cur = "EUR";
  sel: Selection = { productId: null, startDate: null, duration: 7, males: 0, females: 0, couples: 0, accommodationId: null, srs: false, items: {} };
  days: Record<string, DayEntry> = {};
  /** The package's room types, as its calendar lists them (what is left of each is on each day). */
  roomTypes: RoomType[] = [];
  month = "";
  pkg: PackageRoot | null = null;
  rooms: AccommodationOption[] | null = null;
  guests: GuestForm[] = [];
  customer: CustomerForm = { first_name: "", last_name: "", email: "", phone_country: "", phone_countrycode: "", phone: "", address_line_1: "", city: "", zipcode: "", country: "" };
  terms = false;
  newsletter = false;
  cart: Cart | null = null;
  /** What the confirmation shows: the booking answered, or found on its cart (see checkout()). */
  booking: Confirmation | null = null;
  error: ErrorState | null = null;
  fieldErrors: FieldErrors = {};
  busy = "";
  /** The selection's price from POST /packages/prices (null while unknown). */
  estimate: number | null = null;
  /** What each chosen extra adds for the whole party, by package item (from the same prices). */
  extraTotals: Record<number, number> = {};
  /** Polite announcements (countdown thresholds, confirmations). */
  status = "";
  /** The calendar day holding the roving tab stop. */
  calFocus: string | null = null;
  /**
   * The texts in the language shown. Its later half (room, extras, guests, cart, checkout, done)
   * is there once `laterReady`: only the later steps read it, and they render only then.
   */
  s: Strings = fallbackStrings as Strings;
  /** The later steps' chunk and texts have arrived. */
  laterReady = false;
  /** The language the page or the guest asked for; `lang` is what is shown (English where the widget lacks it). */
  wanted = "";

  /** Internal: the controller's parts in later.ts use these too. */
  api!: WidgetApi;
  private unwatch?: () => void;
  idempotency = new Map<string, string>();
  roomsRequest = 0;
  estimateTimer: ReturnType<typeof setTimeout> | undefined;
  estimateAbort: AbortController | undefined;
  /** The hold's countdown, made with the first cart (later-actions.ts). */
  countdown?: CountdownController;

  constructor(readonly host: BookingHost) {
    host.addController(this);
  }

  get o(): BookingOptions {
    return this.host.options;
  }

  hostConnected(): void {
    this.unwatch = watchCart(this.o.business, (stored) => void this.later((l) => l.onOtherTab(this, stored?.id ?? null)));
  }
  hostDisconnected(): void {
    this.unwatch?.();
  }

  /** The later steps' chunk, with their texts in the language shown. */
  async ensureLater(): Promise<Later> {
    const lang = this.lang;
    const [later, texts] = await Promise.all([loadLater(), loadLaterStrings(lang)]);
    if (lang === this.lang) {
      this.s = { ...this.s, ...texts };
      this.laterReady = true;
    } else await this.ensureLater(); // the language changed meanwhile
    return later;
  }

  /** Run one of the actions that live in the later chunk; a chunk that cannot be fetched is a network failure. */
  /** The later chunk, for actions only the later steps call (they render once it is here). */
  private get l(): Later {
    return laterLoaded()!;
  }

  async later(action: (later: Later) => Promise<void>): Promise<void> {
    let later: Later;
    try {
      later = await this.ensureLater();
    } catch {
      this.unreachable(() => void this.later(action));
      void this.host.focusError();
      return;
    }
    await action(later);
  }

  // ---- loading and navigation ---------------------------------------------------------------

  private initialLanguage(): string | undefined {
    return this.o.language ?? (document.documentElement.lang?.slice(0, 2).toLowerCase() || undefined);
  }

  async load(): Promise<void> {
    const o = this.o;
    this.api = new WidgetApi(o.api, o.business);
    await this.run("load", async () => {
      const duration = o.duration ? Number(o.duration) : o.endDate && o.startDate ? Math.round((Date.parse(o.endDate) - Date.parse(o.startDate)) / 86_400_000) : undefined;
      const asked = this.initialLanguage();
      // a language the widget has no texts in is shown in English throughout, catalog included
      const language = asked && !hasStrings(asked) ? "en" : asked;
      if (language) void loadStrings(language); // fetched alongside the bootstrap
      // a stored cart is shown on the later steps: their chunk comes alongside too
      const stored = loadCart(o.business);
      const resuming = stored ? this.ensureLater().catch((err: Error) => Promise.reject(new WidgetApiError("network", 0, err.message))) : null;
      resuming?.catch(() => undefined); // awaited below; not unhandled meanwhile
      const boot = await this.api.bootstrap({ product: o.product, start_date: o.startDate, duration: duration && duration > 0 ? duration : undefined, language, currency: o.currency });
      await this.applyBoot(boot);
      this.wanted = asked ?? boot.language;
      const party = { males: num(o.males), females: num(o.females), couples: num(o.couples) };
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
      if (stored && (await (await resuming!).resumeCart(this, stored.id))) return;
      this.go(boot.product ? "dates" : "product", false);
    });
  }

  /** Adopt a language change made on the element's attribute. */
  languageChanged(language: string | undefined): void {
    if (this.boot && language && language !== this.wanted) this.setLanguage(language);
  }

  /** The name of the language asked for when the widget's texts lack it (then all is English); null otherwise. */
  get untranslated(): string | null {
    return this.wanted && this.wanted !== this.lang && !hasStrings(this.wanted) ? this.wanted : null;
  }

  private async applyBoot(boot: Bootstrap): Promise<void> {
    const [first, later] = await Promise.all([loadStrings(boot.language), this.laterReady ? loadLaterStrings(boot.language) : undefined]);
    this.boot = boot;
    this.lang = boot.language;
    this.cur = boot.currency;
    this.s = { ...first, ...later } as Strings;
    if (boot.calendar) {
      this.days = { ...boot.calendar.dates };
      this.roomTypes = boot.calendar.rooms ?? [];
      this.month = `${(boot.start_date ?? boot.calendar.from).slice(0, 7)}-01`;
    }
  }

  /** Move to a step; focus lands on its heading (not on first load, which must not steal focus from the host page). */
  go(step: Step, focus = true): void {
    this.step = step;
    // what was announced on the last step is no longer current
    this.status = "";
    if (step === "extras") {
      this.estimate = null;
      this.l.scheduleEstimate(this);
    }
    if (focus) this.host.focusHeading();
    if (step === "checkout" && this.cart) this.track("begin_checkout", this.cartItems(this.cart), this.cart.total, this.cart.cart_id);
  }

  get flow(): Step[] {
    return FLOW.filter((s) => s !== "product" || !this.o.product);
  }

  /** Whether the widget was given its product (no product list to go back to). */
  get productFixed(): boolean {
    return !!this.o.product;
  }

  back(): void {
    const i = this.flow.indexOf(this.step);
    if (i > 0) this.go(this.flow[i - 1]);
  }

  get today(): string {
    return this.boot?.today ?? "";
  }

  get settings(): Settings {
    return this.boot!.settings;
  }

  get products(): Product[] {
    return this.boot?.products ?? [];
  }

  // ---- errors and busy states ----------------------------------------------------------------

  /**
   * Run an action; a failure becomes a banner with its own message and a way forward. Focus
   * follows a failure of what the guest did (the button they pressed may be gone or disabled):
   * to the field the service refused, else to the banner. The first load never takes focus.
   */
  async run(name: string, action: () => Promise<void>): Promise<boolean> {
    this.busy = name;
    this.error = null;
    try {
      await action();
      return true;
    } catch (err) {
      const retry = () => void this.run(name, action);
      if (!(err instanceof WidgetApiError)) {
        console.error(err);
        this.error = { kind: "server", message: this.s.errors.generic, actions: [{ label: this.s.errors.retry, run: retry }] };
      } else {
        this.error = this.errorFor(err, retry);
        if (err.kind === "rate_limited") this.scheduleRateLimitNotice(err.retryAfter);
      }
      if (name !== "load") void (Object.keys(this.fieldErrors).length ? this.host.focusInvalid() : this.host.focusError());
      return false;
    } finally {
      this.busy = "";
    }
  }

  errorFor(err: WidgetApiError, retry: () => void): ErrorState {
    const e = this.s.errors;
    const { message, fields } = describeError(err, this.s);
    const marked = Object.keys(fields).length > 0;
    if (marked) this.fieldErrors = { ...this.fieldErrors, ...fields };
    // the service's own words, for the site's developer
    if (err.kind === "origin") console.warn(`booking-widget: ${err.message}`); // the service says which origin to allow, for the site's owner
    if (err.kind === "validation") console.warn(`booking-widget: the service refused the request (${err.status} ${err.code}): ${err.message}`, err.fieldErrors);
    const startOver = { label: e.startOver, run: () => this.startOver() };
    const actions: Record<string, ErrorState["actions"]> = {
      sold_out: [{ label: this.s.steps.dates, run: () => void this.afterSoldOut() }],
      cart_expired: [{ label: e.rebuild, run: () => void this.rebuildCart() }, startOver],
      cart_not_open: [startOver],
      not_found: [startOver],
      origin: [],
    };
    if (marked) actions.validation = [];
    return { kind: err.kind, message, actions: actions[err.kind] ?? [{ label: e.retry, run: retry }] };
  }

  private scheduleRateLimitNotice(seconds: number): void {
    setTimeout(() => {
      if (this.error?.kind === "rate_limited") this.announce(this.s.errors.rateLimitedNow);
    }, seconds * 1000);
  }

  private clientError(n: number): ErrorState {
    return { kind: "client", message: n === 1 ? this.s.errors.fieldError : fill(this.s.errors.fieldErrors, { n }), actions: [] };
  }

  /** Field errors found before sending: the banner counts them and focus goes to the first. */
  async refuse(errors: FieldErrors): Promise<boolean> {
    this.fieldErrors = errors;
    const n = Object.keys(errors).length;
    if (!n) return false;
    this.error = this.clientError(n);
    await this.host.focusInvalid();
    return true;
  }

  /** The service could not be reached outside an API call (a part of the widget failed to load). */
  unreachable(retry: () => void): void {
    if (this.error?.kind !== "network") this.error = { kind: "network", message: this.s.errors.network, actions: [{ label: this.s.errors.retry, run: retry }] };
  }

  dismissError(): void {
    this.error = null;
  }

  /** Forget a field's error once the guest changes it; the banner goes with the last one. */
  clearFieldError(...paths: string[]): void {
    if (!paths.some((p) => p in this.fieldErrors)) return;
    this.fieldErrors = Object.fromEntries(Object.entries(this.fieldErrors).filter(([k]) => !paths.includes(k)));
    if (this.error?.kind === "client" && Object.keys(this.fieldErrors).length === 0) this.error = null;
  }

  announce(text: string): void {
    // re-announce identical text: clear first, set on the next frame
    this.status = "";
    requestAnimationFrame(() => (this.status = text));
  }

  /** An idempotency key per logical action, reused by its retries so nothing is booked twice. */
  keyFor(action: string, payload: unknown): string {
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
    this.wanted = language;
    this.lang = hasStrings(language) ? language : "en";
    void loadStrings(this.lang); // alongside the catalog
    if (this.laterReady) void loadLaterStrings(this.lang);
    void this.refreshCatalog();
  }

  setCurrency(currency: string): void {
    this.cur = currency;
    void this.refreshCatalog();
  }

  /** Re-read what depends on language and currency, keeping every choice and every typed value. */
  async refreshCatalog(): Promise<void> {
    await this.run("catalog", async () => {
      const boot = await this.api.bootstrap({ product: this.sel.productId ? String(this.sel.productId) : this.o.product, start_date: this.sel.startDate ?? undefined, duration: this.sel.productId ? this.sel.duration : undefined, language: this.lang, currency: this.cur });
      const month = this.month;
      await this.applyBoot(boot);
      if (month) this.month = month;
      if (this.sel.productId && this.sel.startDate) {
        this.pkg = await this.api.packageItems(this.sel.productId, { start_date: this.sel.startDate, duration: this.sel.duration, currency: this.cur, language: this.lang });
        if (this.step === "room" || this.rooms) await this.loadRooms();
      }
    });
  }

  async chooseProduct(product: Product): Promise<void> {
    await this.run("product", async () => {
      const boot = await this.api.bootstrap({ product: String(product.id), language: this.lang, currency: this.cur });
      const products = this.boot?.products;
      await this.applyBoot({ ...boot, products: products ?? boot.products });
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
      const cal = await this.api.calendar({ product: this.sel.productId!, from, to: addDays(to, -1), currency: this.cur, duration: this.sel.duration, language: this.lang });
      this.days = { ...this.days, ...cal.dates };
      if (cal.rooms) this.roomTypes = cal.rooms;
    });
  }

  /** Move the calendar's tab stop to a day (another month when it lies there) and focus it. */
  async moveCalendarFocus(date: string): Promise<void> {
    if (date < this.today) return;
    if (date.slice(0, 7) !== this.month.slice(0, 7)) await this.showMonth(`${date.slice(0, 7)}-01`);
    this.calFocus = date;
    await this.host.focusDay(date);
  }

  async pickDate(date: string): Promise<void> {
    this.calFocus = date;
    this.sel = { ...this.sel, startDate: date, accommodationId: null, srs: false };
    this.rooms = null;
    await this.loadPackage();
  }

  async setDuration(duration: number): Promise<void> {
    this.sel = { ...this.sel, duration, accommodationId: null, srs: false };
    this.rooms = null;
    await this.run("calendar", async () => {
      const from = this.month > this.today ? this.month : this.today;
      const cal = await this.api.calendar({ product: this.sel.productId!, from, currency: this.cur, duration, language: this.lang });
      this.days = { ...cal.dates };
      this.roomTypes = cal.rooms ?? [];
      if (this.sel.startDate && !this.days[this.sel.startDate]?.available_for_checkin) this.sel = { ...this.sel, startDate: null };
    });
    await this.loadPackage();
  }

  /** From the calendar to the party and room. */
  toRooms(): void {
    this.go("room");
    void this.loadRooms();
  }

  private async loadPackage(): Promise<void> {
    const product = this.currentProduct;
    if (!product || product.type !== "package" || !this.sel.startDate) return;
    await this.run("package", async () => {
      this.pkg = await this.api.packageItems(product.id, { start_date: this.sel.startDate!, duration: this.sel.duration, currency: this.cur, language: this.lang });
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
    this.l.setParty(this, part, value);
  }

  chooseRoom(id: number): void {
    this.sel = { ...this.sel, accommodationId: id, srs: false };
  }

  setSrs(on: boolean): void {
    this.sel = { ...this.sel, srs: on };
  }

  /** The room types for the party and dates. */
  loadRooms(): Promise<void> {
    return this.later((l) => l.loadRooms(this));
  }

  setItemDates(itemId: number, dates: string[]): void {
    this.l.setItemDates(this, itemId, dates);
  }

  /** A second stay in the same cart: a fresh choice of room and extras, and fresh names. */
  addAnotherStay(): void {
    this.l.addAnotherStay(this);
  }

  /** From the cart to the checkout, the booker's name and e-mail taken from the first guest. */
  toCheckout(): void {
    this.l.toCheckout(this);
  }

  // ---- guests and cart ------------------------------------------------------------------------

  updateGuest(i: number, patch: Partial<GuestForm>): void {
    this.guests = this.guests.map((g, n) => (n === i ? { ...g, ...patch } : g));
    this.clearFieldError(...Object.keys(patch).map((k) => `guests.${i}.${k}`));
  }

  /** Hold the party's stay in the cart (a new one, or the open one). */
  addToCart(): Promise<void> {
    return this.later((l) => l.addToCart(this));
  }

  /** Ten more minutes for the holds. */
  extendCart(): Promise<void> {
    return this.later((l) => l.extendCart(this));
  }

  /** Give the holds back and start again. */
  emptyCart(): Promise<void> {
    return this.later((l) => l.emptyCart(this));
  }

  /** Hold the same selection again in a new cart (after it expired). */
  rebuildCart(): Promise<void> {
    return this.later((l) => l.rebuildCart(this));
  }

  async afterSoldOut(): Promise<void> {
    this.error = null;
    this.rooms = null;
    this.go("dates");
    await this.setDuration(this.sel.duration);
  }

  startOver(): void {
    this.cart = null;
    this.countdown?.set(null);
    saveCart(this.o.business, null);
    this.booking = null;
    this.error = null;
    this.terms = false;
    this.sel = { ...this.sel, accommodationId: null, srs: false, items: {} };
    this.rooms = null;
    this.idempotency.clear();
    this.go(this.productFixed ? "dates" : "product");
    if (this.sel.productId) void this.setDuration(this.sel.duration);
  }

  // ---- checkout -------------------------------------------------------------------------------

  setCustomer(key: keyof CustomerForm, value: string): void {
    this.customer = { ...this.customer, [key]: value };
    this.clearFieldError(`customer.${key}`);
  }

  setTerms(on: boolean): void {
    this.terms = on;
    if (on) this.clearFieldError("terms_accepted");
  }

  setNewsletter(on: boolean): void {
    this.newsletter = on;
  }

  /** Book the cart. */
  checkout(): Promise<void> {
    return this.later((l) => l.checkout(this));
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

  track(name: BookingWidgetEventName, items: BookingWidgetItem[], value: number, cartId?: string, transactionId?: string): void {
    this.host.track(name, {
      business: this.o.business,
      currency: this.cart?.currency ?? this.cur,
      value: Math.round(value * 100) / 100,
      items,
      ...(cartId ? { cart_id: cartId } : {}),
      ...(transactionId ? { transaction_id: transactionId } : {}),
    });
  }

  // ---- what the steps read --------------------------------------------------------------------

  price(value: number, currency = this.cur): string {
    return formatPrice(value, currency, this.lang);
  }

  /** The cart's holds are live: it can be booked. */
  get held(): boolean {
    return this.cart?.status === "open" && (this.countdown?.secondsLeft ?? 0) > 0;
  }

  get company(): string {
    return this.boot?.settings.company_name ?? "";
  }

  /** Seconds left on the cart, formatted, and whether time is short. */
  get timeLeft(): { text: string; low: boolean; seconds: number } {
    const s = this.countdown?.secondsLeft ?? 0;
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

reactive(BookingController.prototype, ["step", "boot", "lang", "cur", "sel", "days", "roomTypes", "month", "pkg", "rooms", "guests", "customer", "terms", "newsletter", "cart", "booking", "error", "fieldErrors", "busy", "estimate", "extraTotals", "status", "calFocus", "s", "laterReady", "wanted"]);
