import { html, nothing } from "lit";
import type { DayEntry, Product, RoomType } from "../api/client";
import { formatDate, formatMonth, formatShortPrice, formatWeekdayList, weekdayNames, addDays } from "../format";
import { dayTakesParty, durationChoices, monthGrid, withRooms, type Selection } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

export interface DatesView extends StepBase {
  readonly cur: string;
  readonly today: string;
  /** The first day of the month shown. */
  readonly month: string;
  readonly days: Record<string, DayEntry>;
  readonly roomTypes: RoomType[];
  readonly sel: Selection;
  readonly calFocus: string | null;
  readonly stayEnd: string | null;
  readonly currentProduct: Product | null;
  /** No way back to a product list when the widget was given its product. */
  readonly productFixed: boolean;
}

/** What the step does, through its concern's controller. */
export interface DatesActions {
  showMonth(month: string): void;
  pickDate(date: string): void;
  setDuration(nights: number): void;
  moveCalendarFocus(date: string): void;
  toRooms(): void;
}

const WEEKDAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** Why a day cannot be a check-in, or null when it can. */
export function closedReason(v: Pick<DatesView, "s" | "today" | "currentProduct" | "roomTypes" | "sel">, date: string, entry: DayEntry | undefined): string | null {
  const d = v.s.dates;
  if (date < v.today) return d.reasonPast;
  if (!entry) return null;
  // a day on timeslots is open while one of its times has a place
  if (entry.available_for_checkin ?? entry.timeslots?.some((t) => t.available > 0)) return dayTakesParty(entry, v.roomTypes, v.sel) ? null : d.reasonNoRoom;
  if (entry.blocked) return d.reasonBlocked;
  const allowed = v.currentProduct?.allowed_checkin_days;
  const weekday = WEEKDAY_KEYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
  if (allowed && allowed[weekday] === false) return d.reasonWeekday;
  return d.reasonSoldOut;
}

