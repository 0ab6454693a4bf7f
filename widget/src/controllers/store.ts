import type { ReactiveControllerHost } from "lit";
import {
  WidgetApiError, type AccommodationOption, type Booking, type Bootstrap, type Cart, type DayEntry, type PackageRoot, type Product, type RoomType, type Settings, type WidgetApi,
} from "../api/client";
import { describeError } from "../errors";
import type { BookingWidgetEventDetail, BookingWidgetEventName, BookingWidgetItem } from "../events";
import { formatCountdown, formatPrice } from "../format";
import { allItems, endDate, withRooms, type CustomerForm, type FieldErrors, type GuestForm, type Selection } from "../selection";
import { fallbackStrings, hasStrings, type Strings } from "../strings";
import type { CountdownController } from "./countdown";

/**
 * The guest's booking as one small store shared by the controllers of each concern
 * (catalog.ts: catalog and calendar; party.ts: party and rooms; cart.ts: cart and checkout):
 * its state, typed field by field in slices, what can be read off it, and the path's own
 * machinery every concern uses (moving between steps, running an action with its error banner,
 * announcing, tracking). The steps render from it (steps/*.ts declare the part they read).
 */

export type Step = "loading" | "product" | "dates" | "room" | "extras" | "guests" | "cart" | "checkout" | "done";
export const FLOW: Step[] = ["product", "dates", "room", "extras", "guests", "cart", "checkout", "done"];

/**
 * The booking as the confirmation step shows it (its booker unknown when found on a stored cart
 * after a reload). `confirmation_email`: where the service is sending the confirmation, as the
 * checkout answered; null when it sends none, or when the booking was found on a cart (the cart
 * does not say), and the step then promises no e-mail.
 */
export type Confirmation = Pick<Booking, "reference" | "total" | "currency" | "guests" | "confirmation_email"> & {
  booker: Pick<Booking["booker"], "first_name" | "email"> | null;
  /** Paid online at booking (major units), when the guest paid before the booking was confirmed. */
  paid?: number;
};

/** A guest back from the payment page (or on their way there): what the confirmation step shows meanwhile. */
export type PaymentPhase = "redirecting" | "confirming" | "slow" | "expired" | "refunded";

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

/** What the controllers need of their element: attributes, events and focus. */
export interface BookingHost extends ReactiveControllerHost {
  readonly options: BookingOptions;
  /** Fire `booking-widget:<name>` (and push it to the page's dataLayer). */
  track(name: BookingWidgetEventName, detail: BookingWidgetEventDetail): void;
  /** After the next render: focus the step's heading. */
  focusHeading(): void;
  /** After the next render: focus the first invalid field. */
  focusInvalid(): Promise<void>;
  /** After the next render: focus the error banner. */
  focusError(): Promise<void>;
  /** After the next render: focus a calendar day. */
  focusDay(date: string): Promise<void>;
  /** Leave the host page for `url` in this tab (Stripe's payment page: it cannot be shown inside the widget). */
  leaveFor(url: string): void;
}

export const round2 = (n: number): number => Math.round(n * 100) / 100;

// ---- the state, by concern: a new concern (a product shape) adds its slice here -----------------

/** The path: the step shown, its texts, what runs, what went wrong. */
const pathSlice = () => ({
  step: "loading" as Step,
  /** The language shown; `wanted` is the one the page or the guest asked for (English where the widget lacks it). */
  lang: "en",
  wanted: "",
  /**
   * The texts in the language shown. The checkout steps' half (room, extras, guests, cart,
   * checkout, done) is there once `checkoutReady`: only those steps read it, and they render
   * only then.
   */
  s: fallbackStrings as Strings,
  /** The checkout steps' chunk and texts have arrived. */
  checkoutReady: false,
  error: null as ErrorState | null,
  fieldErrors: {} as FieldErrors,
  /** The name of the action running ("" when none). */
  busy: "",
  /** Polite announcements (countdown thresholds, confirmations). */
  status: "",
});

