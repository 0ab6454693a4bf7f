/** @jsxImportSource hono/jsx */
/**
 * A product's inventory: what each date (and slot) has, is booked and held; its capacity over a
 * range of dates; its weekly timeslots; blocked dates. Every change is the private API's:
 * capacity and blocks through manage/catalog/inventory.ts updateInventory (PATCH
 * /private/catalog/products/{id}/inventory, the Calendar's block too), timeslots through
 * manage/catalog/products.ts updateProduct (PATCH /private/catalog/products/{id} {timeslots}).
 * A change that would leave less capacity than is held or booked is refused (409) and the form
 * lists those dates with their counts.
 *
 * Permissions (domain/staff.ts): the page and blocking need `inventory` (as the Calendar's block
 * does); capacity and timeslots are the catalog's rules, so they need `catalog`.
 */
import type { Child } from "hono/jsx";
import type { AdminProduct, InventoryPatch } from "../../../contract/catalog-write";
import { may, type Role } from "../../../domain/staff";
import { ApiError } from "../../../lib/errors";
import { addDays, daysBetween } from "../../../lib/time";
import { getInventory, updateInventory } from "../../../manage/catalog/inventory";
import { getProduct, updateProduct } from "../../../manage/catalog/products";
import { base, businessToday, Csrf, describedBy, done, Field, FieldHint, FieldMessage, flashOf, FormError, langOf, Select, staffActor, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";
import { ID_DIGITS, MAX_ID } from "../../../contract/common";

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
type Weekday = (typeof WEEKDAYS)[number];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The most dates the page lists at once. */
const MAX_SHOWN_DAYS = 92;
/** Empty timeslot rows offered after the product's own. */
const SPARE_SLOTS = 2;

type Which = "capacity" | "block" | "timeslots";
interface InventoryForm {
  which: Which;
  values: Record<string, string>;
  days?: Record<string, string[]>;
  errors?: Record<string, string>;
  message?: string;
  /** A 409: the dates (and slots) whose held and booked exceed the capacity asked for. */
  conflicts?: { date: string; slot: string; message: string }[];
}

function productId(c: AdminContext): number {
  const id = Number(c.req.param("id"));
  if (!Number.isInteger(id) || id < 1 || id > MAX_ID) throw new ApiError(404, "not_found", `Product ${c.req.param("id")} was not found.`);
  return id;
}

const validDate = (s: string | undefined): s is string => !!s && DATE.test(s) && !Number.isNaN(Date.parse(s));

/** The dates shown: ?from&to, else from the business's today for a month. */
function windowOf(c: AdminContext): { from: string; to: string } {
  const q = c.req.query();
  const from = validDate(q.from) ? q.from : businessToday(c);
  const to = validDate(q.to) && q.to >= from && daysBetween(from, q.to) < MAX_SHOWN_DAYS ? q.to : addDays(from, 30);
  return { from, to };
}

const windowQuery = (c: AdminContext) => {
  const { from, to } = windowOf(c);
  return `from=${from}&to=${to}`;
};

/** Weekday checkboxes in a fieldset; none ticked means every day. */
const Weekdays = ({ c, name, legend, checked, hint, error }: { c: AdminContext; name: string; legend: string; checked: string[]; hint?: string; error?: string }) => {
  const t = stringsOf(c).prices.inventory;
  return (
    <fieldset class={`weekdays${error ? " invalid" : ""}`} aria-describedby={describedBy(name, hint, error)}>
      <legend>{legend}</legend>
      {WEEKDAYS.map((d) => (
        <label class="check">
          <input type="checkbox" name={name} value={d} checked={checked.includes(d)} />
          {t.weekdays[d]}
        </label>
      ))}
      <FieldHint id={name} hint={hint} />
      <FieldMessage id={name} error={error} />
    </fieldset>
  );
};

/** The message of a failed form and, for a 409, each date with its counts. */
const Failure = ({ c, form, which }: { c: AdminContext; form?: InventoryForm; which: Which }): Child => {
  if (!form || form.which !== which) return null;
  const t = stringsOf(c).prices.inventory;
  if (!form.conflicts?.length) return <FormError message={form.message} />;
  return (
    <div class="form-error" role="alert">
      <p>{t.conflicts}</p>
      <ul class="conflicts">
        {form.conflicts.map((x) => (
          <li>{t.conflict(x.date, x.slot, x.message)}</li>
        ))}
      </ul>
    </div>
  );
};

/** The timeslot rows as the form shows them: the product's, or what was sent. */
function timeslotRows(p: AdminProduct, form?: InventoryForm) {
  if (form?.which === "timeslots") {
    const n = Number(form.values.ts_rows ?? 0);
    return Array.from({ length: Math.min(Math.max(n, 0), 100) }, (_, i) => ({ time: form.values[`ts_time_${i}`] ?? "", capacity: form.values[`ts_capacity_${i}`] ?? "", days: form.days?.[`ts_days_${i}`] ?? [] }));
  }
  return [
    ...p.timeslots.map((s) => ({ time: s.time, capacity: s.capacity === null ? "" : String(s.capacity), days: s.days ?? [] })),
    ...Array.from({ length: SPARE_SLOTS }, () => ({ time: "", capacity: "", days: [] as string[] })),
  ];
}

async function render(c: AdminContext, form?: InventoryForm, status: 200 | 409 | 422 = 200) {
  const t = stringsOf(c);
  const ti = t.prices.inventory;
  const businessId = c.get("staff").business_id;
  const id = productId(c);
  const { from, to } = windowOf(c);
  const [product, inventory] = await Promise.all([getProduct(c.env.DB, businessId, id), getInventory(c.env.DB, businessId, id, { from, to }, c.get("now"))]);
  const role = c.get("staff").role as Role;
  const mayCatalog = may(role, "catalog");
  const title = product.backoffice_title || product.title;
  const root = `${base(c)}/catalog/products/${id}/inventory`;
  const q = windowQuery(c);
  const slotOptions: [string, string][] = [["", ti.wholeDay], ...[...new Set(product.timeslots.map((s) => s.time))].map((s) => [s, s] as [string, string])];
  const of = (which: Which) => (form?.which === which ? form : undefined);
  const cap = of("capacity");
  const blk = of("block");
  const flash = flashOf(c, { capacity: ti.capacitySaved, timeslots: ti.timeslotsSaved, blocked: ti.blockedMsg, unblocked: ti.unblockedMsg });
  const slotsForm = of("timeslots");
  const rows = timeslotRows(product, slotsForm);
  // A product on timeslots is sold by slot: its dates' "whole day" rows say nothing (each slot has
  // its own capacity), unless the whole day is blocked or has no slot at all.
  const slotDates = new Set(inventory.days.filter((d) => d.slot !== "").map((d) => d.date));
  const shownDays = inventory.days.filter((d) => !(product.timeslots.length > 0 && d.slot === "" && !d.blocked && slotDates.has(d.date)));
  return c.html(
    <Layout c={c} title={ti.title(title)} flash={flash}>
      <nav class="crumbs" aria-label={ti.title(title)}>
        <a href={`${base(c)}/catalog`}>{ti.backToCatalog}</a> · <a href={`${base(c)}/catalog/products/${id}`}>{ti.editProduct}</a> · <a href={`${base(c)}/prices`}>{ti.toPrices}</a>
      </nav>
      <p>{ti.productCapacity(product.capacity)}</p>

      <section>
        <h2 id="block-heading">{ti.blockTitle}</h2>
        <p class="hint">{ti.blockHint}</p>
        <form class="row" method="post" action={`${root}/blocks?${q}`} aria-labelledby="block-heading">
          <Csrf c={c} />
          <Failure c={c} form={form} which="block" />
          <Field id="block-from" name="from" type="date" label={ti.from} value={blk?.values.from ?? from} error={blk?.errors?.from} required />
          <Field id="block-to" name="to" type="date" label={ti.to} value={blk?.values.to ?? from} error={blk?.errors?.to} required />
          {slotOptions.length > 1 ? <Select id="block-slot" name="slot" label={ti.slotField} value={blk?.values.slot ?? ""} options={slotOptions} error={blk?.errors?.slot} /> : null}
          <button type="submit" name="action" value="block">
            {ti.block}
          </button>
          <button type="submit" name="action" value="unblock" class="secondary">
            {ti.unblock}
          </button>
        </form>
      </section>

      {mayCatalog ? (
        <section>
          <h2 id="capacity-heading">{ti.capacityTitle}</h2>
          <p class="hint">{ti.capacityHint}</p>
          <form class="row" method="post" action={`${root}/capacity?${q}`} aria-labelledby="capacity-heading">
            <Csrf c={c} />
            <Failure c={c} form={form} which="capacity" />
            <Field id="capacity-from" name="from" type="date" label={ti.from} value={cap?.values.from ?? from} error={cap?.errors?.from} required />
            <Field id="capacity-to" name="to" type="date" label={ti.to} value={cap?.values.to ?? to} error={cap?.errors?.to} required />
            {slotOptions.length > 1 ? <Select id="capacity-slot" name="slot" label={ti.slotField} value={cap?.values.slot ?? ""} options={slotOptions} error={cap?.errors?.slot} /> : null}
            <Field id="capacity-value" name="capacity" type="number" inputmode="numeric" label={ti.capacityField} value={cap?.values.capacity} error={cap?.errors?.capacity} />
            <Weekdays c={c} name="days" legend={ti.days} checked={cap?.days?.days ?? []} hint={ti.daysHint} error={cap?.errors?.days} />
            <button type="submit">{ti.setCapacity}</button>
          </form>
        </section>
      ) : null}

      {mayCatalog && product.type !== "accommodation" ? (
        <section>
          <h2 id="timeslots-heading">{ti.timeslotsTitle}</h2>
          <p class="hint">{ti.timeslotsHint}</p>
          <form method="post" action={`${root}/timeslots?${q}`} aria-labelledby="timeslots-heading">
            <Csrf c={c} />
            <Failure c={c} form={form} which="timeslots" />
            <input type="hidden" name="ts_rows" value={String(rows.length)} />
            {rows.map((r, i) => (
              <div class="row timeslot" data-timeslot={i}>
                <Field id={`ts-time-${i}`} name={`ts_time_${i}`} type="time" label={ti.timeLabel(i + 1)} value={r.time} error={slotsForm?.errors?.[`ts_time_${i}`]} />
                <Field id={`ts-capacity-${i}`} name={`ts_capacity_${i}`} type="number" inputmode="numeric" label={ti.slotCapacityLabel(i + 1)} value={r.capacity} error={slotsForm?.errors?.[`ts_capacity_${i}`]} />
                <Weekdays c={c} name={`ts_days_${i}`} legend={ti.slotDaysLabel(i + 1)} checked={r.days} error={slotsForm?.errors?.[`ts_days_${i}`]} />
              </div>
            ))}
            <p>
              <button type="submit">{ti.saveTimeslots}</button>
            </p>
          </form>
        </section>
      ) : null}
      <section>
        <h2 id="dates-heading">{ti.window}</h2>
        <form class="row" method="get" action={root}>
          <Field id="window-from" name="from" type="date" label={ti.from} value={from} />
          <Field id="window-to" name="to" type="date" label={ti.to} value={to} />
          <button type="submit">{ti.show}</button>
        </form>
        <Table
          captionId="inventory-caption"
          caption={ti.tableCaption(from, to)}
          class="inventory"
          head={
            <tr>
              <th scope="col">{ti.date}</th>
              <th scope="col">{ti.slot}</th>
              <th scope="col" class="num">
                {ti.capacity}
              </th>
              <th scope="col">{ti.source}</th>
              <th scope="col" class="num">
                {ti.booked}
              </th>
              <th scope="col" class="num">
                {ti.held}
              </th>
              <th scope="col" class="num">
                {ti.available}
              </th>
            </tr>
          }
        >
          {shownDays.map((d) => (
            <tr class={d.blocked ? "blocked" : undefined} data-date={d.date} data-slot={d.slot}>
              <th scope="row">{d.date}</th>
              <td>{d.slot || ti.wholeDay}</td>
              <td class="num">{d.capacity === null ? ti.unlimited : d.capacity}</td>
              <td>{d.blocked ? <span class="badge blocked">{ti.blocked}</span> : ti.sources[d.source]}</td>
              <td class="num">{d.booked}</td>
              <td class="num">{d.held}</td>
              <td class="num">{d.available === null ? ti.unlimited : d.available}</td>
            </tr>
          ))}
        </Table>
      </section>
    </Layout>,
    status,
  );
}

export const inventoryPage = (c: AdminContext) => render(c);

/** A whole number of units, or null for an empty field; undefined when it is neither. */
function units(text: string | undefined): number | null | undefined {
  const s = (text ?? "").trim();
  if (s === "") return null;
  return ID_DIGITS.test(s) ? Number(s) : undefined;
}

/** A failed change as the form shows it (null: not one the form can show): a capacity below what is used lists each date. */
function failure(c: AdminContext, err: unknown, form: Omit<InventoryForm, "errors" | "message" | "conflicts">, place: (path: string) => string): InventoryForm | null {
  const failed = failureOf(err, place, { lang: langOf(c) });
  if (!failed) return null;
  if (err instanceof ApiError && err.code === "capacity_below_used") {
    const conflicts = failed.errors.map((e) => {
      const [, date = "", slot = ""] = e.path.split("/");
      return { date, slot, message: e.message };
    });
    return { ...form, message: failed.message, conflicts };
  }
  return { ...form, errors: failed.fields, message: failed.message };
}

/** Capacity over a range (an override of the product's own; empty returns to it). */
export async function inventoryCapacity(c: AdminContext) {
  const posted = await readForm(c);
  const values = posted.values();
  const days = { days: posted.list("days") };
  const shown = { which: "capacity" as const, values, days };
  const capacity = units(values.capacity);
  if (capacity === undefined) return render(c, { ...shown, errors: { capacity: stringsOf(c).prices.seasons.wholeNumber }, message: stringsOf(c).fixErrors }, 422);
  const patch: InventoryPatch = { from: values.from ?? "", to: values.to ?? "", capacity, ...(values.slot ? { slot: values.slot } : {}), ...(days.days.length ? { days: days.days as Weekday[] } : {}) };
  try {
    await updateInventory(c.env, staffActor(c), c.get("staff").business_id, productId(c), patch, c.get("now"));
  } catch (err) {
    const failed = failure(c, err, shown, (path) => path.split(".")[0]);
    if (!failed) throw err;
    return render(c, failed, err instanceof ApiError && err.status === 409 ? 409 : 422);
  }
  return done(c, `${base(c)}/catalog/products/${productId(c)}/inventory?${windowQuery(c)}`, "capacity");
}

/** Block or unblock a range (the whole date, or one timeslot), as the Calendar does. */
export async function inventoryBlock(c: AdminContext) {
  const values = (await readForm(c)).values();
  const blocked = values.action !== "unblock";
  const patch: InventoryPatch = { from: values.from ?? "", to: values.to ?? "", blocked, ...(values.slot ? { slot: values.slot } : {}) };
  try {
    await updateInventory(c.env, staffActor(c), c.get("staff").business_id, productId(c), patch, c.get("now"));
  } catch (err) {
    const failed = failure(c, err, { which: "block", values }, (path) => path.split(".")[0]);
    if (!failed) throw err;
    return render(c, failed, err instanceof ApiError && err.status === 409 ? 409 : 422);
  }
  return done(c, `${base(c)}/catalog/products/${productId(c)}/inventory?${windowQuery(c)}`, blocked ? "blocked" : "unblocked");
}

/** The weekly timeslots, replaced whole (a row without a time is dropped). */
export async function inventoryTimeslots(c: AdminContext) {
  const posted = await readForm(c);
  const values = posted.values();
  const n = Math.min(Math.max(Number(values.ts_rows) || 0, 0), 100);
  const days: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) days[`ts_days_${i}`] = posted.list(`ts_days_${i}`);
  const shown = { which: "timeslots" as const, values: { ...values, ts_rows: String(n) }, days };
  const errors: Record<string, string> = {};
  const sent: { row: number; time: string; capacity: number | null; days: Weekday[] | null }[] = [];
  for (let i = 0; i < n; i++) {
    const time = (values[`ts_time_${i}`] ?? "").trim();
    if (time === "") continue;
    const capacity = units(values[`ts_capacity_${i}`]);
    if (capacity === undefined) errors[`ts_capacity_${i}`] = stringsOf(c).prices.seasons.wholeNumber;
    const chosen = days[`ts_days_${i}`];
    sent.push({ row: i, time, capacity: capacity ?? null, days: chosen.length ? (chosen as Weekday[]) : null });
  }
  if (Object.keys(errors).length) return render(c, { ...shown, errors, message: stringsOf(c).fixErrors }, 422);
  // In time order, as the service keeps them: its errors name slots by their place in that order.
  sent.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  try {
    await updateProduct(c.env, staffActor(c), c.get("staff").business_id, productId(c), { timeslots: sent.map(({ time, capacity, days }) => ({ time, capacity, days })) }, c.get("now"));
  } catch (err) {
    const failed = failure(c, err, shown, (path) => {
      const m = /^timeslots\.(\d+)(?:\.(time|capacity|days))?/.exec(path);
      return m && sent[Number(m[1])] ? `ts_${m[2] ?? "time"}_${sent[Number(m[1])].row}` : path;
    });
    if (!failed) throw err;
    return render(c, failed, err instanceof ApiError && err.status === 409 ? 409 : 422);
  }
  return done(c, `${base(c)}/catalog/products/${productId(c)}/inventory?${windowQuery(c)}`, "timeslots");
}
