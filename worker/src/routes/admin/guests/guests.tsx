/** @jsxImportSource hono/jsx */
/**
 * Guests: the filters of GET /private/guests (the same names, values and messages, read into a
 * typed filter for db/admin-lists.ts), a page of the result, and a CSV of everything the filter
 * matches. Any filter of the API works in the URL; the form offers the ones a front desk uses.
 */
import { referenceOf } from "../../../domain/reference";
import { ProductType } from "../../../contract/common";
import type { PersonData } from "../../../domain/persons";
import { csvField } from "../../../domain/csv";
import { answerOf, answerText, fieldsFor } from "../../../domain/custom-fields";
import { businessById } from "../../../db/businesses";
import { GUEST_SORTS, listGuestsFiltered, type GuestListFilter } from "../../../db/admin-lists";
import type { GuestListRow } from "../../../db/guests";
import { ApiError } from "../../../lib/errors";
import { isoDate } from "../../../lib/time";
import { base, csvAnswer, fmtDateTime, Field, FormError, Pager, Select, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { FilterReader } from "../kit/query";
import { Table } from "../kit/table";

/** The most rows one CSV holds. */
export const CSV_MAX_ROWS = 5000;
/** The most keys custom_fields can name: a guest holds at most 50 custom fields (contract/private.ts). */
const MAX_CUSTOM_FIELD_KEYS = 50;
/** The expansions of GET /private/guests: accepted in the URL (so an API link works here), nothing to expand on a page. */
const EXPAND = ["booking_related_data.guest_group", "booking_related_data.waivers", "booking_related_data.agreements", "booking_related_data.arrival_location", "booking_related_data.departure_location", "booking_related_data.booking"] as const;

/** custom_fields: a JSON object of keys and the values they must have. */
function customFields(q: FilterReader): GuestListFilter["custom_fields"] {
  const text = q.one("custom_fields");
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return q.fail("custom_fields", "must be a JSON object");
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_FIELD_KEYS) return q.fail("custom_fields", `at most ${MAX_CUSTOM_FIELD_KEYS} keys`);
  const wanted: Record<string, string | number | null> = {};
  for (const [k, v] of entries) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(k)) q.fail("custom_fields", `"${k.slice(0, 60)}" is not a custom field key`);
    else if (v === null || typeof v === "string" || typeof v === "number") wanted[k] = v;
    else if (typeof v === "boolean") wanted[k] = v ? 1 : 0;
    else q.fail("custom_fields", "values must be strings, numbers, booleans or null");
  }
  return wanted;
}

/** The filters of the URL: those of GET /private/guests, with the same names and messages. */
function read(c: AdminContext, limitDefault: number) {
  const q = new FilterReader(c);
  const filter: GuestListFilter = {
    agreement_id: q.uuids("agreement_id"),
    arrival_location_id: q.ints("arrival_location_id"),
    departure_location_id: q.ints("departure_location_id"),
    arrives_at: q.range("arrives_at", "date"),
    departs_at: q.range("departs_at", "date"),
    booking_created_at: q.range("booking_created_at", "datetime"),
    booking_updated_at: q.range("booking_updated_at", "datetime"),
    booking_start_date: q.range("booking_start_date", "date"),
    booking_end_date: q.range("booking_end_date", "date"),
    booking_id: q.uuids("booking_id"),
    booking_location_id: q.ints("booking_location_id"),
    booking_product_id: q.ints("booking_product_id"),
    booking_product_type: q.enums("booking_product_type", ProductType.options),
    booking_product_variant_id: q.ints("booking_product_variant_id"),
    booking_reference_year: q.string("booking_reference_year", 10),
    // What the front desk needs by default: guests of confirmed bookings ("any" shows every one).
    booking_status: bookingStatus(q),
    check_in_at: q.range("check_in_at", "datetime"),
    check_out_at: q.range("check_out_at", "datetime"),
    checked_in_at: q.rangeOrPresence("checked_in_at", "datetime"),
    checked_out_at: q.rangeOrPresence("checked_out_at", "datetime"),
    custom_fields: customFields(q),
    diet_id: q.ints("diet_id"),
    is_odd_arrival: q.bool("is_odd_arrival"),
    is_odd_departure: q.bool("is_odd_departure"),
    on_site_at: q.range("on_site_at", "datetime"),
    transfer_dates: q.range("transfer_dates", "date"),
  };
  const refNumber = q.one("booking_reference_number");
  if (refNumber !== undefined) {
    if (!/^\d{1,10}$/.test(refNumber)) q.fail("booking_reference_number", "must be a number");
    else filter.booking_reference_number = Number(refNumber);
  }
  q.enums("expand", EXPAND);
  const sort = q.sort(Object.keys(GUEST_SORTS) as (keyof typeof GUEST_SORTS)[]);
  const paging = { page: q.intValue("page", 1, 1_000_000, 1), limit: q.intValue("limit", 1, 100, limitDefault) };
  return { q, filter, sort, paging };
}

