import { html, nothing } from "lit";
import type { AccommodationOption, DayEntry, PackageRoot, Product, RoomType } from "../api/client";
import { partySize, soldOutTypes, type Selection } from "../selection";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";

type Part = "males" | "females" | "couples";

export interface RoomView extends StepBase {
  readonly sel: Selection;
  readonly currentProduct: Product | null;
  readonly rooms: AccommodationOption[] | null;
  readonly days: Record<string, DayEntry>;
  readonly roomTypes: RoomType[];
  readonly pkg: PackageRoot | null;
  /** Booked with a room (the party by gender), or by participants. */
  readonly byRoom: boolean;
  next(): void;
}

/** What the step does, through its concern's controller. */
export interface RoomActions {
  setParty(part: Part, value: number): void;
  chooseRoom(id: number): void;
  setSrs(on: boolean): void;
  chooseTime(time: string): void;
}

function stepper(v: RoomView, act: RoomActions, part: Part) {
  const r = v.s.room;
  const value = v.sel[part];
  const max = v.currentProduct?.pax.max ?? 20;
  const grow = part === "couples" ? 2 : 1;
  return html`<div class="stepper">
    <div><span id="party-${part}" class="label">${r[part]}</span><br /><span class="muted small">${r[`${part}_hint`]}</span></div>
    <div class="ctl" role="group" aria-labelledby="party-${part}">
      <button type="button" class="btn" part="button" aria-label=${fill(r.decrease, { what: r[part] })} ?disabled=${value === 0}
        @click=${() => act.setParty(part, value - 1)}>−</button>
      <output aria-live="polite" aria-labelledby="party-${part}">${value}</output>
      <button type="button" class="btn" part="button" aria-label=${fill(r.increase, { what: r[part] })} ?disabled=${partySize(v.sel) + grow > max}
        @click=${() => act.setParty(part, value + 1)}>+</button>
    </div>
  </div>`;
}

/** A sold-out room type stays in the list, as sold out: the guest sees it exists and why it cannot be had. */
function soldOut(v: RoomView) {
  const day = v.sel.startDate ? v.days[v.sel.startDate] : undefined;
  return soldOutTypes(day, v.roomTypes, v.sel).map((t) => html`<label class="option" part="card" data-sold-out>
      <input type="radio" name="room" disabled />
      <span class="grow"><strong>${t.title}</strong><span class="muted small">${v.s.room.soldOut}</span></span>
    </label>`);
}

/**
 * A product without a room (an activity, a course, a rental, a package without a room): how
 * many take part, and for a product on timeslots the time, each with its places left; the
 * price for one and for all before anything is added.
 */
function renderParticipants(v: RoomView, act: RoomActions) {
  const r = v.s.room;
  const p = v.currentProduct;
  const n = v.sel.males;
  const rental = p?.type === "rental";
  // a rental's pax are per unit: any number of units, one per guest
  const max = rental ? 20 : (p?.pax.max ?? 20);
  const min = rental ? 1 : (p?.pax.min ?? 1);
  const own = p?.type === "package" ? undefined : v.pkg?.single_items[0];
  const slots = p?.is_on_timeslots ? (own?.dates[0]?.timeslots ?? []) : null;
  const chosen = own ? v.sel.items[own.package_item_id]?.[0]?.slice(11, 16) : undefined;
  const day = v.sel.startDate ? v.days[v.sel.startDate] : undefined;
  const each = day?.price ?? null;
  const label = rental ? r.units : r.participants;
  const ready = n >= min && (!slots || !!chosen);
  return html`${heading(rental ? r.unitsTitle : r.participantsTitle)}
    <fieldset>
      <legend>${label}</legend>
      <div class="stepper">
        <div><span id="party-n" class="label">${label}</span><br /><span class="muted small">${fill(r.between, { min, max })}</span></div>
        <div class="ctl" role="group" aria-labelledby="party-n">
          <button type="button" class="btn" part="button" aria-label=${fill(r.decrease, { what: label })} ?disabled=${n <= 0} @click=${() => act.setParty("males", n - 1)}>−</button>
          <output aria-live="polite" aria-labelledby="party-n">${n}</output>
          <button type="button" class="btn" part="button" aria-label=${fill(r.increase, { what: label })} ?disabled=${n + 1 > max} @click=${() => act.setParty("males", n + 1)}>+</button>
        </div>
      </div>
    </fieldset>
    ${slots
      ? html`<fieldset>
          <legend>${r.time}</legend>
          ${slots.length === 0 ? html`<p>${r.noTimes}</p>` : nothing}
          <div class="cards">
            ${slots.map((t) => html`<label class="option" part="card">
              <input type="radio" name="time" value=${t.time} .checked=${chosen === t.time} ?disabled=${t.available < Math.max(1, n)} @change=${() => act.chooseTime(t.time)} />
              <span class="grow"><strong>${t.time}</strong><span class="muted small">${t.available > 0 ? fill(r.placesLeft, { n: t.available }) : r.soldOut}</span></span>
            </label>`)}
          </div>
        </fieldset>`
      : nothing}
    <p class="total" part="total" aria-live="polite">
      <span>${each === null ? "" : fill(rental ? r.perUnit : r.perPerson, { price: v.price(each) })}</span>
      <span data-estimate>${each === null || n === 0 ? "—" : v.price(Math.round(each * n * 100) / 100)}</span>
    </p>
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
      <button type="button" class="btn primary" part="button primary-button" ?disabled=${!ready || !!v.busy} @click=${() => v.next()}>${v.s.continue}</button>
    </div>`;
}

