/**
 * Quote a selection of packages (one per guest): validate it against the catalog and price it.
 * Used by POST /packages/prices and by the cart's POST /bookings/add.
 *
 * Decisions where the spec is silent (also in the OpenAPI descriptions):
 * - The stay's nights are start_date .. end_date − 1; package items are offered on those days.
 * - The package's own price (role "package"), the accommodation (role "accommodation") and the
 *   single room supplement (role "srs") are not package items, yet every line carries an integer
 *   package_item_id (the spec's line shape): theirs are the package's charge ids (migration 0170,
 *   above 1,000,000,000). Sent back as an item, such an id is ignored, as a default item is.
 * - A private room type is sold by the room: guests of one cart with the same package, dates and
 *   room type share rooms (beds_per_room each); the room's line is listed under the first of
 *   them and `guest_to_charge` names all of them. The same holds for an srs room.
 * - Default items are added automatically at qty_default on every day of the stay; items sent
 *   with role default are ignored. Items whose dates are not configurable are taken on every day
 *   of the stay (a timeslot item at the slot of its first sent date, else its default start time).
 * - A chosen item's quantity is max(1, qty_default) per date, within qty_max.
 * - is_fixed: the line's price is one amount for the whole line (a per-stay rate, or a fixed
 *   srs), not accumulated per night, day, hour or unbooked bed.
 * - A product listed on its own is sold as its own one-item package (domain/catalog.ts
 *   sellableStructure): `package.id` is the product's id, start_date .. end_date − 1 the days it
 *   covers (a room's nights; a session sold by the hour: one day), no line of a package price.
 *   A room is its own accommodation (accommodation_id may be left out); anything else is its one
 *   default item, whose time a product on timeslots must be given (the item with a
 *   'YYYY-MM-DD HH:mm:ss' date). gender is required only where a room is booked.
 * - A default item on timeslots is taken at the time sent for it on each day (else its default
 *   time): the guest picks the 09:00 or the 14:00 boat of a package.
 */
import { ApiError, type FieldError } from "../lib/errors";
import { daysBetween } from "../lib/time";
import { genderAllowed, srsChargePerNight, srsUnits } from "./accommodation";
import { stayDates } from "./availability";
import { chooseCurrency, convertMinor } from "./money";
import { priceFor, type Rate, type SeasonSegment } from "./pricing";
import { linesTotal } from "./totals";
import { durationsText, isAllowedDuration, isCheckinDay, isSession, shortestStay, slotsOn, type Product } from "./product";
import { type PackageItemRow, type PackageStructure, pricingIn, productsIn, sellableStructure, type CatalogSnapshot } from "./catalog";

export interface QuoteGuest {
  key: string; // unique_id for POST /packages/prices; cart guest id for carts
  gender?: "m" | "f"; // required where the selection has a room
  package: {
    id: number;
    start_date: string;
    end_date: string;
    accommodation_id?: number;
    srs?: boolean;
    items?: { package_item_id: number; dates: string[] }[]; // 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss'
  };
}
export interface QuoteLine {
  guest_key: string; // the guest the line is listed under
  package_item_id: number; // a package item's id, or the package's charge id (package, accommodation, srs)
  product_id: number;
  product_type: string;
  role: "package" | "accommodation" | "srs" | "default" | "option" | "alternative" | "upgrade";
  dates: string[];
  qty: number;
  price_minor: number; // in the requested currency, converted and rounded once here (domain/totals.ts: the rounding rule)
  is_fixed: boolean;
  guest_to_charge: string[]; // guest keys sharing this line (a private room for two)
}
export interface Hold {
  product_id: number;
  date: string;
  slot: string;
  qty: number;
}
export interface Quote {
  currency: string;
  minor_digits: number;
  lines: QuoteLine[];
  holds: Hold[];
  total_minor: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Dates already found real (a quote checks the same few dates again and again). */
const realDates = new Set<string>();

/** A real calendar date in 'YYYY-MM-DD' (2026-02-30 is not). */
export function isRealDate(s: unknown): s is string {
  if (typeof s !== "string") return false;
  if (realDates.has(s)) return true;
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) return false;
  if (realDates.size >= 10_000) realDates.clear();
  realDates.add(s);
  return true;
}