/** Catalog and calendar (controllers/catalog.ts). */
const catalogSlice = () => ({
  boot: null as Bootstrap | null,
  cur: "EUR",
  sel: { productId: null, startDate: null, duration: 7, males: 0, females: 0, couples: 0, accommodationId: null, srs: false, items: {} } as Selection,
  days: {} as Record<string, DayEntry>,
  /** The package's room types, as its calendar lists them (what is left of each is on each day). */
  roomTypes: [] as RoomType[],
  /** The first day of the month shown. */
  month: "",
  pkg: null as PackageRoot | null,
  /** The calendar day holding the roving tab stop. */
  calFocus: null as string | null,
});

/** Party and rooms, and the extras' prices (controllers/party.ts). */
const partySlice = () => ({
  rooms: null as AccommodationOption[] | null,
  guests: [] as GuestForm[],
  /** The selection's price from POST /packages/prices (null while unknown). */
  estimate: null as number | null,
  /** What each chosen extra adds for the whole party, by package item (from the same prices). */
  extraTotals: {} as Record<number, number>,
});

/** Cart and checkout (controllers/cart.ts). */
const cartSlice = () => ({
  cart: null as Cart | null,
  /** What the confirmation shows: the booking answered, or found on its cart. */
  booking: null as Confirmation | null,
  /** Paying online: on the way to the payment page, or back and waiting for the service to confirm it (controllers/cart.ts). */
  paying: null as PaymentPhase | null,
  customer: { first_name: "", last_name: "", email: "", phone_country: "", phone_countrycode: "", phone: "", address_line_1: "", city: "", zipcode: "", country: "" } as CustomerForm,
  terms: false,
  newsletter: false,
});

/** A fresh booking's state: every reactive field, with its type and first value. */
export const initialState = () => ({ ...pathSlice(), ...catalogSlice(), ...partySlice(), ...cartSlice() });
export type BookingState = ReturnType<typeof initialState>;

// The store has the state's fields (declared by this interface, defined on its prototype below).
export interface BookingStore extends BookingState {}

/** What a concern adds to the store: the way forward from an error of its own kind. */
export type Remedy = () => ErrorState["actions"];

export class BookingStore {
  /** The service's API, made on the first load. */
  api!: WidgetApi;
  /** The hold's countdown, made with the first cart (controllers/cart.ts). */
  countdown?: CountdownController;
  /** What each concern does when its step is entered (e.g. party.ts prices the extras). */
  readonly onEnter: Partial<Record<Step, () => void>> = {};
  /** The actions an error's banner offers, by error kind, as each concern registers them. */
  readonly remedies: Partial<Record<ErrorState["kind"], Remedy>> = {};
  /** Idempotency keys by logical action (cart.ts): a retry reuses its key, so nothing is booked twice. */
  readonly keys = new Map<string, string>();

  constructor(readonly host: BookingHost) {
    Object.assign(this, initialState());
  }

  get o(): BookingOptions {
    return this.host.options;
  }

  // ---- what is read off the state --------------------------------------------------------------

  get today(): string {
    return this.boot?.today ?? "";
  }

  get settings(): Settings {
    return this.boot!.settings;
  }

  get products(): Product[] {
    return this.boot?.products ?? [];
  }

  get currentProduct(): Product | null {
    return this.boot?.product ?? this.boot?.products.find((p) => p.id === this.sel.productId) ?? null;
  }

  /** Whether the widget was given its product (no product list to go back to). */
  get productFixed(): boolean {
    return !!this.o.product;
  }

  get company(): string {
    return this.boot?.settings.company_name ?? "";
  }

  /** Booked with a room (the party by gender, nights), or by participants (days): selection.ts withRooms. */
  get byRoom(): boolean {
    return withRooms(this.currentProduct, this.roomTypes);
  }

  get stayEnd(): string | null {
    return endDate(this.sel);
  }

  /** The name of the language asked for when the widget's texts lack it (then all is English); null otherwise. */
  get untranslated(): string | null {
    return this.wanted && this.wanted !== this.lang && !hasStrings(this.wanted) ? this.wanted : null;
  }

  /** The cart's holds are live: it can be booked. */
  get held(): boolean {
    return this.cart?.status === "open" && (this.countdown?.secondsLeft ?? 0) > 0;
  }

