import { html, nothing } from "lit";
import type { PackageItem } from "../api/client";
import type { BookingWidget } from "../booking-widget.component";
import { formatDate } from "../format";
import { allItems, bookableDates, partySize, wholeItemDates } from "../selection";
import { fill } from "../strings";

function itemPrice(w: BookingWidget, item: PackageItem) {
  const p = item.price ?? item.product.price;
  return p ? fill(w.s.extras.perPerson, { price: w.price(p.value, p.currency) }) : "";
}

/** Per-day choice: a checkbox per date, or for timeslot items a time per date. */
function dayPicker(w: BookingWidget, item: PackageItem) {
  const x = w.s.extras;
  const chosen = new Set(w.sel.items[item.package_item_id] ?? []);
  const set = (date: string, value: string | null) => {
    const next = [...chosen].filter((d) => d.slice(0, 10) !== date);
    if (value) next.push(value);
    w.setItemDates(item.package_item_id, next.sort());
  };
  return html`<fieldset>
    <legend class="small">${x.pickDays}</legend>
    <div class="days">
      ${item.dates.map((d) => {
        const label = formatDate(d.date, w.lang, "short");
        if (d.timeslots) {
          const current = [...chosen].find((c) => c.slice(0, 10) === d.date)?.slice(11, 16) ?? "";
          const id = `slot-${item.package_item_id}-${d.date}`;
          return html`<div class="field" style="min-width:9rem">
            <label for=${id} class="small">${label}</label>
            <select id=${id} .value=${current} @change=${(e: Event) => { const t = (e.target as HTMLSelectElement).value; set(d.date, t ? `${d.date} ${t}:00` : null); }}>
              <option value="">${x.noTime}</option>
              ${d.timeslots.map((t) => html`<option value=${t.time} ?disabled=${t.available <= 0} ?selected=${t.time === current}>${t.time}${t.available <= 0 ? ` (${x.soldOut})` : ""}</option>`)}
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

function optionItem(w: BookingWidget, item: PackageItem) {
  const selected = !!w.sel.items[item.package_item_id]?.length || (item.is_configurable_dates && item.package_item_id in w.sel.items);
  const none = bookableDates(item).length === 0;
  return html`<div class="card" part="card">
    <label class="check">
      <input type="checkbox" .checked=${selected} ?disabled=${none}
        @change=${(e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          w.setItemDates(item.package_item_id, on ? (item.is_configurable_dates ? wholeItemDates(item) : wholeItemDates(item)) : []);
        }} />
      <span class="grow"><strong>${item.product.title}</strong> <span class="price">${itemPrice(w, item)}</span>
        ${item.product.description ? html`<br /><span class="muted small">${item.product.description}</span>` : nothing}
        ${none ? html`<br /><span class="error-text">${w.s.extras.soldOut}</span>` : nothing}</span>
    </label>
    ${selected && item.is_configurable_dates ? dayPicker(w, item) : nothing}
  </div>`;
}

/** A group of alternatives (and its upgrade): one of them, or none. */
function group(w: BookingWidget, items: PackageItem[], index: number) {
  const x = w.s.extras;
  const chosen = items.find((i) => w.sel.items[i.package_item_id]?.length);
  const pick = (item: PackageItem | null) => {
    for (const i of items) w.setItemDates(i.package_item_id, []);
    if (item) w.setItemDates(item.package_item_id, wholeItemDates(item));
  };
  return html`<fieldset part="card">
    <legend>${items.map((i) => i.product.title).join(" / ")}</legend>
    <label class="check"><input type="radio" name="group-${index}" .checked=${!chosen} @change=${() => pick(null)} /><span>${x.choiceNone}</span></label>
    ${items.map((i) => html`<label class="check">
      <input type="radio" name="group-${index}" .checked=${chosen === i} ?disabled=${bookableDates(i).length === 0} @change=${() => pick(i)} />
      <span><strong>${i.product.title}</strong> <span class="price">${itemPrice(w, i)}</span></span>
    </label>`)}
    ${chosen && chosen.is_configurable_dates ? dayPicker(w, chosen) : nothing}
  </fieldset>`;
}

export function renderExtras(w: BookingWidget) {
  const x = w.s.extras;
  const pkg = w.pkg;
  const included = allItems(pkg).filter((i) => i.role === "default");
  const singles = (pkg?.single_items ?? []).filter((i) => i.role !== "default");
  const groups = (pkg?.groups ?? []).map((g) => g.items.filter((i) => i.role !== "default")).filter((g) => g.length);
  return html`${w.heading(w.s.steps.extras)}
    ${included.length
      ? html`<div><h3>${x.included}</h3><ul class="lines">${included.map((i) => html`<li><span>${i.product.title}</span><span class="muted">${x.included}</span></li>`)}</ul></div>`
      : nothing}
    <div class="cards">
      <h3>${x.optional}</h3>
      ${partySize(w.sel) > 1 ? html`<p class="muted small">${x.appliesToAll}</p>` : nothing}
      ${singles.map((i) => optionItem(w, i))}
      ${groups.map((g, i) => group(w, g, i))}
    </div>
    ${renderEstimate(w)}
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => w.back()}>${w.s.back}</button>
      <button type="button" class="btn primary" part="button primary-button" @click=${() => w.go("guests")}>${w.s.continue}</button>
    </div>`;
}

/** The selection's price, kept in place (a dash until known) so nothing moves when it arrives. */
export function renderEstimate(w: BookingWidget) {
  const currency = w.cart?.status === "open" ? w.cart.currency : w.cur;
  return html`<p class="total" part="total" aria-live="polite">
    <span>${fill(w.s.extras.summary, { n: partySize(w.sel) === 1 ? w.s.room.guestOne : fill(w.s.room.total, { n: partySize(w.sel) }) })}</span>
    <span data-estimate>${w.estimate === null ? "—" : w.price(w.estimate, currency)}</span>
  </p>`;
}
