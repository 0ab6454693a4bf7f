import { z } from "@hono/zod-openapi";
import { DateOut, EmailAddress, ID_DIGITS, IsoDate, LANGUAGE_ENUM, MAX_ID, NameText } from "./common";
import { isCountryCode, isLanguageCode } from "./iso-codes";
import { BookingPayments } from "./payments";

/**
 * Schemas of the private API: Persons, Guests, Bookers (spec private-api.md section 2 and 4).
 * Request bodies strip what they do not list, so read-only fields sent back (id, totals,
 * is_guest, is_booker, created_at, ...) are ignored and never stored.
 */

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const nullableText = (max: number) => text(max).nullable().optional();
const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "must be a two-letter ISO 3166-1 alpha-2 code")
  .refine(isCountryCode, "is not an ISO 3166-1 alpha-2 country code")
  .transform((s) => s.toUpperCase())
  .openapi({ example: "PT" });
const LanguageCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "must be a two-letter language code")
  .refine(isLanguageCode, "is not an ISO 639-1 language code")
  .transform((s) => s.toLowerCase())
  .openapi({ enum: LANGUAGE_ENUM, example: "en", description: "An ISO 639-1 language code (stored lower case; the same code in upper case is also taken)." });
const Email = z
  .preprocess((v) => (typeof v === "string" ? v.trim() : v), EmailAddress())
  .openapi({ example: "ana.lopez@example.com", description: "Unique per business (trimmed, case-insensitive) among persons not deleted." });
const Phone = z
  .preprocess(
    (v) => (typeof v === "string" ? v.replace(/\s+/g, "") : v),
    z.string().regex(/^[0-9()./-]{0,32}$/, "must be a phone number without calling code: digits, at most 32"),
  )
  .openapi({ example: "912345678", description: "Number without calling code; whitespace is removed." });
export const Gender = z.enum(["male", "female", "nonbinary"]);
export const IdType = z.enum(["passport", "id_card", "driver_license", "other"]);
const RefId = z.number().int().min(1).max(MAX_ID);
/**
 * An id of the business's lists (diet, level, guest group) in a Person body: the document types
 * them string in POST /persons and integer in PUT, so both an integer and a string of digits are
 * taken (as the integer).
 */
const RefIdOrDigits = z
  .preprocess((v) => (typeof v === "string" && ID_DIGITS.test(v) ? Number(v) : v), RefId)
  .openapi({
    type: "integer",
    minimum: 1,
    maximum: MAX_ID,
    description: "An id of the business's list, from 1 (0 and negatives are a 422); the same id as a string of digits (\"3\") is also taken, as the spec types it string in POST /persons.",
  });
export const CustomFields = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "custom field keys are 1-64 letters, digits, _ . -"), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= 50, "at most 50 custom fields")
  .openapi({ example: { surf_level: "beginner" }, description: "Custom field identifiers to values; keys sent are merged into the stored ones." });

/** Every writable Person field (all optional); the routes add `email` rules of their own. */
const personWriteShape = {
  first_name: NameText(255).nullable().optional(),
  last_name: NameText(255).nullable().optional(),
  salutation: nullableText(50),
  gender: Gender.nullable().optional(),
  birth_date: IsoDate.nullable().optional(),
  language_code: LanguageCode.nullable().optional(),
  nationality_code: CountryCode.nullable().optional(),
  phone_country_code: CountryCode.nullable().optional().openapi({ description: "Also sets phone_country_calling_code." }),
  phone: Phone.nullable().optional(),
  country_code: CountryCode.nullable().optional(),
  state: nullableText(255),
  city: nullableText(255),
  zip_code: nullableText(32),
  address_line_1: nullableText(255),
  address_line_2: nullableText(255),
  address_line_3: nullableText(255),
  id_type: IdType.nullable().optional(),
  id_number: nullableText(64),
  id_expiry_date: IsoDate.nullable().optional(),
  company_name: NameText(255).nullable().optional(),
  tax_number: nullableText(64),
  company_address_line_1: nullableText(255),
  company_address_line_2: nullableText(255),
  custom_fields: CustomFields.optional(),
  diet_id: RefIdOrDigits.nullable().optional(),
  level_id: RefIdOrDigits.nullable().optional(),
  guest_group_id: RefIdOrDigits.nullable().optional(),
};

