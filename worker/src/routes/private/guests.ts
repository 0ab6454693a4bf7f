import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Guest, GuestCreate, GuestUpdate } from "../../contract/private";
import { ProductType } from "../../contract/common";
import { problemResponse } from "../../contract/problem";
import { GUEST_SORT_FIELDS, guestRow, guestListFrom, listGuestsStatements, type GuestFilter, type GuestListRow, type GuestRow } from "../../db/guests";
import { personsWithDerivedByIds, type PersonWithDerived } from "../../db/persons";
import type { AppEnv } from "../../db/request-env";
import { notFound } from "../../lib/errors";
import { createRouter } from "../router";
import { readTenant } from "../../db/tenant-read";
import { addGuest, deleteGuest, updateGuest } from "../../manage/guests";
import { keyActor } from "./actor";
import { authResponses, bodyResponses, json, uuidPath } from "./openapi-parts";
import { idListParam, parseSort, QueryReader, rangeParam, setPagingHeaders, uuidParam, pageParam, limitParam, boolParam, enumListParam } from "./query";
import { guestView, type GuestExpand } from "./views";
import { dietsIn, locationsIn, type CatalogSnapshot } from "../../domain/catalog";

const tags = ["Guests"];
const MAX_CUSTOM_FIELD_KEYS = 50;

const BookingParam = z.object({ booking_id: uuidPath("booking_id") });
const GuestParams = z.object({ booking_id: uuidPath("booking_id"), guest_id: uuidPath("guest_id") });

const LIST_EXPAND = [
  "booking_related_data.guest_group",
  "booking_related_data.waivers",
  "booking_related_data.agreements",
  "booking_related_data.arrival_location",
  "booking_related_data.departure_location",
  "booking_related_data.booking",
] as const;
const ONE_EXPAND = ["waivers", "agreements", "guest_group", "arrival_location", "departure_location", "person"] as const;

const listRoute = createRoute({
  method: "get",
  path: "/guests",
  operationId: "listGuests",
  tags,
  summary: "List guests",
  description:
    "A JSON array of guests, with X-Total-Count and Link headers. Lists: `a=x,y`, `a=x&a=y` or `a[]=x&a[]=y`. Ranges: `from..to`, `from..` or `..to`, both ends included; a date on a datetime filter spans that day (UTC). `checked_in_at` and `checked_out_at` also take `null` and `notnull`. `arrives_at`/`departs_at` use the guest's (odd) arrival/departure date, else the booking's dates. `on_site_at`: guests of confirmed bookings whose stay (checked-in, else expected check-in, else arrival day) overlaps the moment or range. `custom_fields`: a JSON object of at most 50 keys; each key must equal. Lists take at most 100 values. The service records no agreements and no product variants, so `agreement_id` and `booking_product_variant_id` match no guest. `limit` 1 to 100 (default 10) and `page` from 1 (default 1); other values are a 422.",
  request: {
    query: z.object({
      agreement_id: idListParam("uuid", "Agreement UUIDs."),
      arrival_location_id: idListParam("integer", "Location ids."),
      arrives_at: rangeParam("Arrival date."),
      booking_created_at: rangeParam("Datetime.", "datetime"),
      booking_end_date: rangeParam("Date."),
      booking_id: idListParam("uuid", "Booking UUIDs."),
      booking_location_id: idListParam("integer", "Location ids."),
      booking_product_id: idListParam("integer", "Product ids of the booking's lines."),
      booking_product_type: enumListParam(ProductType.options, "Product types of the booking's lines."),
      booking_product_variant_id: idListParam("integer", "Variant ids."),
      booking_reference_number: z.string().optional().openapi({ pattern: "^\\d{1,10}$", description: "The booking's number (digits); other values are a 422." }),
      booking_reference_year: z.string().optional().openapi({ maxLength: 10, description: "The booking's reference year, e.g. 2026." }),
      booking_start_date: rangeParam("Date."),
      booking_status: enumListParam(["confirmed", "cancelled"], "The bookings' status."),
      booking_updated_at: rangeParam("Datetime.", "datetime"),
      check_in_at: rangeParam("Datetime.", "datetime"),
      check_out_at: rangeParam("Datetime.", "datetime"),
      checked_in_at: rangeParam("Datetime, or null / notnull.", "datetime", true),
      checked_out_at: rangeParam("Datetime, or null / notnull.", "datetime", true),
      custom_fields: z.string().optional().openapi({ pattern: "^\\s*\\{[\\s\\S]*\\}\\s*$", description: 'A JSON object of at most 50 keys, e.g. {"surf_level":"beginner"}; values strings, numbers, booleans or null. Other values are a 422.' }),
      departs_at: rangeParam("Departure date."),
      departure_location_id: idListParam("integer", "Location ids."),
      diet_id: idListParam("integer", "Diet ids."),
      expand: enumListParam(LIST_EXPAND),
      is_odd_arrival: boolParam(),
      is_odd_departure: boolParam(),
      on_site_at: rangeParam("Datetime.", "datetime"),
      transfer_dates: rangeParam("Date: guests arriving or departing then."),
      sort_by: z.string().optional().openapi({ pattern: `^(${GUEST_SORT_FIELDS.map((f) => f.replaceAll(".", "\\.")).join("|")})(,(asc|desc))?$`, description: `${GUEST_SORT_FIELDS.join(", ")}; may end in ,asc or ,desc; other values are a 422.` }),
      limit: limitParam(),
      page: pageParam(),
    }),
  },
  responses: { 200: json(z.array(Guest), "Guests."), ...authResponses, 422: problemResponse("An invalid query parameter.") },
});

