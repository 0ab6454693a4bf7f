import { html, nothing } from "lit";
import type { DayEntry } from "../api/client";
import { durationChoices, type BookingWidget } from "../booking-widget.component";
import { addDays, formatDate, formatMonth, formatShortPrice, formatWeekdayList, weekdayNames } from "../format";
import { monthGrid } from "../selection";
import { fill } from "../strings";

const WEEKDAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** Why a day cannot be a check-in, or null when it can. */
export function closedReason(w: BookingWidget, date: string, entry: DayEntry | undefined): string | null {
  const d = w.s.dates;
  if (date < (w.boot?.today ?? "")) return d.reasonPast;
  if (!entry) return null;
  if (entry.available_for_checkin) return null;
  if (entry.blocked) return d.reasonBlocked;
  const allowed = w.currentProduct?.allowed_checkin_days;
  const weekday = WEEKDAY_KEYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
  if (allowed && allowed[weekday] === false) return d.reasonWeekday;
  return d.reasonSoldOut;
}

function monthShift(month: string, delta: number): string {
  const d = new Date(`${month.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + delta);
  return d.toISOString().slice(0, 10);
}

async function moveFocus(w: BookingWidget, from: string, delta: number) {
  const target = addDays(from, delta);
  if (target < (w.boot?.today ?? "")) return;
  if (target.slice(0, 7) !== w.month.slice(0, 7)) await w.showMonth(`${target.slice(0, 7)}-01`);
  w.calFocus = target;
  w.requestUpdate();
  await w.updateComplete;
  w.renderRoot.querySelector<HTMLElement>(`button[data-date="${target}"]`)?.focus();
}

function onKey(w: BookingWidget, e: KeyboardEvent) {
  const date = (e.target as HTMLElement).dataset?.date;
  if (!date) return;
  const deltas: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7, PageUp: -28, PageDown: 28 };
  if (e.key in deltas) {
    e.preventDefault();
    void moveFocus(w, date, deltas[e.key]);
  }
}

export function renderDates(w: BookingWidget) {
  const product = w.currentProduct!;
  const d = w.s.dates;
  const today = w.boot?.today ?? "";
  const month = w.month || `${today.slice(0, 7)}-01`;
  const weeks = monthGrid(month);
  const names = weekdayNames(w.lang);
  const open = weeks.flat().filter((c) => c.inMonth && !closedReason(w, c.date, w.days[c.date]) && w.days[c.date]);
  const focusDate = w.calFocus && w.calFocus.slice(0, 7) === month.slice(0, 7) ? w.calFocus
    : w.sel.startDate && w.sel.startDate.slice(0, 7) === month.slice(0, 7) ? w.sel.startDate
    : open[0]?.date ?? weeks.flat().find((c) => c.inMonth && c.date >= today)?.date;
  const checkinDays = Object.entries(product.allowed_checkin_days ?? {}).filter(([, v]) => v).map(([k]) => k);
  const choices = durationChoices(product);
  const loading = w.busy === "calendar";

  return html`${w.heading(w.s.steps.dates)}
    <p class="muted">${product.title}</p>
    <div class="field">
      <label for="duration">${d.duration}</label>
      <select id="duration" .value=${String(w.sel.duration)} @change=${(e: Event) => void w.setDuration(Number((e.target as HTMLSelectElement).value))}>
        ${choices.map((n) => html`<option value=${n} ?selected=${n === w.sel.duration}>${n === 1 ? d.night : fill(d.nights, { n })}</option>`)}
      </select>
    </div>
    <div part="calendar">
      <div class="cal-head">
        <button type="button" class="btn cal-nav" part="button" aria-label=${d.prevMonth} ?disabled=${month.slice(0, 7) <= today.slice(0, 7)}
          @click=${() => void w.showMonth(monthShift(month, -1))}>‹</button>
        <span class="month" id="cal-month" aria-live="polite">${formatMonth(month, w.lang)}</span>
        <button type="button" class="btn cal-nav" part="button" aria-label=${d.nextMonth} @click=${() => void w.showMonth(monthShift(month, 1))}>›</button>
      </div>
      <table class="cal" role="grid" aria-labelledby="cal-month" aria-busy=${loading ? "true" : "false"} @keydown=${(e: KeyboardEvent) => onKey(w, e)}>
        <thead><tr>${names.map((n) => html`<th scope="col" abbr=${n}>${n}</th>`)}</tr></thead>
        <tbody>
          ${weeks.map((week) => html`<tr>
            ${week.map((cell) => {
              if (!cell.inMonth) return html`<td role="gridcell"><span class="day other" aria-hidden="true"></span></td>`;
              const entry = w.days[cell.date];
              if (!entry && cell.date >= today) return html`<td role="gridcell"><span class="day skeleton" aria-hidden="true"></span></td>`;
              const reason = closedReason(w, cell.date, entry);
              const selected = w.sel.startDate === cell.date;
              const price = !reason && entry?.price != null ? formatShortPrice(entry.price, w.cur, w.lang) : "";
              const label = `${formatDate(cell.date, w.lang, "long")}${reason ? `, ${reason}` : price ? `, ${price} ${d.perPerson}` : ""}`;
              return html`<td role="gridcell" aria-selected=${selected ? "true" : "false"}>
                <button type="button" part="day" data-date=${cell.date} class="day ${reason ? "closed" : "open"}"
                  tabindex=${cell.date === focusDate ? 0 : -1} aria-label=${label} aria-pressed=${selected ? "true" : "false"}
                  aria-disabled=${reason ? "true" : "false"} title=${reason ?? ""}
                  @click=${() => { if (!reason) { w.calFocus = cell.date; void w.pickDate(cell.date); } }}>
                  <span class="n" aria-hidden="true">${Number(cell.date.slice(8))}</span>
                  <span class="p" aria-hidden="true">${price || "\u00a0"}</span>
                </button>
              </td>`;
            })}
          </tr>`)}
        </tbody>
      </table>
      <div class="legend"><span>${d.legendAvailable}</span><span>${d.legendUnavailable}</span>
        ${checkinDays.length && checkinDays.length < 7 ? html`<span>${fill(d.checkinDays, { days: formatWeekdayList(checkinDays, w.lang) })}</span>` : nothing}
      </div>
    </div>
    <p aria-live="polite">${w.sel.startDate
      ? fill(d.selected, { date: formatDate(w.sel.startDate, w.lang), end: formatDate(w.stayEnd!, w.lang) })
      : d.pick}</p>
    <div class="actions">
      ${w.product ? html`<span></span>` : html`<button type="button" class="btn" part="button" @click=${() => w.back()}>${w.s.back}</button>`}
      <button type="button" class="btn primary" part="button primary-button" ?disabled=${!w.sel.startDate || !!w.busy}
        @click=${() => { w.go("room"); void w.loadRooms(); }}>${w.s.continue}</button>
    </div>`;
}