export const PersonUpdate = z.object({ email: Email.optional(), ...personWriteShape }).openapi("PersonUpdate", {
  description: "Fields to change; fields left out keep their value, null clears. Read-only fields are ignored.",
});
export type PersonUpdate = z.infer<typeof PersonUpdate>;

export const PersonCreate = z
  .object({
    email: Email,
    ...personWriteShape,
    phone_country_id: CountryCode.optional().openapi({ description: "Alias of phone_country_code (countries are identified by ISO code)." }),
    country_id: CountryCode.optional().openapi({ description: "Alias of country_code." }),
    nationality_id: CountryCode.optional().openapi({ description: "Alias of nationality_code." }),
  })
  .openapi("PersonCreate", { description: "A known e-mail (trimmed, case-insensitive) updates that Person instead (200)." });
export type PersonCreate = z.infer<typeof PersonCreate>;

/** The fields a guest's person may carry: a Person's, with an optional e-mail. */
export const GuestPersonWrite = z.object({ email: Email.nullable().optional(), ...personWriteShape }).openapi("GuestPersonWrite");

const DateTime = z.iso
  .datetime({ offset: true })
  .transform((s) => new Date(s).toISOString().replace(/\.\d{3}Z$/, "Z"))
  .openapi({ example: "2026-12-05T15:00:00Z", description: "ISO 8601 datetime; stored and shown in UTC." });
const Time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, "must be HH:MM or HH:MM:SS")
  .openapi({ example: "14:30" });

export const BookingRelatedWrite = z
  .object({
    web_check_in_at: DateTime.nullable().optional(),
    check_in_at: DateTime.nullable().optional(),
    checked_in_at: DateTime.nullable().optional(),
    check_out_at: DateTime.nullable().optional(),
    checked_out_at: DateTime.nullable().optional(),
    arrival_date: IsoDate.nullable().optional(),
    odd_arrival_date: IsoDate.nullable().optional(),
    arrival_time: Time.nullable().optional(),
    arrival_location_id: RefId.nullable().optional(),
    arrival_flight: nullableText(64),
    arrival_airline: nullableText(128),
    departure_date: IsoDate.nullable().optional(),
    odd_departure_date: IsoDate.nullable().optional(),
    departure_time: Time.nullable().optional(),
    departure_location_id: RefId.nullable().optional(),
    departure_flight: nullableText(64),
    departure_airline: nullableText(128),
    transfer_comment: nullableText(2000),
    guest_group_id: RefId.nullable().optional(),
    level_id: RefId.nullable().optional(),
  })
  .openapi("GuestBookingRelatedWrite");
export type BookingRelatedWrite = z.infer<typeof BookingRelatedWrite>;
export const BOOKING_RELATED_FIELDS = Object.keys(BookingRelatedWrite.shape) as (keyof BookingRelatedWrite)[];

export const GuestCreate = z
  .object({ person: GuestPersonWrite, booking_related_data: BookingRelatedWrite.optional() })
  .openapi("GuestCreate", {
    description:
      "A guest: its person's data as entered for this booking and its booking-related data. A person e-mail of a known Person attaches the guest to that Person; the entered data is written to the Person.",
  });
export type GuestCreate = z.infer<typeof GuestCreate>;
export const GuestUpdate = z
  .object({ person: GuestPersonWrite.optional(), booking_related_data: BookingRelatedWrite.optional() })
  .openapi("GuestUpdate", { description: "Fields left out keep their value. Updates the guest and its Person." });
export type GuestUpdate = z.infer<typeof GuestUpdate>;

export const BookerUpdate = z
  .object({
    email: Email.optional(),
    ...personWriteShape,
    gender: z.enum(["male", "female"]).nullable().optional(),
    create_new: z.boolean().nullable().optional().openapi({ description: "Only with a new e-mail no other Person holds: true attaches the booker to a new Person." }),
  })
  .openapi("BookerUpdate");
