import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { WidgetApiError, type Bootstrap, type Cart, type PackageRoot } from "../api/client";
import { addToCartBody } from "../booking-body";
import type { BookingWidgetEventName } from "../events";
import { en } from "../strings/en";
import { enCheckout } from "../strings/en-checkout";
import type { Strings } from "../strings";
import { CartController, checkoutErrors, returnUrl } from "./cart";
import { CatalogController } from "./catalog";
import { CountdownController } from "./countdown";
import { PartyController, withParty } from "./party";
import { BookingStore, initialState, type BookingHost, type BookingOptions } from "./store";

/**
 * The controllers' logic that needs no browser and no service: what the guest's choices do to
 * the state the steps render. The element is stood in for by the few things a controller asks
 * of it (attributes, re-render, events, focus); what reaches the service is in e2e/.
 */
function host(options: Partial<BookingOptions> = {}) {
  const calls = { renders: 0, events: [] as BookingWidgetEventName[], headings: 0 };
  const h: BookingHost = {
    options: { business: "demo", api: "http://127.0.0.1:1", ...options },
    addController: () => undefined,
    removeController: () => undefined,
    requestUpdate: () => void calls.renders++,
    updateComplete: Promise.resolve(true),
    track: (name) => void calls.events.push(name),
    focusHeading: () => void calls.headings++,
    focusInvalid: async () => undefined,
    focusError: async () => undefined,
    focusDay: async () => undefined,
    leaveFor: () => undefined,
  };
  return { h, calls };
}

/** A store with the whole English text, as the checkout steps see it. */
function storeOf(options: Partial<BookingOptions> = {}) {
  const { h, calls } = host(options);
  const store = new BookingStore(h);
  store.s = { ...en, ...enCheckout } as Strings;
  return { store, calls };
}

const product = (max: number) => ({ id: 101, type: "package", title: "Surf week", pax: { max } }) as unknown as Bootstrap["product"];
const cart = (over: Partial<Cart> = {}) => ({ cart_id: "c1", status: "open", currency: "EUR", total: 700, guests: [], seconds_left: 600, ...over }) as unknown as Cart;

describe("the store", () => {
  test("every field of the booking's state re-renders the element when assigned", () => {
    const { store, calls } = storeOf();
    for (const key of Object.keys(initialState()) as (keyof ReturnType<typeof initialState>)[]) {
      const before = calls.renders;
      (store as unknown as Record<string, unknown>)[key] = structuredClone(store[key]);
      expect(calls.renders, key).toBe(before + 1);
    }
  });
});

describe("party and rooms", () => {
  test("a party larger than the product allows is refused; otherwise the room chosen is cleared and the guests' forms follow the party", () => {
    const { store } = storeOf();
    store.boot = { product: product(4), products: [] } as unknown as Bootstrap;
    store.roomTypes = [{ id: 201, title: "Dorm", is_private: false, gender: "mixed", beds_per_room: 4 }];
    store.sel = { ...store.sel, males: 1, accommodationId: 201, srs: true, startDate: null };
    const party = new PartyController(store);
    party.setParty("couples", 2); // 1 + 2×2 = 5 > 4
    expect(store.sel).toMatchObject({ males: 1, couples: 0, accommodationId: 201, srs: true });
    party.setParty("couples", 1); // 3
    expect(store.sel).toMatchObject({ males: 1, couples: 1, accommodationId: null, srs: false });
    expect(store.guests.map((g) => g.gender)).toEqual(["m", "m", "f"]);
    party.setParty("males", -1);
    expect(store.sel.males).toBe(0);
    expect(withParty(store.sel, "females", 3, 4)).toBeNull();
  });

  test("without a room the party is a number of participants, sent without a gender; a product on timeslots takes the time chosen, while it has places for them", () => {
    const { store } = storeOf();
    store.boot = { product: { id: 7, type: "activity", title: "Boat dive", pax: { min: 1, max: 10 }, is_on_timeslots: true }, products: [] } as unknown as Bootstrap;
    const slots = [{ time: "09:00", available: 1, capacity: 10 }, { time: "14:00", available: 10, capacity: 10 }];
    store.pkg = { start_date: "2026-12-02", end_date: "2026-12-03", single_items: [{ package_item_id: 77, role: "default", product: { is_on_timeslots: true }, dates: [{ date: "2026-12-02", timeslots: slots }] }], groups: [] } as unknown as PackageRoot;
    store.sel = { ...store.sel, productId: 7, startDate: "2026-12-02", duration: 1, females: 1 };
    const party = new PartyController(store);
    party.setParty("males", 1);
    expect(store.sel).toMatchObject({ males: 2, females: 0, couples: 0 }); // one number
    party.setParty("males", 1);
    party.chooseTime("09:00");
    party.setParty("males", 3); // 09:00 has one place left
    expect(store.sel.items).toEqual({});
    party.chooseTime("14:00");
    const body = addToCartBody(store.sel, store.pkg, store.guests, "EUR", "en", undefined, store.byRoom);
    expect(body.guests).toHaveLength(3);
    expect(body.guests.some((g) => "gender" in g)).toBe(false);
    expect(body.guests[0].package.items).toEqual([{ package_item_id: 77, dates: ["2026-12-02 14:00:00"] }]);
    // nothing optional to choose: no extras step
    expect(store.flow).not.toContain("extras");
  });

  test("choosing a room drops its single room supplement; the supplement is a choice of its own", () => {
    const { store } = storeOf();
    const party = new PartyController(store);
    party.chooseRoom(201);
    party.setSrs(true);
    expect(store.sel).toMatchObject({ accommodationId: 201, srs: true });
    party.chooseRoom(202);
    expect(store.sel).toMatchObject({ accommodationId: 202, srs: false });
  });

  describe("the extras' estimate", () => {
    beforeEach(() => void vi.useFakeTimers());
    afterEach(() => void vi.useRealTimers());
    test("entering the extras (forward or back) forgets the last estimate until the new one arrives", () => {
      const { store } = storeOf();
      new PartyController(store);
      store.estimate = 640;
      store.go("extras");
      expect(store.estimate).toBeNull();
    });
  });
});

