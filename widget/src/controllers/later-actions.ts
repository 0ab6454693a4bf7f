/**
 * BookingController's actions for the steps after the calendar: party and rooms, extras and
 * their estimate, the cart (resume, add, extend, empty, hold again, follow another tab) and the
 * checkout. They live in the chunk of the later steps (see later.ts), so widget.js carries only
 * what the first screen needs; the controller calls them with itself.
 */
import { WidgetApiError, type AccommodationOption, type Bootstrap, type Cart, type CheckoutBody, type PackageRoot, type Product, type WidgetApi } from "../api/client";
import { saveCart } from "../cart-store";
import type { BookingWidgetEventName, BookingWidgetItem } from "../events";
import { formatCountdown, formatTime } from "../format";
import { addToCartBody, partySize, rebuildBody, resizeGuests, validateGuests, type CustomerForm, type FieldErrors, type GuestForm, type Selection } from "../selection";
import { fill, type Strings } from "../strings";
import { CountdownController } from "./countdown";
import { confirmationOf, round2, type BookingHost, type BookingOptions, type Confirmation, type ErrorState, type Step } from "./booking-state";

/** What these actions read and change of BookingController (which has them all). */
export interface LaterHost {
  readonly host: BookingHost;
  readonly currentProduct: Product | null;
  readonly productFixed: boolean;
  readonly o: BookingOptions;
  readonly api: WidgetApi;
  readonly s: Strings;
  readonly lang: string;
  readonly boot: Bootstrap | null;
  sel: Selection;
  readonly pkg: PackageRoot | null;
  guests: GuestForm[];
  customer: CustomerForm;
  readonly terms: boolean;
  readonly newsletter: boolean;
  readonly step: Step;
  cur: string;
  status: string;
  rooms: AccommodationOption[] | null;
  roomsRequest: number;
  estimateTimer: ReturnType<typeof setTimeout> | undefined;
  error: ErrorState | null;
  readonly idempotency: Map<string, string>;
  cart: Cart | null;
  booking: Confirmation | null;
  fieldErrors: FieldErrors;
  estimate: number | null;
  extraTotals: Record<number, number>;
  estimateAbort: AbortController | undefined;
  countdown?: CountdownController;
  later(action: (later: typeof import("../later")) => Promise<void>): Promise<void>;
  run(name: string, action: () => Promise<void>): Promise<boolean>;
  refuse(errors: FieldErrors): Promise<boolean>;
  go(step: Step, focus?: boolean): void;
  announce(text: string): void;
  keyFor(action: string, payload: unknown): string;
  track(name: BookingWidgetEventName, items: BookingWidgetItem[], value: number, cartId?: string, transactionId?: string): void;
  cartItems(cart: Cart): BookingWidgetItem[];
  startOver(): void;
  errorFor(err: WidgetApiError, retry: () => void): ErrorState;
}

/** The cart shown and stored, and its countdown (made with the first cart: most visitors never have one). */
export function setCart(c: LaterHost, cart: Cart | null): void {
  c.cart = cart;
  const countdown = (c.countdown ??= new CountdownController(c.host, {
    onThreshold: (left) => c.announce(Math.abs(left - 60) <= 1 ? c.s.hold.expiresMinute : fill(c.s.hold.expiresSoon, { time: formatCountdown(left) })),
    onExpire: () => void c.later((l) => l.onCartExpired(c)),
  }));
  if (cart && cart.status === "open") {
    saveCart(c.o.business, { id: cart.cart_id, expiry_date: cart.expiry_date, currency: cart.currency });
    // the server's seconds_left is immune to a wrong clock on the guest's device
    countdown.set(new Date(Date.now() + cart.seconds_left * 1000).toISOString());
  } else countdown.set(null);
}

