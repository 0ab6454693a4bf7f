import { html, nothing } from "lit";
import type { AccommodationOption, DayEntry, Product, RoomType } from "../api/client";
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
  go(step: "extras"): void;
}

/** What the step does, through its concern's controller. */
export interface RoomActions {
  setParty(part: Part, value: number): void;
  chooseRoom(id: number): void;
  setSrs(on: boolean): void;
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

export function renderRoom(v: RoomView, act: RoomActions) {
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
        ?disabled=${!size || !v.sel.accommodationId || !!v.busy} @click=${() => v.go("extras")}>${v.s.continue}</button>
    </div>`;
}
