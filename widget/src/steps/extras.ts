import { html, nothing } from "lit";
import type { Cart, PackageItem, PackageRoot } from "../api/client";
import { formatDate } from "../format";
import { allItems, bookableDates, partySize, wholeItemDates, type Selection } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface ExtrasView extends StepBase {
  readonly sel: Selection;
  readonly pkg: PackageRoot | null;
  readonly cart: Cart | null;
  readonly cur: string;
  /** The selection's price, null while unknown. */
  readonly estimate: number | null;
  /** What each chosen extra adds for the whole party, by package item. */
  readonly extraTotals: Record<number, number>;
  go(step: "guests"): void;
}

/** What the step does, through its concern's controller. */
export interface ExtrasActions {
  setItemDates(itemId: number, dates: string[]): void;
}

const partyLabel = (v: ExtrasView) => {
  const n = partySize(v.sel);
  return n === 1 ? v.s.room.guestOne : fill(v.s.room.total, { n });
};

/** The unit price, and once chosen, what the extra adds for this party (sessions × guests, tiers applied). */
function itemPrice(v: ExtrasView, item: PackageItem) {
  const p = item.price ?? item.product.price;
  const unit = p ? fill(v.s.extras.perPerson, { price: v.price(p.value, p.currency) }) : "";
  const total = v.extraTotals[item.package_item_id];
  return html`<span class="price">${unit}</span>${total === undefined
    ? nothing
    : html` · <span class="price" data-extra-total>${fill(v.s.extras.forParty, { price: v.price(total, p?.currency), n: partyLabel(v) })}</span>`}`;
}

/** Per-day choice: a checkbox per date, or for timeslot items a time per date (`included`: an included activity, a time every day). */
function dayPicker(v: ExtrasView, act: ExtrasActions, item: PackageItem, included = false) {
  const x = v.s.extras;
  const chosen = new Set(v.sel.items[item.package_item_id] ?? []);
  const set = (date: string, value: string | null) => {
    const next = [...chosen].filter((d) => d.slice(0, 10) !== date);
    if (value) next.push(value);
    act.setItemDates(item.package_item_id, next.sort());
  };
  return html`<fieldset>
    <legend class="small">${included ? x.pickTimes : x.pickDays}</legend>
    <div class="days">
      ${item.dates.map((d) => {
        const label = formatDate(d.date, v.lang, "short");
        if (d.timeslots) {
          const current = [...chosen].find((c) => c.slice(0, 10) === d.date)?.slice(11, 16) ?? "";
          const id = `slot-${item.package_item_id}-${d.date}`;
          return html`<div class="field">
            <label for=${id} class="small">${label}</label>
            <select id=${id} .value=${current} @change=${(e: Event) => { const t = (e.target as HTMLSelectElement).value; set(d.date, t ? `${d.date} ${t}:00` : null); }}>
              ${included ? nothing : html`<option value="">${x.noTime}</option>`}
              ${d.timeslots.map((t) => html`<option value=${t.time} ?disabled=${t.available < partySize(v.sel)} ?selected=${t.time === current}>${t.time} (${t.available > 0 ? fill(v.s.dates.left, { n: t.available }) : x.soldOut})</option>`)}
            </select>
          </div>`;
        }
        const full = typeof d.available === "number" && d.available <= 0;
        return html`<label class="check">
          <input type="checkbox" .checked=${chosen.has(d.date)} ?disabled=${full} @change=${(e: Event) => set(d.date, (e.target as HTMLInputElement).checked ? d.date : null)} />
          <span>${label}${full ? ` (${x.soldOut})` : ""}</span>
        </label>`;
      })}
    </div>
  </fieldset>`;
}

function optionItem(v: ExtrasView, act: ExtrasActions, item: PackageItem) {
  const selected = !!v.sel.items[item.package_item_id]?.length || (item.is_configurable_dates && item.package_item_id in v.sel.items);
  const none = bookableDates(item).length === 0;
  return html`<div class="card" part="card">
    <label class="check">
      <input type="checkbox" .checked=${selected} ?disabled=${none}
        @change=${(e: Event) => act.setItemDates(item.package_item_id, (e.target as HTMLInputElement).checked ? wholeItemDates(item) : [])} />
      <span class="grow"><strong>${item.product.title}</strong> ${itemPrice(v, item)}
        ${item.product.description ? html`<br /><span class="muted small">${item.product.description}</span>` : nothing}
        ${none ? html`<br /><span class="error-text">${v.s.extras.soldOut}</span>` : nothing}</span>
    </label>
    ${selected && item.is_configurable_dates ? dayPicker(v, act, item) : nothing}
  </div>`;
}

/** A group of alternatives (and its upgrade): one of them, or none. */
function group(v: ExtrasView, act: ExtrasActions, items: PackageItem[], index: number) {
  const x = v.s.extras;
  const chosen = items.find((i) => v.sel.items[i.package_item_id]?.length);
  const pick = (item: PackageItem | null) => {
    for (const i of items) act.setItemDates(i.package_item_id, []);
    if (item) act.setItemDates(item.package_item_id, wholeItemDates(item));
  };
  return html`<fieldset part="card">
    <legend>${items.map((i) => i.product.title).join(" / ")}</legend>
    <label class="check"><input type="radio" name="group-${index}" .checked=${!chosen} @change=${() => pick(null)} /><span>${x.choiceNone}</span></label>
    ${items.map((i) => html`<label class="check">
      <input type="radio" name="group-${index}" .checked=${chosen === i} ?disabled=${bookableDates(i).length === 0} @change=${() => pick(i)} />
      <span><strong>${i.product.title}</strong> ${itemPrice(v, i)}</span>
    </label>`)}
    ${chosen && chosen.is_configurable_dates ? dayPicker(v, act, chosen) : nothing}
  </fieldset>`;
}

export function renderExtras(v: ExtrasView, act: ExtrasActions) {
  const x = v.s.extras;
  const pkg = v.pkg;
  const included = allItems(pkg).filter((i) => i.role === "default");
  const singles = (pkg?.single_items ?? []).filter((i) => i.role !== "default");
  const groups = (pkg?.groups ?? []).map((g) => g.items.filter((i) => i.role !== "default")).filter((g) => g.length);
  return html`${heading(v.s.steps.extras)}
    ${included.length
      ? html`<div><h3>${x.included}</h3><ul class="lines">${included.map((i) => html`<li><span>${i.product.title}</span><span class="muted">${x.included}</span></li>`)}</ul>
          ${included.filter((i) => i.product.is_on_timeslots).map((i) => html`<div class="card" part="card"><strong>${i.product.title}</strong>${dayPicker(v, act, i, true)}</div>`)}</div>`
      : nothing}
    <div class="cards">
      <h3>${x.optional}</h3>
      ${partySize(v.sel) > 1 ? html`<p class="muted small">${x.appliesToAll}</p>` : nothing}
      ${singles.map((i) => optionItem(v, act, i))}
      ${groups.map((g, i) => group(v, act, g, i))}
    </div>
    ${renderEstimate(v)}
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
      <button type="button" class="btn primary" part="button primary-button" @click=${() => v.go("guests")}>${v.s.continue}</button>
    </div>`;
}

/** The selection's price, kept in place (a dash until known) so nothing moves when it arrives. */
function renderEstimate(v: ExtrasView) {
  const currency = v.cart?.status === "open" ? v.cart.currency : v.cur;
  return html`<p class="total" part="total" aria-live="polite">
    <span>${fill(v.s.extras.summary, { n: partyLabel(v) })}</span>
    <span data-estimate>${v.estimate === null ? "—" : v.price(v.estimate, currency)}</span>
  </p>`;
}