const createGuestRoute = createRoute({
  method: "post",
  path: "/bookings/{booking_id}/guests",
  operationId: "createGuest",
  tags,
  summary: "Add a guest to a booking",
  description: "The person's data is entered for this booking and written to its Person (a known e-mail reuses that Person). Sends GuestCreated, with PersonCreated for a new Person or PersonUpdated when an existing one changed.",
  request: { params: BookingParam, body: { content: { "application/json": { schema: GuestCreate } }, required: true } },
  responses: { ...bodyResponses,
    201: json(Guest, "The created guest."),
    400: problemResponse("Invalid request: booking_id is not a UUID, or malformed JSON."),
    ...authResponses,
    404: problemResponse("No such booking."),
    409: problemResponse("The booking is cancelled, or the person (by e-mail) is already a guest of this booking."),
    422: problemResponse("Invalid fields."),
  },
});
const getGuestRoute = createRoute({
  method: "get",
  path: "/bookings/{booking_id}/guests/{guest_id}",
  operationId: "getGuest",
  tags,
  summary: "Fetch a guest",
  request: { params: GuestParams, query: z.object({ expand: enumListParam(ONE_EXPAND) }) },
  responses: { 200: json(Guest, "The guest."), 400: problemResponse("Invalid request: an id is not a UUID."), ...authResponses, 404: problemResponse("Guest not found."), 422: problemResponse("Invalid expand.") },
});
const updateGuestRoute = createRoute({
  method: "put",
  path: "/bookings/{booking_id}/guests/{guest_id}",
  operationId: "updateGuest",
  tags,
  summary: "Update a guest",
  description: "Updates the guest and its Person (GuestUpdated with PersonUpdated). A person e-mail another Person holds moves the guest to that Person; an unused one changes the Person's e-mail.",
  request: { params: GuestParams, body: { content: { "application/json": { schema: GuestUpdate } }, required: true } },
  responses: { ...bodyResponses,
    200: json(Guest, "The updated guest."),
    400: problemResponse("Invalid request: an id is not a UUID, or malformed JSON."),
    ...authResponses,
    404: problemResponse("Guest not found."),
    409: problemResponse("`conflict`: the e-mail names a Person who is already another guest of this booking. `email_taken`: a race on the e-mail; retry."),
    422: problemResponse("Invalid fields."),
  },
});
const deleteGuestRoute = createRoute({
  method: "delete",
  path: "/bookings/{booking_id}/guests/{guest_id}",
  operationId: "deleteGuest",
  tags,
  summary: "Remove a guest from a booking",
  description: "The Person is not deleted. Sends GuestDeleted.",
  request: { params: GuestParams },
  responses: { 204: { description: "Deleted." }, 400: problemResponse("Invalid request: an id is not a UUID."), ...authResponses, 404: problemResponse("Guest not found.") },
});

