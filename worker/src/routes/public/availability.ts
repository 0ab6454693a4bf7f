import { createRoute } from "@hono/zod-openapi";
import { AvailabilitiesByProduct, AvailabilitiesQuery, AvailabilityQuery, ProductAvailability } from "../../contract/catalog-availability";
import { PathId } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import { ledgerRead, toLedgers, type LedgerRead } from "../../db/catalog";
import { availabilityCalendar, emptyLedger, ledgerWindow } from "../../domain/availability";
import type { Product } from "../../domain/product";
import { Memo } from "../../lib/memo";
import { dateIn } from "../../lib/time";
import { createRouter } from "../router";
import { jsonAnswer, jsonText, type JsonText } from "../../lib/openapi";
import { readTenantLedger } from "../../db/tenant-read";
import { dateWindow, mergeLists, productNotFound } from "./catalog-view";
import { filterProducts, type CatalogSnapshot } from "../../domain/catalog";
import type { D1 } from "../../db/d1";

const errors = {
  401: problemResponse("Missing, malformed, unknown or revoked API key."),
  403: problemResponse("The key's scope is not public."),
  422: problemResponse("Invalid dates: impossible, end before start, or a window over 366 days."),
  429: problemResponse("Rate limit exceeded."),
};
const rules =
  "Availability = capacity − live allocations (bookings and unexpired cart holds), per date, or per timeslot for products on timeslots. " +
  "Nothing before the business's today (its date in its time zone, settings time_zone) is available: such a date shows available 0 and no check-in or check-out. " +
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
  description:
    `${rules} The filters combine. Unknown ids, one rule for every list of ids the API takes (ids[] here, product_ids[] of GET /products/prices): ` +
    "every id listed must be a product of the business, else 404 naming the first that is not (as GET /products/{id}/availabilities does for its one id). " +
    "type and backoffice_category_id are filters: matching nothing is an empty answer.",
  request: { query: AvailabilitiesQuery },
  responses: {
    200: { description: "Keyed by product id, then by date.", content: { "application/json": { schema: AvailabilitiesByProduct } } },
    404: problemResponse("An id of ids[] is not a product of this business."),
    ...errors,
  },
});

/** The ONE grouped read of inventory and allocations behind every product's calendar over [start, end]. */
/** The window asked for (start defaulting to the business's today) and that today. */
function windowOf(snap: CatalogSnapshot, now: Date, q: { start_date?: string; end_date?: string }) {
  const today = businessToday(snap, now);
  return { ...dateWindow(new Date(`${today}T00:00:00Z`), q.start_date, q.end_date), today };
}

function calendarRead(db: D1, businessId: number, products: Product[], start: string, end: string, now: Date): LedgerRead | undefined {
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

function calendars(products: Product[], ledgerText: string, start: string, end: string, today: string) {
  const ledgers = toLedgers(products.map((p) => p.id), ledgerText, today);
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
const inputsKey = (snap: CatalogSnapshot, products: Product[], ledgerText: string, start: string, end: string, today: string) =>
  `${snap.businessId}|${snap.version}|${products.map((p) => p.id).join(",")}|${start}|${end}|${today}|${ledgerText}`;

function calendarsText(snap: CatalogSnapshot, products: Product[], ledgerText: string, start: string, end: string, today: string) {
  return calendarTexts.get(inputsKey(snap, products, ledgerText, start, end, today), () => jsonText(calendars(products, ledgerText, start, end, today)));
}

function calendarText(snap: CatalogSnapshot, product: Product, ledgerText: string, start: string, end: string, today: string) {
  return oneCalendarTexts.get(inputsKey(snap, [product], ledgerText, start, end, today), () =>
    jsonText(calendars([product], ledgerText, start, end, today)[String(product.id)]),
  );
}

/** The business's today: its date in its time zone (BusinessConfig.time_zone). */
export const businessToday = (snap: CatalogSnapshot, now: Date) => dateIn(now, snap.business.config.time_zone);

export const availabilityRoutes = createRouter()
  .openapi(many, async (c) => {
    const q = c.req.valid("query");
    const businessId = c.get("tenant").businessId;
    const filter = { ids: mergeLists(q["ids[]"], q.ids), type: q.type, backoffice_category_id: q.backoffice_category_id };
    let products: Product[] = [];
    let window = { start: "", end: "", today: "" };
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => {
      window = windowOf(snap, c.get("now"), q);
      products = filterProducts(snap, filter);
      return calendarRead(c.env.DB, businessId, products, window.start, window.end, c.get("now"));
    });
    const unknown = filter.ids?.find((id) => !snap.products.has(id));
    if (unknown !== undefined) throw productNotFound(unknown);
    c.header("Cache-Control", "no-store");
    return jsonAnswer(c, calendarsText(snap, products, ledgerText, window.start, window.end, window.today));
  })
  .openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const businessId = c.get("tenant").businessId;
    let product: Product | undefined;
    let window = { start: "", end: "", today: "" };
    const { snap, ledgerText } = await readTenantLedger(c, (snap) => {
      window = windowOf(snap, c.get("now"), q);
      product = snap.products.get(id);
      return product && calendarRead(c.env.DB, businessId, [product], window.start, window.end, c.get("now"));
    });
    if (!product) throw productNotFound(id);
    c.header("Cache-Control", "no-store");
    return jsonAnswer(c, calendarText(snap, product, ledgerText, window.start, window.end, window.today));
  });