describe("catalog and calendar", () => {
  test("picking another day puts the calendar's tab stop there and forgets the room chosen for the old one", async () => {
    const { store } = storeOf();
    const catalog = new CatalogController(store, async () => undefined);
    store.sel = { ...store.sel, startDate: "2026-12-05", accommodationId: 201, srs: true };
    store.rooms = [];
    await catalog.pickDate("2026-12-12");
    expect(store.sel).toMatchObject({ startDate: "2026-12-12", accommodationId: null, srs: false });
    expect(store.rooms).toBeNull();
    expect(store.calFocus).toBe("2026-12-12");
  });

  test("starting over forgets the cart, the booking and the choices, and goes back to the product list", () => {
    const { store } = storeOf();
    const catalog = new CatalogController(store, async () => undefined);
    store.step = "done";
    store.cart = cart();
    store.booking = { reference: "BK-1" } as never;
    store.terms = true;
    store.sel = { ...store.sel, productId: null, accommodationId: 201, srs: true, items: { 7: ["2026-12-06"] } };
    catalog.startOver();
    expect(store.step).toBe("product");
    expect([store.cart, store.booking, store.terms]).toEqual([null, null, false]);
    expect(store.sel).toMatchObject({ accommodationId: null, srs: false, items: {} });
  });

  test("a widget given its product starts over on its calendar", () => {
    const { store } = storeOf({ product: "101" });
    new CatalogController(store, async () => undefined).startOver();
    expect(store.step).toBe("dates");
  });
});

describe("errors: each concern offers its way forward", () => {
  test("sold out leads back to the dates; an expired cart to holding it again or starting over; a refused field to the field; anything else to a retry", () => {
    const { store } = storeOf();
    const catalog = new CatalogController(store, async () => undefined);
    const labels = (kind: WidgetApiError["kind"], fields: { path: string; message: string }[] = []) =>
      store.errorFor(new WidgetApiError(kind, 409, kind, fields), () => undefined).actions.map((a) => a.label);
    expect(labels("sold_out")).toEqual([en.steps.dates]);
    expect(labels("server")).toEqual([en.errors.retry]);
    new CartController(store, catalog);
    expect(labels("cart_expired")).toEqual([en.errors.rebuild, en.errors.startOver]);
    expect(labels("not_found")).toEqual([en.errors.startOver]);
    expect(labels("origin")).toEqual([]);
    expect(labels("validation", [{ path: "guests.0.email", message: "not an e-mail address" }])).toEqual([]);
    expect(Object.keys(store.fieldErrors)).toEqual(["guests.0.email"]);
  });
});