/** Guests as the API shows them; the list passes what its batch already read (bookings, persons, snapshot). */
async function viewOf(
  c: Context<AppEnv>,
  rows: GuestRow[],
  expand: GuestExpand[],
  read: { bookings?: Map<string, any>; persons?: Map<string, PersonWithDerived>; snap?: CatalogSnapshot } = {},
) {
  const { businessId } = c.get("tenant");
  const { bookings } = read;
  const snap = read.snap ?? (await readTenant(c)).snap;
  const persons = read.persons ?? (await personsWithDerivedByIds(c.env.DB, businessId, rows.map((g) => g.person_id)));
  const diets = dietsIn(snap);
  const locations = locationsIn(snap);
  return rows.map((g) => guestView(g, persons.get(g.person_id)!, { diets, locations, expand, booking: bookings?.get(g.booking_id) }));
}

/**
 * The filters of GET /guests read from a query (the private API's and the back office's Guests
 * screen alike): a typed filter that db/guests.ts turns into SQL, and the expansions. Invalid
 * parameters are collected in `q` (its done() throws the 422).
 */
export function guestListQuery(q: QueryReader): { filter: GuestFilter; expand: GuestExpand[] } {
  const filter: GuestFilter = {};
  // No agreements are recorded, and products have no variants here: such a filter matches nothing.
  if (q.uuids("agreement_id")) filter.matchesNothing = true;
  filter.arrivalLocationIds = q.ints("arrival_location_id");
  filter.departureLocationIds = q.ints("departure_location_id");
  filter.arrives = q.range("arrives_at", "date");
  filter.departs = q.range("departs_at", "date");
  filter.bookingCreatedAt = q.range("booking_created_at", "datetime");
  filter.bookingUpdatedAt = q.range("booking_updated_at", "datetime");
  filter.bookingStartDate = q.range("booking_start_date", "date");
  filter.bookingEndDate = q.range("booking_end_date", "date");
  filter.bookingIds = q.uuids("booking_id");
  filter.bookingLocationIds = q.ints("booking_location_id");
  filter.productIds = q.ints("booking_product_id");
  filter.productTypes = q.enums("booking_product_type", ProductType.options);
  if (q.ints("booking_product_variant_id")) filter.matchesNothing = true;
  const refNumber = q.one("booking_reference_number");
  if (refNumber !== undefined) {
    if (!/^\d{1,10}$/.test(refNumber)) q.fail("booking_reference_number", "must be a number");
    else filter.referenceNumber = Number(refNumber);
  }
  filter.referenceYear = q.string("booking_reference_year", 10);
  filter.bookingStatuses = q.enums("booking_status", ["confirmed", "cancelled"] as const);
  filter.checkInAt = q.range("check_in_at", "datetime");
  filter.checkOutAt = q.range("check_out_at", "datetime");
  filter.checkedInAt = q.range("checked_in_at", "datetime", true);
  filter.checkedOutAt = q.range("checked_out_at", "datetime", true);
  const custom = q.one("custom_fields");
  if (custom !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(custom);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) q.fail("custom_fields", "must be a JSON object");
    else {
      const entries = Object.entries(parsed as Record<string, unknown>);
      const wanted: Record<string, string | number | null> = {};
      // A Person holds at most 50 custom fields (contract/private.ts): more keys can match nothing.
      if (entries.length > MAX_CUSTOM_FIELD_KEYS) q.fail("custom_fields", `at most ${MAX_CUSTOM_FIELD_KEYS} keys`);
      else
        for (const [k, v] of entries) {
          if (!/^[A-Za-z0-9_.-]{1,64}$/.test(k)) q.fail("custom_fields", `"${k.slice(0, 60)}" is not a custom field key`);
          else if (v === null || typeof v === "string" || typeof v === "number") wanted[k] = v;
          else if (typeof v === "boolean") wanted[k] = v ? 1 : 0;
          else q.fail("custom_fields", "values must be strings, numbers, booleans or null");
        }
      filter.customFields = wanted;
    }
  }
  filter.dietIds = q.ints("diet_id");
  filter.oddArrival = q.bool("is_odd_arrival");
  filter.oddDeparture = q.bool("is_odd_departure");
  const onSite = q.range("on_site_at", "datetime");
  if (onSite?.kind === "range") filter.onSite = { from: onSite.from, to: onSite.to };
  const transfer = q.range("transfer_dates", "date");
  if (transfer?.kind === "range") filter.transferDates = { from: transfer.from, to: transfer.to };
  const expand = q.enums("expand", LIST_EXPAND) ?? [];
  filter.sort = parseSort(q, GUEST_SORT_FIELDS);
  return { filter, expand: expand as GuestExpand[] };
}

