/** @jsxImportSource hono/jsx */
/**
 * New booking (issue 31): a phone or walk-in booking made by the front desk, for any shape the
 * business sells (a package with or without a room, an activity on timeslots, a course, a rental,
 * a room). The screen is two plain forms: what is booked (a GET: product, start, nights or days,
 * guests), then the guests, the booker and the payment (a POST). The POST goes through the very
 * cart operations the widget's requests run (carts/operations.ts addToCart, carts/checkout.ts
 * checkoutCart), as the staff user's own client (`staff:<user id>`: no widget visitor's bounds),
 * so places, prices, the guests' details, custom questions and party rules are decided exactly as
 * for a guest; a refusal (422, 409 sold out) is shown at its field and nothing is booked. Then the
 * booking's audit entry names the staff user and the channel, and a payment is recorded
 * (manage/payments.ts) or a payment link sent (manage/stripe.ts), as on a booking's page.
 */
import type { FC } from "hono/jsx";
import { AddToCartBody, CheckoutBody } from "../../../contract/cart";
import type { CustomField } from "../../../contract/config";
import { MAX_ID } from "../../../contract/common";
import { MANUAL_METHODS, PaymentCreate, PaymentLinkCreate } from "../../../contract/payments";
import { abandonCart, addToCart } from "../../../carts/operations";
import { checkoutCart } from "../../../carts/checkout";
import type { CartCall } from "../../../carts/run";
import { ledgerRead, toLedgers, type LedgerRead } from "../../../db/catalog";
import { listPersonsStatements, personListFrom, personWithDerived, type PersonWithDerived } from "../../../db/persons";
import { readTenant, requestSender } from "../../../db/tenant-read";
import { slotState } from "../../../domain/availability";
import { isListed, sellableStructure, type CatalogSnapshot } from "../../../domain/catalog";
import { fieldsFor } from "../../../domain/custom-fields";
import { customerErrors, guestErrors } from "../../../domain/cart-people";
import { CALLING_CODES } from "../../../contract/calling-codes";
import { currencyOfCart, minorDigits } from "../../../domain/money";
import { quotePackages } from "../../../domain/package-quote";
import { totalsOf } from "../../../domain/totals";
import { exactMinor } from "../../../domain/payments";
import { isSession, slotsOn, type Product } from "../../../domain/product";
import { ApiError, type FieldError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { addDays, dateIn, isoDateTime } from "../../../lib/time";
import { waitUntil } from "../../../lib/wait-until";
import { publicOrigin } from "../../../lib/origin";
import { DESK_CHANNELS, recordDeskBooking, type DeskChannel } from "../../../manage/bookings";
import { recordPayment } from "../../../manage/payments";
import { createPaymentLink, stripeSettings } from "../../../manage/stripe";
import { failureOf, readForm } from "../kit/form";
import { base, businessToday, Check, Csrf, done, Field, fid, FormError, langOf, Select, staffActor, stringsOf, tenantContext, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { formatMoney } from "./money";

type Values = Record<string, string>;
type Pay = "none" | "deposit" | "full" | "link";
const PAYS: readonly Pay[] = ["none", "deposit", "full", "link"];
const COUNTRY_CODES = Object.keys(CALLING_CODES);

/** What is booked, read from the first form (the query, or the POST's hidden copies). */
interface Chosen {
  product: Product;
  structure: NonNullable<ReturnType<typeof sellableStructure>>;
  start: string;
  days: number;
  guests: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const realDay = (d: string) => DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;
const intIn = (v: string | undefined, min: number, max: number): number | null => (/^\d{1,4}$/.test((v ?? "").trim()) && Number(v) >= min && Number(v) <= max ? Number(v) : null);

/** Every product the business sells as a package: its packages, and what it lists on its own (domain/catalog.ts sellableStructure). */
function sellables(snap: CatalogSnapshot): Product[] {
  return [...snap.products.values()].filter((p) => (p.type === "package" || isListed(p)) && sellableStructure(snap, p.id) !== null);
}

/** The pick, or the first form's errors (by field). */
function pickOf(snap: CatalogSnapshot, v: Values, t: ReturnType<typeof stringsOf>): { pick?: Chosen; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!v.product) return { errors };
  const id = /^\d{1,16}$/.test(v.product) && Number(v.product) <= MAX_ID ? Number(v.product) : null;
  const product = id === null ? undefined : snap.products.get(id);
  const structure = product ? sellableStructure(snap, product.id) : null;
  if (!product || !structure) errors.product = t.newBooking.notSold;
  if (!realDay(v.start_date ?? "")) errors.start_date = "YYYY-MM-DD";
  const guests = intIn(v.guests, 1, 50);
  if (guests === null) errors.guests = "1–50";
  const days = product && isSession(product) ? 1 : intIn(v.days, 1, 366);
  if (days === null) errors.days = "1–366";
  if (Object.keys(errors).length || !product || !structure || guests === null || days === null) return { errors };
  return { pick: { product, structure, start: v.start_date, days, guests }, errors };
}

/** Where an error of the cart's, the checkout's or the payment's paths is shown on this screen. */
function place(path: string): string | undefined {
  const m = /^guests\.\d+\.package(?:\.(\w+))?/.exec(path);
  if (m) {
    switch (m[1]) {
      case "start_date":
        return "start_date";
      case "end_date":
        return "days";
      case "accommodation_id":
      case "srs":
        return "accommodation_id";
      case "items":
        return "time";
      case "id":
        return "product";
      default:
        return "start_date";
    }
  }
  if (path === "currency" || path === "booking_id") return "amount";
  return path;
}

/** The staff user's cart call: the request's clock, sender and after-work; the staff user's own client (never a widget visitor's). */
function deskCall(c: AdminContext, snap: CatalogSnapshot): CartCall {
  const tc = tenantContext(c);
  return {
    businessId: snap.businessId,
    clientId: `staff:${c.get("staff").staff_id}`,
    cartId: newId(c.get("now").getTime()),
    now: c.get("now"),
    catalogVersion: snap.version,
    requestId: c.get("requestId"),
    send: requestSender(tc),
    after: (work) => waitUntil(c, work),
  };
}

/** The schema's refusal as a 422 naming each field. */
function zodErrors(result: { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }, prefix = ""): FieldError[] {
  return result.success ? [] : result.error.issues.map((i) => ({ path: prefix + i.path.map(String).join("."), message: i.message }));
}

/** An amount with more decimals than its currency has, refused as manage/payments.ts refuses it, before anything is booked. */
function decimals(parsed: { success: boolean; data?: { amount?: number } }, currency: string): FieldError[] {
  const amount = parsed.success ? parsed.data?.amount : undefined;
  if (amount === undefined || exactMinor(amount, minorDigits(currency)) !== null) return [];
  return [{ path: "amount", message: `must have at most ${minorDigits(currency)} decimals in ${currency}` }];
}

const amountOf = (v: string | undefined) => {
  const text = (v ?? "").trim().replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
};

/** A custom question's answer as its type takes it ("" is no answer). */
function answer(f: CustomField, raw: string | undefined): string | number | boolean | undefined {
  const v = (raw ?? "").trim();
  if (v === "") return undefined;
  if (f.type === "number") return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  if (f.type === "boolean") return v === "true" ? true : v === "false" ? false : v;
  return v;
}

function answers(fields: readonly CustomField[], v: Values, prefix: string) {
  const out: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    const a = answer(f, v[`${prefix}.custom_fields.${f.key}`]);
    if (a !== undefined) out[f.key] = a;
  }
  return Object.keys(out).length ? out : undefined;
}

const opt = (v: string | undefined) => {
  const s = (v ?? "").trim();
  return s === "" ? undefined : s;
};
const optId = (v: string | undefined) => (/^\d{1,16}$/.test((v ?? "").trim()) ? Number(v) : opt(v));

/** The add-to-cart body of the form: one guest per row, each with the package as picked. */
function cartBody(snap: CatalogSnapshot, pick: Chosen, v: Values): unknown {
  const { product, structure } = pick;
  const currency = snap.currencies.find((c) => c.is_default)?.iso_code ?? snap.currencies[0]?.iso_code ?? "EUR";
  const guestFields = fieldsFor(snap.business.config.custom_fields, "guest");
  const needsRoom = structure.accommodationIds.length > 0;
  const timed = structure.standalone && product.is_on_timeslots && structure.items.length === 1;
  const guests = Array.from({ length: pick.guests }, (_, i) => {
    const p = `guests.${i}`;
    const pkg: Record<string, unknown> = { id: product.id, start_date: pick.start, end_date: addDays(pick.start, pick.days) };
    if (needsRoom && !structure.standalone) pkg.accommodation_id = optId(v.accommodation_id);
    if (timed) pkg.items = [{ package_item_id: structure.items[0].id, dates: [v.time ? `${pick.start} ${v.time}:00` : pick.start] }];
    const g: Record<string, unknown> = { first_name: v[`${p}.first_name`] ?? "", last_name: v[`${p}.last_name`] ?? "", package: pkg };
    for (const k of ["email", "gender", "birth_date"] as const) if (opt(v[`${p}.${k}`]) !== undefined) g[k] = opt(v[`${p}.${k}`]);
    for (const k of ["diet_id", "level_id"] as const) if (opt(v[`${p}.${k}`]) !== undefined) g[k] = optId(v[`${p}.${k}`]);
    const custom = answers(guestFields, v, p);
    if (custom) g.custom_fields = custom;
    return g;
  });
  return { currency, guests };
}

/** The checkout body of the form: the booker, and that they accepted the terms. */
function checkoutBody(snap: CatalogSnapshot, v: Values): unknown {
  const customer: Record<string, unknown> = { first_name: v["customer.first_name"] ?? "", last_name: v["customer.last_name"] ?? "", email: v["customer.email"] ?? "" };
  for (const k of ["phone", "address_line_1", "city", "zipcode", "country"] as const) if (opt(v[`customer.${k}`]) !== undefined) customer[k] = opt(v[`customer.${k}`]);
  if (opt(v["customer.phone_countrycode"]) !== undefined) customer.phone_countrycode = (v["customer.phone_countrycode"] ?? "").trim().replace(/^\+/, "");
  const custom = answers(fieldsFor(snap.business.config.custom_fields, "customer"), v, "customer");
  if (custom) customer.custom_fields = custom;
  return { terms_accepted: v.terms_accepted === "true" ? true : false, customer };
}

interface State {
  values: Values;
  errors?: Record<string, string>;
  message?: string;
  status?: 200 | 409 | 422 | 502 | 503;
  /** The price of the form's selection, as the cart prices it (the Check the price button). */
  quote?: string;
}

/** GET /bookings/new: the first form, and once a product, start and guests are picked, the second. */
export async function newBookingPage(c: AdminContext) {
  return render(c, { values: c.req.query() });
}

async function render(c: AdminContext, state: State) {
  const t = stringsOf(c);
  const n = t.newBooking;
  const v = state.values;
  const businessId = c.get("staff").business_id;
  // The catalog snapshot, and (for an activity on timeslots) the live places of its day, in one round trip.
  let read: LedgerRead | undefined;
  let picked: ReturnType<typeof pickOf> = { errors: {} };
  const { snap, results } = await readTenant(tenantContext(c), (s) => {
    picked = pickOf(s, v, t);
    const p = picked.pick;
    if (!p || !p.product.is_on_timeslots || !p.structure.standalone) return [];
    read = ledgerRead(c.env.DB, businessId, [p.product.id], p.start, p.start, c.get("now"));
    return [read.statement];
  });
  // the plan may have run on a snapshot read again since: the pick of the one answered
  picked = pickOf(snap, v, t);
  const pick = picked.pick;
  const ledger = read && pick ? toLedgers([pick.product.id], read.text(results[0]), businessToday(c)).get(pick.product.id) : undefined;
  const errors = { ...picked.errors, ...(state.errors ?? {}) };
  const config = snap.business.config;
  const currency = snap.currencies.find((x) => x.is_default)?.iso_code ?? "EUR";
  const [stripe, persons, chosen] = await Promise.all([
    pick ? stripeSettings(c.env, businessId) : null,
    pick ? personSearch(c, v.person_q) : [],
    pick && v.booker ? personWithDerived(c.env.DB, businessId, v.booker) : null,
  ]);
  const stripeOn = Boolean(stripe?.secret_key_set);
  const root = `${base(c)}/bookings/new`;
  const keep: Record<string, string> = pick ? { product: String(pick.product.id), start_date: pick.start, days: String(pick.days), guests: String(pick.guests) } : {};
  const bv = { ...(chosen ? personValues(chosen) : {}), ...v };
  const needsRoom = Boolean(pick && pick.structure.accommodationIds.length > 0);
  const timed = Boolean(pick && pick.structure.standalone && pick.product.is_on_timeslots);
  const guestFields = fieldsFor(config.custom_fields, "guest");
  const customerFields = fieldsFor(config.custom_fields, "customer");
  const pay = (PAYS as readonly string[]).includes(v.payment ?? "") ? (v.payment as Pay) : "none";
  return c.html(
    <Layout c={c} title={n.title} current="bookings">
      <p class="hint" id="new-help">
        {n.help}
      </p>
      <section aria-labelledby="pick-heading">
        <h2 id="pick-heading">{n.step1}</h2>
        <form class="row" method="get" action={root} aria-describedby="new-help">
          <Select
            name="product"
            label={n.product}
            value={v.product ?? ""}
            options={[["", n.choose], ...sellables(snap).map((p): [string, string] => [String(p.id), p.title])]}
            error={errors.product}
          />
          <Field name="start_date" type="date" label={n.start} value={v.start_date ?? ""} error={errors.start_date} required />
          <Field name="days" type="number" label={n.days} hint={n.daysHint} inputmode="numeric" value={v.days ?? (pick ? String(pick.days) : "1")} error={errors.days} />
          <Field name="guests" type="number" label={n.guestCount} inputmode="numeric" value={v.guests ?? "1"} error={errors.guests} required />
          <button type="submit" class="secondary">
            {n.next}
          </button>
        </form>
      </section>

      {pick ? (
        <>
          <section aria-labelledby="booker-search-heading">
            <h2 id="booker-search-heading">{n.booker}</h2>
            <p class="hint">{n.bookerHelp}</p>
            <form class="row" method="get" action={root} role="search">
              {Object.entries(keep).map(([k, val]) => (
                <input type="hidden" name={k} value={val} />
              ))}
              <Field name="person_q" type="search" label={n.search} value={v.person_q ?? ""} autocomplete="off" />
              <button type="submit" class="secondary">
                {n.searchSubmit}
              </button>
            </form>
            {v.person_q ? (
              persons.length ? (
                <ul data-person-results>
                  {persons.map((p) => (
                    <li>
                      {[p.first_name, p.last_name].filter(Boolean).join(" ")} · {p.email ?? ""} {p.phone ? `· ${p.phone}` : ""}{" "}
                      <a href={`${root}?${new URLSearchParams({ ...keep, booker: p.id }).toString()}`}>{n.useThis}</a>
                    </li>
                  ))}
                </ul>
              ) : (
                <p>{n.noneFound}</p>
              )
            ) : null}
            {chosen ? <p role="status">{n.using([chosen.first_name, chosen.last_name].filter(Boolean).join(" ") || chosen.email || "")}</p> : null}
          </section>

          <form class="stack" method="post" action={root} data-new-booking>
            <Csrf c={c} />
            <FormError message={state.message} />
            {Object.entries(keep).map(([k, val]) => (
              <input type="hidden" name={k} value={val} />
            ))}
            {chosen ? <input type="hidden" name="booker" value={chosen.id} /> : null}
            <p>
              <strong>{pick.product.title}</strong> · {pick.start} – {addDays(pick.start, pick.days)} · {n.guestCount}: {pick.guests}
            </p>
            {state.quote ? (
              <p role="status" data-quote>
                {n.quote(state.quote)}
              </p>
            ) : null}

            {(needsRoom && !pick.structure.standalone) || timed ? (
              <fieldset>
                <legend>{n.stay}</legend>
                {needsRoom && !pick.structure.standalone ? (
                  <Select
                    name="accommodation_id"
                    label={n.room}
                    value={v.accommodation_id ?? ""}
                    options={[["", n.choose], ...pick.structure.accommodationIds.map((id): [string, string] => [String(id), snap.products.get(id)?.title ?? `#${id}`])]}
                    error={errors.accommodation_id}
                  />
                ) : null}
                {timed ? (
                  <Select
                    name="time"
                    label={`${n.time} (${pick.start})`}
                    value={v.time ?? ""}
                    options={[
                      ["", n.choose],
                      ...slotsOn(pick.product, pick.start).map((time): [string, string] => {
                        const s = ledger ? slotState(pick.product, ledger, pick.start, time) : undefined;
                        return [time, s ? n.timeLeft(time, s.available === null ? n.noLimit : String(s.available)) : time];
                      }),
                    ]}
                    error={errors.time}
                  />
                ) : null}
              </fieldset>
            ) : null}
            {errors.accommodation_id && !(needsRoom && !pick.structure.standalone) ? <p class="error">{errors.accommodation_id}</p> : null}

            {Array.from({ length: pick.guests }, (_, i) => {
              const p = `guests.${i}`;
              return (
                <fieldset data-guest-row={i}>
                  <legend>{n.guest(i + 1)}</legend>
                  <Field name={`${p}.first_name`} id={fid(`${p}.first_name`)} label={n.firstName} value={v[`${p}.first_name`] ?? (i === 0 && chosen ? (chosen.first_name ?? "") : "")} error={errors[`${p}.first_name`]} autocomplete="off" required />
                  <Field name={`${p}.last_name`} id={fid(`${p}.last_name`)} label={n.lastName} value={v[`${p}.last_name`] ?? (i === 0 && chosen ? (chosen.last_name ?? "") : "")} error={errors[`${p}.last_name`]} autocomplete="off" required />
                  <Field name={`${p}.email`} id={fid(`${p}.email`)} type="email" label={n.email} value={v[`${p}.email`] ?? ""} error={errors[`${p}.email`]} autocomplete="off" />
                  {needsRoom ? (
                    <Select name={`${p}.gender`} id={fid(`${p}.gender`)} label={n.gender} value={v[`${p}.gender`] ?? ""} options={[["", n.choose], ["m", n.male], ["f", n.female]]} error={errors[`${p}.gender`]} />
                  ) : null}
                  {config.guest_fields.birthday.request || config.guest_fields.birthday.required || config.guest_fields.minimum_age > 0 ? (
                    <Field name={`${p}.birth_date`} id={fid(`${p}.birth_date`)} type="date" label={n.birthDate} value={v[`${p}.birth_date`] ?? ""} error={errors[`${p}.birth_date`]} required={config.guest_fields.birthday.required} />
                  ) : null}
                  {snap.diets.length ? (
                    <Select name={`${p}.diet_id`} id={fid(`${p}.diet_id`)} label={n.diet} value={v[`${p}.diet_id`] ?? ""} options={[["", n.none], ...snap.diets.map((d): [string, string] => [String(d.id), d.title])]} error={errors[`${p}.diet_id`]} />
                  ) : null}
                  {snap.levels.length ? (
                    <Select name={`${p}.level_id`} id={fid(`${p}.level_id`)} label={n.level} value={v[`${p}.level_id`] ?? ""} options={[["", n.none], ...snap.levels.map((d): [string, string] => [String(d.id), d.title])]} error={errors[`${p}.level_id`]} />
                  ) : null}
                  {guestFields.map((f) => (
                    <Question f={f} name={`${p}.custom_fields.${f.key}`} values={v} errors={errors} yes={n.yes} no={n.no} none={n.none} />
                  ))}
                </fieldset>
              );
            })}
            {errors.guests ? <p class="error">{errors.guests}</p> : null}

            <fieldset>
              <legend>{n.booker}</legend>
              <Field name="customer.first_name" id={fid("customer.first_name")} label={n.firstName} value={bv["customer.first_name"] ?? ""} error={errors["customer.first_name"]} autocomplete="off" required />
              <Field name="customer.last_name" id={fid("customer.last_name")} label={n.lastName} value={bv["customer.last_name"] ?? ""} error={errors["customer.last_name"]} autocomplete="off" required />
              <Field name="customer.email" id={fid("customer.email")} type="email" label={n.bookerEmail} value={bv["customer.email"] ?? ""} error={errors["customer.email"]} autocomplete="off" required />
              {config.customer_fields.phone.request || config.customer_fields.phone.required ? (
                <>
                  <Field name="customer.phone_countrycode" id={fid("customer.phone_countrycode")} label={n.countryCode} inputmode="numeric" value={bv["customer.phone_countrycode"] ?? ""} error={errors["customer.phone_countrycode"]} autocomplete="off" />
                  <Field name="customer.phone" id={fid("customer.phone")} type="tel" label={n.phone} value={bv["customer.phone"] ?? ""} error={errors["customer.phone"]} autocomplete="off" required={config.customer_fields.phone.required} />
                </>
              ) : null}
              {config.customer_fields.address.request || config.customer_fields.address.required ? (
                <>
                  <Field name="customer.address_line_1" id={fid("customer.address_line_1")} label={n.address} value={bv["customer.address_line_1"] ?? ""} error={errors["customer.address_line_1"]} autocomplete="off" required={config.customer_fields.address.required} />
                  <Field name="customer.city" id={fid("customer.city")} label={n.city} value={bv["customer.city"] ?? ""} error={errors["customer.city"]} autocomplete="off" required={config.customer_fields.address.required} />
                  <Field name="customer.zipcode" id={fid("customer.zipcode")} label={n.zipcode} value={bv["customer.zipcode"] ?? ""} error={errors["customer.zipcode"]} autocomplete="off" required={config.customer_fields.address.required} />
                  <Field name="customer.country" id={fid("customer.country")} label={n.country} value={bv["customer.country"] ?? ""} error={errors["customer.country"]} autocomplete="off" required={config.customer_fields.address.required} />
                </>
              ) : null}
              {customerFields.map((f) => (
                <Question f={f} name={`customer.custom_fields.${f.key}`} values={bv} errors={errors} yes={n.yes} no={n.no} none={n.none} />
              ))}
              <Select name="channel" label={n.channel} value={v.channel ?? "phone"} options={DESK_CHANNELS.map((ch): [string, string] => [ch, n.channels[ch] ?? ch])} error={errors.channel} />
              <Check name="terms_accepted" value="true" label={n.terms} checked={v.terms_accepted === "true"} error={errors.terms_accepted} />
            </fieldset>

            <fieldset data-new-payment>
              <legend>{n.payment}</legend>
              {!stripeOn ? (
                <p class="hint" data-no-stripe>
                  {n.noStripe}
                </p>
              ) : null}
              {PAYS.filter((p) => p !== "link" || stripeOn).map((p) => (
                <Check type="radio" name="payment" value={p} id={`f-payment-${p}`} label={n.pay[p] ?? p} checked={pay === p} error={p === "none" ? errors.payment : undefined} />
              ))}
              <Field name="amount" label={n.amount(currency)} inputmode="decimal" value={v.amount ?? ""} error={errors.amount} autocomplete="off" />
              <Select name="method" label={n.method} value={v.method ?? "cash"} options={MANUAL_METHODS.map((m) => [m, t.payments.methods[m] ?? m])} error={errors.method} />
              <Field name="reference" label={n.reference} value={v.reference ?? ""} error={errors.reference} autocomplete="off" />
            </fieldset>
            <div class="row">
              {/* first: Enter in a field checks the price, never books */}
              <button type="submit" class="secondary" name="preview" value="1" formnovalidate>
                {n.preview}
              </button>
              <button type="submit">{n.submit}</button>
            </div>
          </form>
        </>
      ) : null}
    </Layout>,
    state.status ?? (Object.keys(picked.errors).length ? 422 : 200),
  );
}

/** A custom question's input, by its type. */
const Question: FC<{ f: CustomField; name: string; values: Values; errors: Record<string, string>; yes: string; no: string; none: string }> = ({ f, name, values, errors, yes, no, none }) => {
  const id = fid(name);
  const value = values[name] ?? "";
  const error = errors[name];
  if (f.type === "select") return <Select name={name} id={id} label={f.title} value={value} options={[["", none], ...f.options.map((o): [string, string] => [o, o])]} error={error} />;
  if (f.type === "boolean") return <Select name={name} id={id} label={f.title} value={value} options={[["", none], ["true", yes], ["false", no]]} error={error} />;
  return <Field name={name} id={id} label={f.title} type={f.type === "date" ? "date" : "text"} inputmode={f.type === "number" ? "decimal" : undefined} value={value} error={error} required={f.required} autocomplete="off" />;
};

/** The Persons a search finds (the private API's search), at most 10. */
async function personSearch(c: AdminContext, query: string | undefined): Promise<PersonWithDerived[]> {
  const q = (query ?? "").trim().slice(0, 100);
  if (!q) return [];
  const db = c.env.DB;
  return personListFrom(await db.batch(listPersonsStatements(db, c.get("staff").business_id, { query: q, order: [], page: 1, limit: 10 }))).rows;
}

/** A chosen Person as the booker's fields. */
function personValues(p: PersonWithDerived): Values {
  const out: Values = {};
  const set = (k: string, v: unknown) => {
    if (v !== null && v !== undefined && String(v) !== "") out[k] = String(v);
  };
  set("customer.first_name", p.first_name);
  set("customer.last_name", p.last_name);
  set("customer.email", p.email);
  set("customer.phone", p.phone);
  set("customer.phone_countrycode", (p as unknown as Record<string, unknown>).phone_country_calling_code);
  set("customer.address_line_1", (p as unknown as Record<string, unknown>).address_line_1);
  set("customer.city", (p as unknown as Record<string, unknown>).city);
  set("customer.zipcode", (p as unknown as Record<string, unknown>).zip_code);
  set("customer.country", (p as unknown as Record<string, unknown>).country_code);
  return out;
}

/**
 * POST /bookings/new: the booking, through the cart operations as a guest's, then its audit entry
 * and the payment. Everything the form says wrong is found before anything is held (the bodies'
 * schemas, the payment's amount, whether Stripe is connected); what only the cart can decide (the
 * places, the business's rules) is refused by it, shown at its field, and nothing is booked (a
 * cart whose checkout was refused is abandoned, its places free at once).
 */
export async function newBookingCreate(c: AdminContext) {
  const t = stringsOf(c);
  const v = (await readForm(c)).values();
  const businessId = c.get("staff").business_id;
  const { snap } = await readTenant(tenantContext(c));
  const { pick, errors: pickErrors } = pickOf(snap, v, t);
  if (!pick) return render(c, { values: v, errors: pickErrors, status: 422 });
  const currency = snap.currencies.find((x) => x.is_default)?.iso_code ?? "EUR";
  const pay: Pay = (PAYS as readonly string[]).includes(v.payment ?? "") ? (v.payment as Pay) : "none";
  const channel: DeskChannel = (DESK_CHANNELS as readonly string[]).includes(v.channel ?? "") ? (v.channel as DeskChannel) : "phone";
  try {
    // The form's shape, all at once: the guests, the booker, the payment.
    const cart = AddToCartBody.safeParse(cartBody(snap, pick, v));
    const checkout = CheckoutBody.safeParse(checkoutBody(snap, v));
    const errors = [...zodErrors(cart), ...zodErrors(checkout)];
    // The business's rules for the guests (birth date, age, questions, diets) and the booker (phone,
    // address, questions, age, country): the add's and the checkout's own checks (domain/cart-people.ts),
    // made here too so that every field's error is shown at once, before any place is held.
    const config = snap.business.config;
    const known = { dietIds: new Set(snap.diets.map((d) => d.id)), levelIds: new Set(snap.levels.map((l) => l.id)) };
    if (cart.success) errors.push(...guestErrors(cart.data.guests, config, dateIn(c.get("now"), config.time_zone), new Set(), known));
    if (checkout.success) errors.push(...customerErrors(checkout.data.customer, config, isoDateTime(c.get("now")).slice(0, 10), COUNTRY_CODES));
    let payment: PaymentCreate | undefined;
    if (pay === "deposit" || pay === "full") {
      // the full payment's amount is the booking's total, known once it is made: only its method and reference are checked here
      const parsed = PaymentCreate.safeParse({ amount: pay === "full" ? 1 : amountOf(v.amount), currency, method: v.method, reference: v.reference || null });
      errors.push(...zodErrors(parsed), ...decimals(parsed, currency));
      if (parsed.success) payment = parsed.data;
    }
    let link: PaymentLinkCreate | undefined;
    if (pay === "link") {
      if (!(await stripeSettings(c.env, businessId)).secret_key_set) errors.push({ path: "payment", message: `${t.newBooking.pay.link}: ${t.newBooking.stripeOff}` });
      const amount = (v.amount ?? "").trim();
      const parsed = PaymentLinkCreate.safeParse({ amount: amount ? amountOf(amount) : undefined, send_email: true });
      errors.push(...zodErrors(parsed), ...decimals(parsed, currency));
      if (parsed.success) link = parsed.data;
    }
    if (v.preview === "1") {
      // The price only: the cart's own quote and totals (domain/package-quote.ts, domain/totals.ts), nothing held.
      // (names may not be typed yet: they change no price)
      const named = Object.fromEntries(Array.from({ length: pick.guests }, (_, i) => [`guests.${i}.first_name`, `guests.${i}.last_name`]).flat().map((k) => [k, v[k] || "-"]));
      const priced = AddToCartBody.safeParse(cartBody(snap, pick, { ...v, ...named }));
      if (!priced.success) throw new ApiError(422, "validation_failed", "The selection is invalid.", { errors: zodErrors(priced) });
      const quote = quotePackages(snap, priced.data.currency, priced.data.guests.map((g, i) => ({ key: String(i), gender: g.gender, package: g.package })));
      const total = totalsOf(quote.lines, currencyOfCart(snap.currencies, quote.currency)).total;
      return render(c, { values: v, quote: formatMoney(total, quote.currency) });
    }
    if (errors.length || !cart.success || !checkout.success) {
      throw new ApiError(422, "validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
    }

    // The widget's own operations: the places held, then booked, in the cart's batches.
    const call = deskCall(c, snap);
    await addToCart(c.env, call, cart.data, true);
    let booked;
    try {
      booked = (await checkoutCart(c.env, { ...call }, checkout.data)).body;
    } catch (err) {
      await abandonCart(c.env, { ...call }).catch(() => undefined);
      throw err;
    }
    const actor = staffActor(c);
    await recordDeskBooking(c.env, actor, businessId, { id: booked.id, reference: booked.reference, cart_id: booked.cart_id, total: booked.total, currency: booked.currency }, channel, c.get("now"));
    const to = `${base(c)}/bookings/${booked.id}`;
    try {
      if (payment) {
        const amount = pay === "full" ? booked.total : payment.amount;
        if (amount > 0) await recordPayment(c.env, actor, businessId, booked.id, { ...payment, amount, currency: booked.currency }, c.get("now"));
        return done(c, to, "booked-paid");
      }
      if (link) {
        await createPaymentLink(c.env, actor, businessId, booked.id, link, c.get("now"), publicOrigin(c.env.PUBLIC_ORIGIN, c.req.url), c.req.param("business") ?? "");
        return done(c, to, "booked-linked");
      }
    } catch (err) {
      // The booking stands; the payment is shown on its page to be done again.
      console.error(JSON.stringify({ level: "warn", msg: "desk booking payment failed", booking_id: booked.id, error: String(err) }));
      return done(c, to, "booked-payment-failed");
    }
    return done(c, to, "booked");
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && !(err.extra.errors as unknown[] | undefined)?.length) {
      return render(c, { values: v, errors: { product: err.message }, message: err.message, status: 422 });
    }
    const failed = failureOf(err, place, { lang: langOf(c), join: true });
    if (!failed) throw err;
    const message = failed.unplaced.length ? `${failed.message} ${failed.unplaced.join("; ")}` : failed.message;
    return render(c, { values: v, errors: failed.fields, message, status: failed.status });
  }
}
