import { html, nothing } from "lit";
import type { BookingWidget } from "../booking-widget.component";
import { partySize } from "../selection";
import { fill } from "../strings";

function stepper(w: BookingWidget, part: "males" | "females" | "couples") {
  const r = w.s.room;
  const value = w.sel[part];
  const max = w.currentProduct?.pax.max ?? 20;
  const grow = part === "couples" ? 2 : 1;
  return html`<div class="stepper">
    <div><span id="party-${part}" class="label">${r[part]}</span><br /><span class="muted small">${r[`${part}_hint`]}</span></div>
    <div class="ctl" role="group" aria-labelledby="party-${part}">
      <button type="button" class="btn" part="button" aria-label=${fill(r.decrease, { what: r[part] })} ?disabled=${value === 0}
        @click=${() => w.setParty(part, value - 1)}>−</button>
      <output aria-live="polite" aria-labelledby="party-${part}">${value}</output>
      <button type="button" class="btn" part="button" aria-label=${fill(r.increase, { what: r[part] })} ?disabled=${partySize(w.sel) + grow > max}
        @click=${() => w.setParty(part, value + 1)}>+</button>
    </div>
  </div>`;
}

export function renderRoom(w: BookingWidget) {
  const r = w.s.room;
  const size = partySize(w.sel);
  const rooms = w.rooms;
  const loading = w.busy === "rooms" || (rooms === null && size > 0);
  return html`${w.heading(w.s.steps.room)}
    <fieldset>
      <legend>${r.party}</legend>
      ${stepper(w, "males")}${stepper(w, "females")}${stepper(w, "couples")}
      <p class="muted" aria-live="polite">${size === 1 ? r.guestOne : size ? fill(r.total, { n: size }) : r.partyEmpty}</p>
    </fieldset>
    <fieldset aria-busy=${loading ? "true" : "false"}>
      <legend>${r.rooms}</legend>
      ${loading
        ? html`<div class="skeleton-block" style="min-height:8rem"></div>`
        : !rooms || rooms.length === 0
          ? html`<p>${size ? r.noRooms : r.partyEmpty}</p>`
          : html`<div class="cards">
              ${rooms.map((opt) => {
                const p = opt.product;
                const checked = w.sel.accommodationId === p.id;
                const kind = p.is_private ? r.private : p.gender ? (r as Record<string, string>)[`gender_${p.gender}`] ?? "" : "";
                const price = fill(opt.price.type === "room" ? r.perRoom : r.perPerson, { price: w.price(opt.price.value, opt.price.currency) });
                return html`<label class="option" part="card">
                    <input type="radio" name="room" .checked=${checked} value=${p.id}
                      @change=${() => (w.sel = { ...w.sel, accommodationId: p.id, srs: false })} />
                    <span class="grow">
                      <strong>${p.title}</strong>
                      <span class="muted small">${[kind, fill(r.available, { n: opt.available })].filter(Boolean).join(" · ")}</span>
                      <span class="small">${p.description}</span>
                    </span>
                    <span class="price">${price}</span>
                  </label>
                  ${checked && p.srs
                    ? html`<label class="check">
                        <input type="checkbox" .checked=${w.sel.srs} @change=${(e: Event) => (w.sel = { ...w.sel, srs: (e.target as HTMLInputElement).checked })} />
                        <span>${fill(r.srs, { price: w.price(p.srs.charge, opt.price.currency) })}${p.srs.fixed ? "" : ` ${r.srsPerBed}`}</span>
                      </label>`
                    : nothing}`;
              })}
            </div>`}
    </fieldset>
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => w.back()}>${w.s.back}</button>
      <button type="button" class="btn primary" part="button primary-button"
        ?disabled=${!size || !w.sel.accommodationId || !!w.busy} @click=${() => w.go("extras")}>${w.s.continue}</button>
    </div>`;
}