export type BookerUpdate = z.infer<typeof BookerUpdate>;

/**
 * Moving one booking line of a product on timeslots to another slot or day (the back office's
 * booking screen; the private API may offer the same later): the line, which of its date-times
 * moves, and where to. The price is kept: a move does not re-price.
 */
export const BookingLineMove = z
  .object({
    line_id: z.number().int().positive().openapi({ description: "The booking line's id." }),
    from: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/, "must be one of the line's date-times, 'YYYY-MM-DD HH:mm:00'").openapi({ description: "The line's date-time that moves." }),
    date: IsoDate,
    time: z.string().regex(/^\d{2}:\d{2}$/, "must be a time 'HH:mm'").openapi({ description: "A timeslot of that date." }),
  })
  .openapi("BookingLineMove");
export type BookingLineMove = z.infer<typeof BookingLineMove>;

// ---- responses

const Totals = z
  .object({
    last_booking: z.string().nullable().openapi({ description: "Creation time of the most recent booking where the person was guest or booker." }),
    booking_count: z.number().int().openapi({ description: "Bookings where the person was guest or booker." }),
    total_as_guest: z.number().openapi({ description: "Count of bookings as guest." }),
    total_as_booker: z.number().openapi({ description: "Count of bookings as booker." }),
    total_paid_as_booker: z.number().openapi({ description: "Payments made as booker, net of refunds, in the business's default currency (major units): the succeeded entries of the ledgers of the bookings this person booked (GET /bookings/{booking_id}/payments), each booking's converted at the rate it was booked at. A booking's price is not a payment." }),
    booking_inquiry_count: z.number().int().openapi({ description: "Always 0: this service has no inquiries." }),
  })
  .openapi("PersonTotals");