  /** Seconds left on the cart, formatted, and whether time is short. */
  get timeLeft(): { text: string; low: boolean; seconds: number } {
    const s = this.countdown?.secondsLeft ?? 0;
    return { text: formatCountdown(s), low: s <= 60, seconds: s };
  }

  price(value: number, currency = this.cur): string {
    return formatPrice(value, currency, this.lang);
  }

  // ---- the path ----------------------------------------------------------------------------------

  /** The steps of this booking: no product list for a given product, no extras where there is nothing to choose. */
  get flow(): Step[] {
    const p = this.currentProduct;
    const extras = !p || (p.type === "package" && allItems(this.pkg).some((i) => i.role !== "default" || i.product.is_on_timeslots));
    return FLOW.filter((s) => (s !== "product" || !this.o.product) && (s !== "extras" || extras));
  }

  /** On to the next step of this booking. */
  next(): void {
    this.go(this.flow[this.flow.indexOf(this.step) + 1]);
  }

  /** Move to a step; focus lands on its heading (not on first load, which must not steal focus from the host page). */
  go(step: Step, focus = true): void {
    this.step = step;
    // what was announced on the last step is no longer current
    this.status = "";
    this.onEnter[step]?.();
    if (focus) this.host.focusHeading();
  }

  back(): void {
    const i = this.flow.indexOf(this.step);
    if (i > 0) this.go(this.flow[i - 1]);
  }

  // ---- errors and busy states --------------------------------------------------------------------

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
    const { message, fields } = describeError(err, this.s);
    const marked = Object.keys(fields).length > 0;
    if (marked) this.fieldErrors = { ...this.fieldErrors, ...fields };
    // the service's own words, for the site's developer
    if (err.kind === "origin") console.warn(`booking-widget: ${err.message}`); // the service says which origin to allow, for the site's owner
    if (err.kind === "validation") console.warn(`booking-widget: the service refused the request (${err.status} ${err.code}): ${err.message}`, err.fieldErrors);
    const actions = err.kind === "origin" || (marked && err.kind === "validation") ? [] : this.remedies[err.kind]?.() ?? [{ label: this.s.errors.retry, run: retry }];
    return { kind: err.kind, message, actions };
  }

  private scheduleRateLimitNotice(seconds: number): void {
    setTimeout(() => {
      if (this.error?.kind === "rate_limited") this.announce(this.s.errors.rateLimitedNow);
    }, seconds * 1000);
  }

  /** The service could not be reached outside an API call (a part of the widget failed to load). */
  unreachable(retry: () => void): void {
    if (this.error?.kind !== "network") this.error = { kind: "network", message: this.s.errors.network, actions: [{ label: this.s.errors.retry, run: retry }] };
  }

  dismissError(): void {
    this.error = null;
  }

  announce(text: string): void {
    // re-announce identical text: clear first, set on the next frame
    this.status = "";
    requestAnimationFrame(() => (this.status = text));
  }

  // ---- analytics ---------------------------------------------------------------------------------

  track(name: BookingWidgetEventName, items: BookingWidgetItem[], value: number, cartId?: string, transactionId?: string): void {
    this.host.track(name, {
      business: this.o.business,
      currency: this.cart?.currency ?? this.cur,
      value: round2(value),
      items,
      ...(cartId ? { cart_id: cartId } : {}),
      ...(transactionId ? { transaction_id: transactionId } : {}),
    });
  }
}

// Lit's `@state()` for the store: every assignment to a field of the state asks the host to
// render again (updates are batched per microtask, so many assignments in one action cost one
// render). The fields are the keys of the typed initial state, so none is listed by hand.
for (const key of Object.keys(initialState())) {
  const slot = Symbol(key);
  Object.defineProperty(BookingStore.prototype, key, {
    get(this: Record<symbol, unknown>) {
      return this[slot];
    },
    set(this: Record<symbol, unknown> & { host?: ReactiveControllerHost }, value: unknown) {
      this[slot] = value;
      this.host?.requestUpdate();
    },
    configurable: true,
  });
}