function monthShift(month: string, delta: number): string {
  const d = new Date(`${month.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + delta);
  return d.toISOString().slice(0, 10);
}

const KEY_DAYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7, PageUp: -28, PageDown: 28 };

function onKey(v: DatesView, act: DatesActions, e: KeyboardEvent) {
  const date = (e.target as HTMLElement).dataset?.date;
  if (!date || !(e.key in KEY_DAYS)) return;
  e.preventDefault();
  act.moveCalendarFocus(addDays(date, KEY_DAYS[e.key]));
}

/**
 * The calendar. Before the first answer (no product yet) the same layout renders empty, as the
 * first screen's skeleton: what arrives then fills it in place, and nothing on the page moves.
 */
export function renderDates(v: DatesView, act: DatesActions) {
  const product = v.currentProduct;
  const d = v.s.dates;
  const today = v.today;
  const month = v.month || `${(today || new Date().toISOString()).slice(0, 7)}-01`;
  const weeks = monthGrid(month);
  const names = weekdayNames(v.lang);
  const reason = (date: string) => closedReason(v, date, v.days[date]);
  const open = weeks.flat().filter((c) => c.inMonth && !reason(c.date) && v.days[c.date]);
  const focusDate = v.calFocus && v.calFocus.slice(0, 7) === month.slice(0, 7) ? v.calFocus
    : v.sel.startDate && v.sel.startDate.slice(0, 7) === month.slice(0, 7) ? v.sel.startDate
    : open[0]?.date ?? weeks.flat().find((c) => c.inMonth && c.date >= today)?.date;
  const checkinDays = Object.entries(product?.allowed_checkin_days ?? {}).filter(([, on]) => on).map(([k]) => k);
  const choices = product ? durationChoices(product) : [];
  const loading = v.busy === "calendar";
  // a stay (with a room) counts nights from a check-in; anything else the days it covers
  const stay = !product || withRooms(product, v.roomTypes);
  const start = v.sel.startDate;

  return html`${heading(product ? v.s.steps.dates : v.s.loading)}
    <p class="muted">${product?.title ?? "\u00a0"}</p>
    <div class="field" ?hidden=${!stay && choices.length < 2}>
      <label for="duration">${stay ? d.duration : d.durationDays}</label>
      <select id="duration" .value=${String(v.sel.duration)} @change=${(e: Event) => act.setDuration(Number((e.target as HTMLSelectElement).value))}>
        ${choices.map((n) => html`<option value=${n} ?selected=${n === v.sel.duration}>${fill(n === 1 ? (stay ? d.night : d.day) : stay ? d.nights : d.days, { n })}</option>`)}
      </select>
    </div>
    <div part="calendar">
      <div class="cal-head">
        <button type="button" class="btn cal-nav" part="button" aria-label=${d.prevMonth} ?disabled=${month.slice(0, 7) <= today.slice(0, 7)}
          @click=${() => act.showMonth(monthShift(month, -1))}>‹</button>
        <span class="month" id="cal-month" aria-live="polite">${formatMonth(month, v.lang)}</span>
        <button type="button" class="btn cal-nav" part="button" aria-label=${d.nextMonth} @click=${() => act.showMonth(monthShift(month, 1))}>›</button>
      </div>
      <table class="cal" role="grid" aria-labelledby="cal-month" aria-busy=${loading ? "true" : "false"} @keydown=${(e: KeyboardEvent) => onKey(v, act, e)}>
        <thead><tr>${names.map((n) => html`<th scope="col" abbr=${n}>${n}</th>`)}</tr></thead>
        <tbody>
          ${weeks.map((week) => html`<tr>
            ${week.map((cell) => {
              if (!cell.inMonth) return html`<td role="gridcell"></td>`;
              const n = Number(cell.date.slice(8));
              // past days: plain cells, no control to tab or press
              if (cell.date < today) return html`<td role="gridcell" aria-disabled="true"><span class="day past">${n}</span></td>`;
              const entry = v.days[cell.date];
              if (!entry) return html`<td role="gridcell"><span class="day skeleton" aria-hidden="true"></span></td>`;
              const why = reason(cell.date);
              const selected = v.sel.startDate === cell.date;
              const price = !why && entry.price != null ? formatShortPrice(entry.price, v.cur, v.lang) : "";
              // the cell is the control (a grid's cells are), with one label: the date and its price or why it is closed
              const label = `${formatDate(cell.date, v.lang, "long")}${why ? `, ${why}` : price ? `, ${price} ${d.perPerson}` : ""}`;
              const pick = () => why || act.pickDate(cell.date);
              return html`<td role="gridcell" data-date=${cell.date} class=${why ? "closed" : "open"} tabindex=${cell.date === focusDate ? 0 : -1}
                aria-label=${label} aria-selected=${selected ? "true" : "false"} aria-disabled=${why ? "true" : nothing}
                @click=${pick} @keydown=${(e: KeyboardEvent) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } }}>
                <span class="day" part="day" aria-hidden="true"><span class="n">${n}</span><span class="p">${price || "\u00a0"}</span></span>
              </td>`;
            })}
          </tr>`)}
        </tbody>
      </table>
      <div class="legend"><span>${d.legendAvailable}</span><span>${d.legendUnavailable}</span>
        ${checkinDays.length && checkinDays.length < 7 ? html`<span>${fill(stay ? d.checkinDays : d.startDays, { days: formatWeekdayList(checkinDays, v.lang) })}</span>` : nothing}
      </div>
    </div>
    <p class="picked" aria-live="polite">${!start
      ? stay ? d.pick : d.pickDay
      : fill(stay ? d.selected : v.sel.duration > 1 ? d.selectedDays : d.selectedDay, { date: formatDate(start, v.lang), end: formatDate(v.stayEnd!, v.lang), last: formatDate(addDays(v.stayEnd!, -1), v.lang) })}</p>
    <div class="actions">
      ${v.productFixed ? html`<span></span>` : html`<button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>`}
      <button type="button" class="btn primary" part="button primary-button" ?disabled=${!v.sel.startDate || !!v.busy}
        @click=${() => act.toRooms()}>${v.s.continue}</button>
    </div>`;
}