export async function updateEstimate(c: LaterHost): Promise<void> {
  const s = c.sel;
  if (!s.productId || !s.startDate || !s.accommodationId || partySize(s) === 0) return;
  c.estimateAbort?.abort();
  const abort = (c.estimateAbort = new AbortController());
  const draft = addToCartBody(s, c.pkg, resizeGuests([], s), c.cart?.status === "open" ? c.cart.currency : c.cur, c.lang);
  const body = { currency: draft.currency, guests: draft.guests.map(({ first_name: _f, last_name: _l, ...g }, i) => ({ ...g, unique_id: `g${i}` })) };
  try {
    const lines = Object.values(await c.api.packagePrices(body, abort.signal)).flat();
    c.estimate = round2(lines.reduce((t, l) => t + l.price, 0));
    const extras: Record<number, number> = {};
    for (const l of lines) if (l.package_item_id !== null && l.role !== "default") extras[l.package_item_id] = round2((extras[l.package_item_id] ?? 0) + l.price);
    c.extraTotals = extras;
  } catch {
    // an estimate is a courtesy: without it the cart still shows the real total
    if (!abort.signal.aborted) c.estimate = null;
  }
}

export async function addToCart(c: LaterHost): Promise<void> {
  const settings = c.boot!.settings.settings.guest_fields;
  const invalid = validateGuests(c.guests, { birthdayRequired: settings.birthday.required, minimumAge: settings.minimum_age, startDate: c.sel.startDate! }, {
    required: c.s.guests.required, tooYoung: fill(c.s.guests.tooYoung, { age: settings.minimum_age }), invalidEmail: c.s.guests.invalidEmail,
  });
  if (await c.refuse(invalid)) return;
  const openCart = c.cart?.status === "open" ? c.cart.cart_id : undefined;
  const body = addToCartBody(c.sel, c.pkg, c.guests, openCart ? c.cart!.currency : c.cur, c.lang, openCart);
  await c.run("add", async () => {
    const cart = await c.api.addToCart(body, c.keyFor("add", body));
    // first the general "held for" line; a countdown threshold crossed at once (a short
    // lifetime) announces after it and wins
    c.announce(fill(c.s.hold.expiresIn, { time: formatCountdown(cart.seconds_left) }));
    setCart(c, cart);
    c.idempotency.clear();
    const added = cart.guests.slice(-c.guests.length);
    c.track("add_to_cart", c.cartItems({ ...cart, guests: added }), added.reduce((t, g) => t + g.total, 0), cart.cart_id);
    c.fieldErrors = {};
    c.go("cart");
  });
}

export async function extendCart(c: LaterHost): Promise<void> {
  await c.run("extend", async () => {
    const res = await c.api.extend(c.cart!.cart_id);
    const cart = await c.api.cart(res.cart_id);
    setCart(c, cart);
    c.announce(fill(c.s.cart.extended, { time: formatTime(new Date(res.expiry_date), c.lang) }));
  });
}

export async function emptyCart(c: LaterHost): Promise<void> {
  await c.run("remove", async () => {
    try {
      await c.api.abandon(c.cart!.cart_id);
    } catch (err) {
      if (!(err instanceof WidgetApiError) || !["cart_expired", "cart_not_open", "not_found"].includes(err.kind)) throw err;
    }
    setCart(c, null);
    saveCart(c.o.business, null);
    c.announce(c.s.cart.removeConfirm);
    c.go(c.productFixed ? "dates" : "product");
  });
}

/** Hold the same selection again in a new cart, from what the server shows of the old one. */
export async function rebuildCart(c: LaterHost): Promise<void> {
  const old = c.cart;
  if (!old) return void c.startOver();
  const body = rebuildBody(old);
  await c.run("rebuild", async () => {
    const cart = await c.api.addToCart(body, c.keyFor("rebuild", { from: old.cart_id }));
    setCart(c, cart);
    c.track("add_to_cart", c.cartItems(cart), cart.total, cart.cart_id);
    // held again: a guest at the checkout stays there, with everything typed
    if (c.step === "checkout") c.host.focusHeading();
    else c.go("cart");
  });
}

