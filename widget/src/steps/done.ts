import { html, nothing } from "lit";
import type { Confirmation, PaymentPhase } from "../controllers/store";
import { fill } from "../strings";
import { heading, type StepBase } from "./parts";
import { renderStays } from "./summary";

export interface DoneView extends StepBase {
  readonly booking: Confirmation | null;
  /** The business, as the guest knows it. */
  readonly company: string;
  /** Paying online: the way to the payment page, or back from it and waiting for the service. */
  readonly paying: PaymentPhase | null;
}

/** What the step does, through its concern's controller. */
export interface DoneActions {
  startOver(): void;
  /** Ask the service again whether the payment arrived. */
  checkPayment(): void;
  /** Hold the same selection again (after the payment page expired). */
  tryAgain(): void;
}

/** Back from the payment page, before the service has booked the cart (or after it let it go). */
function renderPaying(v: DoneView, act: DoneActions) {
  const p = v.s.payment;
  const phase = v.paying ?? "confirming";
  if (phase === "redirecting" || phase === "confirming") {
    return html`${heading(p[phase])}<div class="card" part="card" aria-busy="true" data-payment-confirming><p>${p[phase]}</p></div>`;
  }
  if (phase === "slow") {
    return html`${heading(p.confirming)}<p data-payment-slow>${p.slow}</p>
      <div class="actions"><span class="spacer"></span><button type="button" class="btn primary" part="button primary-button" @click=${() => act.checkPayment()}>${p.checkAgain}</button></div>`;
  }
  return html`${heading(v.s.steps.done)}<p data-payment-failed>${p[phase]}</p>
    <div class="actions">
      <button type="button" class="btn" part="button" @click=${() => act.startOver()}>${v.s.done.another}</button>
      <span class="spacer"></span>
      ${phase === "expired" ? html`<button type="button" class="btn primary" part="button primary-button" @click=${() => act.tryAgain()}>${p.tryAgain}</button>` : nothing}
    </div>`;
}

export function renderDone(v: DoneView, act: DoneActions) {
  if (!v.booking) return renderPaying(v, act);
  const b = v.booking;
  const paid = b.paid !== undefined
    ? b.paid < b.total
      ? fill(v.s.payment.paidDue, { paid: v.price(b.paid, b.currency), due: v.price(Math.round((b.total - b.paid) * 100) / 100, b.currency) })
      : fill(v.s.payment.paidAll, { paid: v.price(b.paid, b.currency) })
    : null;
  return html`${heading(v.s.steps.done)}
    <p>${b.booker ? fill(v.s.done.thanks, { name: b.booker.first_name }) : v.s.done.confirmed}</p>
    <div class="card" part="card">
      <p class="muted">${v.s.done.reference}</p>
      <p class="ref" data-booking-reference>${b.reference}</p>
    </div>
    ${renderStays(v, b)}
    <p data-payment>${paid ?? fill(v.s.done.payment, { company: v.company })}</p>
    ${b.confirmation_email ? html`<p data-confirmation-email>${fill(v.s.done.emailed, { email: b.confirmation_email })}</p>` : nothing}
    <div class="actions"><span class="spacer"></span>
      <button type="button" class="btn" part="button" @click=${() => act.startOver()}>${v.s.done.another}</button>
    </div>`;
}
