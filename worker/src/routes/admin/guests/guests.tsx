/** @jsxImportSource hono/jsx */
/**
 * Guests: the filters of GET /private/guests (read by the same code: guestListQuery), a page of
 * the result, and a CSV of everything the filter matches. Any filter of the API works in the URL;
 * the form offers the ones a front desk uses.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../lib/errors";
import { isoDate } from "../../../lib/time";
import { guestListPage, guestListQuery } from "../../private/guests";
import { QueryReader } from "../../private/query";
import { base, filledQuery, fmtDateTime, Field, FormError, Layout, Pager, Select, stringsOf, type AdminContext } from "../kit/kit";
import { Table } from "../kit/table";

/** The most rows one CSV holds. */
export const CSV_MAX_ROWS = 5000;

const api = (c: AdminContext) => c as unknown as Context<AppEnv>;

function read(c: AdminContext, limitDefault: number) {
  const q = new QueryReader(api(c), filledQuery(c));
  const query = guestListQuery(q);
  const paging = { page: q.intValue("page", 1, 1_000_000, 1), limit: q.intValue("limit", 1, 100, limitDefault) };
  return { q, query, paging };
}

export async function guestsPage(c: AdminContext) {
  const t = stringsOf(c);
  const { q, query, paging } = read(c, 25);
  let errors: Record<string, string> = {};
  let result: Awaited<ReturnType<typeof guestListPage>> = { total: 0, rows: [], guests: [] };
  try {
    q.done();
    result = await guestListPage(api(c), query, paging);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    errors = Object.fromEntries((err.extra.errors ?? []).map((e) => [e.path, e.message]));
  }
  const v = c.req.query();
  const url = new URL(c.req.url);
  url.searchParams.delete("page");
  const csv = `${base(c)}/guests.csv${url.search}`;
  const refs = new Map(result.rows.map((r) => [r.id, `${r.b_reference_year}-${r.b_reference_number}`]));
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
          value={v.booking_status ?? ""}
          error={errors.booking_status}
          options={[
            ["", t.bookings.any],
            ["confirmed", t.bookings.confirmed],
            ["cancelled", t.bookings.cancelled],
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
            <th scope="col">{t.guests.status}</th>
          </tr>
        }
      >
        {result.guests.map((g, i) => {
          const row = result.rows[i];
          return (
            <tr>
              <td>{[g.person.first_name, g.person.last_name].filter(Boolean).join(" ") || "—"}</td>
              <td>{g.person.email ?? ""}</td>
              <td>
                <a href={`${base(c)}/bookings/${row.booking_id}`}>{refs.get(row.id)}</a>
              </td>
              <td>{row.arrives_on}</td>
              <td>{row.departs_on}</td>
              <td>{fmtDateTime(row.checked_in_at)}</td>
            </tr>
          );
        })}
      </Table>
      {result.guests.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={paging.page} limit={paging.limit} total={result.total} />
    </Layout>,
    Object.keys(errors).length ? 422 : 200,
  );
}

const CSV_COLUMNS = [
  "guest_id", "booking_id", "booking_reference", "booking_status", "first_name", "last_name", "email", "phone", "gender", "birth_date",
  "nationality_code", "arrival_date", "departure_date", "checked_in_at", "checked_out_at",
] as const;

/** A CSV field: quoted when it must be; a leading = + - @ is defused so a spreadsheet never runs it as a formula. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** GET /guests.csv: every guest the filter matches (at most CSV_MAX_ROWS), the filter's order. */
export async function guestsCsv(c: AdminContext) {
  const { q, query } = read(c, 25);
  q.done();
  const result = await guestListPage(api(c), query, { page: 1, limit: CSV_MAX_ROWS });
  const lines = [CSV_COLUMNS.join(",")];
  result.guests.forEach((g, i) => {
    const r = result.rows[i];
    const p = g.person;
    lines.push(
      [r.id, r.booking_id, `${r.b_reference_year}-${r.b_reference_number}`, r.b_status, p.first_name, p.last_name, p.email, p.phone ? `+${p.phone_country_calling_code ?? ""} ${p.phone}` : "", p.gender, p.birth_date,
        p.nationality_code, r.arrives_on, r.departs_on, r.checked_in_at, r.checked_out_at]
        .map(csvField)
        .join(","),
    );
  });
  const name = `guests-${c.get("slug")}-${isoDate(c.get("now"))}.csv`;
  return c.body(`\uFEFF${lines.join("\r\n")}\r\n`, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}"`,
    "X-Total-Count": String(result.total),
  });
}
