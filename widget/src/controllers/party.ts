import { allItems, partySize, type Selection } from "../selection";
import { addToCartBody, resizeGuests } from "../booking-body";
import type { PackageItem } from "../api/client";
import { round2, type BookingStore } from "./store";

type Part = "males" | "females" | "couples";

/** The party changed: the room chosen no longer holds, unless it is too big for the product. Null when it would be too big. */
export function withParty(sel: Selection, part: Part, value: number, max: number): Selection | null {
  const next = { ...sel, [part]: Math.max(0, value) };
  if (partySize(next) > max) return null;
  return { ...next, accommodationId: null, srs: false };
}

/**
 * Party and rooms: who comes (and so the guests' forms), the room types for them and the dates,
 * the room chosen with or without a single room supplement, the extras' dates, and the price
 * estimate of it all. In the checkout steps' chunk (checkout-steps.ts): the first screen never
 * needs it.
 */
export class PartyController {
  private roomsRequest = 0;
  private estimateTimer: ReturnType<typeof setTimeout> | undefined;
  private estimateAbort: AbortController | undefined;

  constructor(private readonly store: BookingStore) {
    // entering the extras (forward or back) prices the selection anew; an included activity on
    // timeslots starts at the first time with places for the party each day, shown to be changed
    store.onEnter.extras = () => {
      const st = this.store;
      const items = { ...st.sel.items };
      for (const item of allItems(st.pkg)) {
        if (item.role !== "default" || !item.product.is_on_timeslots || items[item.package_item_id]?.length) continue;
        items[item.package_item_id] = item.dates.flatMap((d) => {
          const t = d.timeslots?.find((x) => x.available >= partySize(st.sel));
          return t ? [`${d.date} ${t.time}:00`] : [];
        });
      }
      st.sel = { ...st.sel, items };
      store.estimate = null;
      this.scheduleEstimate();
    };
  }

  setParty(part: Part, value: number): void {
    const st = this.store;
    const p = st.currentProduct;
    // a rental's pax are per unit: any number of units, one per guest
    const next = withParty(st.sel, part, value, !st.byRoom && p?.type === "rental" ? 20 : (p?.pax.max ?? 20));
    if (!next) return;
    st.sel = next;
    void this.loadRooms();
  }

  /** The room types for the party and dates (the party is known now: its guests' forms follow it). */
  async loadRooms(): Promise<void> {
    const st = this.store;
    // participants are counted in one number (males: they are sent without a gender)
    if (!st.byRoom && st.sel.females + st.sel.couples > 0) st.sel = { ...st.sel, males: partySize(st.sel), females: 0, couples: 0 };
    st.guests = resizeGuests(st.guests, st.sel);
    const product = st.currentProduct;
    if (!st.byRoom) {
      // participants: no room to find (a time, if any, is theirs to choose: chooseTime)
      st.rooms = [];
      const item = this.ownItem();
      const chosen = item && st.sel.items[item.package_item_id]?.[0];
      const slot = chosen && item.dates[0]?.timeslots?.find((t) => chosen.endsWith(` ${t.time}:00`));
      if (slot && slot.available < partySize(st.sel)) st.sel = { ...st.sel, items: {} };
      return;
    }
    if (!product || !st.sel.startDate || partySize(st.sel) === 0) {
      st.rooms = partySize(st.sel) === 0 ? [] : null;
      return;
    }
    const ticket = ++this.roomsRequest;
    await st.run("rooms", async () => {
      const rooms = await st.api.accommodations(product.id, { start_date: st.sel.startDate!, duration: st.sel.duration, males: st.sel.males, females: st.sel.females, couples: st.sel.couples, currency: st.cur, language: st.lang });
      if (ticket !== this.roomsRequest) return; // a newer party was asked for meanwhile
      st.rooms = rooms;
      if (st.sel.accommodationId && !rooms.some((r) => r.product.id === st.sel.accommodationId)) st.sel = { ...st.sel, accommodationId: null, srs: false };
    });
  }

  /** A product sold on its own: its one item, the product itself (its times and places left). */
  ownItem(): PackageItem | undefined {
    const st = this.store;
    return st.currentProduct?.type === "package" ? undefined : st.pkg?.single_items[0];
  }

  /** The time of a product on timeslots, on the day chosen. */
  chooseTime(time: string): void {
    const st = this.store;
    const item = this.ownItem();
    if (item && st.sel.startDate) st.sel = { ...st.sel, items: { [item.package_item_id]: [`${st.sel.startDate} ${time}:00`] } };
  }

  chooseRoom(id: number): void {
    this.store.sel = { ...this.store.sel, accommodationId: id, srs: false };
  }

  setSrs(on: boolean): void {
    this.store.sel = { ...this.store.sel, srs: on };
  }

  setItemDates(itemId: number, dates: string[]): void {
    const st = this.store;
    const items = { ...st.sel.items };
    if (dates.length) items[itemId] = dates;
    else delete items[itemId];
    st.sel = { ...st.sel, items };
    const { [itemId]: _changed, ...others } = st.extraTotals;
    st.extraTotals = others;
    this.scheduleEstimate();
  }

  /** Re-price the selection shortly after the guest stops changing it (one request per pause). */
  private scheduleEstimate(): void {
    clearTimeout(this.estimateTimer);
    this.estimateTimer = setTimeout(() => void this.updateEstimate(), 250);
  }

  private async updateEstimate(): Promise<void> {
    const st = this.store;
    const s = st.sel;
    if (!s.productId || !s.startDate || (st.byRoom && !s.accommodationId) || partySize(s) === 0) return;
    this.estimateAbort?.abort();
    const abort = (this.estimateAbort = new AbortController());
    const draft = addToCartBody(s, st.pkg, resizeGuests([], s), st.cart?.status === "open" ? st.cart.currency : st.cur, st.lang, undefined, st.byRoom);
    const body = { currency: draft.currency, guests: draft.guests.map(({ first_name: _f, last_name: _l, ...g }, i) => ({ ...g, unique_id: `g${i}` })) };
    try {
      const lines = Object.values(await st.api.packagePrices(body, abort.signal)).flat();
      st.estimate = round2(lines.reduce((t, l) => t + l.price, 0));
      const extras: Record<number, number> = {};
      for (const l of lines) if (l.package_item_id !== null && l.role !== "default") extras[l.package_item_id] = round2((extras[l.package_item_id] ?? 0) + l.price);
      st.extraTotals = extras;
    } catch {
      // an estimate is a courtesy: without it the cart still shows the real total
      if (!abort.signal.aborted) st.estimate = null;
    }
  }
}
