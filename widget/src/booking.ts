import type { ReactiveController } from "lit";
import { WidgetApiError } from "./api/client";
import { loadCart, watchCart } from "./cart-store";
import { CatalogController } from "./controllers/catalog";
import { BookingStore, type BookingHost } from "./controllers/store";
import { loadCheckoutSteps, type CheckoutSteps } from "./load-checkout-steps";
import { loadCheckoutStrings } from "./strings";

/** The checkout steps' module, with the controllers of their concerns made over the store. */
export interface LoadedSteps {
  readonly module: CheckoutSteps;
  readonly party: InstanceType<CheckoutSteps["PartyController"]>;
  readonly cart: InstanceType<CheckoutSteps["CartController"]>;
}

/**
 * The guest's booking, put together: the shared store, the catalog's controller (first screen,
 * in widget.js), and the party's and the cart's controllers, which come with the checkout steps'
 * chunk. The element renders from it; each step gets the store and its concern's controller.
 */
export class Booking implements ReactiveController {
  readonly store: BookingStore;
  readonly catalog: CatalogController;
  /** The checkout steps, once their chunk and texts are here. */
  loaded: LoadedSteps | undefined;
  private unwatch?: () => void;

  constructor(host: BookingHost) {
    host.addController(this);
    this.store = new BookingStore(host);
    this.catalog = new CatalogController(this.store, () => this.with((l) => l.party.loadRooms()));
  }

  hostConnected(): void {
    this.unwatch = watchCart(this.store.o.business, (stored) => void this.with((l) => l.cart.onOtherTab(stored?.id ?? null)));
  }
  hostDisconnected(): void {
    this.unwatch?.();
  }

  /** The checkout steps, with their texts in the language shown. */
  async steps(): Promise<LoadedSteps> {
    const st = this.store;
    const lang = st.lang;
    const [module, texts] = await Promise.all([loadCheckoutSteps(), loadCheckoutStrings(lang)]);
    if (lang !== st.lang) return this.steps(); // the language changed meanwhile
    st.s = { ...st.s, ...texts };
    st.checkoutReady = true;
    return (this.loaded ??= { module, party: new module.PartyController(st), cart: new module.CartController(st, this.catalog) });
  }

  /** Run an action of the checkout steps; a chunk that cannot be fetched is a network failure. */
  async with(action: (steps: LoadedSteps) => Promise<void>): Promise<void> {
    let steps: LoadedSteps;
    try {
      steps = await this.steps();
    } catch {
      this.store.unreachable(() => void this.with(action));
      void this.store.host.focusError();
      return;
    }
    await action(steps);
  }

  /** The first load; a stored cart is shown on the checkout steps, so their chunk comes alongside the catalog. */
  async load(): Promise<void> {
    if (location.search.includes("bw_cart=")) {
      // back from Stripe's payment page (its marker, read by the checkout steps' chunk): the cart says what became of the payment
      const steps = this.steps().catch((err: Error) => Promise.reject(new WidgetApiError("network", 0, err.message)));
      steps.catch(() => undefined);
      await this.catalog.load(async () => (await steps).cart.returnFromPayment());
      return;
    }
    const stored = loadCart(this.store.o.business);
    const resuming = stored ? this.steps().catch((err: Error) => Promise.reject(new WidgetApiError("network", 0, err.message))) : null;
    resuming?.catch(() => undefined); // awaited below; not unhandled meanwhile
    await this.catalog.load(stored ? async () => (await resuming!).cart.resumeCart(stored.id) : undefined);
  }
}
