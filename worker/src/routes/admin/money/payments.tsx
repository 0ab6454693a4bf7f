/** @jsxImportSource hono/jsx */
/**
 * Payments (issue 31): for a period of days in the business's time zone (today by default), the
 * succeeded payments and refunds summed by day, method and currency, every entry of the ledger
 * made in it (with a CSV of them), and the confirmed bookings that still owe money. The sums are
 * domain/payments-report.ts's, over the same entries the list and the CSV show, so the three agree
 * with the ledger to the cent.
 */
import { csvField } from "../../../domain/csv";
import { sumByDay, totalsByCurrency } from "../../../domain/payments-report";
import { isRealDate } from "../../../domain/package-quote";
import { entriesBetween, openBalances, type ReportEntry } from "../../../db/payments-report";
import { ApiError } from "../../../lib/errors";
import { addDays, dateIn, daysBetween } from "../../../lib/time";
import { formatAmount, formatMoney } from "../bookings/money";
import { base, csvAnswer, businessToday, fmtDateTime, Field, FormError, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { FilterReader } from "../kit/query";
import { Table } from "../kit/table";

/** The most entries a page lists and a CSV holds; the sums count them all up to this. */
export const PAYMENTS_MAX_ROWS = 5000;
/** The most entries the page lists (the CSV has them all). */
const PAGE_ROWS = 200;
/** The open balances the page lists. */
const OPEN_ROWS = 200;
const MAX_DAYS = 366;

/** The period of the URL (`from`, `to`: days, both included), today by default; a bad one is a 422 naming the field. */
function period(c: AdminContext): { from: string; to: string } {
  const q = new FilterReader(c);
  const today = businessToday(c);
  const day = (name: "from" | "to") => {
    const v = q.one(name);
    if (v === undefined) return undefined;
    return isRealDate(v) ? v : q.fail(name, "must be a date (YYYY-MM-DD)");
  };
  const from = day("from");
  const to = day("to");
  // one end alone is a period of that day
  const f = from ?? to ?? today;
  const t = to ?? f;
  const s = stringsOf(c);
  if (from !== undefined && to !== undefined) {
    if (t < f) q.fail("to", s.money.beforeFrom);
    else if (daysBetween(f, t) >= MAX_DAYS) q.fail("to", s.money.tooLong);
  }
  q.done();
  return { from: f, to: t };
}

const timeZoneOf = (c: AdminContext) => c.get("staff").time_zone || "UTC";

/** The entries made on the period's days in the business's time zone, each with its day. */
async function entriesOf(c: AdminContext, from: string, to: string) {
  const tz = timeZoneOf(c);
  const dayOf = (iso: string) => {
    try {
      return dateIn(new Date(iso), tz);
    } catch {
      return iso.slice(0, 10);
    }
  };
  // A day in any time zone lies within a day either side of the same UTC date: read that much,
  // then keep the entries whose day, where the business is, falls in the period.
  const read = await entriesBetween(c.env.DB, c.get("staff").business_id, `${addDays(from, -1)}T00:00:00Z`, `${addDays(to, 2)}T00:00:00Z`, PAYMENTS_MAX_ROWS);
  return read.rows.map((r) => ({ ...r, day: dayOf(r.created_at) })).filter((r) => r.day >= from && r.day <= to);
}

const bookerOf = (r: { booker_first_name: string | null; booker_last_name: string | null }) => [r.booker_first_name, r.booker_last_name].filter(Boolean).join(" ") || "—";

export async function paymentsPage(c: AdminContext) {
  const t = stringsOf(c);
  let errors: Record<string, string> = {};
  let range = { from: businessToday(c), to: businessToday(c) };
  try {
    range = period(c);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    errors = Object.fromEntries((err.extra.errors ?? []).map((e) => [e.path, e.message]));
  }
  const v = c.req.query();
  const [rows, open] = await Promise.all([entriesOf(c, range.from, range.to), openBalances(c.env.DB, c.get("staff").business_id, OPEN_ROWS)]);
  const sums = sumByDay(rows);
  const totals = totalsByCurrency(sums);
  const listed: (ReportEntry & { day: string })[] = rows.slice(0, PAGE_ROWS);
  const csv = `${base(c)}/payments.csv?from=${range.from}&to=${range.to}`;
  const methodName = (m: string) => t.payments.methods[m] ?? m;
  return c.html(
    <Layout c={c} title={t.money.title} current="payments">
      <p>{t.money.intro}</p>
      <form class="filters" method="get" action={`${base(c)}/payments`} aria-label={t.money.period}>
        <FormError message={Object.keys(errors).length ? t.fixErrors : undefined} />
        <Field name="from" type="date" label={t.money.from} value={v.from ?? range.from} error={errors.from} />
        <Field name="to" type="date" label={t.money.to} value={v.to ?? range.to} error={errors.to} />
        <button type="submit">{t.apply}</button>
      </form>

      <h2 id="by-day">{t.money.byDay}</h2>
      {sums.length ? (
        <Table
          labelledBy="by-day"
          head={
            <tr>
              <th scope="col">{t.money.day}</th>
              <th scope="col">{t.payments.method}</th>
              <th scope="col" class="num">{t.money.payments}</th>
              <th scope="col" class="num">{t.money.received}</th>
              <th scope="col" class="num">{t.money.refunds}</th>
              <th scope="col" class="num">{t.money.refunded}</th>
              <th scope="col" class="num">{t.money.net}</th>
            </tr>
          }
        >
          {sums.map((s) => (
            <tr data-day={s.day} data-method={s.method}>
              <td>{s.day}</td>
              <td>{methodName(s.method)}</td>
              <td class="num">{s.payments}</td>
              <td class="num">{formatMoney(s.received_minor, s.currency)}</td>
              <td class="num">{s.refunds}</td>
              <td class="num">{formatMoney(s.refunded_minor, s.currency)}</td>
              <td class="num" data-net>{formatMoney(s.net_minor, s.currency)}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.money.nothingTaken}</p>
      )}
      {totals.length ? (
        <dl class="totals" aria-label={t.money.totals}>
          {totals.map((x) => (
            <>
              <dt>
                {t.money.net} ({x.currency})
              </dt>
              <dd data-total-net={x.currency}>
                {formatMoney(x.net_minor, x.currency)} ({t.money.received} {formatMoney(x.received_minor, x.currency)}, {t.money.refunded} {formatMoney(x.refunded_minor, x.currency)})
              </dd>
            </>
          ))}
        </dl>
      ) : null}

      <h2 id="entries">{t.money.entries}</h2>
      <p>
        <a class="button" href={csv} download>
          {t.money.csv}
        </a>
      </p>
      {listed.length ? (
        <Table
          labelledBy="entries"
          head={
            <tr>
              <th scope="col">{t.payments.date}</th>
              <th scope="col">{t.money.booking}</th>
              <th scope="col">{t.money.booker}</th>
              <th scope="col">{t.payments.entry}</th>
              <th scope="col">{t.payments.method}</th>
              <th scope="col" class="num">{t.payments.amount}</th>
              <th scope="col">{t.payments.entryStatus}</th>
              <th scope="col">{t.payments.reference}</th>
              <th scope="col">{t.payments.who}</th>
            </tr>
          }
        >
          {listed.map((r) => (
            <tr data-entry={r.id}>
              <td>{fmtDateTime(r.created_at)}</td>
              <td>
                <a href={`${base(c)}/bookings/${r.booking_id}`}>{r.reference}</a>
              </td>
              <td>{bookerOf(r)}</td>
              <td>{t.payments.types[r.kind] ?? r.kind}</td>
              <td>{methodName(r.method)}</td>
              <td class="num">{r.kind === "refund" ? `−${formatMoney(r.amount_minor, r.currency)}` : formatMoney(r.amount_minor, r.currency)}</td>
              <td>{t.payments.entryStatuses[r.status] ?? r.status}</td>
              <td>{r.provider_reference ?? ""}</td>
              <td>{r.actor_name}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.none}</p>
      )}
      {rows.length > listed.length ? <p>{t.money.shown(listed.length, rows.length)}</p> : null}

      <h2 id="open">{t.money.open}</h2>
      <p>{t.money.openIntro}</p>
      {open.rows.length ? (
        <Table
          labelledBy="open"
          head={
            <tr>
              <th scope="col">{t.money.booking}</th>
              <th scope="col">{t.money.booker}</th>
              <th scope="col">{t.money.starts}</th>
              <th scope="col" class="num">{t.money.total}</th>
              <th scope="col" class="num">{t.money.paid}</th>
              <th scope="col" class="num">{t.money.owes}</th>
            </tr>
          }
        >
          {open.rows.map((b) => (
            <tr data-open={b.id}>
              <td>
                <a href={`${base(c)}/bookings/${b.id}`}>{b.reference}</a>
              </td>
              <td>{bookerOf(b)}</td>
              <td>{b.start_date}</td>
              <td class="num">{formatMoney(b.total_minor, b.currency)}</td>
              <td class="num">{formatMoney(b.net_paid_minor, b.currency)}</td>
              <td class="num" data-owes>{formatMoney(b.balance_minor, b.currency)}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.money.nothingOwed}</p>
      )}
      {open.total > open.rows.length ? <p>{t.money.shown(open.rows.length, open.total)}</p> : null}
    </Layout>,
    Object.keys(errors).length ? 422 : 200,
  );
}

const CSV_COLUMNS = ["entry_id", "created_at", "day", "booking_id", "booking_reference", "booker", "kind", "method", "status", "amount", "currency", "reference", "by"] as const;

/** GET /payments.csv: every entry of the period (at most PAYMENTS_MAX_ROWS), oldest first; a refund's amount is negative. */
export async function paymentsCsv(c: AdminContext) {
  const { from, to } = period(c);
  const rows = await entriesOf(c, from, to);
  const amount = (r: ReportEntry) => formatAmount(r.kind === "refund" ? -r.amount_minor : r.amount_minor, r.currency);
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    lines.push(
      // The amount is a number this code wrote (digits, a point, a minus for a refund), never text
      // from a user, so it is not defused: a spreadsheet must read -20.05 as a number.
      [...[r.id, r.created_at, r.day, r.booking_id, r.reference, bookerOf(r), r.kind, r.method, r.status].map(csvField), amount(r), ...[r.currency, r.provider_reference, r.actor_name].map(csvField)].join(","),
    );
  }
  const name = `payments-${c.get("slug")}-${from}-${to}.csv`;
  return csvAnswer(c, name, lines, rows.length);
}
