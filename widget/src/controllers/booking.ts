import type { ReactiveController, ReactiveControllerHost } from "lit";
import {
  WidgetApi, WidgetApiError, type AccommodationOption, type Booking, type Bootstrap, type Cart, type CheckoutBody, type DayEntry, type PackageRoot, type Product, type Settings,
} from "../api/client";
import { loadCart, saveCart, watchCart } from "../cart-store";
import { describeError } from "../errors";
import type { BookingWidgetEventDetail, BookingWidgetEventName, BookingWidgetItem } from "../events";
import { addDays, formatCountdown, formatPrice, formatTime } from "../format";
import {
  addToCartBody, allItems, durationChoices, endDate, partySize, rebuildBody, resizeGuests, validateGuests, wholeItemDates,
  type CustomerForm, type FieldErrors, type GuestForm, type Selection,
} from "../selection";
import { fill, stringsFor, type Strings } from "../strings";
import { CountdownController } from "./countdown";
import { reactive } from "./reactive";

export type Step = "loading" | "product" | "dates" | "room" | "extras" | "guests" | "cart" | "checkout" | "done";
const FLOW: Step[] = ["product", "dates", "room", "extras", "guests", "cart", "checkout", "done"];

/** The booking as the confirmation step shows it (its booker unknown when found on a stored cart after a reload). */
export type Confirmation = Pick<Booking, "reference" | "total" | "currency"> & { booker: Pick<Booking["booker"], "first_name" | "email"> | null };

/** The confirmation of the booking a checked-out cart names; null for a cart not booked. */
const confirmationOf = (cart: Cart, booker: Confirmation["booker"]): Confirmation | null =>
  cart.status === "checked_out" && cart.booking ? { reference: cart.booking.reference, total: cart.total, currency: cart.currency, booker } : null;

export interface ErrorState {
  kind: WidgetApiError["kind"] | "client";
  message: string;
  actions: { label: string; run: () => void }[];
}

/** The element's attributes the guest's path starts from. */
export interface BookingOptions {
  business: string;
  product?: string;
  language?: string;
  currency?: string;
  startDate?: string;
  endDate?: string;
  duration?: string;
  males?: string;
  females?: string;
  couples?: string;
  /** The service's origin. */
  api: string;
}

/** What the controller needs of its element: attributes, events and focus. */
export interface BookingHost extends ReactiveControllerHost {
  readonly options: BookingOptions;
  /** Fire `booking-widget:<name>` (and push it to the page's dataLayer). */
  track(name: BookingWidgetEventName, detail: BookingWidgetEventDetail): void;
  /** After the next render: focus the step's heading. */
  focusHeading(): void;
  /** After the next render: focus the first invalid field. */
  focusInvalid(): Promise<void>;
  /** After the next render: focus a calendar day. */
  focusDay(date: string): Promise<void>;
}

/**
 * The guest's booking: every piece of state of the path (selection, party, cart, errors) and
 * every action on it (API calls, navigation, validation). The element renders it; the steps get
 * it through the narrow views they declare (steps/*.ts), so no step reaches the element.
 */
export class BookingController implements ReactiveController {
  @reactive step: Step = "loading";
  @reactive boot: Bootstrap | null = null;
  @reactive lang = "en";
  @reactive cur = "EUR";
  @reactive sel: Selection = { productId: null, startDate: null, duration: 7, males: 1, females: 0, couples: 0, accommodationId: null, srs: false, items: {} };
  @reactive days: Record<string, DayEntry> = {};
  @reactive month = "";
  @reactive pkg: PackageRoot | null = null;
  @reactive rooms: AccommodationOption[] | null = null;
  @reactive guests: GuestForm[] = [];
  @reactive customer: CustomerForm = { first_name: "", last_name: "", email: "", phone_countrycode: "", phone: "", address_line_1: "", city: "", zipcode: "", country: "" };
  @reactive terms = false;
  @reactive newsletter = false;
  @reactive cart: Cart | null = null;
  /** What the confirmation shows: the booking answered, or found on its cart (see checkout()). */
  @reactive booking: Confirmation | null = null;
  @reactive error: ErrorState | null = null;
  @reactive fieldErrors: FieldErrors = {};
  @reactive busy = "";
  /** The selection's price from POST /packages/prices (null while unknown). */
  @reactive estimate: number | null = null;
  /** Polite announcements (countdown thresholds, confirmations). */
  @reactive status = "";
  /** The calendar day holding the roving tab stop. */
  @reactive calFocus: string | null = null;
  @reactive s: Strings = stringsFor("en");

