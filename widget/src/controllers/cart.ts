import { WidgetApiError, type AwaitingPayment, type Booking, type Cart, type CheckoutBody } from "../api/client";
import { HumanCheck } from "./human-check";
import { saveCart } from "../cart-store";
import { formatCountdown, formatTime } from "../format";
import { addToCartBody, rebuildBody, validateGuests } from "../booking-body";
import type { CustomerForm, FieldErrors, GuestForm } from "../selection";
import { fill } from "../strings";
import { answerErrors, answersPayload, questionsFor } from "../custom-fields";
import type { CatalogController } from "./catalog";
import { CountdownController } from "./countdown";
import type { BookingWidgetItem } from "../events";
import type { BookingStore, Confirmation } from "./store";

/** The confirmation of the booking a checked-out cart names; null for a cart not booked. */
export const confirmationOf = (cart: Cart, booker: Confirmation["booker"]): Confirmation | null =>
  cart.status === "checked_out" && cart.booking
    ? { reference: cart.booking.reference, total: cart.total, currency: cart.currency, guests: cart.guests, booker, confirmation_email: null }
    : null;

/**
 * The marker of a return from the payment page (`bw_payment`, `bw_cart`: the service puts it on
 * the return address), taken off the page's address so a reload does not read it again.
 */
export function paymentReturn(): { cart: string; outcome: string } | null {
  try {
    const url = new URL(location.href);
    const cart = url.searchParams.get("bw_cart");
    const outcome = url.searchParams.get("bw_payment");
    if (!cart || !outcome) return null;
    url.searchParams.delete("bw_cart");
    url.searchParams.delete("bw_payment");
    history.replaceState(history.state, "", url.toString());
    return { cart, outcome };
  } catch {
    return null;
  }
}

/**
 * The page to come back to from the payment page: this one, without the marker of an earlier
 * return. None on a page that is not http(s) (the service then brings the guest to the business's
 * own booking page).
 */
export function returnUrl(href: string): string | undefined {
  const u = new URL(href);
  if (u.protocol !== "https:" && u.protocol !== "http:") return undefined;
  u.searchParams.delete("bw_payment");
  u.searchParams.delete("bw_cart");
  u.hash = "";
  return u.toString();
}

/** How long the widget asks the cart whether the service has the payment (then it says it has not heard yet). */
const CONFIRM_POLLS = 40;

/** A cart's lines as analytics items. */
const cartItems = (cart: Cart): BookingWidgetItem[] =>
  cart.guests.flatMap((g) => g.items.map((i) => ({ item_id: String(i.product_id), item_name: i.title, item_category: i.role, price: i.price, quantity: i.qty })));

/** The checkout form's errors before sending, by field path ("customer.email", "terms_accepted"); empty when it can be sent. */
export function checkoutErrors(
  form: CustomerForm,
  terms: boolean,
  rules: { phone: { request: boolean; required: boolean }; address: { request: boolean; required: boolean } },
  texts: { required: string; invalidEmail: string; mustAccept: string },
): FieldErrors {
  const errors: FieldErrors = {};
  const req = texts.required;
  if (!form.first_name.trim()) errors["customer.first_name"] = req;
  if (!form.last_name.trim()) errors["customer.last_name"] = req;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors["customer.email"] = form.email.trim() ? texts.invalidEmail : req;
  if (rules.phone.request && rules.phone.required && !form.phone.trim()) errors["customer.phone"] = req;
  if (rules.address.request && rules.address.required) {
    for (const k of ["address_line_1", "city", "zipcode", "country"] as const) if (!form[k].trim()) errors[`customer.${k}`] = req;
  }
  if (!terms) errors.terms_accepted = texts.mustAccept;
  return errors;
}

/**
 * Cart and checkout: the guests' names, the cart and its hold (resume, add, extend, empty, hold
 * again, follow another tab, expiry) and the checkout. In the checkout steps' chunk
 * (checkout-steps.ts): most visitors never have a cart.
 */
export class CartController {
  private readonly human: HumanCheck;