export async function checkout(c: LaterHost): Promise<void> {
  const rules = c.boot!.settings.settings.customer_fields;
  const form = c.customer;
  const errors: FieldErrors = {};
  const req = c.s.guests.required;
  if (!form.first_name.trim()) errors["customer.first_name"] = req;
  if (!form.last_name.trim()) errors["customer.last_name"] = req;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors["customer.email"] = form.email.trim() ? c.s.guests.invalidEmail : req;
  if (rules.phone.request && rules.phone.required && !form.phone.trim()) errors["customer.phone"] = req;
  if (rules.address.request && rules.address.required) {
    for (const k of ["address_line_1", "city", "zipcode", "country"] as const) if (!form[k].trim()) errors[`customer.${k}`] = req;
  }
  if (!c.terms) errors.terms_accepted = c.s.checkout.mustAccept;
  if (await c.refuse(errors)) return;
  const customer: CheckoutBody["customer"] & Record<string, string> = { first_name: form.first_name.trim(), last_name: form.last_name.trim(), email: form.email.trim(), language_code: c.lang };
  for (const k of ["phone_countrycode", "phone", "address_line_1", "city", "zipcode", "country"] as const) if (form[k].trim()) (customer as Record<string, string>)[k] = form[k].trim().replace(/^\+/, "");
  const body = { terms_accepted: true as const, newsletter_opt_in: c.newsletter, customer };
  const cart = c.cart!;
  await c.run("checkout", async () => {
    let booking: Confirmation;
    try {
      booking = await c.api.checkout(cart.cart_id, body, c.keyFor("checkout", { cart: cart.cart_id, body }));
    } catch (err) {
      // "Not open": an earlier attempt may have booked it and its answer never arrived (the
      // connection dropped, the guest changed a field and sent again with a new key). "In
      // progress": the same attempt is still running, or its server died after booking. Either
      // way a booked cart names its booking: confirm that one rather than tell the guest to
      // start over (or retry on a cart already booked).
      const unsure = err instanceof WidgetApiError && (err.kind === "cart_not_open" || err.code === "idempotency_in_progress");
      const found = unsure ? await bookingOnCart(c, cart.cart_id, customer) : null;
      if (!found) throw err;
      booking = found;
    }
    c.booking = booking;
    c.track("purchase", c.cartItems(cart), booking.total, cart.cart_id, booking.reference);
    setCart(c, null);
    saveCart(c.o.business, null);
    c.idempotency.clear();
    c.fieldErrors = {};
    c.go("done");
  });
}

/** The booking a checked-out cart names, shown with the details this checkout sent; null otherwise. */
async function bookingOnCart(c: LaterHost, cartId: string, customer: { first_name: string; email: string }): Promise<Confirmation | null> {
  const cart = await c.api.cart(cartId).catch(() => null);
  return cart && confirmationOf(cart, { first_name: customer.first_name, email: customer.email });
}

export function setParty(c: LaterHost, part: "males" | "females" | "couples", value: number): void {
  const max = c.currentProduct?.pax.max ?? 20;
  const next = { ...c.sel, [part]: Math.max(0, value) };
  if (partySize(next) > max) return;
  c.sel = { ...next, accommodationId: null, srs: false };
  void loadRooms(c);
}

/** The room types for the party and dates (the party is known now: its guests' forms follow it). */
export async function loadRooms(c: LaterHost): Promise<void> {
  c.guests = resizeGuests(c.guests, c.sel);
  const product = c.currentProduct;
  if (!product || !c.sel.startDate || partySize(c.sel) === 0) {
    c.rooms = partySize(c.sel) === 0 ? [] : null;
    return;
  }
  const ticket = ++c.roomsRequest;
  await c.run("rooms", async () => {
    const rooms = await c.api.accommodations(product.id, { start_date: c.sel.startDate!, duration: c.sel.duration, males: c.sel.males, females: c.sel.females, couples: c.sel.couples, currency: c.cur, language: c.lang });
    if (ticket !== c.roomsRequest) return; // a newer party was asked for meanwhile
    c.rooms = rooms;
    if (c.sel.accommodationId && !rooms.some((r) => r.product.id === c.sel.accommodationId)) c.sel = { ...c.sel, accommodationId: null, srs: false };
  });
}

