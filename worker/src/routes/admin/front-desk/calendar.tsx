/** @jsxImportSource hono/jsx */
/**
 * Calendar: products down, dates across; in each cell what is free of the capacity, and the
 * units booked and held; blocked dates marked. A product on timeslots shows what is free in each
 * of the day's slots ("09:00 4 free", "14:00 9 free"), as its Inventory screen reads them. Blocking and unblocking a range is a form (managers
 * and owners) through the catalog's inventory function, as PATCH /private/catalog/products/{id}/inventory.
 */
import { may, type Role } from "../../../domain/staff";
import { calendarRows, UNLIMITED, type CalendarCell } from "../../../db/calendar";
import { ApiError } from "../../../lib/errors";
import { addDays, dateRange } from "../../../lib/time";
import { getInventory, updateInventory } from "../../../manage/catalog/inventory";
import { daysBetween } from "../../../lib/time";
import { base, businessToday, Csrf, done, Field, flashOf, FormError, Select, staffActor, langOf, stringsOf, type AdminContext } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";
import { failureOf, readForm } from "../kit/form";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function windowOf(c: AdminContext): { from: string; days: number } {
  const from = c.req.query("from");
  const days = Number(c.req.query("days"));
  return {
    from: from && DATE.test(from) && !Number.isNaN(Date.parse(from)) ? from : businessToday(c),
    days: Number.isInteger(days) && days >= 1 && days <= 62 ? days : 14,
  };
}

