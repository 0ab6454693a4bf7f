import { createRoute, z } from "@hono/zod-openapi";
import { AccommodationOption, AccommodationQuery, PackageQuery, PackageRoot } from "../../contract/catalog";
import { PathId } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import type { Context } from "hono";
import { ledgerRead, toLedgers, type LedgerRead } from "../../db/catalog";
import type { AppEnv } from "../../db/request-env";
import { partySize, policyRefusal, srsAvailable, srsUnits, unitsForParty } from "../../domain/accommodation";
import { emptyLedger, minAvailable, slotState, UNLIMITED_UNITS, type Ledger } from "../../domain/availability";
import { displayPrice } from "../../domain/money";
import { fromPriceMinor, offeredDates } from "../../domain/package-quote";
import { hasQuantityTiers, priceFor, type Rate } from "../../domain/pricing";
import { durationsText, isAllowedDuration, isCheckinDay, isSession, slotsOn, type Product } from "../../domain/product";
import { ApiError, invalid, type FieldError } from "../../lib/errors";
import { createRouter } from "../router";
import { readTenantLedger } from "../../db/tenant-read";
import { addDays, dateIn } from "../../lib/time";
import { answerLanguage, contextOf, productBasics, productView, type CatalogContext } from "./catalog-view";
import { type PackageItemRow, type PackageStructure, pricingIn, productsIn, sellableStructure, type CatalogSnapshot } from "../../domain/catalog";

const errors = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key's scope is not public."),
  404: problemResponse("No such package in this business."),
  422: problemResponse("Invalid query: dates, a duration the package does not offer, a day that is not a check-in day, unknown currency, malformed language code."),
  429: problemResponse("Rate limit exceeded."),
};

const items = createRoute({
  method: "get",
  path: "/packages/{id}",
  operationId: "getPackageItems",
  tags: ["Packages"],
  summary: "A package's items for a stay",
  description:
    "The stay's nights are start_date to end_date − 1 (end_date = start_date + duration); every item is offered on those days, with availability " +
    "(\"unlimited\" for a product without a capacity limit; for products on timeslots available and capacity are null and each timeslot has its own). " +
    "Items outside a group are single_items; items of a group (alternatives of one another, or an upgrade) are listed in groups. " +
    "A product the business lists on its own (an activity, a course, a rental, a room: listed by GET /products) is sold as its own one-item package: " +
    "its id is accepted here, by GET /packages/{id}/accommodations (a room: itself) and by POST /bookings/add. Its one item (role default) is the product itself, " +
    "over the days it covers (duration in days; 1 for a product sold by the hour), with its timeslots and places left; a guest chooses a time by sending " +
    "that item with a 'YYYY-MM-DD HH:mm:ss' date. A default item on timeslots of a package is chosen the same way.",
  request: { params: PathId, query: PackageQuery },
  responses: { 200: { description: "The package's items.", content: { "application/json": { schema: PackageRoot } } }, ...errors },
});

const accommodations = createRoute({
  method: "get",
  path: "/packages/{id}/accommodations",
  operationId: "listPackageAccommodations",
  tags: ["Packages"],
  summary: "Room types that can take a party for a stay",
  description:
    "The party (males, females, couples) must not be empty: all three 0 is a 422 at males. " +
    "A room type is listed only when it can take the whole party (couples count two persons) on every night: male-only shared rooms take only males, " +
    "female-only only females; a couple needs a private room or a whole room of a mixed shared type. Shared types sell beds, private types whole rooms " +
    "(available counts those units). srs is offered on shared types with a supplement when the party fits one room and a whole room is free; " +
    "its charge is for the whole stay (fixed: for the room; otherwise per unbooked bed). group=1 orders the options as the front office groups them: " +
    "by accommodation type, then by price.",
  request: { params: PathId, query: AccommodationQuery },
  responses: { 200: { description: "The room types on offer.", content: { "application/json": { schema: z.array(AccommodationOption) } } }, ...errors },
});

/**
 * The package (404 unless it is one of the business's packages, or a product it lists on its own,
 * sold as its own one-item package: domain/catalog.ts sellableStructure) and its stay, checked.
 */