/** One page of guests as the API shows them, with the count of all that match. */
export async function guestListPage(c: Context<AppEnv>, query: ReturnType<typeof guestListQuery>, paging: { page: number; limit: number }) {
  const { businessId } = c.get("tenant");
  const { filter, expand } = query;
  // The page, its count and the key's check in one round trip (db/tenant-read.ts).
  const { snap, results } = await readTenant(c, () => listGuestsStatements(c.env.DB, businessId, { filter, ...paging }));
  const { rows, total, persons } = guestListFrom(results);
  const bookings = new Map(
    rows.map((r) => [
      r.booking_id,
      {
        id: r.booking_id,
        business_id: businessId,
        cart_id: null,
        reference_number: r.b_reference_number,
        reference_year: r.b_reference_year,
        status: r.b_status,
        currency: r.b_currency,
        total_minor: r.b_total_minor,
        total_default_minor: 0,
        start_date: r.b_start_date,
        end_date: r.b_end_date,
        location_id: r.b_location_id,
        newsletter_opt_in: 0,
        created_at: r.b_created_at,
        updated_at: r.b_updated_at,
        cancelled_at: r.b_cancelled_at,
      },
    ]),
  );
  return { total, rows, guests: await viewOf(c, rows, expand, { bookings, persons, snap }) };
}

export const guestRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = new QueryReader(c);
    const query = guestListQuery(q);
    const paging = q.paging();
    q.done();
    const { total, guests } = await guestListPage(c, query, paging);
    setPagingHeaders(c, total, paging.page, paging.limit);
    return c.json(guests, 200);
  })
  .openapi(getGuestRoute, async (c) => {
    const p = c.req.valid("param");
    const bookingId = uuidParam(p.booking_id, "booking_id");
    const guestId = uuidParam(p.guest_id, "guest_id");
    const q = new QueryReader(c);
    const expand = q.enums("expand", ONE_EXPAND) ?? [];
    q.done();
    const row = await guestRow(c.env.DB, c.get("tenant").businessId, bookingId, guestId);
    if (!row) throw notFound("The guest");
    return c.json((await viewOf(c, [row], expand as GuestExpand[]))[0], 200);
  })
  .openapi(createGuestRoute, async (c) => {
    const { businessId } = c.get("tenant");
    const bookingId = uuidParam(c.req.valid("param").booking_id, "booking_id");
    const guestId = await addGuest(c.env, keyActor(c), businessId, bookingId, c.req.valid("json"), c.get("now"));
    const row = (await guestRow(c.env.DB, businessId, bookingId, guestId)) as GuestRow;
    c.header("Location", `/private/bookings/${bookingId}/guests/${guestId}`);
    return c.json((await viewOf(c, [row], []))[0], 201);
  })
  .openapi(updateGuestRoute, async (c) => {
    const { businessId } = c.get("tenant");
    const p = c.req.valid("param");
    const bookingId = uuidParam(p.booking_id, "booking_id");
    const guestId = uuidParam(p.guest_id, "guest_id");
    await updateGuest(c.env, keyActor(c), businessId, bookingId, guestId, c.req.valid("json"), c.get("now"));
    const row = (await guestRow(c.env.DB, businessId, bookingId, guestId)) as GuestRow;
    return c.json((await viewOf(c, [row], []))[0], 200);
  })
  .openapi(deleteGuestRoute, async (c) => {
    const p = c.req.valid("param");
    const bookingId = uuidParam(p.booking_id, "booking_id");
    const guestId = uuidParam(p.guest_id, "guest_id");
    await deleteGuest(c.env, keyActor(c), c.get("tenant").businessId, bookingId, guestId, c.get("now"));
    return c.body(null, 204);
  });
