import { createRoute } from "@hono/zod-openapi";
import { PathId } from "../../contract/common";
import { PackagePrices, PackagePricesBody, ProductPrice, ProductPriceQuery, ProductPrices, ProductPricesQuery } from "../../contract/catalog-prices";
import { problemResponse } from "../../contract/problem";
import { stayDates } from "../../domain/availability";
import { chooseCurrency, displayPrice, toMajor, type CurrencyChoice } from "../../domain/money";
import { defaultItemsMinor, quotePackages } from "../../domain/package-quote";
import { priceFor } from "../../domain/pricing";
import { isSession, type Product } from "../../domain/product";
import { createRouter } from "../router";
import { keyCheck } from "../../middleware/auth";
import { invalid } from "../../lib/errors";
import { readTenant } from "../../db/tenant-read";
import { contextOf, mergeLists, productNotFound } from "./catalog-view";
import { type PricingData, pricingIn, productsIn, type CatalogSnapshot } from "../../domain/catalog";

const errors = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key's scope is not public."),
  422: problemResponse("Invalid query or body (dates, numbers, unknown currency, a unit the product is not sold by)."),
  429: problemResponse("Rate limit exceeded."),
};
const rules =
  "A stay's total is the sum over its nights or days of the rate in force on each (a season's rate on its segments' dates, inclusive; the higher priority wins), " +
  "a per-stay rate counts once (per session for products sold by the hour), quantity tiers apply from their quantity on; a package's total includes its default items " +
  "at their default quantity on every day, for every guest (as a cart prices them). " +
  "Rates per person count pax, per unit one unit per guest, per room ceil(pax / beds per room). " +
  "Converted from the default currency, then rounded half-up to the currency's minor unit. Any duration is priced; whether it can be booked is what availabilities say.";

const one = createRoute({
  method: "get",
  path: "/products/{id}/prices",
  operationId: "getProductPrice",
  tags: ["Prices"],
  summary: "A product's total price",
  description: rules,
  request: { params: PathId, query: ProductPriceQuery },
  responses: {
    200: { description: "The total.", content: { "application/json": { schema: ProductPrice } } },
    404: problemResponse("No such product in this business."),
    ...errors,
  },
});
const many = createRoute({
  method: "get",
  path: "/products/prices",
  operationId: "listProductPrices",
  tags: ["Prices"],
  summary: "Total prices of several products",
  description: `${rules} Every id must be a product of the business, else 404 naming the first that is not (the one rule for lists of ids, as ids[] of GET /products/availabilities).`,
  request: { query: ProductPricesQuery },
  responses: {
    200: { description: "Total price keyed by product id.", content: { "application/json": { schema: ProductPrices } } },
    404: problemResponse("A product id is not a product of this business."),
    ...errors,
  },
});
const packages = createRoute({
  method: "post",
  path: "/packages/prices",
  // It only computes prices: its key is checked in the round trip of its reads, as a GET's.
  middleware: [keyCheck.withReads] as const,
  operationId: "getPackagePrices",
  tags: ["Prices"],
  summary: "Price breakdown of packages per guest",
  description:
    "The body is the one of POST /bookings/add with a unique_id per guest (names optional here; currency or currency_id). " +
    "The selection is validated as the cart does (check-in day, nights, accommodation and gender rules, items and dates) but availability is not checked. " +
    "Each guest's lines, each {package_item_id, product_id, price, is_fixed, guest_to_charge}: the package's own price, the accommodation, " +
    "the single room supplement when srs is true (these three carry the package's own integer ids for them, above 1000000000), the default items on every day of the stay, then the chosen items. " +
    "A private room (and an srs room) is shared by the guests with the same package, dates and room type, beds_per_room at a time: its line is listed " +
    "under the first of them and guest_to_charge names them all.",
  request: { body: { content: { "application/json": { schema: PackagePricesBody } }, required: true } },
  responses: {
    200: { description: "Lines keyed by unique_id.", content: { "application/json": { schema: PackagePrices } } },
    400: problemResponse("The body is not valid JSON."),
    404: problemResponse("No such package in this business."),
    413: problemResponse("The body is too large."),
    415: problemResponse("The body is not application/json."),
    ...errors,
  },
});