/** The booking status asked for: confirmed when none is (a cancelled guest is no arrival), none for "any". */
function bookingStatus(q: FilterReader) {
  const asked = q.one("booking_status");
  if (asked === undefined || asked === "") return ["confirmed" as const];
  if (asked === "any") return undefined;
  return q.enums("booking_status", ["confirmed", "cancelled"] as const);
}

/** The details a guest booked with (the booking's snapshot of the Person). */
const personOf = (g: GuestListRow) => JSON.parse(g.person_snapshot) as Partial<PersonData>;

export async function guestsPage(c: AdminContext) {
  const t = stringsOf(c);
  const { q, filter, sort, paging } = read(c, 25);
  let errors: Record<string, string> = {};
  let result: Awaited<ReturnType<typeof listGuestsFiltered>> = { total: 0, rows: [] };
  const businessId = c.get("staff").business_id;
  // A column per question asked of guests: the front desk sees the answers on the list.
  const business = businessById(c.env.DB, businessId);
  try {
    q.done();
    result = await listGuestsFiltered(c.env.DB, businessId, filter, sort, paging);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    errors = Object.fromEntries((err.extra.errors ?? []).map((e) => [e.path, e.message]));
  }
  const v = c.req.query();
  const url = new URL(c.req.url);
  url.searchParams.delete("page");
  const csv = `${base(c)}/guests.csv${url.search}`;
  const refs = new Map(result.rows.map((r) => [r.id, referenceOf(r.b_reference_year, r.b_reference_number)]));
  const questions = fieldsFor((await business)?.config.custom_fields ?? [], "guest");
  const yesNo = { yes: t.booking.yes, no: t.booking.no };
  return c.html(
    <Layout c={c} title={t.guests.title} current="guests">
      <form class="filters" method="get" action={`${base(c)}/guests`} aria-label={t.guests.filters}>
        <FormError message={Object.keys(errors).length ? t.fixErrors : undefined} />
        <Field name="arrives_at" label={t.guests.arrives} value={v.arrives_at} error={errors.arrives_at} placeholder="2026-07-01..2026-07-07" />
        <Field name="departs_at" label={t.guests.departs} value={v.departs_at} error={errors.departs_at} />
        <Field name="on_site_at" label={t.guests.onSite} value={v.on_site_at} error={errors.on_site_at} />
        <Select
          name="checked_in_at"
          label={t.guests.checkedIn}
          value={v.checked_in_at ?? ""}
          error={errors.checked_in_at}
          options={[
            ["", t.guests.any],
            ["null", t.guests.notYet],
            ["notnull", t.guests.already],
          ]}
        />
        <Select
          name="booking_status"
          label={t.guests.bookingStatus}
          value={v.booking_status || "confirmed"}
          error={errors.booking_status}
          options={[
            ["confirmed", t.bookings.confirmed],
            ["cancelled", t.bookings.cancelled],
            ["any", t.bookings.any],
          ]}
        />
        <Field name="booking_reference_number" label={t.guests.reference} value={v.booking_reference_number} error={errors.booking_reference_number} inputmode="numeric" />
        <Select
          name="sort_by"
          label={t.guests.sort}
          value={v.sort_by ?? ""}
          error={errors.sort_by}
          options={[
            ["", "—"],
            ["booking_related_data.arrival_date", t.guests.sortArrival],
            ["booking_related_data.departure_date", t.guests.sortDeparture],
          ]}
        />
        <button type="submit">{t.apply}</button>
        <a href={`${base(c)}/guests`}>{t.reset}</a>
      </form>
      <p>
        <a class="button" href={csv} download>
          {t.guests.csv}
        </a>
      </p>
      <Table
        label={t.guests.title}
        head={
          <tr>
            <th scope="col">{t.guests.name}</th>
            <th scope="col">{t.guests.email}</th>
            <th scope="col">{t.guests.booking}</th>
            <th scope="col">{t.guests.arrival}</th>
            <th scope="col">{t.guests.departure}</th>
            <th scope="col">{t.guests.bookingStatus}</th>
            <th scope="col">{t.guests.status}</th>
            {questions.map((q) => (
              <th scope="col" data-question={q.key}>
                {q.title}
              </th>
            ))}
          </tr>
        }
      >
        {result.rows.map((row) => {
          const p = personOf(row);
          return (
            <tr>
              <td>{[p.first_name, p.last_name].filter(Boolean).join(" ") || "—"}</td>
              <td>{p.email ?? ""}</td>
              <td>
                <a href={`${base(c)}/bookings/${row.booking_id}`}>{refs.get(row.id)}</a>
              </td>
              <td>{row.arrives_on}</td>
              <td>{row.departs_on}</td>
              <td data-status={row.b_status}>{row.b_status === "cancelled" ? t.bookings.cancelled : t.bookings.confirmed}</td>
              <td>{fmtDateTime(row.checked_in_at)}</td>
              {questions.map((q) => (
                <td>{answerText(answerOf(p.custom_fields, q.key), yesNo)}</td>
              ))}
            </tr>
          );
        })}
      </Table>
      {result.rows.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={paging.page} limit={paging.limit} total={result.total} />
    </Layout>,
    Object.keys(errors).length ? 422 : 200,
  );
}

const CSV_COLUMNS = [
  "guest_id", "booking_id", "booking_reference", "booking_status", "first_name", "last_name", "email", "phone", "gender", "birth_date",
  "nationality_code", "arrival_date", "departure_date", "checked_in_at", "checked_out_at",
] as const;


/** GET /guests.csv: every guest the filter matches (at most CSV_MAX_ROWS), the filter's order. */
export async function guestsCsv(c: AdminContext) {
  const { q, filter, sort } = read(c, 25);
  q.done();
  const businessId = c.get("staff").business_id;
  const [result, business] = await Promise.all([listGuestsFiltered(c.env.DB, businessId, filter, sort, { page: 1, limit: CSV_MAX_ROWS }), businessById(c.env.DB, businessId)]);
  // One column per question asked of guests, headed by its title: the guest's answer as text.
  const questions = fieldsFor(business?.config.custom_fields ?? [], "guest");
  const lines = [[...CSV_COLUMNS, ...questions.map((q) => csvField(q.title))].join(",")];
  result.rows.forEach((r) => {
    const p = personOf(r);
    lines.push(
      [r.id, r.booking_id, referenceOf(r.b_reference_year, r.b_reference_number), r.b_status, p.first_name, p.last_name, p.email, p.phone ? `+${p.phone_country_calling_code ?? ""} ${p.phone}` : "", p.gender, p.birth_date,
        p.nationality_code, r.arrives_on, r.departs_on, r.checked_in_at, r.checked_out_at, ...questions.map((q) => answerText(answerOf(p.custom_fields, q.key)))]
        .map(csvField)
        .join(","),
    );
  });
  const name = `guests-${c.get("slug")}-${isoDate(c.get("now"))}.csv`;
  return csvAnswer(c, name, lines, result.total);
}