describe("cart and checkout", () => {
  test("the cart can be booked while its hold runs: the countdown shows minutes and seconds and is marked short in the last minute", () => {
    const { store, calls } = storeOf();
    const countdown = new CountdownController(store.host, {});
    store.countdown = countdown;
    try {
      store.cart = cart();
      countdown.set(new Date(Date.now() + 45_000).toISOString());
      expect(store.held).toBe(true);
      expect(store.timeLeft).toEqual({ text: "0:45", low: true, seconds: 45 });
      countdown.set(new Date(Date.now() + 300_000).toISOString());
      expect(store.timeLeft).toMatchObject({ text: "5:00", low: false });
      store.cart = cart({ status: "abandoned" });
      expect(store.held).toBe(false);
      store.cart = cart();
      countdown.set(null);
      expect(store.held).toBe(false);
      expect(calls.renders).toBeGreaterThan(0);
    } finally {
      countdown.set(null);
    }
  });

  test("going to the checkout takes the booker from the first guest, and reports begin_checkout with the cart", () => {
    const { store, calls } = storeOf();
    const catalog = new CatalogController(store, async () => undefined);
    const c = new CartController(store, catalog);
    store.cart = cart();
    store.guests = [{ first_name: "Ana", last_name: "Silva", email: "ana@example.com" } as never];
    c.toCheckout();
    expect(store.step).toBe("checkout");
    expect(store.customer).toMatchObject({ first_name: "Ana", last_name: "Silva", email: "ana@example.com" });
    expect(calls.events).toEqual(["begin_checkout"]);
  });

  test("the checkout form says which fields are missing or wrong before anything is sent", () => {
    const texts = { required: "required", invalidEmail: "invalid", mustAccept: "accept" };
    const form = { ...initialState().customer, first_name: "Ana", last_name: " ", email: "ana@", phone: "" };
    const off = { request: false, required: false };
    expect(checkoutErrors(form, false, { phone: off, address: off }, texts)).toEqual({ "customer.last_name": "required", "customer.email": "invalid", terms_accepted: "accept" });
    expect(checkoutErrors({ ...form, email: "" }, true, { phone: { request: true, required: true }, address: off }, texts)).toEqual({
      "customer.last_name": "required", "customer.email": "required", "customer.phone": "required",
    });
    const filled = { ...form, last_name: "Silva", email: "ana@example.com" };
    expect(checkoutErrors(filled, true, { phone: { request: true, required: false }, address: off }, texts)).toEqual({});
    expect(Object.keys(checkoutErrors(filled, true, { phone: off, address: { request: true, required: true } }, texts))).toEqual(["customer.address_line_1", "customer.city", "customer.zipcode", "customer.country"]);
  });

  test("back from the payment page the widget asks the cart: booked shows the confirmation with what was paid; cancelled shows the cart still held; let go says why", async () => {
    const booked = cart({ status: "checked_out", total: 700, booking: { id: "b1", reference: "2026-00007" } as never, payment: { status: "paid", amount: 210, currency: "EUR", url: null, expires_at: "" } });
    const answers: Cart[] = [cart({ payment: { status: "awaiting", amount: 210, currency: "EUR", url: "https://pay", expires_at: "" } }), booked];
    const { store } = storeOf();
    store.api = { cart: async () => answers.shift() ?? booked } as never;
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", (f: () => void) => setTimeout(f, 0));
    try {
      const c = new CartController(store, new CatalogController(store, async () => undefined));
      const shown = c.returnFromPayment({ cart: "c1", outcome: "success" });
      await vi.runAllTimersAsync();
      expect(await shown).toBe(true);
      expect(store.step).toBe("done");
      // the first answer (still awaiting) decided nothing; the booked cart did
      expect(store.booking).toMatchObject({ reference: "2026-00007", total: 700, paid: 210 });
      expect(store.paying).toBe(null);

      const { store: back } = storeOf();
      back.api = { cart: async () => cart({ expiry_date: "2026-11-21T10:35:00Z", payment: { status: "awaiting", amount: 210, currency: "EUR", url: "https://pay", expires_at: "" } }) } as never;
      expect(await new CartController(back, new CatalogController(back, async () => undefined)).returnFromPayment({ cart: "c1", outcome: "cancelled" })).toBe(true);
      expect(back.step).toBe("cart");
      expect(back.status).toMatch(/^Payment cancelled: nothing was charged/);
      back.countdown?.set(null);

      const { store: gone } = storeOf();
      gone.api = { cart: async () => cart({ status: "abandoned", payment: { status: "refunded", amount: 210, currency: "EUR", url: null, expires_at: "" } }) } as never;
      const g = new CartController(gone, new CatalogController(gone, async () => undefined));
      await g.returnFromPayment({ cart: "c1", outcome: "success" });
      await vi.runAllTimersAsync();
      expect(gone.paying).toBe("refunded");
      expect(gone.booking).toBe(null);
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });

  test("the return address is the page itself, without an earlier return's marker", () => {
    expect(returnUrl("https://surf.example/book?x=1&bw_payment=success&bw_cart=c1#top")).toBe("https://surf.example/book?x=1");
    expect(returnUrl("about:srcdoc")).toBeUndefined();
  });
});