async function render(c: AdminContext, form: { values?: Record<string, string>; errors?: Record<string, string>; message?: string } = {}, status: 200 | 422 | 409 = 200) {
  const t = stringsOf(c);
  const { from, days } = windowOf(c);
  const to = addDays(from, days - 1);
  const dates = dateRange(from, to);
  const { products, cells } = await calendarRows(c.env.DB, c.get("staff").business_id, from, to, c.get("now"));
  const byKey = new Map<string, CalendarCell>(cells.map((x) => [`${x.product_id}|${x.date}`, x]));
  // Each slot of a product on timeslots, per date: what the product's inventory says of it.
  const slotsOf = new Map<string, { slot: string; available: number | null; blocked: boolean }[]>();
  await Promise.all(
    products
      .filter((p) => p.is_on_timeslots)
      .map(async (p) => {
        const inventory = await getInventory(c.env.DB, c.get("staff").business_id, p.id, { from, to }, c.get("now"));
        for (const d of inventory.days) {
          if (d.slot === "") continue;
          const key = `${p.id}|${d.date}`;
          slotsOf.set(key, [...(slotsOf.get(key) ?? []), { slot: d.slot, available: d.available, blocked: d.blocked || d.source === "blocked" }]);
        }
      }),
  );
  const mayBlock = may(c.get("staff").role as Role, "inventory");
  const v = form.values ?? {};
  const flash = flashOf(c, { blocked: t.calendar.blockedDone(Number(c.req.query("n") ?? 0)), unblocked: t.calendar.unblockedDone(Number(c.req.query("n") ?? 0)) });
  return c.html(
    <Layout c={c} title={t.calendar.title} current="calendar" flash={flash}>
      <form class="row" method="get" action={`${base(c)}/calendar`}>
        <Field name="from" type="date" label={t.calendar.from} value={from} />
        <Field name="days" type="number" label={t.calendar.days} value={String(days)} inputmode="numeric" />
        <button type="submit">{t.calendar.show}</button>
      </form>
      <p class="hint" id="calendar-legend">
        {t.calendar.legend} {t.calendar.scrollHint}
      </p>
      <Table
        captionId="calendar-caption"
        caption={<>{t.calendar.title} {from} – {to}</>}
        hiddenCaption
        describedBy="calendar-legend"
        class="calendar"
        head={
          <tr>
            <th scope="col">{t.calendar.product}</th>
            {dates.map((d) => (
              <th scope="col">{d.slice(5)}</th>
            ))}
          </tr>
        }
      >
        {products.map((p) => (
          <tr>
            <th scope="row">{p.title}</th>
            {dates.map((d) => {
              const cell = byKey.get(`${p.id}|${d}`);
              const booked = cell?.booked ?? 0;
              const held = cell?.held ?? 0;
              const blocked = (cell?.blocked ?? 0) > 0;
              const capacity = cell?.capacity ?? p.default_capacity;
              const unlimited = capacity === null || capacity >= UNLIMITED;
              const free = unlimited ? null : Math.max(0, (capacity as number) - booked - held);
              return (
                <td class={blocked ? "blocked" : undefined} data-product={p.id} data-date={d}>
                  {slotsOf.has(`${p.id}|${d}`) && !(blocked && slotsOf.get(`${p.id}|${d}`)!.every((x) => x.blocked)) ? (
                    <ul class="plain slots">
                      {slotsOf.get(`${p.id}|${d}`)!.map((x) => (
                        <li data-slot={x.slot}>
                          {x.slot} {x.blocked ? <span class="badge blocked">{t.calendar.blocked}</span> : x.available === null || x.available >= UNLIMITED ? t.calendar.unlimited : `${x.available} ${t.calendar.free}`}
                        </li>
                      ))}
                    </ul>
                  ) : blocked ? (
                    <span class="badge blocked">{t.calendar.blocked}</span>
                  ) : unlimited ? (
                    t.calendar.unlimited
                  ) : (
                    `${free} ${t.calendar.free}`
                  )}
                  {booked ? (
                    <div>
                      {/* The guests of the cell: the Guests screen with the private API's filters. */}
                      <a href={`${base(c)}/guests?booking_product_id=${p.id}&on_site_at=${d}&booking_status=confirmed`}>{`${booked} ${t.calendar.booked}`}</a>
                    </div>
                  ) : null}
                  {held ? <div>{`${held} ${t.calendar.held}`}</div> : null}
                </td>
              );
            })}
          </tr>
        ))}
      </Table>
      <section>
        <h2 id="block-heading">{t.calendar.blockTitle}</h2>
        {mayBlock ? (
          <form class="row" method="post" action={`${base(c)}/calendar/blocks?from=${from}&days=${days}`}>
            <Csrf c={c} />
            <FormError message={form.message} />
            <Select name="product_id" label={t.calendar.product} value={v.product_id} options={products.map((p) => [String(p.id), p.title])} error={form.errors?.product_id} />
            <Field name="from" type="date" label={t.calendar.from} value={v.from ?? from} error={form.errors?.from} required />
            <Field name="to" type="date" label={t.calendar.to} value={v.to ?? from} error={form.errors?.to} required />
            <button type="submit" name="action" value="block">
              {t.calendar.block}
            </button>
            <button type="submit" name="action" value="unblock" class="secondary">
              {t.calendar.unblock}
            </button>
          </form>
        ) : (
          <p>{t.calendar.readOnly}</p>
        )}
      </section>
    </Layout>,
    status,
  );
}

export const calendarPage = (c: AdminContext) => render(c);

export async function calendarBlock(c: AdminContext) {
  const form = (await readForm(c)).values();
  const blocked = form.action !== "unblock";
  try {
    const productId = Number(form.product_id);
    if (!Number.isInteger(productId) || productId < 1) throw new ApiError(422, "validation_failed", "product_id: choose a product", { errors: [{ path: "product_id", message: "choose a product" }] });
    // The catalog's one inventory write (manage/catalog/inventory.ts): a date whose capacity would
    // fall below what is held or booked is refused (409 capacity_below_used), as through the API.
    await updateInventory(c.env, staffActor(c), c.get("staff").business_id, productId, { from: form.from ?? "", to: form.to ?? "", blocked }, c.get("now"));
    const n = daysBetween(form.from!, form.to!) + 1;
    const { from, days } = windowOf(c);
    return done(c, `${base(c)}/calendar?from=${from}&days=${days}&n=${n}`, blocked ? "blocked" : "unblocked");
  } catch (err) {
    const failed = failureOf(err, undefined, { lang: langOf(c) });
    if (!failed) throw err;
    return render(c, { values: form, errors: failed.fields, message: stringsOf(c).fixErrors }, 422);
  }
}