export function setItemDates(c: LaterHost, itemId: number, dates: string[]): void {
  const items = { ...c.sel.items };
  if (dates.length) items[itemId] = dates;
  else delete items[itemId];
  c.sel = { ...c.sel, items };
  const { [itemId]: _changed, ...others } = c.extraTotals;
  c.extraTotals = others;
  scheduleEstimate(c);
}

/** Re-price the selection shortly after the guest stops changing it (one request per pause). */
export function scheduleEstimate(c: LaterHost): void {
  clearTimeout(c.estimateTimer);
  c.estimateTimer = setTimeout(() => void updateEstimate(c), 250);
}

export async function resumeCart(c: LaterHost, id: string): Promise<boolean> {
  try {
    const cart = await c.api.cart(id);
    if (cart.status === "open" && cart.seconds_left > 0 && cart.guests.length) {
      setCart(c, cart);
      c.cur = cart.currency;
      c.go("cart", false);
      c.status = c.s.hold.resumed;
      return true;
    }
    const booked = confirmationOf(cart, null);
    if (booked) {
      // A checkout answered shows its confirmation and forgets the cart, so a stored cart that
      // was checked out is one whose answer never arrived: show the booking it names (once).
      c.booking = booked;
      c.cur = cart.currency;
      c.track("purchase", c.cartItems(cart), cart.total, cart.cart_id, booked.reference);
      saveCart(c.o.business, null);
      c.go("done", false);
      return true;
    }
    if (cart.status === "abandoned" && cart.abandon_reason === "expired" && cart.guests.length) {
      c.cart = cart;
      c.go("cart", false);
      c.error = c.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
      return true;
    }
  } catch (err) {
    if (err instanceof WidgetApiError && (err.kind === "network" || err.kind === "rate_limited")) throw err;
  }
  saveCart(c.o.business, null);
  return false;
}

/** A second stay in the same cart: a fresh choice of room and extras, and fresh names. */
export function addAnotherStay(c: LaterHost): void {
  c.sel = { ...c.sel, accommodationId: null, srs: false, items: {} };
  c.guests = c.guests.map((g) => ({ ...g, first_name: "", last_name: "", email: "", birth_date: "" }));
  c.go("dates");
}

export async function onCartExpired(c: LaterHost): Promise<void> {
  if (!c.cart || c.step === "done") return;
  const expired = c.cart;
  c.track("cart_expired", c.cartItems(expired), expired.total, expired.cart_id);
  try {
    c.cart = await c.api.cart(expired.cart_id);
  } catch {
    /* keep what we showed */
  }
  c.error = c.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
}

/** Another tab changed the cart: follow it. */
export async function onOtherTab(c: LaterHost, id: string | null): Promise<void> {
  if (c.step === "done") return;
  if (!id) {
    if (c.cart) {
      setCart(c, null);
      if (c.step === "cart" || c.step === "checkout") c.go(c.productFixed ? "dates" : "product", false);
    }
    return;
  }
  try {
    const cart = await c.api.cart(id);
    if (cart.status === "open") {
      setCart(c, cart);
      if (c.step !== "guests" && c.step !== "checkout") c.go("cart", false);
    }
  } catch {
    /* the next action will tell */
  }
}

/** From the cart to the checkout, the booker's name and e-mail taken from the first guest. */
export function toCheckout(c: LaterHost): void {
  const g = c.guests[0];
  if (g && !c.customer.first_name && !c.customer.last_name && !c.customer.email) {
    c.customer = { ...c.customer, first_name: g.first_name, last_name: g.last_name, email: g.email };
  }
  c.go("checkout");
}
