/** @jsxImportSource hono/jsx */
/**
 * The manifest of a timeslot activity's day (issue 27): for each timeslot of the day, its places
 * booked of its capacity and the guests on it (confirmed bookings only), with their booking, the
 * booker's contact, diet and level, and their answers to the business's custom questions. Printed
 * by the front desk as it is (the stylesheet's print rules leave out the navigation and the form).
 * One D1 round trip: the catalog snapshot's guard, the day's ledger and the day's lines together.
 */
import type { FC } from "hono/jsx";
import type { CustomField } from "../../../contract/config";
import { slotState } from "../../../domain/availability";
import type { CatalogSnapshot } from "../../../domain/catalog";
import type { PersonData } from "../../../domain/persons";
import { slotsOn, type Product } from "../../../domain/product";
import { ledgerRead, toLedgers, type LedgerRead } from "../../../db/catalog";
import { manifestRows, manifestStatement, type ManifestRow } from "../../../db/manifest";
import { readTenant } from "../../../db/tenant-read";
import { base, businessToday, Field, fmtDateTime, Select, stringsOf, tenantContext, type AdminContext, type Strings } from "../kit/kit";
import { Layout } from "../kit/layout";
import { Table } from "../kit/table";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const realDate = (d: string) => DATE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

type Person = Partial<PersonData> & { custom_fields?: Record<string, unknown> };
const parse = (text: string | null): Person => {
  try {
    return text ? (JSON.parse(text) as Person) : {};
  } catch {
    return {};
  }
};
const nameOf = (p: Person) => [p.first_name, p.last_name].filter(Boolean).join(" ");
const phoneOf = (p: Person) => (p.phone ? `${p.phone_country_calling_code ? `+${String(p.phone_country_calling_code).replace(/^\+/, "")} ` : ""}${p.phone}` : "");

