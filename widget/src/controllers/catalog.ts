import { loadLanguage, saveLanguage } from "../cart-store";
import { WidgetApi, type Bootstrap, type Product } from "../api/client";
import { saveCart } from "../cart-store";
import { addDays } from "../format";
import { allItems, durationChoices, wholeItemDates } from "../selection";
import { hasStrings, loadCheckoutStrings, loadStrings, type Strings } from "../strings";
import type { BookingStore } from "./store";

/**
 * Catalog and calendar: the first load, the product, the language and currency, the month
 * shown, the check-in day and the number of nights, and the package's items for them. The first
 * screen's concern, so it is in widget.js; the party's rooms, which come after, are loaded
 * through `rooms` (party.ts, in the checkout steps' chunk).
 */
export class CatalogController {
  constructor(
    private readonly store: BookingStore,
    /** Load the rooms for the party and the dates (the checkout steps' chunk comes first when needed). */
    private readonly rooms: () => Promise<void>,
  ) {
    const st = store;
    const startOver = () => ({ label: st.s.errors.startOver, run: () => this.startOver() });
    st.remedies.sold_out = () => [{ label: st.s.steps.dates, run: () => void this.afterSoldOut() }];
    st.remedies.cart_not_open = () => [startOver()];
    st.remedies.not_found = () => [startOver()];
  }

  private initialLanguage(): string | undefined {
    return this.store.o.language ?? loadLanguage(this.store.o.business) ?? (document.documentElement.lang?.slice(0, 2).toLowerCase() || undefined);
  }

  /**
   * The first load: the catalog in the language and currency asked for, with the attributes'
   * choices. `resume` then shows a stored cart (true when it did; the caller fetches the chunk
   * it needs alongside the catalog).
   */
  async load(resume?: () => Promise<boolean>): Promise<void> {
    const st = this.store;
    const o = st.o;
    st.api = new WidgetApi(o.api, o.business);
    await st.run("load", async () => {
      const duration = o.duration ? Number(o.duration) : o.endDate && o.startDate ? Math.round((Date.parse(o.endDate) - Date.parse(o.startDate)) / 86_400_000) : undefined;
      const asked = this.initialLanguage();
      // a language the widget has no texts in is shown in English throughout, catalog included
      const language = asked && !hasStrings(asked) ? "en" : asked;
      if (language) void loadStrings(language); // fetched alongside the bootstrap
      const boot = await st.api.bootstrap({ product: o.product, start_date: o.startDate, duration: duration && duration > 0 ? duration : undefined, language, currency: o.currency });
      await this.applyBoot(boot);
      st.wanted = asked ?? boot.language;
      const party = { males: num(o.males), females: num(o.females), couples: num(o.couples) };
      if (party.males !== null || party.females !== null || party.couples !== null) {
        st.sel = { ...st.sel, males: party.males ?? 0, females: party.females ?? 0, couples: party.couples ?? 0 };
      }
      if (boot.product) {
        const variants = durationChoices(boot.product);
        st.sel = { ...st.sel, productId: boot.product.id, duration: duration && variants.includes(duration) ? duration : fit(boot.product, boot.calendar?.duration), startDate: boot.start_date };
        st.pkg = boot.package;
        this.applyDefaults();
        this.viewItem(boot.product);
      }
      if (resume && (await resume())) return;
      st.go(boot.product ? "dates" : "product", false);
    });
  }

  /** Adopt a language change made on the element's attribute. */
  languageChanged(language: string | undefined): void {
    if (this.store.boot && language && language !== this.store.wanted) this.setLanguage(language);
  }

  private async applyBoot(boot: Bootstrap): Promise<void> {
    const st = this.store;
    const [first, rest] = await Promise.all([loadStrings(boot.language), st.checkoutReady ? loadCheckoutStrings(boot.language) : undefined]);
    st.boot = boot;
    st.lang = boot.language;
    st.cur = boot.currency;
    st.s = { ...first, ...rest } as Strings;
    if (boot.calendar) {
      st.days = { ...boot.calendar.dates };
      st.roomTypes = boot.calendar.rooms ?? [];
      st.month = `${(boot.start_date ?? boot.calendar.from).slice(0, 7)}-01`;
    }
  }

  setLanguage(language: string): void {
    const st = this.store;
    st.wanted = language;
    saveLanguage(st.o.business, language);
    st.lang = hasStrings(language) ? language : "en";
    void loadStrings(st.lang); // alongside the catalog
    if (st.checkoutReady) void loadCheckoutStrings(st.lang);
    void this.refreshCatalog();
  }

  setCurrency(currency: string): void {
    this.store.cur = currency;
    void this.refreshCatalog();
  }

  /** Re-read what depends on language and currency, keeping every choice and every typed value. */
  async refreshCatalog(): Promise<void> {
    const st = this.store;
    await st.run("catalog", async () => {
      const boot = await st.api.bootstrap({ product: st.sel.productId ? String(st.sel.productId) : st.o.product, start_date: st.sel.startDate ?? undefined, duration: st.sel.productId ? st.sel.duration : undefined, language: st.lang, currency: st.cur });
      const month = st.month;
      await this.applyBoot(boot);
      if (month) st.month = month;
      if (st.sel.productId && st.sel.startDate) {
        st.pkg = await st.api.packageItems(st.sel.productId, { start_date: st.sel.startDate, duration: st.sel.duration, currency: st.cur, language: st.lang });
        if (st.step === "room" || st.rooms) await this.rooms();
      }
    });
  }