export function renderRoom(v: RoomView, act: RoomActions) {
  if (!v.byRoom) return renderParticipants(v, act);
  const r = v.s.room;
  const size = partySize(v.sel);
  const rooms = v.rooms;
  const loading = v.busy === "rooms" || (rooms === null && size > 0);
  return html`${heading(v.s.steps.room)}
    <fieldset>
      <legend>${r.party}</legend>
      ${stepper(v, act, "males")}${stepper(v, act, "females")}${stepper(v, act, "couples")}
      <p class="muted" aria-live="polite">${size === 1 ? r.guestOne : size ? fill(r.total, { n: size }) : r.partyEmpty}</p>
    </fieldset>
    <fieldset aria-busy=${loading ? "true" : "false"}>
      <legend>${r.rooms}</legend>
      ${loading
        ? html`<div class="skeleton-block short"></div>`
        : !rooms || rooms.length === 0
          ? html`<p>${size ? r.noRooms : r.partyEmpty}</p>${soldOut(v)}`
          : html`<div class="cards">
              ${rooms.map((opt) => {
                const p = opt.product;
                const checked = v.sel.accommodationId === p.id;
                const kind = p.is_private ? r.private : p.gender ? (r as Record<string, string>)[`gender_${p.gender}`] ?? "" : "";
                const price = fill(opt.price.type === "room" ? r.perRoom : r.perPerson, { price: v.price(opt.price.value, opt.price.currency) });
                return html`<label class="option" part="card">
                    <input type="radio" name="room" .checked=${checked} value=${p.id} @change=${() => act.chooseRoom(p.id)} />
                    <span class="grow">
                      <strong>${p.title}</strong>
                      <span class="muted small">${[kind, fill(r.available, { n: opt.available })].filter(Boolean).join(" · ")}</span>
                      <span class="small">${p.description}</span>
                    </span>
                    <span class="price">${price}</span>
                  </label>
                  ${checked && p.srs
                    ? html`<label class="check">
                        <input type="checkbox" .checked=${v.sel.srs} @change=${(e: Event) => act.setSrs((e.target as HTMLInputElement).checked)} />
                        <span>${fill(r.srs, { price: v.price(p.srs.charge, opt.price.currency) })}${p.srs.fixed ? "" : ` ${r.srsPerBed}`}</span>
                      </label>`
                    : nothing}`;
              })}
              ${soldOut(v)}
            </div>`}
    </fieldset>
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => v.back()}>${v.s.back}</button>
      <button type="button" class="btn primary" part="button primary-button"
        ?disabled=${!size || !v.sel.accommodationId || !!v.busy} @click=${() => v.next()}>${v.s.continue}</button>
    </div>`;
}