const nullableString = z.string().nullable();
/** A field the document types as plain string: "" when unknown, never null. */
const knownOrEmpty = z.string().openapi({ description: "Empty when unknown (the document types it string, not null)." });
export const Person = z
  .object({
    id: z.uuid(),
    email: nullableString,
    first_name: nullableString,
    last_name: nullableString,
    salutation: nullableString,
    initials: z.string(),
    gender: nullableString,
    birth_date: DateOut.nullable(),
    language_code: knownOrEmpty,
    nationality_code: knownOrEmpty,
    phone_country_calling_code: knownOrEmpty,
    phone_country_code: knownOrEmpty,
    phone: knownOrEmpty,
    country_code: knownOrEmpty,
    state: knownOrEmpty,
    city: knownOrEmpty,
    zip_code: knownOrEmpty,
    address_line_1: knownOrEmpty,
    address_line_2: nullableString,
    address_line_3: nullableString,
    id_type: nullableString,
    id_number: knownOrEmpty,
    id_expiry_date: knownOrEmpty,
    company_name: knownOrEmpty,
    tax_number: knownOrEmpty,
    company_address_line_1: knownOrEmpty,
    company_address_line_2: knownOrEmpty,
    custom_fields: z.record(z.string(), z.unknown()),
    totals: Totals,
    diet_id: z.number().int().min(1).nullable().openapi({ description: "The person's diet, or null when none is recorded: there is no \"no diet\" id to stand for it (0 is never an id)." }),
    diet: z.object({ id: z.number().int(), backoffice_title: z.string(), abbreviation: z.string().nullable() }).nullable(),
    level_id: z.number().int().min(1).nullable().openapi({ description: "The person's level, or null when none is recorded." }),
    guest_group_id: z.number().int().min(1).nullable().openapi({ description: "The person's guest group, or null when none." }),
    is_guest: z.boolean(),
    is_booker: z.boolean(),
    deleted_at: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Person", { description: "totals, is_guest and is_booker are derived from bookings on every read." });
export type Person = z.infer<typeof Person>;

export const PersonEnvelope = z.object({ data: Person }).openapi("PersonEnvelope");
export const PersonList = z
  .object({
    data: z.array(Person),
    meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
  })
  .openapi("PersonList", { description: "One page of persons. The same total is in X-Total-Count; Link has first, prev, next and last." });

// ---- bookings (the spec leaves them out)

export const BookingSummary = z
  .object({
    id: z.uuid(),
    reference_number: z.number().int(),
    reference_year: z.string(),
    status: z.enum(["confirmed", "cancelled"]),
    currency: z.string(),
    total: z.number(),
    start_date: DateOut,
    end_date: DateOut,
    location_id: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    cancelled_at: nullableString,
  })
  .openapi("BookingSummary");

const Titled = z.object({ id: z.number().int(), title: z.string() });
export const GuestBookingRelated = z
  .object({
    booking_id: z.uuid(),
    web_check_in_at: nullableString,
    check_in_at: nullableString,
    checked_in_at: nullableString,
    check_out_at: nullableString,
    checked_out_at: nullableString,
    arrival_date: DateOut.nullable(),
    odd_arrival_date: DateOut.nullable(),
    arrival_time: nullableString,
    arrival_location_id: z.number().int().nullable(),
    arrival_flight: nullableString,
    arrival_airline: nullableString,
    departure_date: DateOut.nullable(),
    odd_departure_date: DateOut.nullable(),
    departure_time: nullableString,
    departure_location_id: z.number().int().nullable(),
    departure_flight: nullableString,
    departure_airline: nullableString,
    transfer_comment: nullableString,
    guest_group_id: z.number().int().nullable(),
    level_id: z.number().int().nullable(),
    guest_group: z.object({ id: z.number().int() }).nullable().optional(),
    waivers: z.array(z.unknown()).optional(),
    agreements: z.array(z.unknown()).optional(),
    arrival_location: Titled.nullable().optional(),
    departure_location: Titled.nullable().optional(),
    booking: z.array(BookingSummary).optional(),
  })
  .openapi("GuestBookingRelated");

export const Guest = z
  .object({
    id: z.uuid().openapi({ description: "The guest's id (the guest_id of the guest paths)." }),
    person: Person.openapi({ description: "The person's data as entered for this booking; id, totals and flags are the Person's." }),
    booking_related_data: GuestBookingRelated,
    waivers: z.array(z.unknown()).optional(),
    agreements: z.array(z.unknown()).optional(),
    guest_group: z.object({ id: z.number().int() }).nullable().optional(),
    arrival_location: Titled.nullable().optional(),
    departure_location: Titled.nullable().optional(),
  })
  .openapi("Guest");
export type Guest = z.infer<typeof Guest>;

export const Booker = z
  .object({
    id: z.uuid(),
    person: Person.openapi({ description: "Snapshot of the Person as of the booking (id, totals and flags are the Person's)." }),
    booking_related_data: z.object({ booking_id: z.uuid(), company_name: knownOrEmpty, tax_number: knownOrEmpty }),
  })
  .openapi("Booker");
export type Booker = z.infer<typeof Booker>;
export const BookerEnvelope = z.object({ data: Booker }).openapi("BookerEnvelope");

export const BookingLine = z
  .object({
    id: z.number().int(),
    guest_id: z.string().nullable(),
    product_id: z.number().int(),
    product_title: z.string().openapi({ description: "The product's title now (an archived product keeps showing in its bookings)." }),
    product_type: z.string(),
    package_item_id: z.number().int().nullable(),
    role: z.string(),
    dates: z.array(z.string()),
    qty: z.number().int(),
    price: z.number().openapi({ description: "The price the line was booked at: a later price change does not change it." }),
  })
  .openapi("BookingLine");

export const BookingDetail = BookingSummary.extend({
  total_default_currency: z.number(),
  ...BookingPayments,
  newsletter_opt_in: z.boolean(),
  booker: Booker.nullable(),
  guests: z.array(Guest),
  lines: z.array(BookingLine),
  totals: z.object({ lines: z.number(), total: z.number(), currency: z.string(), guest_count: z.number().int() }),
}).openapi("BookingDetail");

export const BookingList = z
  .object({ data: z.array(BookingSummary), meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }) })
  .openapi("BookingList");
export const BookingEnvelope = z.object({ data: BookingDetail }).openapi("BookingEnvelope");