/** The price of one product for a party, in base minor units (a package's with its default items, as a cart prices them). */
function productTotal(snap: CatalogSnapshot, p: Product, pricing: PricingData, start: string, pax: number, duration: number | undefined, unit: string | undefined): number {
  if (unit !== undefined && unit !== p.duration.unit) throw invalid("duration_unit", `product ${p.id} is sold by the ${p.duration.unit}`);
  const n = duration ?? p.duration.default;
  const dates = p.duration.unit === "day" ? stayDates(start, n) : [start];
  const rooms = Math.ceil(pax / Math.max(1, p.beds_per_room ?? p.pax_max ?? 1));
  const own = priceFor(pricing.rates.get(p.id) ?? [], pricing.segments, {
    dates,
    units: { person: pax, unit: pax, room: rooms },
    hours: p.duration.unit === "hour" ? n : 1,
    perSession: isSession(p),
  }).amount_minor;
  return p.type === "package" ? own + defaultItemsMinor(snap, p.id, dates, pax) : own;
}

function load(snap: CatalogSnapshot, ids: number[]) {
  const products = productsIn(snap, ids);
  const missing = ids.find((id) => !products.has(id));
  if (missing !== undefined) throw productNotFound(missing);
  return { products, pricing: pricingIn(snap, ids) };
}

const show = (minor: number, choice: CurrencyChoice) => displayPrice(minor, choice);

export const priceRoutes = createRouter()
  .openapi(many, async (c) => {
    const q = c.req.valid("query");
    const ids = mergeLists(q["product_ids[]"], q.product_ids);
    if (!ids || ids.length === 0) throw invalid("product_ids", "is required: product_ids[]=<id> repeated, or product_ids=1,2");
    const { snap } = await readTenant(c);
    const ctx = contextOf(snap, q);
    const { products, pricing } = load(snap, ids);
    const out: Record<string, number> = {};
    for (const id of ids) out[String(id)] = show(productTotal(snap, products.get(id)!, pricing, q.start_date, q.pax, q.duration, q.duration_unit), ctx.choice);
    return c.json(out, 200);
  })
  .openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const { snap } = await readTenant(c);
    const ctx = contextOf(snap, q);
    const { products, pricing } = load(snap, [id]);
    return c.json({ total_price: show(productTotal(snap, products.get(id)!, pricing, q.start_date, q.pax, q.duration, q.duration_unit), ctx.choice) }, 200);
  })
  .openapi(packages, async (c) => {
    const body = c.req.valid("json");
    const code = body.currency ?? body.currency_id;
    const { snap } = await readTenant(c);
    const choice = chooseCurrency(snap.currencies, code, body.currency ? "currency" : "currency_id");
    const quote = quotePackages(
      snap,
      choice.target.iso_code,
      body.guests.map((g) => ({ key: g.unique_id, gender: g.gender, package: g.package })),
    );
    // Keyed by the consumer's unique_ids: an object without a prototype, so that "__proto__" or
    // "constructor" is a key like any other (on a plain object, "__proto__" set the prototype and
    // the guest's lines vanished from the answer).
    const out: Record<string, { package_item_id: number; product_id: number; price: number; is_fixed: boolean; guest_to_charge: string[] }[]> = Object.create(null);
    for (const g of body.guests) out[g.unique_id] = [];
    for (const l of quote.lines) {
      out[l.guest_key].push({
        package_item_id: l.package_item_id,
        product_id: l.product_id,
        price: toMajor(l.price_minor, quote.minor_digits),
        is_fixed: l.is_fixed,
        guest_to_charge: l.guest_to_charge,
      });
    }
    return c.json(out, 200);
  });