  constructor(
    private readonly store: BookingStore,
    private readonly catalog: Pick<CatalogController, "startOver">,
  ) {
    const e = () => store.s.errors;
    store.remedies.cart_expired = () => [{ label: e().rebuild, run: () => void this.rebuildCart() }, { label: e().startOver, run: () => catalog.startOver() }];
    // The host is the element itself: the human check renders into a light-DOM child of it.
    this.human = new HumanCheck(store.host as unknown as HTMLElement);
    store.onEnter.checkout = () => {
      if (store.cart) store.track("begin_checkout", cartItems(store.cart), store.cart.total, store.cart.cart_id);
      const check = store.boot?.human_check;
      if (check) void this.human.show(check.site_key, store.lang);
    };
  }

  /** Field errors found before sending: the banner counts them and focus goes to the first. */
  private async refuse(errors: FieldErrors): Promise<boolean> {
    const st = this.store;
    st.fieldErrors = errors;
    const n = Object.keys(errors).length;
    if (!n) return false;
    st.error = { kind: "client", message: n === 1 ? st.s.errors.fieldError : fill(st.s.errors.fieldErrors, { n }), actions: [] };
    await st.host.focusInvalid();
    return true;
  }

  /** Forget a field's error once the guest changes it; the banner goes with the last one. */
  private clearFieldError(...paths: string[]): void {
    const st = this.store;
    if (!paths.some((p) => p in st.fieldErrors)) return;
    st.fieldErrors = Object.fromEntries(Object.entries(st.fieldErrors).filter(([k]) => !paths.includes(k)));
    if (st.error?.kind === "client" && Object.keys(st.fieldErrors).length === 0) st.error = null;
  }

  /** An idempotency key per logical action, reused by its retries so nothing is booked twice. */
  private keyFor(action: string, payload: unknown): string {
    const id = `${action}:${JSON.stringify(payload)}`;
    let key = this.store.keys.get(id);
    if (!key) {
      key = crypto.randomUUID();
      this.store.keys.set(id, key);
    }
    return key;
  }

  /** The cart shown and stored, and its countdown (made with the first cart: most visitors never have one). */
  private setCart(cart: Cart | null): void {
    const st = this.store;
    st.cart = cart;
    const countdown = (st.countdown ??= new CountdownController(st.host, {
      onThreshold: (left) => st.announce(Math.abs(left - 60) <= 1 ? st.s.hold.expiresMinute : fill(st.s.hold.expiresSoon, { time: formatCountdown(left) })),
      onExpire: () => void this.onCartExpired(),
    }));
    if (cart && cart.status === "open") {
      saveCart(st.o.business, { id: cart.cart_id, expiry_date: cart.expiry_date, currency: cart.currency });
      // the server's seconds_left is immune to a wrong clock on the guest's device
      countdown.set(new Date(Date.now() + cart.seconds_left * 1000).toISOString());
    } else countdown.set(null);
  }

  /** A guest's answer to one of the business's questions. */
  answerGuest(i: number, key: string, value: string | boolean): void {
    const st = this.store;
    st.guests = st.guests.map((g, n) => (n === i ? { ...g, custom_fields: { ...g.custom_fields, [key]: value } } : g));
    this.clearFieldError(`guests.${i}.custom_fields.${key}`);
  }

  updateGuest(i: number, patch: Partial<GuestForm>): void {
    const st = this.store;
    st.guests = st.guests.map((g, n) => (n === i ? { ...g, ...patch } : g));
    this.clearFieldError(...Object.keys(patch).map((k) => `guests.${i}.${k}`));
  }