function packageStay(snap: CatalogSnapshot, id: number, start: string, nights: number) {
  const structure = sellableStructure(snap, id);
  if (!structure) throw new ApiError(404, "not_found", `Package ${id} was not found: it is neither a package nor a product the business lists on its own.`);
  const pkg = snap.products.get(id)!;
  const errs: FieldError[] = [];
  if (!isCheckinDay(pkg, start)) {
    const days = Object.entries(pkg.allowed_checkin_days).filter(([, ok]) => ok).map(([d]) => d);
    errs.push({ path: "start_date", message: `not a start day of this ${structure.standalone ? "product" : "package"} (it starts on: ${days.join(", ")})` });
  }
  if (structure.standalone && isSession(pkg)) {
    if (nights !== 1) errs.push({ path: "duration", message: `${pkg.title} is sold by the hour: its duration here is 1 (one day)` });
  } else if (!isAllowedDuration(pkg.duration, nights)) {
    const allowed = durationsText(pkg.duration);
    const unit = structure.standalone && pkg.type !== "accommodation" ? "days" : "nights";
    errs.push({ path: "duration", message: `${nights} ${unit} are not offered; ${unit}: ${allowed}` });
  }
  if (errs.length) throw new ApiError(422, "validation_failed", errs.map((e) => `${e.path}: ${e.message}`).join("; "), { errors: errs });
  return { pkg, structure, nights: offeredDates(start, nights), end: addDays(start, nights) };
}

const priceType = (unit: string | null) => unit ?? "person";
const unlimited = (n: number | null) => (n === null ? ("unlimited" as const) : n);

function itemView(item: PackageItemRow, p: Product, rates: Rate[], ctx: CatalogContext, pricing: { segments: Parameters<typeof priceFor>[1] }, nights: string[], ledger: Ledger, configurable: boolean) {
  const currency = ctx.choice.target.iso_code;
  const base = { hours: p.duration.unit === "hour" ? p.duration.default : 1, perSession: isSession(p) };
  const one = priceFor(rates, pricing.segments, { ...base, dates: [nights[0]], units: { person: 1, unit: 1, room: 1 } });
  const qty = Math.max(1, item.qty_default);
  const added = priceFor(rates, pricing.segments, { ...base, dates: configurable ? [nights[0]] : nights, units: { person: qty, unit: qty, room: qty } });
  return {
    package_item_id: item.id,
    role: item.role,
    product: {
      ...productBasics(p, ctx.language),
      is_on_timeslots: p.is_on_timeslots,
      price: { value: displayPrice(one.amount_minor, ctx.choice), currency, type: priceType(one.unit), from_price: hasQuantityTiers(rates) },
    },
    qty: { min: item.qty_min, max: item.qty_max, default: item.qty_default },
    price: { value: displayPrice(added.amount_minor, ctx.choice), currency, type: priceType(added.unit) },
    is_configurable_dates: configurable,
    dates: nights.map((date) => {
      if (!p.is_on_timeslots) {
        const s = slotState(p, ledger, date);
        return { date, available: unlimited(s.available), capacity: unlimited(s.capacity), timeslots: null };
      }
      const dayBlocked = ledger.inventory.get(`${date}|`)?.blocked ?? false;
      const timeslots = dayBlocked
        ? []
        : slotsOn(p, date).map((time) => {
            const s = slotState(p, ledger, date, time);
            return { time, available: s.available ?? UNLIMITED_UNITS, capacity: s.capacity ?? UNLIMITED_UNITS };
          });
      return { date, available: null, capacity: null, timeslots };
    }),
  };
}

/**
 * The live read a package answer needs, planned on the catalog snapshot so that it shares the
 * round trip of the key check: the inventory of some of the package's products over the stay.
 * Nothing when the package or the stay is not valid (the handler then says why).
 */
