import type { Booker, Guest, Person } from "../../contract/private";
import type { BookingRow } from "../../db/bookings";
import type { GuestRow } from "../../db/guests";
import type { PaymentRow } from "../../db/payments";
import { initials, PERSON_DATA_FIELDS, type PersonData } from "../../domain/persons";
import { rowToData, type DietRow, type PersonWithDerived } from "../../db/persons";
import { minorDigits, toMajor } from "../../domain/money";
import { netPaidInDefault } from "../../domain/totals";

/**
 * The Person of the API. With a snapshot (a guest's or booker's data as of its booking), the data
 * fields are the snapshot's; id, totals, flags and timestamps are always the live Person's.
 */
export function personView(row: PersonWithDerived, diets: Map<number, DietRow>, snapshot?: PersonData): Person {
  const data: PersonData = snapshot ? { ...emptyData(), ...snapshot } : rowToData(row);
  const dietId = (data.diet_id as number | null | undefined) ?? null;
  const diet = dietId !== null ? diets.get(dietId) : undefined;
  const lastGuest = row.t_last_guest ?? "";
  const lastBooker = row.t_last_booker ?? "";
  const str = (v: unknown) => (v === undefined || v === null ? null : String(v));
  // Fields the document types as plain string (not "string or null") are never null: "" when unknown.
  const text = (v: unknown) => str(v) ?? "";
  return {
    id: row.id,
    email: str(data.email),
    first_name: str(data.first_name),
    last_name: str(data.last_name),
    salutation: str(data.salutation),
    initials: initials(data.first_name, data.last_name),
    gender: str(data.gender),
    birth_date: str(data.birth_date),
    language_code: text(data.language_code),
    nationality_code: text(data.nationality_code),
    phone_country_calling_code: text(data.phone_country_calling_code),
    phone_country_code: text(data.phone_country_code),
    phone: text(data.phone),
    country_code: text(data.country_code),
    state: text(data.state),
    city: text(data.city),
    zip_code: text(data.zip_code),
    address_line_1: text(data.address_line_1),
    address_line_2: str(data.address_line_2),
    address_line_3: str(data.address_line_3),
    id_type: str(data.id_type),
    id_number: text(data.id_number),
    id_expiry_date: text(data.id_expiry_date),
    company_name: text(data.company_name),
    tax_number: text(data.tax_number),
    company_address_line_1: text(data.company_address_line_1),
    company_address_line_2: text(data.company_address_line_2),
    custom_fields: (data.custom_fields as Record<string, unknown>) ?? {},
    totals: {
      last_booking: (lastGuest > lastBooker ? lastGuest : lastBooker) || null,
      booking_count: row.t_guest + row.t_booker - row.t_both,
      total_as_guest: row.t_guest,
      total_as_booker: row.t_booker,
      // What was paid, never the price: the ledgers' payments less refunds on the bookings this
      // person booked, each converted at its booking's rate (domain/totals.ts netPaidInDefault).
      total_paid_as_booker: paidAsBooker(row),
      booking_inquiry_count: 0,
    },
    diet_id: dietId,
    diet: diet ? { id: diet.id, backoffice_title: diet.title, abbreviation: diet.abbreviation } : null,
    level_id: (data.level_id as number | null | undefined) ?? null,
    guest_group_id: (data.guest_group_id as number | null | undefined) ?? null,
    is_guest: row.t_guest > 0,
    is_booker: row.t_booker > 0,
    deleted_at: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The Person's net payments as booker, in major units of the business's default currency. */
function paidAsBooker(row: PersonWithDerived): number {
  if (!row.t_paid_booker || !row.t_default_currency) return 0;
  const rows = JSON.parse(row.t_paid_booker) as [string, number, number, number, number][];
  const minor = netPaidInDefault(
    rows.map(([currency, total_minor, total_default_minor, exchange_rate, net_paid_minor]) => ({ currency, total_minor, total_default_minor, exchange_rate, net_paid_minor })),
    row.t_default_currency,
  );
  return toMajor(minor, minorDigits(row.t_default_currency));
}

function emptyData(): PersonData {
  return Object.fromEntries(PERSON_DATA_FIELDS.map((f) => [f, f === "custom_fields" ? {} : null])) as PersonData;
}

export function bookerView(
  row: { id: string; booking_id: string; person_snapshot: string; company_name: string | null; tax_number: string | null },
  person: PersonWithDerived,
  diets: Map<number, DietRow>,
): Booker {
  return {
    id: row.id,
    person: personView(person, diets, JSON.parse(row.person_snapshot) as PersonData),
    booking_related_data: { booking_id: row.booking_id, company_name: row.company_name ?? "", tax_number: row.tax_number ?? "" },
  };
}


export function bookingSummaryView(b: BookingRow) {
  return {
    id: b.id,
    reference_number: b.reference_number,
    reference_year: b.reference_year,
    status: b.status,
    currency: b.currency,
    total: toMajor(b.total_minor, minorDigits(b.currency)),
    start_date: b.start_date,
    end_date: b.end_date,
    location_id: b.location_id,
    created_at: b.created_at,
    updated_at: b.updated_at,
    cancelled_at: b.cancelled_at,
  };
}

export type GuestExpand =
  | "waivers" | "agreements" | "guest_group" | "arrival_location" | "departure_location" | "person"
  | "booking_related_data.guest_group" | "booking_related_data.waivers" | "booking_related_data.agreements"
  | "booking_related_data.arrival_location" | "booking_related_data.departure_location" | "booking_related_data.booking";

/**
 * A Guest: its person as entered for this booking, and booking_related_data. Expansions: the
 * service has no waivers, agreements or guest-group records, so those expand to [] and {id};
 * locations expand to {id, title}; the booking to a one-element list of its summary.
 */
export function guestView(
  g: GuestRow,
  person: PersonWithDerived,
  ctx: { diets: Map<number, DietRow>; locations: Map<number, { id: number; title: string }>; expand: GuestExpand[]; booking?: BookingRow },
): Guest {
  const loc = (id: number | null) => (id === null ? null : (ctx.locations.get(id) ?? null));
  const group = g.guest_group_id === null ? null : { id: g.guest_group_id };
  const has = (e: GuestExpand) => ctx.expand.includes(e);
  const related: Guest["booking_related_data"] = {
    booking_id: g.booking_id,
    web_check_in_at: g.web_check_in_at,
    check_in_at: g.check_in_at,
    checked_in_at: g.checked_in_at,
    check_out_at: g.check_out_at,
    checked_out_at: g.checked_out_at,
    arrival_date: g.arrival_date,
    odd_arrival_date: g.odd_arrival_date,
    arrival_time: g.arrival_time,
    arrival_location_id: g.arrival_location_id,
    arrival_flight: g.arrival_flight,
    arrival_airline: g.arrival_airline,
    departure_date: g.departure_date,
    odd_departure_date: g.odd_departure_date,
    departure_time: g.departure_time,
    departure_location_id: g.departure_location_id,
    departure_flight: g.departure_flight,
    departure_airline: g.departure_airline,
    transfer_comment: g.transfer_comment,
    guest_group_id: g.guest_group_id,
    level_id: g.level_id,
  };
  if (has("booking_related_data.guest_group")) related.guest_group = group;
  if (has("booking_related_data.waivers")) related.waivers = [];
  if (has("booking_related_data.agreements")) related.agreements = [];
  if (has("booking_related_data.arrival_location")) related.arrival_location = loc(g.arrival_location_id);
  if (has("booking_related_data.departure_location")) related.departure_location = loc(g.departure_location_id);
  if (has("booking_related_data.booking") && ctx.booking) related.booking = [bookingSummaryView(ctx.booking)];
  const guest: Guest = {
    id: g.id,
    person: personView(person, ctx.diets, JSON.parse(g.person_snapshot) as PersonData),
    booking_related_data: related,
  };
  if (has("waivers")) guest.waivers = [];
  if (has("agreements")) guest.agreements = [];
  if (has("guest_group")) guest.guest_group = group;
  if (has("arrival_location")) guest.arrival_location = loc(g.arrival_location_id);
  if (has("departure_location")) guest.departure_location = loc(g.departure_location_id);
  return guest;
}

const ENTRY_ACTOR = { guest: "guest", staff: "staff", key: "api_key", cli: "cli" } as const;

/** One entry of a booking's payments ledger (contract/payments.ts PaymentEntry). */
export function paymentEntryView(e: PaymentRow) {
  return {
    id: e.id,
    booking_id: e.booking_id,
    type: e.kind,
    amount: toMajor(e.amount_minor, minorDigits(e.currency)),
    currency: e.currency,
    method: e.method,
    status: e.status,
    reference: e.reference,
    reason: e.reason,
    payment_id: e.refunds_payment_id,
    receipt_number: e.receipt_number ?? null,
    created_by: { type: ENTRY_ACTOR[e.actor_kind], id: e.actor_id, name: e.actor_name },
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