  /** Hold the party's stay in the cart (a new one, or the open one). */
  async addToCart(): Promise<void> {
    const st = this.store;
    const settings = st.settings.settings.guest_fields;
    const invalid = validateGuests(st.guests, { birthdayRequired: settings.birthday.required, minimumAge: settings.minimum_age, startDate: st.sel.startDate! }, {
      required: st.s.guests.required, tooYoung: fill(st.s.guests.tooYoung, { age: settings.minimum_age }), invalidEmail: st.s.guests.invalidEmail,
    });
    const questions = questionsFor(st.settings, "guest");
    st.guests.forEach((g, i) => Object.assign(invalid, answerErrors(questions, g.custom_fields, `guests.${i}`, this.answerTexts())));
    if (await this.refuse(invalid)) return;
    const openCart = st.cart?.status === "open" ? st.cart.cart_id : undefined;
    const body = addToCartBody(st.sel, st.pkg, st.guests, openCart ? st.cart!.currency : st.cur, st.lang, openCart, st.byRoom);
    if (questions.length) body.guests.forEach((g, i) => void (g.custom_fields = answersPayload(questions, st.guests[i].custom_fields)));
    await st.run("add", async () => {
      const cart = await st.api.addToCart(body, this.keyFor("add", body));
      // first the general "held for" line; a countdown threshold crossed at once (a short
      // lifetime) announces after it and wins
      st.announce(fill(st.s.hold.expiresIn, { time: formatCountdown(cart.seconds_left) }));
      this.setCart(cart);
      st.keys.clear();
      const added = cart.guests.slice(-st.guests.length);
      st.track("add_to_cart", cartItems({ ...cart, guests: added }), added.reduce((t, g) => t + g.total, 0), cart.cart_id);
      st.fieldErrors = {};
      st.go("cart");
    });
  }

  /** The messages of answers refused before sending. */
  private answerTexts() {
    const t = this.store.s.guests;
    return { required: t.required, chooseOne: t.chooseOne, invalidNumber: t.invalidNumber };
  }

  /** Ten more minutes for the holds. */
  async extendCart(): Promise<void> {
    const st = this.store;
    await st.run("extend", async () => {
      const res = await st.api.extend(st.cart!.cart_id);
      const cart = await st.api.cart(res.cart_id);
      this.setCart(cart);
      st.announce(fill(st.s.cart.extended, { time: formatTime(new Date(res.expiry_date), st.lang) }));
    });
  }

  /** Give the holds back and start again. */
  async emptyCart(): Promise<void> {
    const st = this.store;
    await st.run("remove", async () => {
      try {
        await st.api.abandon(st.cart!.cart_id);
      } catch (err) {
        if (!(err instanceof WidgetApiError) || !["cart_expired", "cart_not_open", "not_found"].includes(err.kind)) throw err;
      }
      this.setCart(null);
      saveCart(st.o.business, null);
      st.announce(st.s.cart.removeConfirm);
      st.go(st.productFixed ? "dates" : "product");
    });
  }

  /** Hold the same selection again in a new cart, from what the server shows of the old one (after it expired). */
  async rebuildCart(): Promise<void> {
    const st = this.store;
    const old = st.cart;
    if (!old) return void this.catalog.startOver();
    const body = rebuildBody(old);
    await st.run("rebuild", async () => {
      const cart = await st.api.addToCart(body, this.keyFor("rebuild", { from: old.cart_id }));
      this.setCart(cart);
      st.paying = null;
      st.track("add_to_cart", cartItems(cart), cart.total, cart.cart_id);
      // held again: a guest at the checkout stays there, with everything typed
      if (st.step === "checkout") st.host.focusHeading();
      else st.go("cart");
    });
  }

  /** A second stay in the same cart: a fresh choice of room and extras, and fresh names. */
  addAnotherStay(): void {
    const st = this.store;
    st.sel = { ...st.sel, accommodationId: null, srs: false, items: {} };
    st.guests = st.guests.map((g) => ({ ...g, first_name: "", last_name: "", email: "", birth_date: "", custom_fields: {} }));
    st.go("dates");
  }

  /** From the cart to the checkout, the booker's name and e-mail taken from the first guest. */
  toCheckout(): void {
    const st = this.store;
    const g = st.guests[0];
    if (g && !st.customer.first_name && !st.customer.last_name && !st.customer.email) {
      st.customer = { ...st.customer, first_name: g.first_name, last_name: g.last_name, email: g.email };
    }
    st.go("checkout");
  }

  setCustomer(key: Exclude<keyof CustomerForm, "custom_fields">, value: string): void {
    this.store.customer = { ...this.store.customer, [key]: value };
    this.clearFieldError(`customer.${key}`);
  }

  /** The booker's answer to one of the business's questions. */
  answerCustomer(key: string, value: string | boolean): void {
    this.store.customer = { ...this.store.customer, custom_fields: { ...this.store.customer.custom_fields, [key]: value } };
    this.clearFieldError(`customer.custom_fields.${key}`);
  }