/** The days a package item is offered on for a stay: the nights, start .. end − 1. */
export const offeredDates = (start: string, nights: number) => stayDates(start, nights);

/** The slot a timeslot product is taken at on `date` when none was chosen. */
export function defaultSlot(p: Product, date?: string): string {
  if (!p.is_on_timeslots) return "";
  const slots = date ? slotsOn(p, date) : p.timeslots;
  const preferred = p.default_start_time?.slice(0, 5);
  return preferred && slots.includes(preferred) ? preferred : (slots[0] ?? "");
}

interface Use {
  date: string;
  slot: string;
}

/** Parse an item's sent dates against its product and the stay; pushes field errors. */
function parseItemDates(p: Product, sent: string[], offered: string[], path: string, errors: FieldError[]): Use[] {
  const uses: Use[] = [];
  const seen = new Set<string>();
  sent.forEach((raw, k) => {
    let use: Use | null = null;
    const dt = DATETIME.exec(raw);
    if (p.is_on_timeslots) {
      if (!dt || !isRealDate(dt[1])) {
        errors.push({ path: `${path}.${k}`, message: "a timeslot item's date must be 'YYYY-MM-DD HH:mm:ss'" });
        return;
      }
      const slot = `${dt[2]}:${dt[3]}`;
      const slots = slotsOn(p, dt[1]);
      if (!slots.includes(slot) || dt[4] !== "00") {
        errors.push({ path: `${path}.${k}`, message: `no timeslot at ${slot} on ${dt[1]}; timeslots that day: ${slots.join(", ") || "none"}` });
        return;
      }
      use = { date: dt[1], slot };
    } else {
      if (!isRealDate(raw)) {
        errors.push({ path: `${path}.${k}`, message: "must be a date 'YYYY-MM-DD' (this item is not on timeslots)" });
        return;
      }
      use = { date: raw, slot: "" };
    }
    if (!offered.includes(use.date)) {
      errors.push({ path: `${path}.${k}`, message: `${use.date} is not a day of the stay (${offered[0]} to ${offered[offered.length - 1]})` });
      return;
    }
    const key = `${use.date}|${use.slot}`;
    if (!seen.has(key)) uses.push(use);
    seen.add(key);
  });
  return uses;
}

/** A charge id the catalog must have (migration 0170's triggers keep one for every package line). */
function chargeId(id: number | null | undefined, packageId: number): number {
  if (typeof id !== "number") throw new Error(`package ${packageId} lacks a package_charges row`);
  return id;
}

function isChargeId(structure: PackageStructure, id: number): boolean {
  const { chargeIds } = structure;
  return chargeIds.package === id || [...chargeIds.accommodation.values(), ...chargeIds.srs.values()].includes(id);
}

const itemQty = (item: PackageItemRow, chosen: boolean) =>
  chosen ? Math.min(Math.max(1, item.qty_default, item.qty_min), Math.max(1, item.qty_max)) : item.qty_default;

