/** @jsxImportSource hono/jsx */
/** Today: arrivals, departures, who is in house and the bookings made since yesterday, with counts. One D1 round trip. */
import type { FC } from "hono/jsx";
import { setupProgress } from "../../../db/setup";
import { todayRows, type TodayGuest } from "../../../db/today";
import { may, type Role } from "../../../domain/staff";
import { getSettings } from "../../../manage/settings";
import { addDays } from "../../../lib/time";
import { base, businessToday, fmtDateTime, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { formatMoney } from "../bookings/money";

const nameOf = (g: { first_name: string | null; last_name: string | null; email?: string | null }) =>
  [g.first_name, g.last_name].filter(Boolean).join(" ") || g.email || "—";

const GuestTable: FC<{ c: AdminContext; id: string; rows: TodayGuest[] }> = ({ c, id, rows }) => {
  const t = stringsOf(c);
  if (!rows.length) return <p>{t.none}</p>;
  return (
    <Table
      labelledBy={id}
      head={
        <tr>
          <th scope="col">{t.today.guest}</th>
          <th scope="col">{t.today.booking}</th>
          <th scope="col">{t.today.dates}</th>
          <th scope="col">{t.today.status}</th>
          <th scope="col" class="num">{t.money.owes}</th>
        </tr>
      }
    >
      {rows.map((g) => (
        <tr>
          <td>{nameOf(g)}</td>
          <td>
            <a href={`${base(c)}/bookings/${g.booking_id}`}>{g.reference}</a>
          </td>
          <td>
            {g.arrives_on} – {g.departs_on}
          </td>
          <td>
            {g.checked_out_at
              ? `${t.today.checkedOut} ${fmtDateTime(g.checked_out_at)}`
              : g.checked_in_at
                ? `${t.today.checkedIn} ${fmtDateTime(g.checked_in_at)}`
                : t.today.expected}
          </td>
          <td class="num" data-owes={g.balance_minor > 0 ? "" : undefined}>
            {g.balance_minor > 0 ? formatMoney(g.balance_minor, g.currency) : "—"}
          </td>
        </tr>
      ))}
    </Table>
  );
};

export async function todayPage(c: AdminContext) {
  const t = stringsOf(c);
  const today = businessToday(c);
  const businessId = c.get("staff").business_id;
  const [data, progress, settings] = await Promise.all([todayRows(c.env.DB, businessId, today, `${addDays(today, -1)}T00:00:00`), setupProgress(c.env.DB, businessId), getSettings(c.env.DB, businessId)]);
  // The setup checklist (issue 29), for those who may change the settings: each step ticks itself as the owner goes; gone once all are done.
  const steps = [
    ["settings", t.setup.settings, progress.settings, `${base(c)}/settings`],
    ["product", t.setup.product, progress.pricedProduct, `${base(c)}/catalog`],
    ["website", t.setup.website, settings.widget_origins.length > 0, `${base(c)}/widget`],
    ["booking", t.setup.booking, progress.booking, `${base(c)}/widget`],
  ] as const;
  const cards = [
    ["arrivals", t.today.arrivals, data.arrivals.count],
    ["departures", t.today.departures, data.departures.count],
    ["in-house", t.today.inHouse, data.inHouse.count],
    ["new-bookings", t.today.newBookings, data.newBookings.count],
  ] as const;
  return c.html(
    <Layout c={c} title={`${t.today.title} · ${today}`} current="today">
      <p>
        <a class="button" href={`${base(c)}/bookings/new`} data-new-booking-link>
          {t.newBooking.link}
        </a>
      </p>
      {!may(c.get("staff").role as Role, "settings") || steps.every(([, , done]) => done) ? null : (
        <section aria-labelledby="setup">
          <h2 id="setup">{t.setup.title}</h2>
          <ul class="setup">
            {steps.map(([id, label, done, href]) => (
              <li data-step={id} data-done={done ? "yes" : "no"}>
                {done ? "✓ " : "☐ "}
                <a href={href}>{label}</a>
                {done ? <span class="visually-hidden"> ({t.setup.done})</span> : null}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div class="cards">
        {cards.map(([id, label, count]) => (
          <a class="card" href={`#${id}`} data-count={id}>
            <span class="count">{count}</span> <span class="label">{label}</span>
          </a>
        ))}
      </div>
      <section>
        <h2 id="arrivals">
          {t.today.arrivals} ({data.arrivals.count})
        </h2>
        <GuestTable c={c} id="arrivals" rows={data.arrivals.rows} />
      </section>
      <section>
        <h2 id="departures">
          {t.today.departures} ({data.departures.count})
        </h2>
        <GuestTable c={c} id="departures" rows={data.departures.rows} />
      </section>
      <section>
        <h2 id="in-house">
          {t.today.inHouse} ({data.inHouse.count})
        </h2>
        <GuestTable c={c} id="in-house" rows={data.inHouse.rows} />
      </section>
      <section>
        <h2 id="new-bookings">
          {t.today.newBookings} ({data.newBookings.count})
        </h2>
        {data.newBookings.rows.length ? (
          <Table
            labelledBy="new-bookings"
            head={
              <tr>
                <th scope="col">{t.today.booking}</th>
                <th scope="col">{t.today.booker}</th>
                <th scope="col">{t.today.dates}</th>
                <th scope="col" class="num">
                  {t.today.guests}
                </th>
                <th scope="col">{t.today.createdAt}</th>
              </tr>
            }
          >
            {data.newBookings.rows.map((b) => (
              <tr>
                <td>
                  <a href={`${base(c)}/bookings/${b.id}`}>{b.reference}</a>
                  {b.status === "cancelled" ? <span class="badge cancelled"> {t.booking.cancelled}</span> : null}
                </td>
                <td>{nameOf({ first_name: b.booker_first_name, last_name: b.booker_last_name })}</td>
                <td>
                  {b.start_date} – {b.end_date}
                </td>
                <td class="num">{b.guest_count}</td>
                <td>
                  {fmtDateTime(b.created_at)} · {formatMoney(b.total_minor, b.currency)}
                </td>
              </tr>
            ))}
          </Table>
        ) : (
          <p>{t.none}</p>
        )}
      </section>
    </Layout>,
  );
}