  async chooseProduct(product: Product): Promise<void> {
    const st = this.store;
    await st.run("product", async () => {
      const boot = await st.api.bootstrap({ product: String(product.id), language: st.lang, currency: st.cur });
      const products = st.boot?.products;
      await this.applyBoot({ ...boot, products: products ?? boot.products });
      st.sel = { ...st.sel, productId: product.id, startDate: boot.start_date, duration: fit(product, boot.calendar?.duration), accommodationId: null, srs: false, items: {} };
      st.pkg = boot.package;
      this.applyDefaults();
      this.viewItem(product);
      st.go("dates");
    });
  }

  async showMonth(month: string): Promise<void> {
    const st = this.store;
    st.month = month;
    const from = month;
    const to = addDays(`${month.slice(0, 7)}-01`, 40).slice(0, 7) + "-01";
    if (st.days[from] && st.days[addDays(to, -1)]) return;
    await st.run("calendar", async () => {
      const cal = await st.api.calendar({ product: st.sel.productId!, from, to: addDays(to, -1), currency: st.cur, duration: st.sel.duration, language: st.lang });
      st.days = { ...st.days, ...cal.dates };
      if (cal.rooms) st.roomTypes = cal.rooms;
    });
  }

  /** Move the calendar's tab stop to a day (another month when it lies there) and focus it. */
  async moveCalendarFocus(date: string): Promise<void> {
    const st = this.store;
    if (date < st.today) return;
    if (date.slice(0, 7) !== st.month.slice(0, 7)) await this.showMonth(`${date.slice(0, 7)}-01`);
    st.calFocus = date;
    await st.host.focusDay(date);
  }

  async pickDate(date: string): Promise<void> {
    const st = this.store;
    st.calFocus = date;
    st.sel = { ...st.sel, startDate: date, accommodationId: null, srs: false };
    st.rooms = null;
    await this.loadPackage();
  }

  async setDuration(duration: number): Promise<void> {
    const st = this.store;
    st.sel = { ...st.sel, duration, accommodationId: null, srs: false };
    st.rooms = null;
    await st.run("calendar", async () => {
      const from = st.month > st.today ? st.month : st.today;
      const cal = await st.api.calendar({ product: st.sel.productId!, from, currency: st.cur, duration, language: st.lang });
      st.days = { ...cal.dates };
      st.roomTypes = cal.rooms ?? [];
      if (st.sel.startDate && !st.days[st.sel.startDate]?.available_for_checkin) st.sel = { ...st.sel, startDate: null };
    });
    await this.loadPackage();
  }

  /** From the calendar to the party and room. */
  toRooms(): void {
    this.store.go("room");
    void this.rooms();
  }

  private async loadPackage(): Promise<void> {
    const st = this.store;
    const product = st.currentProduct;
    if (!product || !st.sel.startDate) return;
    await st.run("package", async () => {
      st.pkg = await st.api.packageItems(product.id, { start_date: st.sel.startDate!, duration: st.sel.duration, currency: st.cur, language: st.lang });
      this.applyDefaults();
    });
  }

  /** Drop chosen item dates that the new package window no longer has. */
  private applyDefaults(): void {
    const st = this.store;
    const next: Record<number, string[]> = {};
    for (const item of allItems(st.pkg)) {
      const chosen = st.sel.items[item.package_item_id];
      if (!chosen || item.role === "default") continue;
      const valid = new Set(wholeItemDates(item).map((d) => d.slice(0, 10)));
      const kept = chosen.filter((d) => valid.has(d.slice(0, 10)));
      if (kept.length) next[item.package_item_id] = kept;
    }
    st.sel = { ...st.sel, items: next };
  }

  /** Sold out meanwhile: back to the calendar, read again. */
  async afterSoldOut(): Promise<void> {
    const st = this.store;
    st.error = null;
    st.rooms = null;
    st.go("dates");
    await this.setDuration(st.sel.duration);
  }

  /** A new booking from the calendar (or the product list): the cart, its holds and the choices of room and extras go. */
  startOver(): void {
    const st = this.store;
    st.cart = null;
    st.countdown?.set(null);
    saveCart(st.o.business, null);
    st.booking = null;
    st.error = null;
    st.terms = false;
    st.sel = { ...st.sel, accommodationId: null, srs: false, items: {} };
    st.rooms = null;
    st.keys.clear();
    st.go(st.productFixed ? "dates" : "product");
    if (st.sel.productId) void this.setDuration(st.sel.duration);
  }

  private viewItem(product: Product): void {
    const st = this.store;
    const day = st.sel.startDate ? st.days[st.sel.startDate] : undefined;
    const price = day?.price ?? product.price_from?.find((p) => p.currency === st.cur)?.value ?? 0;
    st.track("view_item", [{ item_id: String(product.id), item_name: product.title, item_category: product.type, price, quantity: 1 }], price);
  }
}

/** The length to start with: the calendar's, if the product offers it, else its first. */
function fit(product: Product, duration: number | null | undefined): number {
  const choices = durationChoices(product);
  return duration && choices.includes(duration) ? duration : choices.includes(product.duration.default) ? product.duration.default : choices[0];
}

function num(v: string | undefined): number | null {
  if (v === undefined || !/^\d{1,2}$/.test(v)) return null;
  return Number(v);
}