function stayLedger(c: Context<AppEnv>, snap: CatalogSnapshot, id: number, q: { start_date: string; duration: number }, productIds: (s: PackageStructure) => number[]): LedgerRead | undefined {
  let nights: string[];
  try {
    nights = packageStay(snap, id, q.start_date, q.duration).nights;
  } catch {
    return undefined;
  }
  const ids = productIds(sellableStructure(snap, id)!);
  return ledgerRead(c.env.DB, snap.businessId, ids, nights[0], nights[nights.length - 1], c.get("now"));
}

export const packageRoutes = createRouter()
  .openapi(items, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => stayLedger(c, snap, id, q, (s) => s.items.map((i) => i.product_id)));
    const ctx = answerLanguage(c, contextOf(snap, q));
    const { nights, end, structure } = packageStay(snap, id, q.start_date, q.duration);
    const ids = structure.items.map((i) => i.product_id);
    const products = productsIn(snap, ids);
    const pricing = pricingIn(snap, ids);
    const ledgers = toLedgers(ids, ledgerText, dateIn(c.get("now"), snap.business.config.time_zone));
    const groupConfigurable = new Map(structure.groups.map((g) => [g.id, g.is_configurable_dates === 1]));
    const view = (item: PackageItemRow) =>
      itemView(
        item,
        products.get(item.product_id)!,
        pricing.rates.get(item.product_id) ?? [],
        ctx,
        pricing,
        nights,
        ledgers.get(item.product_id) ?? emptyLedger(),
        item.is_configurable_dates === 1 || (item.group_id !== null && groupConfigurable.get(item.group_id) === true),
      );
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        start_date: q.start_date,
        end_date: end,
        single_items: structure.items.filter((i) => i.group_id === null).map(view),
        groups: structure.groups.map((g) => ({
          is_configurable_dates: g.is_configurable_dates === 1,
          items: structure.items.filter((i) => i.group_id === g.id).map(view),
        })),
      },
      200,
    );
  })
  .openapi(accommodations, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const party = { males: q.males, females: q.females, couples: q.couples };
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => stayLedger(c, snap, id, q, (s) => s.accommodationIds));
    const ctx = answerLanguage(c, contextOf(snap, q));
    const { nights, end, structure } = packageStay(snap, id, q.start_date, q.duration);
    if (partySize(party) === 0) throw invalid("males", "the party is empty: give males, females or couples");
    const ids = structure.accommodationIds;
    const rooms = productsIn(snap, ids);
    const pricing = pricingIn(snap, ids);
    const ledgers = toLedgers(ids, ledgerText, dateIn(c.get("now"), snap.business.config.time_zone));
    const currency = ctx.choice.target.iso_code;
    const options: (z.infer<typeof AccommodationOption> & { sortType: number })[] = [];
    for (const room of rooms.values()) {
      if (policyRefusal(room, party)) continue;
      const units = unitsForParty(room, party)!;
      const ledger = ledgers.get(room.id) ?? emptyLedger();
      const left = minAvailable(room, ledger, nights);
      if (nights.some((d) => slotState(room, ledger, d).blocked) || (left !== null && left < units)) continue;
      const rates = pricing.rates.get(room.id) ?? [];
      const price = priceFor(rates, pricing.segments, { dates: nights, units: { person: 1, unit: 1, room: 1 } });
      const srs =
        srsAvailable(room, party) && (left === null || left >= srsUnits(room))
          ? { charge: displayPrice(room.srs!.charge_minor * nights.length, ctx.choice), fixed: room.srs!.fixed }
          : null;
      options.push({
        start_date: q.start_date,
        end_date: end,
        available: left ?? UNLIMITED_UNITS,
        price: { type: priceType(price.unit), value: displayPrice(price.amount_minor, ctx.choice), currency },
        product: { ...productView(room, ctx, fromPriceMinor(snap, room)), srs },
        sortType: room.accommodation_type_id ?? Number.MAX_SAFE_INTEGER,
      });
    }
    if (q.group) options.sort((a, b) => a.sortType - b.sortType || a.price.value - b.price.value || a.product.id - b.product.id);
    c.header("Cache-Control", "no-store");
    return c.json(options.map(({ sortType: _, ...o }) => o), 200);
  });