  private api!: WidgetApi;
  private unwatch?: () => void;
  private idempotency = new Map<string, string>();
  private roomsRequest = 0;
  private estimateTimer: ReturnType<typeof setTimeout> | undefined;
  private estimateAbort: AbortController | undefined;
  readonly countdown: CountdownController;

  constructor(readonly host: BookingHost) {
    host.addController(this);
    this.countdown = new CountdownController(host, {
      onThreshold: (left) => this.announce(Math.abs(left - 60) <= 1 ? this.s.cart.expiresMinute : fill(this.s.cart.expiresSoon, { time: formatCountdown(left) })),
      onExpire: () => void this.onCartExpired(),
    });
  }

  private get o(): BookingOptions {
    return this.host.options;
  }

  hostConnected(): void {
    this.unwatch = watchCart(this.o.business, (stored) => void this.onOtherTab(stored?.id ?? null));
  }
  hostDisconnected(): void {
    this.unwatch?.();
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
      const boot = await this.api.bootstrap({ product: o.product, start_date: o.startDate, duration: duration && duration > 0 ? duration : undefined, language: this.initialLanguage(), currency: o.currency });
      this.applyBoot(boot);
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
      this.guests = resizeGuests(this.guests, this.sel);
      const stored = loadCart(o.business);
      if (stored && (await this.resumeCart(stored.id))) return;
      this.go(boot.product ? "dates" : "product", false);
    });
  }

  /** Adopt a language change made on the element's attribute. */
  languageChanged(language: string | undefined): void {
    if (this.boot && language && language !== this.lang) this.setLanguage(language);
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

  /** Run an action; a failure becomes a banner with its own message and a way forward. */
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
        return false;
      }
      this.error = this.errorFor(err, retry);
      if (err.kind === "rate_limited") this.scheduleRateLimitNotice(err.retryAfter);
      return false;
    } finally {
      this.busy = "";
    }
  }

  errorFor(err: WidgetApiError, retry: () => void): ErrorState {
    const e = this.s.errors;
    const { message, fields } = describeError(err, this.s);
    if (Object.keys(fields).length) this.fieldErrors = { ...this.fieldErrors, ...fields };
    const startOver = { label: e.startOver, run: () => this.startOver() };
    const actions: Record<string, ErrorState["actions"]> = {
      sold_out: [{ label: this.s.steps.dates, run: () => void this.afterSoldOut() }],
      cart_expired: [{ label: e.rebuild, run: () => void this.rebuildCart() }, startOver],
      cart_not_open: [startOver],
      not_found: [startOver],
      validation: [],
      origin: [],
    };
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
  private async refuse(errors: FieldErrors): Promise<boolean> {
    this.fieldErrors = errors;
    const n = Object.keys(errors).length;
    if (!n) return false;
    this.error = this.clientError(n);
    await this.host.focusInvalid();
    return true;
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
      const boot = await this.api.bootstrap({ product: this.sel.productId ? String(this.sel.productId) : this.o.product, start_date: this.sel.startDate ?? undefined, duration: this.sel.productId ? this.sel.duration : undefined, language: this.lang, currency: this.cur });
      const month = this.month;
      this.applyBoot(boot);
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
      const cal = await this.api.calendar({ product: this.sel.productId!, from, to: addDays(to, -1), currency: this.cur, duration: this.sel.duration });
      this.days = { ...this.days, ...cal.dates };
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
      const cal = await this.api.calendar({ product: this.sel.productId!, from, currency: this.cur, duration });
      this.days = { ...cal.dates };
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
    const max = this.currentProduct?.pax.max ?? 20;
    const next = { ...this.sel, [part]: Math.max(0, value) };
    if (partySize(next) > max) return;
    this.sel = { ...next, accommodationId: null, srs: false };
    this.guests = resizeGuests(this.guests, this.sel);
    void this.loadRooms();
  }

  chooseRoom(id: number): void {
    this.sel = { ...this.sel, accommodationId: id, srs: false };
  }

  setSrs(on: boolean): void {
    this.sel = { ...this.sel, srs: on };
  }

  async loadRooms(): Promise<void> {
    const product = this.currentProduct;
    if (!product || !this.sel.startDate || partySize(this.sel) === 0) {
      this.rooms = partySize(this.sel) === 0 ? [] : null;
      return;
    }
    const ticket = ++this.roomsRequest;
    await this.run("rooms", async () => {
      const rooms = await this.api.accommodations(product.id, { start_date: this.sel.startDate!, duration: this.sel.duration, males: this.sel.males, females: this.sel.females, couples: this.sel.couples, currency: this.cur, language: this.lang });
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
      const prices = await this.api.packagePrices(body, abort.signal);
      this.estimate = Math.round(Object.values(prices).flat().reduce((t, l) => t + l.price, 0) * 100) / 100;
    } catch {
      // an estimate is a courtesy: without it the cart still shows the real total
      if (!abort.signal.aborted) this.estimate = null;
    }
  }

  // ---- guests and cart ------------------------------------------------------------------------

  updateGuest(i: number, patch: Partial<GuestForm>): void {
    this.guests = this.guests.map((g, n) => (n === i ? { ...g, ...patch } : g));
    this.clearFieldError(...Object.keys(patch).map((k) => `guests.${i}.${k}`));
  }

  async addToCart(): Promise<void> {
    const settings = this.boot!.settings.settings.guest_fields;
    const invalid = validateGuests(this.guests, { birthdayRequired: settings.birthday.required, minimumAge: settings.minimum_age, startDate: this.sel.startDate! }, {
      required: this.s.guests.required, tooYoung: fill(this.s.guests.tooYoung, { age: settings.minimum_age }), invalidEmail: this.s.guests.invalidEmail,
    });
    if (await this.refuse(invalid)) return;
    const openCart = this.cart?.status === "open" ? this.cart.cart_id : undefined;
    const body = addToCartBody(this.sel, this.pkg, this.guests, openCart ? this.cart!.currency : this.cur, this.lang, openCart);
    await this.run("add", async () => {
      const cart = await this.api.addToCart(body, this.keyFor("add", body));
      // first the general "held for" line; a countdown threshold crossed at once (a short
      // lifetime) announces after it and wins
      this.announce(fill(this.s.cart.expiresIn, { time: formatCountdown(cart.seconds_left) }));
      this.setCart(cart);
      this.idempotency.clear();
      const added = cart.guests.slice(-this.guests.length);
      this.track("add_to_cart", this.cartItems({ ...cart, guests: added }), added.reduce((t, g) => t + g.total, 0), cart.cart_id);
      this.fieldErrors = {};
      this.go("cart");
    });
  }

  private setCart(cart: Cart | null): void {
    this.cart = cart;
    if (cart && cart.status === "open") {
      saveCart(this.o.business, { id: cart.cart_id, expiry_date: cart.expiry_date, currency: cart.currency });
      // the server's seconds_left is immune to a wrong clock on the guest's device
      this.countdown.set(new Date(Date.now() + cart.seconds_left * 1000).toISOString());
    } else {
      this.countdown.set(null);
    }
  }

  private async resumeCart(id: string): Promise<boolean> {
    try {
      const cart = await this.api.cart(id);
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
        saveCart(this.o.business, null);
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
    saveCart(this.o.business, null);
    return false;
  }

  async extendCart(): Promise<void> {
    await this.run("extend", async () => {
      const res = await this.api.extend(this.cart!.cart_id);
      const cart = await this.api.cart(res.cart_id);
      this.setCart(cart);
      this.announce(fill(this.s.cart.extended, { time: formatTime(new Date(res.expiry_date), this.lang) }));
    });
  }

  async emptyCart(): Promise<void> {
    await this.run("remove", async () => {
      try {
        await this.api.abandon(this.cart!.cart_id);
      } catch (err) {
        if (!(err instanceof WidgetApiError) || !["cart_expired", "cart_not_open", "not_found"].includes(err.kind)) throw err;
      }
      this.setCart(null);
      saveCart(this.o.business, null);
      this.announce(this.s.cart.removeConfirm);
      this.go(this.productFixed ? "dates" : "product");
    });
  }

  /** A second stay in the same cart: a fresh choice of room and extras, and fresh names. */
  addAnotherStay(): void {
    this.sel = { ...this.sel, accommodationId: null, srs: false, items: {} };
    this.guests = this.guests.map((g) => ({ ...g, first_name: "", last_name: "", email: "", birth_date: "" }));
    this.go("dates");
  }

  private async onCartExpired(): Promise<void> {
    if (!this.cart || this.step === "done") return;
    const expired = this.cart;
    this.track("cart_expired", this.cartItems(expired), expired.total, expired.cart_id);
    try {
      this.cart = await this.api.cart(expired.cart_id);
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
      const cart = await this.api.addToCart(body, this.keyFor("rebuild", { from: old.cart_id }));
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

  /** Another tab changed the cart: follow it. */
  private async onOtherTab(id: string | null): Promise<void> {
    if (this.step === "done") return;
    if (!id) {
      if (this.cart) {
        this.setCart(null);
        if (this.step === "cart" || this.step === "checkout") this.go(this.productFixed ? "dates" : "product", false);
      }
      return;
    }
    try {
      const cart = await this.api.cart(id);
      if (cart.status === "open") {
        this.setCart(cart);
        if (this.step !== "guests" && this.step !== "checkout") this.go("cart", false);
      }
    } catch {
      /* the next action will tell */
    }
  }

  // ---- checkout -------------------------------------------------------------------------------

  /** From the cart to the checkout, the booker's name and e-mail taken from the first guest. */
  toCheckout(): void {
    const g = this.guests[0];
    if (g && !this.customer.first_name && !this.customer.last_name && !this.customer.email) {
      this.customer = { ...this.customer, first_name: g.first_name, last_name: g.last_name, email: g.email };
    }
    this.go("checkout");
  }

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
    if (await this.refuse(errors)) return;
    const customer: CheckoutBody["customer"] & Record<string, string> = { first_name: c.first_name.trim(), last_name: c.last_name.trim(), email: c.email.trim(), language_code: this.lang };
    for (const k of ["phone_countrycode", "phone", "address_line_1", "city", "zipcode", "country"] as const) if (c[k].trim()) (customer as Record<string, string>)[k] = c[k].trim().replace(/^\+/, "");
    const body = { terms_accepted: true as const, newsletter_opt_in: this.newsletter, customer };
    const cart = this.cart!;
    await this.run("checkout", async () => {
      let booking: Confirmation;
      try {
        booking = await this.api.checkout(cart.cart_id, body, this.keyFor("checkout", { cart: cart.cart_id, body }));
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
      saveCart(this.o.business, null);
      this.idempotency.clear();
      this.fieldErrors = {};
      this.go("done");
    });
  }

  /** The booking a checked-out cart names, shown with the details this checkout sent; null otherwise. */
  private async bookingOnCart(cartId: string, customer: { first_name: string; email: string }): Promise<Confirmation | null> {
    const cart = await this.api.cart(cartId).catch(() => null);
    return cart && confirmationOf(cart, { first_name: customer.first_name, email: customer.email });
  }

  // ---- analytics ------------------------------------------------------------------------------

  private viewItem(product: Product): void {
    const day = this.sel.startDate ? this.days[this.sel.startDate] : undefined;
    const price = day?.price ?? product.price_from?.find((p) => p.currency === this.cur)?.value ?? 0;
    this.track("view_item", [{ item_id: String(product.id), item_name: product.title, item_category: product.type, price, quantity: 1 }], price);
  }

  private cartItems(cart: Cart): BookingWidgetItem[] {
    return cart.guests.flatMap((g) => g.items.map((i) => ({ item_id: String(i.product_id), item_name: i.title, item_category: i.role, price: i.price, quantity: i.qty })));
  }

  private track(name: BookingWidgetEventName, items: BookingWidgetItem[], value: number, cartId?: string, transactionId?: string): void {
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

  /** Seconds left on the cart, formatted, and whether time is short. */
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
