import { createRoute } from "@hono/zod-openapi";
import { AvailabilitiesByProduct, AvailabilitiesQuery, AvailabilityQuery, ProductAvailability } from "../../contract/catalog-availability";
import { PathId } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import { ledgerRead, toLedgers, type LedgerRead } from "../../db/catalog";
import { availabilityCalendar, emptyLedger, ledgerWindow } from "../../domain/availability";
import type { Product } from "../../domain/product";
import { Memo } from "../../lib/memo";
import { createRouter, jsonAnswer, jsonText, type JsonText } from "../../lib/openapi";
import { readTenantLedger } from "../../db/tenant-read";
import { dateWindow, mergeLists, productNotFound } from "./catalog-view";
import { filterProducts, type CatalogSnapshot } from "../../domain/catalog";

const errors = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key's scope is not public."),
  422: problemResponse("Invalid dates: impossible, end before start, or a window over 366 days."),
  429: problemResponse("Rate limit exceeded."),
};
const rules =
  "Availability = capacity − live allocations (bookings and unexpired cart holds), per date, or per timeslot for products on timeslots. " +
  "Capacity comes from the product's inventory for the date, else its default capacity. Blocked dates show blocked: true and nothing available. " +
  "Never cached: a hold shows at once.";

const one = createRoute({
  method: "get",
  path: "/products/{id}/availabilities",
  operationId: "getProductAvailabilities",
  tags: ["Availability"],
  summary: "A product's availability per date",
  description: rules,
  request: { params: PathId, query: AvailabilityQuery },
  responses: {
    200: { description: "Keyed by date.", content: { "application/json": { schema: ProductAvailability } } },
    404: problemResponse("No such product in this business."),
    ...errors,
  },
});

const many = createRoute({
  method: "get",
  path: "/products/availabilities",
  operationId: "listProductsAvailabilities",
  tags: ["Availability"],
  summary: "Availability of several products per date",
  description: `${rules} The filters combine; ids that match no product of the business are left out of the answer.`,
  request: { query: AvailabilitiesQuery },
  responses: { 200: { description: "Keyed by product id, then by date.", content: { "application/json": { schema: AvailabilitiesByProduct } } }, ...errors },
});

/** The ONE grouped read of inventory and allocations behind every product's calendar over [start, end]. */
function calendarRead(db: D1Database, businessId: number, products: Product[], start: string, end: string, now: Date): LedgerRead | undefined {
  if (products.length === 0) return undefined;
  let from = start;
  let to = end;
  for (const p of products) {
    const w = ledgerWindow(p, start, end);
    if (w.from < from) from = w.from;
    if (w.to > to) to = w.to;
  }
  return ledgerRead(db, businessId, products.map((p) => p.id), from, to, now);
}

function calendars(products: Product[], ledgerText: string, start: string, end: string) {
  const ledgers = toLedgers(products.map((p) => p.id), ledgerText);
  return Object.fromEntries(products.map((p) => [String(p.id), availabilityCalendar(p, ledgers.get(p.id) ?? emptyLedger(), start, end)]));
}

/**
 * The calendars' JSON text. A calendar is a function of the products (the snapshot's catalog
 * version), the window and the ledger D1 returned for this very request, so the same inputs give
 * the same text: asked again while nothing changed (the same dates, many visitors), it is not
 * worked out again. Any hold, booking or inventory change alters the ledger and so the key.
 */
type Calendars = ReturnType<typeof calendars>;
const calendarTexts = new Memo<JsonText<Calendars>>(64, 64 * 1024);
const oneCalendarTexts = new Memo<JsonText<Calendars[string]>>(64, 64 * 1024);

/** Every input a calendar depends on, as one key. */
const inputsKey = (snap: CatalogSnapshot, products: Product[], ledgerText: string, start: string, end: string) =>
  `${snap.businessId}|${snap.version}|${products.map((p) => p.id).join(",")}|${start}|${end}|${ledgerText}`;

function calendarsText(snap: CatalogSnapshot, products: Product[], ledgerText: string, start: string, end: string) {
  return calendarTexts.get(inputsKey(snap, products, ledgerText, start, end), () => jsonText(calendars(products, ledgerText, start, end)));
}

function calendarText(snap: CatalogSnapshot, product: Product, ledgerText: string, start: string, end: string) {
  return oneCalendarTexts.get(inputsKey(snap, [product], ledgerText, start, end), () => jsonText(calendars([product], ledgerText, start, end)[String(product.id)]));
}

export const availabilityRoutes = createRouter()
  .openapi(many, async (c) => {
    const q = c.req.valid("query");
    const { start, end } = dateWindow(c.get("now"), q.start_date, q.end_date);
    const businessId = c.get("tenant").businessId;
    const filter = { ids: mergeLists(q["ids[]"], q.ids), type: q.type, backoffice_category_id: q.backoffice_category_id };
    let products: Product[] = [];
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => {
      products = filterProducts(snap, filter);
      return calendarRead(c.env.DB, businessId, products, start, end, c.get("now"));
    });
    c.header("Cache-Control", "no-store");
    return jsonAnswer(c, calendarsText(snap, products, ledgerText, start, end));
  })
  .openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const { start, end } = dateWindow(c.get("now"), q.start_date, q.end_date);
    const businessId = c.get("tenant").businessId;
    let product: Product | undefined;
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => {
      product = snap.products.get(id);
      return product && calendarRead(c.env.DB, businessId, [product], start, end, c.get("now"));
    });
    if (!product) throw productNotFound(id);
    c.header("Cache-Control", "no-store");
    return jsonAnswer(c, calendarText(snap, product, ledgerText, start, end));
  });