/** See the module comment. Throws 404 for an unknown package, 422 for an invalid selection. */
export function quotePackages(snap: CatalogSnapshot, currency: string, guests: QuoteGuest[]): Quote {
  const packageIds = [...new Set(guests.map((g) => g.package.id))];
  const { currencies } = snap;
  const structures = new Map<number, PackageStructure & { standalone: boolean }>();
  for (const id of packageIds) {
    const st = sellableStructure(snap, id);
    if (!st) throw new ApiError(404, "not_found", `Package ${id} was not found: it is neither a package nor a product the business lists on its own.`);
    structures.set(id, st);
  }
  const ids = new Set<number>(packageIds);
  for (const st of structures.values()) {
    st.items.forEach((i) => ids.add(i.product_id));
    st.accommodationIds.forEach((id) => ids.add(id));
  }
  const products = productsIn(snap, [...ids]);
  const pricing = pricingIn(snap, [...ids]);
  const choice = chooseCurrency(currencies, currency, "currency");
  const ratesOf = (id: number): Rate[] => pricing.rates.get(id) ?? [];
  const segments: SeasonSegment[] = pricing.segments;

  const errors: FieldError[] = [];
  interface Checked {
    guest: QuoteGuest;
    pkg: Product;
    nights: string[];
    room: Product | null;
    srs: boolean;
    items: { item: PackageItemRow; product: Product; uses: Use[]; qty: number; role: QuoteLine["role"] }[];
    structure: PackageStructure & { standalone: boolean };
  }
  const checked: Checked[] = [];

  guests.forEach((guest, i) => {
    const path = `guests.${i}.package`;
    const sel = guest.package;
    const pkg = products.get(sel.id)!;
    const structure = structures.get(sel.id)!;
    const before = errors.length;
    if (guest.gender === undefined) {
      if (structure.accommodationIds.length > 0) errors.push({ path: `guests.${i}.gender`, message: "required (m or f): this is booked with a room, whose rules depend on it" });
    } else if (guest.gender !== "m" && guest.gender !== "f") errors.push({ path: `guests.${i}.gender`, message: "must be m or f" });
    if (!isRealDate(sel.start_date)) errors.push({ path: `${path}.start_date`, message: "must be a real date 'YYYY-MM-DD'" });
    if (!isRealDate(sel.end_date)) errors.push({ path: `${path}.end_date`, message: "must be a real date 'YYYY-MM-DD'" });
    if (errors.length > before) return;
    const n = daysBetween(sel.start_date, sel.end_date);
    if (n < 1) {
      errors.push({ path: `${path}.end_date`, message: "must be after start_date" });
      return;
    }
    const what = structure.standalone ? "product" : "package";
    if (structure.standalone && isSession(pkg)) {
      if (n !== 1) errors.push({ path: `${path}.end_date`, message: `${pkg.title} is sold by the hour: end_date must be the day after start_date` });
    } else if (!isAllowedDuration(pkg.duration, n)) {
      const allowed = durationsText(pkg.duration);
      const unit = structure.standalone && pkg.type !== "accommodation" ? "days" : "nights";
      errors.push({ path: `${path}.end_date`, message: `${n} ${unit} are not offered; ${unit}: ${allowed}` });
    }
    if (!isCheckinDay(pkg, sel.start_date)) {
      const days = Object.entries(pkg.allowed_checkin_days).filter(([, ok]) => ok).map(([d]) => d);
      errors.push({ path: `${path}.start_date`, message: `not a start day of this ${what} (it starts on: ${days.join(", ")})` });
    }
    const nights = offeredDates(sel.start_date, n);

    let room: Product | null = null;
    if (structure.standalone && pkg.type === "accommodation" && (sel.accommodation_id === undefined || sel.accommodation_id === null)) {
      room = pkg; // a room sold on its own is its own accommodation
      if (guest.gender && !genderAllowed(room, guest.gender)) errors.push({ path: `guests.${i}.gender`, message: `${room.title} takes only ${room.gender === "male" ? "males" : "females"}` });
    } else if (structure.accommodationIds.length > 0) {
      if (sel.accommodation_id === undefined || sel.accommodation_id === null) {
        errors.push({ path: `${path}.accommodation_id`, message: `required: choose one of ${structure.accommodationIds.join(", ")}` });
      } else if (!structure.accommodationIds.includes(sel.accommodation_id)) {
        errors.push({ path: `${path}.accommodation_id`, message: `not an accommodation of package ${sel.id}; choose one of ${structure.accommodationIds.join(", ")}` });
      } else {
        room = products.get(sel.accommodation_id) ?? null;
        if (room && guest.gender && !genderAllowed(room, guest.gender)) {
          errors.push({ path: `${path}.accommodation_id`, message: `${room.title} takes only ${room.gender === "male" ? "males" : "females"}` });
        }
      }
    } else if (sel.accommodation_id !== undefined && sel.accommodation_id !== null) {
      errors.push({ path: `${path}.accommodation_id`, message: "this package is booked without accommodation" });
    }
    const srs = sel.srs === true;
    if (srs && room && (room.is_private || !room.srs)) {
      errors.push({ path: `${path}.srs`, message: `${room.title} offers no single room supplement` });
    }

    // A default item on timeslots is taken at the times the guest sent for it (one per day at
    // most), else at its default time; any other default item sent is ignored, as the spec says.
    const chosenSlots = new Map<number, Map<string, string>>();
    (sel.items ?? []).forEach((sent, j) => {
      const item = structure.items.find((it) => it.id === sent.package_item_id);
      if (!item || item.role !== "default") return;
      const product = products.get(item.product_id)!;
      if (!product.is_on_timeslots) return;
      const ipath = `${path}.items.${j}`;
      const slots = chosenSlots.get(item.id) ?? new Map<string, string>();
      for (const use of parseItemDates(product, Array.isArray(sent.dates) ? sent.dates : [], nights, `${ipath}.dates`, errors)) {
        if (slots.has(use.date) && slots.get(use.date) !== use.slot) errors.push({ path: `${ipath}.dates`, message: `one time per day: ${use.date} was sent twice` });
        slots.set(use.date, use.slot);
      }
      chosenSlots.set(item.id, slots);
    });
    const items: Checked["items"] = [];
    for (const item of structure.items.filter((it) => it.role === "default")) {
      const product = products.get(item.product_id)!;
      if (item.qty_default < 1) continue;
      const slots = chosenSlots.get(item.id);
      if (structure.standalone && product.is_on_timeslots && !slots?.size) {
        errors.push({
          path: `${path}.items`,
          message: `choose a time: send {package_item_id: ${item.id}, dates: ["${nights[0]} HH:mm:00"]} with one of ${slotsOn(product, nights[0]).join(", ") || "no time that day"}`,
        });
      }
      items.push({ item, product, uses: nights.map((date) => ({ date, slot: slots?.get(date) ?? defaultSlot(product, date) })), qty: item.qty_default, role: "default" });
    }
    const chosenIds = new Set<number>();
    (sel.items ?? []).forEach((sent, j) => {
      const ipath = `${path}.items.${j}`;
      const item = structure.items.find((it) => it.id === sent.package_item_id);
      if (!item && isChargeId(structure, sent.package_item_id)) return; // the package's own lines come automatically
      if (!item) {
        errors.push({ path: `${ipath}.package_item_id`, message: `not an item of ${what} ${sel.id}` });
        return;
      }
      if (item.role === "default") return; // handled above (a time chosen) or automatically
      if (chosenIds.has(item.id)) {
        errors.push({ path: `${ipath}.package_item_id`, message: "this item is listed twice" });
        return;
      }
      chosenIds.add(item.id);
      const product = products.get(item.product_id)!;
      const dates = Array.isArray(sent.dates) ? sent.dates : [];
      let uses = parseItemDates(product, dates, nights, `${ipath}.dates`, errors);
      const configurable = item.is_configurable_dates === 1 || (item.group_id !== null && structure.groups.find((g) => g.id === item.group_id)?.is_configurable_dates === 1);
      if (!configurable) uses = nights.map((date) => ({ date, slot: uses[0]?.slot ?? defaultSlot(product, date) }));
      else if (dates.length === 0) errors.push({ path: `${ipath}.dates`, message: "choose at least one date" });
      items.push({ item, product, uses, qty: itemQty(item, true), role: item.role });
    });
    // Alternatives of one group exclude each other: one of them, not several.
    const byGroup = new Map<number, number>();
    for (const c of items) {
      if (c.item.role !== "alternative" || c.item.group_id === null) continue;
      if (byGroup.has(c.item.group_id)) errors.push({ path: `${path}.items`, message: `choose one alternative of group ${c.item.group_id}, not several` });
      byGroup.set(c.item.group_id, c.item.id);
    }
    checked.push({ guest, pkg, nights, room, srs, items, structure });
  });
  // An activity, course or service sold on its own takes a party of pax.min to pax.max: the
  // guests of this request with that product, start and time are one party. (A rental's pax is
  // per unit, one unit per guest; a room's are its beds.)
  const parties = new Map<string, { product: Product; count: number; first: number }>();
  checked.forEach((c, i) => {
    if (!c.structure.standalone || c.pkg.type === "rental" || c.pkg.type === "accommodation") return;
    const slot = c.items[0]?.uses[0]?.slot ?? "";
    const key = `${c.pkg.id}|${c.nights[0]}|${c.nights.length}|${slot}`;
    const party = parties.get(key) ?? { product: c.pkg, count: 0, first: i };
    party.count += 1;
    parties.set(key, party);
  });
  for (const { product, count, first } of parties.values()) {
    if (count > product.pax_max) errors.push({ path: "guests", message: `${product.title} takes at most ${product.pax_max} guests per booking (pax.max); ${count} were sent` });
    else if (count < product.pax_min) errors.push({ path: `guests.${first}`, message: `${product.title} takes at least ${product.pax_min} guests per booking (pax.min); ${count} were sent` });
  }
  if (errors.length > 0) {
    const summary = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
    throw new ApiError(422, "validation_failed", `The selection is invalid: ${summary}`, { errors });
  }

  const lines: QuoteLine[] = [];
  const holdMap = new Map<string, Hold>();
  const hold = (product_id: number, date: string, slot: string, qty: number) => {
    const key = `${product_id}|${date}|${slot}`;
    const h = holdMap.get(key) ?? { product_id, date, slot, qty: 0 };
    h.qty += qty;
    holdMap.set(key, h);
  };
  const line = (l: Omit<QuoteLine, "price_minor"> & { base_minor: number }) => {
    const { base_minor, ...rest } = l;
    lines.push({ ...rest, price_minor: convertMinor(base_minor, choice) });
  };

  // Rooms shared by guests: private types, and srs rooms of shared types.
  const rooms = new Map<string, Checked[][]>();
  for (const c of checked) {
    if (!c.room || !(c.room.is_private || c.srs)) continue;
    const key = `${c.pkg.id}|${c.nights[0]}|${c.nights.length}|${c.room.id}|${c.srs}`;
    const list = rooms.get(key) ?? [];
    const per = Math.max(1, c.room.beds_per_room ?? 1);
    const last = list[list.length - 1];
    if (last && last.length < per) last.push(c);
    else list.push([c]);
    rooms.set(key, list);
  }
  const roomOf = new Map<Checked, Checked[]>();
  for (const list of rooms.values()) for (const r of list) for (const c of r) roomOf.set(c, r);

  for (const c of checked) {
    const key = c.guest.key;
    const own = { guest_key: key, guest_to_charge: [key] };
    if (!c.structure.standalone) {
      const pkgPrice = priceFor(ratesOf(c.pkg.id), segments, { dates: c.nights, units: { person: 1, unit: 1, room: 1 } });
      line({ ...own, package_item_id: chargeId(c.structure.chargeIds.package, c.pkg.id), product_id: c.pkg.id, product_type: c.pkg.type, role: "package", dates: c.nights, qty: 1, base_minor: pkgPrice.amount_minor, is_fixed: pkgPrice.per === "stay" });
      c.nights.forEach((d) => hold(c.pkg.id, d, "", 1));
    }

    if (c.room) {
      const room = c.room;
      const mates = roomOf.get(c);
      if (room.is_private) {
        if (mates && mates[0] === c) {
          const keys = mates.map((m) => m.guest.key);
          const p = priceFor(ratesOf(room.id), segments, { dates: c.nights, units: { person: mates.length, unit: 1, room: 1 } });
          line({ guest_key: key, guest_to_charge: keys, package_item_id: chargeId(c.structure.chargeIds.accommodation.get(room.id), c.pkg.id), product_id: room.id, product_type: room.type, role: "accommodation", dates: c.nights, qty: 1, base_minor: p.amount_minor, is_fixed: p.per === "stay" });
          c.nights.forEach((d) => hold(room.id, d, "", 1));
        }
      } else {
        const p = priceFor(ratesOf(room.id), segments, { dates: c.nights, units: { person: 1, unit: 1, room: 1 } });
        line({ ...own, package_item_id: chargeId(c.structure.chargeIds.accommodation.get(room.id), c.pkg.id), product_id: room.id, product_type: room.type, role: "accommodation", dates: c.nights, qty: 1, base_minor: p.amount_minor, is_fixed: p.per === "stay" });
        if (!c.srs) c.nights.forEach((d) => hold(room.id, d, "", 1));
        else if (mates && mates[0] === c) {
          const keys = mates.map((m) => m.guest.key);
          const charge = srsChargePerNight(room, mates.length) * c.nights.length;
          line({ guest_key: key, guest_to_charge: keys, package_item_id: chargeId(c.structure.chargeIds.srs.get(room.id), c.pkg.id), product_id: room.id, product_type: room.type, role: "srs", dates: c.nights, qty: 1, base_minor: charge, is_fixed: room.srs!.fixed });
          c.nights.forEach((d) => hold(room.id, d, "", srsUnits(room)));
        }
      }
    }

    for (const it of c.items) {
      const p = priceFor(ratesOf(it.product.id), segments, {
        dates: it.uses.map((u) => u.date),
        units: { person: it.qty, unit: it.qty, room: it.qty },
        hours: it.product.duration.unit === "hour" ? it.product.duration.default : 1,
        perSession: isSession(it.product),
      });
      const dates = it.uses.map((u) => (u.slot ? `${u.date} ${u.slot}:00` : u.date));
      line({ ...own, package_item_id: it.item.id, product_id: it.product.id, product_type: it.product.type, role: it.role, dates, qty: it.qty, base_minor: p.amount_minor, is_fixed: p.per === "stay" && !isSession(it.product) });
      it.uses.forEach((u) => hold(it.product.id, u.date, u.slot, it.qty));
    }
  }

  return { currency: choice.target.iso_code, minor_digits: choice.target.digits, lines, holds: [...holdMap.values()], total_minor: linesTotal(lines) };
}