/** An answer as the sheet shows it: yes/no for a boolean, a list joined, text as it is. */
function answer(t: Strings, v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return v ? t.yes : t.no;
  if (Array.isArray(v)) return v.map(String).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The timeslot products of the catalog, in id order (the first is the default). */
const timeslotProducts = (snap: CatalogSnapshot): Product[] => [...snap.products.values()].filter((p) => p.is_on_timeslots && p.type !== "package");

interface Slot {
  time: string;
  capacity: number | null;
  /** Places left now (held places counted), null: no limit. */
  available: number | null;
  scheduled: boolean;
  blocked: boolean;
  rows: ManifestRow[];
}

const SlotTable: FC<{ c: AdminContext; slot: Slot; id: string; questions: { key: string; title: string }[]; snap: CatalogSnapshot }> = ({ c, slot, id, questions, snap }) => {
  const t = stringsOf(c);
  const diets = new Map(snap.diets.map((d) => [d.id, d.title]));
  const levels = new Map(snap.levels.map((l) => [l.id, l.title]));
  if (!slot.rows.length) return <p>{t.manifest.nobody}</p>;
  return (
    <Table
      labelledBy={id}
      head={
        <tr>
          <th scope="col">{t.manifest.guest}</th>
          <th scope="col">{t.manifest.booking}</th>
          <th scope="col" class="num">
            {t.manifest.places}
          </th>
          <th scope="col">{t.manifest.contact}</th>
          <th scope="col">{t.manifest.diet}</th>
          <th scope="col">{t.manifest.level}</th>
          {questions.map((q) => (
            <th scope="col">{q.title}</th>
          ))}
          <th scope="col">{t.manifest.checkedIn}</th>
        </tr>
      }
    >
      {slot.rows.map((r) => {
        const g = parse(r.guest_snapshot);
        const b = parse(r.booker_snapshot);
        const answers = g.custom_fields ?? {};
        return (
          <tr data-guest={r.guest_id ?? ""} data-line={r.line_id}>
            <td>{nameOf(g) || g.email || nameOf(b) || "—"}</td>
            <td>
              <a href={`${base(c)}/bookings/${r.booking_id}`}>{r.reference}</a>
            </td>
            <td class="num">{r.qty}</td>
            <td>
              {nameOf(b) ? <div>{nameOf(b)}</div> : null}
              {phoneOf(b) ? <div>{phoneOf(b)}</div> : null}
              {b.email ? <div>{b.email}</div> : null}
            </td>
            <td>{g.diet_id ? (diets.get(g.diet_id) ?? `#${g.diet_id}`) : ""}</td>
            <td>{g.level_id ? (levels.get(g.level_id) ?? `#${g.level_id}`) : ""}</td>
            {questions.map((q) => (
              <td data-answer={q.key}>{answer(t, answers[q.key])}</td>
            ))}
            <td>{r.checked_in_at ? fmtDateTime(r.checked_in_at) : ""}</td>
          </tr>
        );
      })}
    </Table>
  );
};

export async function manifestPage(c: AdminContext) {
  const t = stringsOf(c);
  const today = businessToday(c);
  const askedDate = c.req.query("date") ?? "";
  const date = realDate(askedDate) ? askedDate : today;
  const askedProduct = Number(c.req.query("product"));
  const businessId = c.get("staff").business_id;
  let product: Product | undefined;
  let ledger: LedgerRead | undefined;
  const { snap, results } = await readTenant(tenantContext(c), (s) => {
    const list = timeslotProducts(s);
    product = list.find((p) => p.id === askedProduct) ?? list[0];
    if (!product) return [];
    ledger = ledgerRead(c.env.DB, businessId, [product.id], date, date, c.get("now"));
    return [ledger.statement, manifestStatement(c.env.DB, businessId, product.id, date)];
  });
  const products = timeslotProducts(snap);
  const picker = (
    <form class="row no-print" method="get" action={`${base(c)}/manifest`}>
      <Field name="date" type="date" label={t.manifest.date} value={date} />
      <Select name="product" label={t.manifest.product} value={product ? String(product.id) : ""} options={products.map((p) => [String(p.id), p.title])} />
      <button type="submit">{t.manifest.show}</button>
      <button type="button" class="secondary" data-print hidden>
        {t.manifest.print}
      </button>
    </form>
  );
  if (!product || !ledger) {
    return c.html(
      <Layout c={c} title={t.manifest.title} current="manifest">
        <p>{t.manifest.noProducts}</p>
      </Layout>,
    );
  }
  const p = product;
  const led = toLedgers([p.id], ledger.text(results[0])).get(p.id)!;
  const rows = manifestRows(results[1]);
  const scheduled = slotsOn(p, date);
  const times = [...new Set([...scheduled, ...rows.map((r) => r.at.slice(11, 16))])].sort();
  const slots: Slot[] = times.map((time) => {
    const state = slotState(p, led, date, time);
    return { time, capacity: state.capacity, available: state.available, blocked: state.blocked, scheduled: scheduled.includes(time), rows: rows.filter((r) => r.at.slice(11, 16) === time) };
  });
  // The custom questions asked of guests, titled by the settings, and any other answer a guest holds.
  const fields: CustomField[] = snap.business.config.custom_fields ?? [];
  const seen = new Set(rows.flatMap((r) => Object.keys(parse(r.guest_snapshot).custom_fields ?? {})));
  const questions = [
    ...fields.filter((f) => f.applies_to !== "customer" || seen.has(f.key)).map((f) => ({ key: f.key, title: f.title })),
    ...[...seen].filter((k) => !fields.some((f) => f.key === k)).sort().map((k) => ({ key: k, title: k })),
  ];
  return c.html(
    <Layout c={c} title={t.manifest.heading(p.title, date)} current="manifest">
      {picker}
      <p class="hint" id="manifest-legend">
        {t.manifest.legend}
      </p>
      {slots.map((s) => {
        const id = `slot-${s.time.replace(":", "")}`;
        const booked = s.rows.reduce((n, r) => n + r.qty, 0);
        const capacity = s.capacity === null ? t.manifest.unlimited : String(s.capacity);
        return (
          <section class="manifest-slot" data-slot={s.time}>
            <h2 id={id}>
              {t.manifest.slot(s.time)} · <span data-count>{t.manifest.booked(booked, capacity)}</span>
              {s.available !== null && !s.blocked ? <span class="free"> · {t.manifest.free(String(s.available))}</span> : null}
              {s.blocked ? <span class="badge blocked"> {t.manifest.blocked}</span> : !s.scheduled ? <span class="badge"> {t.manifest.notScheduled}</span> : null}
            </h2>
            <SlotTable c={c} slot={s} id={id} questions={questions} snap={snap} />
          </section>
        );
      })}
    </Layout>,
  );
}