  setTerms(on: boolean): void {
    this.store.terms = on;
    if (on) this.clearFieldError("terms_accepted");
  }

  setNewsletter(on: boolean): void {
    this.store.newsletter = on;
  }

  /** Book the cart. */
  async checkout(): Promise<void> {
    const st = this.store;
    const form = st.customer;
    const errors = checkoutErrors(form, st.terms, st.settings.settings.customer_fields, { required: st.s.guests.required, invalidEmail: st.s.guests.invalidEmail, mustAccept: st.s.checkout.mustAccept });
    const questions = questionsFor(st.settings, "customer");
    Object.assign(errors, answerErrors(questions, form.custom_fields, "customer", this.answerTexts()));
    if (await this.refuse(errors)) return;
    const customer: CheckoutBody["customer"] & Record<string, string> = { first_name: form.first_name.trim(), last_name: form.last_name.trim(), email: form.email.trim(), language_code: st.lang };
    for (const k of ["phone_countrycode", "phone", "address_line_1", "city", "zipcode", "country"] as const) if (form[k].trim()) (customer as Record<string, string>)[k] = form[k].trim().replace(/^\+/, "");
    if (questions.length) (customer as CheckoutBody["customer"]).custom_fields = answersPayload(questions, form.custom_fields);
    const back = returnUrl(location.href);
    const body: CheckoutBody = { terms_accepted: true as const, newsletter_opt_in: st.newsletter, customer, ...(back ? { return_url: back } : {}) };
    const cart = st.cart!;
    await st.run("checkout", async () => {
      let booking: Confirmation | Booking;
      let answer: Booking | AwaitingPayment;
      try {
        answer = await st.api.checkout(cart.cart_id, body, this.keyFor("checkout", { cart: cart.cart_id, body }), this.human.token);
        if (answer.status === "awaiting_payment") {
          // The business confirms once paid: off to the payment page, the cart still held (and stored).
          this.human.remove();
          this.goPay(answer.payment.url);
          return;
        }
        booking = answer;
      } catch (err) {
        // A token is good once: the next attempt needs the check solved again.
        this.human.reset();
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
      st.booking = booking;
      this.human.remove();
      st.track("purchase", cartItems(cart), booking.total, cart.cart_id, booking.reference);
      this.setCart(null);
      saveCart(st.o.business, null);
      st.keys.clear();
      st.fieldErrors = {};
      st.go("done");
      // Booked, with what is due now payable at once: off to the payment page.
      if ("payment" in booking && booking.payment) this.goPay(booking.payment.url);
    });
  }

  /** To Stripe's payment page, in this tab (the host page is left; the guest comes back to it with a marker). */
  goPay(url: string): void {
    const st = this.store;
    st.paying = "redirecting";
    st.announce(st.s.payment.redirecting);
    st.host.leaveFor(url);
  }

  /**
   * The guest is back from the payment page (the page's marker: `bw_payment`, `bw_cart`). The
   * return decides nothing: a cancel shows the cart, still held, with a way to pay again; anything
   * else asks the cart until the service says it is booked (the confirmation) or let go.
   */
  async returnFromPayment(back = paymentReturn()): Promise<boolean> {
    if (!back) return false;
    const { cart: cartId, outcome } = back;
    const st = this.store;
    let cart: Cart;
    try {
      cart = await st.api.cart(cartId);
    } catch (err) {
      if (err instanceof WidgetApiError && (err.kind === "network" || err.kind === "rate_limited")) throw err;
      return false;
    }
    st.cur = cart.currency;
    if (outcome === "cancelled" && cart.status === "open" && cart.payment?.status === "awaiting") {
      this.setCart(cart);
      st.go("cart", false);
      st.status = fill(st.s.payment.cancelled, { time: formatTime(new Date(cart.expiry_date), st.lang) });
      return true;
    }
    st.cart = cart;
    st.go("done", false);
    void this.confirmPayment(cartId);
    return true;
  }

  /** Ask the cart until the service has the payment's outcome (its webhook from Stripe). */
  async confirmPayment(cartId = this.store.cart?.cart_id): Promise<void> {
    const st = this.store;
    if (!cartId) return;
    st.paying = "confirming";
    st.announce(st.s.payment.confirming);
    for (let i = 0; i < CONFIRM_POLLS; i++) {
      const cart = await st.api.cart(cartId).catch(() => null);
      if (cart && this.settlePayment(cart)) return;
      await new Promise((resolve) => setTimeout(resolve, i < 10 ? 1000 : 3000));
    }
    st.paying = "slow";
  }

  /** What the cart says of the payment: booked (the confirmation), let go (expired or refunded), or not yet (false). */
  private settlePayment(cart: Cart): boolean {
    const st = this.store;
    const booked = confirmationOf(cart, null);
    if (booked) {
      st.booking = { ...booked, ...(cart.payment?.status === "paid" ? { paid: cart.payment.amount } : {}) };
      st.paying = null;
      st.track("purchase", cartItems(cart), cart.total, cart.cart_id, booked.reference);
      this.setCart(null);
      saveCart(st.o.business, null);
      st.announce(st.s.done.confirmed);
      return true;
    }
    if (cart.status === "abandoned") {
      st.cart = cart;
      st.paying = cart.payment?.status === "refunded" ? "refunded" : "expired";
      saveCart(st.o.business, null);
      st.announce(st.paying === "refunded" ? st.s.payment.refunded : st.s.payment.expired);
      return true;
    }
    return false;
  }

  /** The booking a checked-out cart names, shown with the details this checkout sent; null otherwise. */
  private async bookingOnCart(cartId: string, customer: { first_name: string; email: string }): Promise<Confirmation | null> {
    const cart = await this.store.api.cart(cartId).catch(() => null);
    return cart && confirmationOf(cart, { first_name: customer.first_name, email: customer.email });
  }

  /** Show a cart stored by an earlier visit: still held, booked meanwhile, or expired. False when there is nothing to show. */
  async resumeCart(id: string): Promise<boolean> {
    const st = this.store;
    try {
      const cart = await st.api.cart(id);
      if (cart.status === "open" && cart.seconds_left > 0 && cart.guests.length) {
        this.setCart(cart);
        st.cur = cart.currency;
        st.go("cart", false);
        st.status = st.s.hold.resumed;
        return true;
      }
      const booked = confirmationOf(cart, null);
      if (booked) {
        // A checkout answered shows its confirmation and forgets the cart, so a stored cart that
        // was checked out is one whose answer never arrived: show the booking it names (once).
        st.booking = booked;
        st.cur = cart.currency;
        st.track("purchase", cartItems(cart), cart.total, cart.cart_id, booked.reference);
        saveCart(st.o.business, null);
        st.go("done", false);
        return true;
      }
      if (cart.status === "abandoned" && cart.abandon_reason === "expired" && cart.guests.length) {
        st.cart = cart;
        st.go("cart", false);
        st.error = st.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
        return true;
      }
    } catch (err) {
      if (err instanceof WidgetApiError && (err.kind === "network" || err.kind === "rate_limited")) throw err;
    }
    saveCart(st.o.business, null);
    return false;
  }

  private async onCartExpired(): Promise<void> {
    const st = this.store;
    if (!st.cart || st.step === "done") return;
    const expired = st.cart;
    st.track("cart_expired", cartItems(expired), expired.total, expired.cart_id);
    try {
      st.cart = await st.api.cart(expired.cart_id);
    } catch {
      /* keep what we showed */
    }
    st.error = st.errorFor(new WidgetApiError("cart_expired", 410, "expired"), () => undefined);
  }

  /** Another tab changed the cart: follow it. */
  async onOtherTab(id: string | null): Promise<void> {
    const st = this.store;
    if (st.step === "done") return;
    if (!id) {
      if (st.cart) {
        this.setCart(null);
        if (st.step === "cart" || st.step === "checkout") st.go(st.productFixed ? "dates" : "product", false);
      }
      return;
    }
    try {
      const cart = await st.api.cart(id);
      if (cart.status === "open") {
        this.setCart(cart);
        if (st.step !== "guests" && st.step !== "checkout") st.go("cart", false);
      }
    } catch {
      /* the next action will tell */
    }
  }
}