/** The lowest a product's rates ask for `qty` of it over `days` days (a per-stay rate once; a session's every day). */
function lowestCost(p: Product, rates: Rate[], days: number, qty: number): number {
  if (rates.length === 0) return 0;
  const r = rates.reduce((a, b) => (b.amount_minor < a.amount_minor ? b : a));
  const times = r.per === "stay" && !isSession(p) ? 1 : days;
  const hours = r.per === "hour" && p.duration.unit === "hour" ? p.duration.default : 1;
  return r.amount_minor * times * hours * qty;
}

/**
 * A product's "from" price (the public list's `price_from`), minor units of the default
 * currency; null when it has no rate at all. A product: its lowest rate. A package: the lowest
 * price of one guest's shortest stay, its default items included at their default quantity on
 * every day (the room, which the guest chooses, apart): a course whose price lies in its
 * sessions is not "from 0".
 */
export function fromPriceMinor(snap: CatalogSnapshot, p: Product): number | null {
  const own = snap.rates.get(p.id) ?? [];
  if (p.type !== "package") return own.length ? Math.min(...own.map((r) => r.amount_minor)) : null;
  const defaults = (snap.structures.get(p.id)?.items ?? []).filter((i) => i.role === "default" && i.qty_default > 0);
  const priced = defaults.filter((i) => (snap.rates.get(i.product_id) ?? []).length > 0);
  if (own.length === 0 && priced.length === 0) return null;
  const days = shortestStay(p.duration);
  let total = lowestCost(p, own, days, 1);
  for (const item of priced) {
    const product = snap.products.get(item.product_id);
    if (product) total += lowestCost(product, snap.rates.get(item.product_id)!, days, item.qty_default);
  }
  return total;
}

/**
 * What a package's default items add to its price for `pax` guests over `dates` (as a cart takes
 * them: qty_default on every date, at the default time), minor units of the default currency.
 */
export function defaultItemsMinor(snap: CatalogSnapshot, packageId: number, dates: string[], pax: number): number {
  let total = 0;
  for (const item of snap.structures.get(packageId)?.items ?? []) {
    const product = snap.products.get(item.product_id);
    if (item.role !== "default" || item.qty_default < 1 || !product) continue;
    // each guest's line is priced on its own, as the cart prices it
    const qty = item.qty_default;
    const one = priceFor(snap.rates.get(item.product_id) ?? [], snap.segments, {
      dates,
      units: { person: qty, unit: qty, room: qty },
      hours: product.duration.unit === "hour" ? product.duration.default : 1,
      perSession: isSession(product),
    });
    total += one.amount_minor * pax;
  }
  return total;
}
