/** @jsxImportSource hono/jsx */
/**
 * Bookings: a searchable, filtered list (the private API's filters) and a booking's page with its
 * guests (check-in, check-out), booker (the three e-mail flows), lines, notes and cancellation.
 * Every change is the private API's own function in manage/.
 */
import { dateIn } from "../../../lib/time";
import { referenceOf } from "../../../domain/reference";
import type { CustomField } from "../../../contract/config";
import { answerText } from "../../../domain/custom-fields";
import { businessById } from "../../../db/businesses";
import { BookerUpdate, BookingLineMove } from "../../../contract/private";
import { slotState, type Ledger } from "../../../domain/availability";
import { slotsOn, type Product } from "../../../domain/product";
import { ledgerRead, toLedgers, type LedgerRead } from "../../../db/catalog";
import { readTenant } from "../../../db/tenant-read";
import { moveBookingLine } from "../../../manage/booking-moves";
import type { PersonData } from "../../../domain/persons";
import { may, type Role } from "../../../domain/staff";
import { listBookingsFiltered, productTitles, type BookingListFilter } from "../../../db/admin-lists";
import { bookerNames, bookerRow, bookingLines, bookingRow } from "../../../db/bookings";
import { bookingNotes } from "../../../db/booking-notes";
import { guestsOfBooking } from "../../../db/guests";
import { ApiError, notFound } from "../../../lib/errors";
import { addBookingNote, cancelBooking, NOTE_MAX } from "../../../manage/bookings";
import { updateBooker } from "../../../manage/bookers";
import { checkGuest } from "../../../manage/guests";
import { FilterReader, uuidOf } from "../kit/query";
import { bookingTotal, formatMoney, linePrice } from "./money";
import { parseConfig } from "../../../contract/config";
import { storedBookingDues } from "../../../db/booking-dues";
import { cancellationRefund } from "../../../domain/booking-dues";
import { PaymentsSection } from "./payments";
import { ledgerOf } from "../../../db/payments";
import { PaymentCreate, PaymentLinkCreate, RefundCreate } from "../../../contract/payments";
import { recordPayment, recordRefund } from "../../../manage/payments";
import { createPaymentLink } from "../../../manage/stripe";
import { publicOrigin } from "../../../lib/origin";
import { base, businessToday, Csrf, done, Field, flashOf, FormError, Pager, Select, staffActor, langOf, stringsOf, fmtDateTime, tenantContext, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";
import { ID_DIGITS } from "../../../contract/common";

const personName = (p: Partial<PersonData>) => [p.first_name, p.last_name].filter(Boolean).join(" ") || p.email || "—";

/**
 * The list's filters, read from the query: the private API's GET /bookings parameters (status,
 * start_date, end_date, created_at, reference, reference_number, reference_year), and the search.
 */
function readFilter(q: FilterReader): BookingListFilter {
  const filter: BookingListFilter = {
    status: q.enums("status", ["confirmed", "cancelled"] as const),
    start_date: q.range("start_date", "date"),
    end_date: q.range("end_date", "date"),
    created_at: q.range("created_at", "datetime"),
    search: q.string("search", 100),
  };
  const reference = q.reference();
  if (reference.number !== undefined) filter.reference_number = reference.number;
  if (reference.year !== undefined) filter.reference_year = reference.year;
  return filter;
}

export async function bookingsPage(c: AdminContext) {
  const t = stringsOf(c);
  const businessId = c.get("staff").business_id;
  const q = new FilterReader(c);
  const filter = readFilter(q);
  const search = filter.search;
  const paging = { page: q.intValue("page", 1, 1_000_000, 1), limit: 25 };
  q.done();
  const { rows, total } = await listBookingsFiltered(c.env.DB, businessId, filter, paging);
  const bookers = await bookerNames(c.env.DB, businessId, rows.map((r) => r.id));
  const query = c.req.query();
  return c.html(
    <Layout c={c} title={t.bookings.title} current="bookings">
      <p>
        <a class="button" href={`${base(c)}/bookings/new`} data-new-booking-link>
          {t.newBooking.link}
        </a>
      </p>
      <form class="filters" method="get" action={`${base(c)}/bookings`} role="search">
        <Field name="search" type="search" label={t.bookings.search} value={search ?? ""} />
        <Select
          name="status"
          label={t.bookings.status}
          value={query.status ?? ""}
          options={[
            ["", t.bookings.any],
            ["confirmed", t.bookings.confirmed],
            ["cancelled", t.bookings.cancelled],
          ]}
        />
        <Field name="start_date" label={`${t.bookings.starts} (YYYY-MM-DD..YYYY-MM-DD)`} value={query.start_date ?? ""} placeholder="2026-07-01..2026-07-31" />
        <button type="submit">{t.apply}</button>
        <a href={`${base(c)}/bookings`}>{t.reset}</a>
      </form>
      <Table
        label={t.bookings.title}
        head={
          <tr>
            <th scope="col">{t.bookings.reference}</th>
            <th scope="col">{t.bookings.booker}</th>
            <th scope="col">{t.bookings.dates}</th>
            <th scope="col">{t.bookings.status}</th>
            <th scope="col" class="num">
              {t.bookings.total}
            </th>
            <th scope="col">{t.bookings.made}</th>
          </tr>
        }
      >
        {rows.map((b) => (
          <tr>
            <td>
              <a href={`${base(c)}/bookings/${b.id}`}>{referenceOf(b.reference_year, b.reference_number)}</a>
            </td>
            <td>{bookers.get(b.id) || "—"}</td>
            <td>
              {b.start_date} – {b.end_date}
            </td>
            <td>
              <span class={`badge ${b.status}`}>{b.status === "cancelled" ? t.booking.cancelled : t.booking.confirmed}</span>
            </td>
            <td class="num">{bookingTotal(b)}</td>
            <td>{fmtDateTime(b.created_at)}</td>
          </tr>
        ))}
      </Table>
      {rows.length ? null : <p>{t.none}</p>}
      <Pager c={c} page={paging.page} limit={paging.limit} total={total} />
    </Layout>,
  );
}

/**
 * A person's answers to the business's questions: each under its question's title (a key no
 * longer asked under the key itself); nothing when there are none.
 */
function Answers(props: { answers: Record<string, unknown> | undefined; questions: readonly CustomField[]; yesNo: { yes: string; no: string } }) {
  const entries = Object.entries(props.answers ?? {}).filter(([, v]) => answerText(v) !== "");
  if (!entries.length) return null;
  return (
    <dl class="facts" data-answers>
      {entries.map(([key, v]) => (
        <>
          <dt>{props.questions.find((q) => q.key === key)?.title ?? key}</dt>
          <dd>{answerText(v, props.yesNo)}</dd>
        </>
      ))}
    </dl>
  );
}

interface BookerForm {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

/** A refused move, shown at the form of its line's date-time (`key`: "lineId|from"). */
interface MoveForm extends BookerForm {
  key: string;
}

const TIMED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const realDay = (d: string) => DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

/** One date-time of a line of a product on timeslots: what the move form of the booking's page moves. */
interface Movable {
  key: string;
  lineId: number;
  qty: number;
  guestId: string | null;
  product: Product;
  from: string;
  /** The day whose slots the form offers (the query's move_date for this form, else the from day). */
  day: string;
}

/**
 * The booking's movable date-times, and the live ledger of their products over the days their
 * forms show (one round trip with the catalog snapshot's guard); none when no line is on timeslots.
 */
async function movablesOf(c: AdminContext, lines: { id: number; product_id: number; dates: string; qty: number; guest_id: string | null }[], posted?: MoveForm) {
  const timed = lines.flatMap((l) => {
    let dates: unknown = [];
    try {
      dates = JSON.parse(l.dates);
    } catch {
      dates = [];
    }
    return (Array.isArray(dates) ? dates : []).filter((d): d is string => typeof d === "string" && TIMED.test(d)).map((from) => ({ l, from }));
  });
  if (!timed.length) return { movables: [] as Movable[], ledgers: new Map<number, Ledger>() };
  // the day a form shows: the one its "show times" asked for, or the one a refused move was sent for
  const askedKey = posted?.key ?? `${c.req.query("move_line") ?? ""}|${c.req.query("move_from") ?? ""}`;
  const askedDay = posted ? (posted.values?.date ?? "") : (c.req.query("move_date") ?? "");
  let read: LedgerRead | undefined;
  let movables: Movable[] = [];
  const businessId = c.get("staff").business_id;
  const { results } = await readTenant(tenantContext(c), (snap) => {
    movables = timed.flatMap(({ l, from }) => {
      const product = snap.products.get(l.product_id);
      if (!product?.is_on_timeslots) return [];
      const key = `${l.id}|${from}`;
      return [{ key, lineId: l.id, qty: l.qty, guestId: l.guest_id, product, from, day: key === askedKey && realDay(askedDay) ? askedDay : from.slice(0, 10) }];
    });
    if (!movables.length) return [];
    const days = movables.map((m) => m.day).sort();
    read = ledgerRead(c.env.DB, businessId, movables.map((m) => m.product.id), days[0], days[days.length - 1], c.get("now"));
    return [read.statement];
  });
  const ledgers = read ? toLedgers([...new Set(movables.map((m) => m.product.id))], read.text(results[0]), businessToday(c)) : new Map<number, Ledger>();
  return { movables, ledgers };
}

async function renderBooking(
  c: AdminContext,
  bookingId: string,
  state: { booker?: BookerForm; note?: BookerForm; move?: MoveForm; payment?: BookerForm; refund?: BookerForm; link?: BookerForm } = {},
  status: 200 | 422 | 409 | 502 | 503 = 200,
) {
  const t = stringsOf(c);
  const db = c.env.DB;
  const businessId = c.get("staff").business_id;
  const [booking, booker, guests, lines, notes, titles, business, ledger] = await Promise.all([
    bookingRow(db, businessId, bookingId),
    bookerRow(db, businessId, bookingId),
    guestsOfBooking(db, businessId, bookingId),
    bookingLines(db, businessId, bookingId),
    bookingNotes(db, businessId, bookingId),
    productTitles(db, businessId),
    businessById(db, businessId),
    ledgerOf(db, businessId, bookingId),
  ]);
  if (!booking) throw notFound("The booking");
  const questions = business?.config.custom_fields ?? [];
  // check-in opens on the guest's arrival day, in the business's time zone (manage/guests.ts checkGuest)
  const today = dateIn(c.get("now"), business?.config.time_zone ?? "UTC");
  const yesNo = { yes: t.booking.yes, no: t.booking.no };
  // the payment policy: the booking's dues, and what its cancellation terms suggest refunding (issue 31)
  const config = business?.config ?? parseConfig(null);
  const dues = await storedBookingDues(db, businessId, config, booking, lines);
  const suggested = booking.status === "cancelled" ? cancellationRefund(config.payment_policy, booking, booking.cancelled_at ?? booking.updated_at, ledger, config.time_zone) : null;
  const wouldSuggest = booking.status === "confirmed" ? cancellationRefund(config.payment_policy, booking, c.get("now"), ledger, config.time_zone) : null;
  const { movables, ledgers } = booking.status === "confirmed" ? await movablesOf(c, lines, state.move) : { movables: [] as Movable[], ledgers: new Map<number, Ledger>() };
  const guestNames = new Map(guests.map((g) => [g.id, personName(JSON.parse(g.person_snapshot) as Partial<PersonData>)]));
  const ref = referenceOf(booking.reference_year, booking.reference_number);
  const root = `${base(c)}/bookings/${bookingId}`;
  const mayCheck = may(c.get("staff").role as Role, "check_in");
  const bookerPerson = booker ? (JSON.parse(booker.person_snapshot) as Partial<PersonData>) : {};
  const bv = state.booker?.values ?? {};
  const flash = flashOf(c, {
    cancelled: t.booking.cancelDone,
    in: t.booking.checkedInDone,
    out: t.booking.checkedOutDone,
    note: t.booking.noteAdded,
    moved: t.move.done,
    paid: t.payments.recorded,
    refunded: t.payments.refundDone,
    linked: t.payments.linkDone,
    booked: t.newBooking.booked,
    "booked-paid": t.newBooking.bookedPaid,
    "booked-linked": t.newBooking.bookedLinked,
    "booked-payment-failed": t.newBooking.bookedPaymentFailed,
    ...Object.fromEntries(Object.entries(t.booking.bookerSaved).map(([k, v]) => [`booker-${k}`, v])),
  });
  return c.html(
    <Layout c={c} title={t.booking.title(ref)} current="bookings" flash={flash}>
      <p>
        <a href={`${base(c)}/bookings`}>{t.booking.back}</a>
      </p>
      <dl class="facts">
        <dt>{t.booking.status}</dt>
        <dd>
          <span class={`badge ${booking.status}`}>{booking.status === "cancelled" ? t.booking.cancelled : t.booking.confirmed}</span>
          {booking.cancelled_at ? ` ${fmtDateTime(booking.cancelled_at)}` : ""}
        </dd>
        <dt>{t.booking.dates}</dt>
        <dd>
          {booking.start_date} – {booking.end_date}
        </dd>
        <dt>{t.booking.total}</dt>
        <dd>{bookingTotal(booking)}</dd>
        <dt>{t.booking.made}</dt>
        <dd>{fmtDateTime(booking.created_at)}</dd>
      </dl>

      <section>
        <h2 id="guests-heading">{t.booking.guests}</h2>
        <Table
          labelledBy="guests-heading"
          head={
            <tr>
              <th scope="col">{t.booking.name}</th>
              {/* The status, with Check in / Check out, next to the name: on a phone both are on screen without scrolling sideways. */}
              <th scope="col">{t.today.status}</th>
              <th scope="col">{t.booking.stay}</th>
              <th scope="col">{t.booking.email}</th>
              <th scope="col">{t.booking.answers}</th>
            </tr>
          }
        >
          {guests.map((g) => {
            const p = JSON.parse(g.person_snapshot) as Partial<PersonData>;
            const name = personName(p);
            return (
              <tr data-guest={g.id}>
                <td>{name}</td>
                <td>
                  {g.checked_in_at ? <div>{t.booking.checkedIn(fmtDateTime(g.checked_in_at))}</div> : null}
                  {g.checked_out_at ? <div>{t.booking.checkedOut(fmtDateTime(g.checked_out_at))}</div> : null}
                  {mayCheck && booking.status === "confirmed" && !g.checked_in_at && g.arrives_on && g.arrives_on > today ? (
                    <div class="hint">{t.booking.checkInOpens(g.arrives_on)}</div>
                  ) : mayCheck && booking.status === "confirmed" && !g.checked_in_at ? (
                    <form class="inline" method="post" action={`${root}/guests/${g.id}/check-in`}>
                      <Csrf c={c} />
                      <button type="submit" aria-label={`${t.booking.checkIn}: ${name}`}>
                        {t.booking.checkIn}
                      </button>
                    </form>
                  ) : null}
                  {mayCheck && g.checked_in_at && !g.checked_out_at ? (
                    <form class="inline" method="post" action={`${root}/guests/${g.id}/check-out`}>
                      <Csrf c={c} />
                      <button type="submit" class="secondary" aria-label={`${t.booking.checkOut}: ${name}`}>
                        {t.booking.checkOut}
                      </button>
                    </form>
                  ) : null}
                </td>
                <td>
                  {g.arrives_on} – {g.departs_on}
                </td>
                <td>{p.email ?? ""}</td>
                <td>
                  <Answers answers={p.custom_fields} questions={questions} yesNo={yesNo} />
                </td>
              </tr>
            );
          })}
        </Table>
      </section>

      {booker ? (
        <section>
          <h2 id="booker-heading">{t.booking.booker}</h2>
          <p>
            {personName(bookerPerson)} · {bookerPerson.email ?? ""}
          </p>
          <Answers answers={bookerPerson.custom_fields} questions={questions} yesNo={yesNo} />
          <details open={state.booker ? true : undefined}>
            <summary>{t.booking.saveBooker}</summary>
            <p class="hint" id="booker-help">
              {t.booking.bookerHelp}
            </p>
            <form class="stack" method="post" action={`${root}/booker`} aria-describedby="booker-help">
              <Csrf c={c} />
              <FormError message={state.booker?.message} />
              <Field name="first_name" label={t.booking.firstName} value={bv.first_name ?? bookerPerson.first_name ?? ""} error={state.booker?.errors?.first_name} autocomplete="off" />
              <Field name="last_name" label={t.booking.lastName} value={bv.last_name ?? bookerPerson.last_name ?? ""} error={state.booker?.errors?.last_name} autocomplete="off" />
              <Field name="email" type="email" label={t.booking.email} value={bv.email ?? bookerPerson.email ?? ""} error={state.booker?.errors?.email} autocomplete="off" />
              <Field name="phone" type="tel" label={t.booking.phone} value={bv.phone ?? bookerPerson.phone ?? ""} error={state.booker?.errors?.phone} autocomplete="off" />
              <div class="check">
                <input type="checkbox" id="f-create_new" name="create_new" value="true" checked={bv.create_new === "true"} />
                <label for="f-create_new">{t.booking.createNew}</label>
              </div>
              <button type="submit">{t.booking.saveBooker}</button>
            </form>
          </details>
        </section>
      ) : null}

      <section>
        <h2 id="lines-heading">{t.booking.lines}</h2>
        <Table
          labelledBy="lines-heading"
          head={
            <tr>
              <th scope="col">{t.booking.product}</th>
              <th scope="col">{t.booking.dates}</th>
              <th scope="col" class="num">
                {t.booking.qty}
              </th>
              <th scope="col" class="num">
                {t.booking.price}
              </th>
            </tr>
          }
        >
          {lines.map((l) => {
            let dates: string[] = [];
            try {
              dates = JSON.parse(l.dates);
            } catch {
              dates = [];
            }
            return (
              <tr>
                <td>{titles.get(l.product_id) ?? `#${l.product_id}`}</td>
                <td>{dates.length ? `${dates[0]}${dates.length > 1 ? ` – ${dates[dates.length - 1]}` : ""}` : ""}</td>
                <td class="num">{l.qty}</td>
                <td class="num">{linePrice(l, booking.currency)}</td>
              </tr>
            );
          })}
        </Table>
      </section>

      <PaymentsSection
        c={c}
        booking={booking}
        ledger={ledger}
        root={root}
        mayRefund={may(c.get("staff").role as Role, "refunds")}
        payment={state.payment}
        refund={state.refund}
        link={state.link}
        dues={dues}
        suggested={suggested}
      />

      {movables.length ? (
        <section>
          <h2 id="move-heading">{t.move.title}</h2>
          <p class="hint" id="move-help">
            {t.move.help}
          </p>
          {movables.map((m, i) => {
            const failed = state.move?.key === m.key ? state.move : undefined;
            const id = `move-${i}`;
            const ledger = ledgers.get(m.product.id);
            const options = slotsOn(m.product, m.day)
              .filter((time) => `${m.day} ${time}:00` !== m.from)
              .flatMap((time): [string, string][] => {
                const s = ledger ? slotState(m.product, ledger, m.day, time) : undefined;
                if (!s || s.blocked || (s.available !== null && s.available < m.qty)) return [];
                return [[time, t.move.left(time, s.available === null ? t.move.unlimited : String(s.available))]];
              });
            const who = m.guestId ? guestNames.get(m.guestId) : undefined;
            return (
              <div class="move" id={id} data-move={m.key} role="group" aria-labelledby={`${id}-title`}>
                <h3 id={`${id}-title`}>
                  {[who, m.product.title, m.from.slice(0, 16)].filter(Boolean).join(" · ")}
                </h3>
                <FormError message={failed?.message} />
                <form class="row" method="get" action={`${root}#${id}`}>
                  <input type="hidden" name="move_line" value={String(m.lineId)} />
                  <input type="hidden" name="move_from" value={m.from} />
                  <Field id={`${id}-date`} name="move_date" type="date" label={t.move.date} value={m.day} error={failed?.errors?.date} />
                  <button type="submit" class="secondary">
                    {t.move.pick}
                  </button>
                </form>
                <form class="row" method="post" action={`${root}/move`} aria-describedby="move-help">
                  <Csrf c={c} />
                  <input type="hidden" name="line_id" value={String(m.lineId)} />
                  <input type="hidden" name="from" value={m.from} />
                  <input type="hidden" name="date" value={m.day} />
                  {options.length ? (
                    <Select id={`${id}-time`} name="time" label={`${t.move.time} (${m.day})`} value={failed?.values?.time} options={options} error={failed?.errors?.time ?? failed?.errors?.from ?? failed?.errors?.line_id} />
                  ) : (
                    <p>
                      {t.move.slotsOf(m.day)} {t.move.noneLeft}
                      {failed?.errors?.time ? <small class="error"> {failed.errors.time}</small> : null}
                    </p>
                  )}
                  {options.length ? <button type="submit">{t.move.submit}</button> : null}
                </form>
              </div>
            );
          })}
        </section>
      ) : null}

      <section>
        <h2 id="notes-heading">{t.booking.notes}</h2>
        {notes.length ? (
          <ul>
            {notes.map((n) => (
              <li>
                <strong>{n.author}</strong> · {fmtDateTime(n.created_at)}: {n.body}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t.none}</p>
        )}
        <form class="stack" method="post" action={`${root}/notes`}>
          <Csrf c={c} />
          <FormError message={state.note?.message} />
          <label for="f-note">{t.booking.note}</label>
          <textarea id="f-note" name="note" maxlength={NOTE_MAX} required aria-invalid={state.note?.errors?.note ? "true" : undefined}>
            {state.note?.values?.note ?? ""}
          </textarea>
          <button type="submit">{t.booking.addNote}</button>
        </form>
      </section>

      {booking.status === "confirmed" ? (
        <section>
          <h2 id="cancel-heading">{t.booking.cancel}</h2>
          {wouldSuggest ? (
            <p class="hint" data-would-refund={formatMoney(wouldSuggest.amount_minor, booking.currency)}>
              {t.policy.suggestedNow(formatMoney(wouldSuggest.amount_minor, booking.currency), wouldSuggest.percent, wouldSuggest.on)}
            </p>
          ) : null}
          <form class="stack" method="post" action={`${root}/cancel`}>
            <Csrf c={c} />
            <div class="check">
              <input type="checkbox" id="f-confirm-cancel" name="confirm" value="yes" required />
              <label for="f-confirm-cancel">{t.booking.cancelConfirm}</label>
            </div>
            <button type="submit" class="danger">
              {t.booking.cancel}
            </button>
          </form>
        </section>
      ) : null}
    </Layout>,
    status,
  );
}

const bookingIdOf = (c: AdminContext) => uuidOf(c, "id", "booking_id");

export const bookingPage = (c: AdminContext) => renderBooking(c, bookingIdOf(c));

export async function bookingCancel(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  if (form.confirm !== "yes") throw new ApiError(422, "validation_failed", stringsOf(c).booking.cancelConfirm);
  await cancelBooking(c.env, staffActor(c), c.get("staff").business_id, id, c.get("now"));
  return done(c, `${base(c)}/bookings/${id}`, "cancelled");
}

export async function guestCheck(c: AdminContext, what: "in" | "out") {
  const id = bookingIdOf(c);
  const guestId = uuidOf(c, "guest", "guest_id");
  await checkGuest(c.env, staffActor(c), c.get("staff").business_id, id, guestId, what, c.get("now"));
  return done(c, `${base(c)}/bookings/${id}`, what);
}

export async function bookerSave(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  const body: Record<string, unknown> = {};
  for (const k of ["first_name", "last_name", "email", "phone"] as const) {
    const v = (form[k] ?? "").trim();
    if (v) body[k] = v;
  }
  if (form.create_new === "true") body.create_new = true;
  try {
    // The same shape check as PUT /private/bookings/{id}/booker.
    const parsed = BookerUpdate.safeParse(body);
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new ApiError(422, "validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
    }
    const flow = await updateBooker(c.env, staffActor(c), c.get("staff").business_id, id, parsed.data, c.get("now"));
    return done(c, `${base(c)}/bookings/${id}`, `booker-${flow}`);
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderBooking(c, id, { booker: { values: form, errors: failed.fields, message: failed.message } }, err instanceof ApiError && err.status === 409 ? 409 : 422);
  }
}

export async function noteAdd(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  try {
    await addBookingNote(c.env.DB, staffActor(c), c.get("staff").business_id, id, form.note ?? "", c.get("now"));
    return done(c, `${base(c)}/bookings/${id}`, "note");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderBooking(c, id, { note: { values: form, errors: failed.fields, message: failed.message } }, 422);
  }
}

/**
 * POST /bookings/:id/move: one date-time of a line of a product on timeslots to another slot or
 * day with places left, through manage/booking-moves.ts (the capacity trigger decides; the price
 * is kept). A refusal is shown at that line's form, nothing changed.
 */
export async function lineMove(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  const key = `${form.line_id ?? ""}|${form.from ?? ""}`;
  try {
    const parsed = BookingLineMove.safeParse({ line_id: ID_DIGITS.test(form.line_id ?? "") ? Number(form.line_id) : form.line_id, from: form.from ?? "", date: form.date ?? "", time: form.time ?? "" });
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new ApiError(422, "validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
    }
    await moveBookingLine(c.env, staffActor(c), c.get("staff").business_id, id, parsed.data, c.get("now"));
    return done(c, `${base(c)}/bookings/${id}`, "moved");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderBooking(c, id, { move: { key, values: form, errors: failed.fields, message: failed.message } }, failed.status);
  }
}

/** A form's amount as the API's number (a decimal comma taken as a point); "" stays a string, which the schema refuses by name. */
const formAmount = (v: string | undefined) => {
  const text = (v ?? "").trim().replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
};

/** The schema's refusal as the API's 422, naming each field. */
function parsed<T>(result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }): T {
  if (result.success) return result.data;
  const errors = result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  throw new ApiError(422, "validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
}

/** POST /bookings/:id/payments: a manual payment recorded (front desk and up), through manage/payments.ts as the private API's. */
export async function paymentAdd(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  try {
    const booking = await bookingRow(c.env.DB, c.get("staff").business_id, id);
    if (!booking) throw notFound("The booking");
    const body = parsed(PaymentCreate.safeParse({ amount: formAmount(form.amount), currency: booking.currency, method: form.method, reference: form.reference || null }));
    await recordPayment(c.env, staffActor(c), c.get("staff").business_id, id, body, c.get("now"));
    return done(c, `${base(c)}/bookings/${id}`, "paid");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return renderBooking(c, id, { payment: { values: form, errors: failed.fields, message: failed.message } }, failed.status);
  }
}

/** POST /bookings/:id/refunds: a refund recorded (managers and owners: the route's permission). */
export async function refundAdd(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  try {
    const booking = await bookingRow(c.env.DB, c.get("staff").business_id, id);
    if (!booking) throw notFound("The booking");
    const body = parsed(RefundCreate.safeParse({ amount: formAmount(form.amount), currency: booking.currency, payment_id: form.payment_id || undefined, reason: form.reason || null }));
    await recordRefund(c.env, staffActor(c), c.get("staff").business_id, id, body, c.get("now"));
    return done(c, `${base(c)}/bookings/${id}`, "refunded");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) }) ?? stripeFailed(err);
    if (!failed) throw err;
    return renderBooking(c, id, { refund: { values: form, errors: failed.fields, message: failed.message } }, failed.status);
  }
}

/** Stripe down or failing (502/503): said on the form, as a refusal is. */
function stripeFailed(err: unknown): { status: 502 | 503; fields: Record<string, string>; message: string } | null {
  if (err instanceof ApiError && (err.status === 502 || err.status === 503)) return { status: err.status, fields: {}, message: err.message };
  return null;
}

/** POST /bookings/:id/payment-links: a Stripe payment link for the balance or an amount (front desk and up), through manage/stripe.ts as the private API's. */
export async function linkAdd(c: AdminContext) {
  const id = bookingIdOf(c);
  const form = (await readForm(c)).values();
  try {
    const amount = (form.amount ?? "").trim();
    const body = parsed(PaymentLinkCreate.safeParse({ amount: amount ? formAmount(amount) : undefined, send_email: form.send_email === "1" }));
    await createPaymentLink(c.env, staffActor(c), c.get("staff").business_id, id, body, c.get("now"), publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url), c.req.param("business") ?? "");
    return done(c, `${base(c)}/bookings/${id}`, "linked");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) }) ?? stripeFailed(err);
    if (!failed) throw err;
    return renderBooking(c, id, { link: { values: form, errors: failed.fields, message: failed.message } }, failed.status);
  }
}
