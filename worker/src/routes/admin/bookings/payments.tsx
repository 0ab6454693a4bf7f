/** @jsxImportSource hono/jsx */
/**
 * A booking's payments on its page (issue 31): the amounts (paid, refunded, balance due, payment
 * status), the ledger, the form to record a payment (front desk and up) and the refund form
 * (managers and owners: the front desk is not shown it, and its POST is refused). The changes are
 * manage/payments.ts's, as the private API's.
 */
import { MANUAL_METHODS } from "../../../contract/payments";
import type { PaymentRow } from "../../../db/payments";
import type { BookingRow } from "../../../db/bookings";
import { Csrf, Field, FormError, Select, fmtDateTime, stringsOf, type AdminContext } from "../kit/kit";
import { Table } from "../kit/table";
import { bookingPayments, formatAmount, formatMoney } from "./money";
import type { Dues } from "../../../domain/payment-policy";
import { depositOwed, type SuggestedRefund } from "../../../domain/booking-dues";

export interface PaymentForm {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
}

export function PaymentsSection(props: {
  c: AdminContext;
  booking: BookingRow;
  ledger: PaymentRow[];
  root: string;
  mayRefund: boolean;
  payment?: PaymentForm;
  refund?: PaymentForm;
  link?: PaymentForm;
  /** What the payment policy asks of the booking (domain/booking-dues.ts). */
  dues?: Dues;
  /** A cancelled booking: the refund its cancellation terms suggest (prefilled in the refund form). */
  suggested?: SuggestedRefund | null;
}) {
  const { c, booking, ledger, root } = props;
  const t = stringsOf(c).payments;
  const sums = bookingPayments(booking, ledger);
  const cur = booking.currency;
  const pv = props.payment?.values ?? {};
  const rv = props.refund?.values ?? {};
  const refundable = ledger.filter((e) => e.kind === "payment" && e.status === "succeeded");
  const tp = stringsOf(c).policy;
  const dues = props.dues;
  const owedDeposit = dues ? depositOwed(dues, sums.net_paid) : null;
  const suggested = props.suggested;
  // the refund form is prefilled with the suggestion (a refund of nothing is no refund)
  const refundAmount = rv.amount ?? (suggested && suggested.left_minor > 0 ? formatAmount(suggested.left_minor, cur) : "");
  return (
    <section data-payments>
      <h2 id="payments-heading">{t.title}</h2>
      <dl class="facts" data-payment-sums>
        <dt>{t.total}</dt>
        <dd data-total>{formatMoney(sums.total, cur)}</dd>
        <dt>{t.paid}</dt>
        <dd data-paid>{formatMoney(sums.amount_paid, cur)}</dd>
        <dt>{t.refunded}</dt>
        <dd data-refunded>{formatMoney(sums.amount_refunded, cur)}</dd>
        <dt>{t.balance}</dt>
        <dd data-balance>{formatMoney(sums.balance_due, cur)}</dd>
        {dues && dues.deposit_due !== null ? (
          <>
            <dt>{tp.deposit}</dt>
            <dd data-deposit>
              {formatMoney(dues.deposit_due, cur)}
              {" · "}
              {owedDeposit ? tp.depositOwed(formatMoney(owedDeposit, cur), dues.deposit_due_date ?? "") : tp.depositPaid}
            </dd>
          </>
        ) : null}
        {dues && booking.status === "confirmed" ? (
          <>
            <dt>{tp.balanceBy}</dt>
            <dd data-balance-due-date>{dues.balance_due_date}</dd>
          </>
        ) : null}
        <dt>{t.status}</dt>
        <dd>
          <span class={`badge ${sums.payment_status}`} data-payment-status={sums.payment_status}>
            {t.statuses[sums.payment_status] ?? sums.payment_status}
          </span>
        </dd>
      </dl>
      {ledger.length ? (
        <Table
          labelledBy="payments-heading"
          head={
            <tr>
              <th scope="col">{t.date}</th>
              <th scope="col">{t.entry}</th>
              <th scope="col">{t.method}</th>
              <th scope="col" class="num">
                {t.amount}
              </th>
              <th scope="col">{t.entryStatus}</th>
              <th scope="col">{t.reference}</th>
              <th scope="col">{t.receipt}</th>
              <th scope="col">{t.who}</th>
            </tr>
          }
        >
          {ledger.map((e) => (
            <tr data-entry={e.id} data-kind={e.kind}>
              <td>{fmtDateTime(e.created_at)}</td>
              <td>{t.types[e.kind] ?? e.kind}</td>
              <td>{t.methods[e.method] ?? e.method}</td>
              <td class="num">{`${e.kind === "refund" ? "−" : ""}${formatMoney(e.amount_minor, e.currency)}`}</td>
              <td>{t.entryStatuses[e.status] ?? e.status}</td>
              <td>{[e.reference, e.reason].filter(Boolean).join(" · ")}</td>
              <td data-receipt>{e.receipt_number ?? ""}</td>
              <td>{e.actor_kind === "guest" ? t.guest : e.actor_name}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>{t.none}</p>
      )}

      {suggested && booking.status === "cancelled" ? (
        <p class="hint" data-suggested-refund={formatMoney(suggested.amount_minor, cur)}>
          {tp.suggested(formatMoney(suggested.amount_minor, cur), suggested.percent, suggested.on)} {suggested.left_minor > 0 ? (props.mayRefund ? tp.prefilled : tp.askManager) : ""}
        </p>
      ) : null}
      {booking.status === "confirmed" ? (
        <details open={props.payment ? true : undefined}>
          <summary>{t.record}</summary>
          <p class="hint" id="payment-help">
            {t.recordHelp}
          </p>
          <form class="stack" method="post" action={`${root}/payments`} aria-describedby="payment-help">
            <Csrf c={c} />
            <FormError message={props.payment?.message} />
            <Field id="f-payment-amount" name="amount" label={t.amountIn(cur)} inputmode="decimal" value={pv.amount ?? ""} error={props.payment?.errors?.amount ?? props.payment?.errors?.currency ?? props.payment?.errors?.booking_id} required />
            <Select id="f-payment-method" name="method" label={t.method} value={pv.method ?? "cash"} options={MANUAL_METHODS.map((m) => [m, t.methods[m] ?? m])} error={props.payment?.errors?.method} />
            <Field id="f-payment-reference" name="reference" label={t.reference} value={pv.reference ?? ""} error={props.payment?.errors?.reference} autocomplete="off" />
            <button type="submit">{t.recordSubmit}</button>
          </form>
        </details>
      ) : null}

      {booking.status === "confirmed" ? (
        <details open={props.link ? true : undefined} data-payment-link>
          <summary>{t.link}</summary>
          <p class="hint" id="link-help">
            {t.linkHelp}
          </p>
          <form class="stack" method="post" action={`${root}/payment-links`} aria-describedby="link-help">
            <Csrf c={c} />
            <FormError message={props.link?.message} />
            <Field id="f-link-amount" name="amount" label={`${t.linkAmount} (${cur})`} inputmode="decimal" value={props.link?.values?.amount ?? ""} error={props.link?.errors?.amount ?? props.link?.errors?.booking_id} />
            <label>
              <input type="checkbox" name="send_email" value="1" checked={(props.link?.values ? props.link.values.send_email === "1" : true) || undefined} /> {t.linkEmail}
            </label>
            <button type="submit">{t.linkSubmit}</button>
          </form>
        </details>
      ) : null}

      {props.mayRefund && refundable.length ? (
        <details open={props.refund || (suggested && suggested.left_minor > 0) ? true : undefined}>
          <summary>{t.refund}</summary>
          <p class="hint" id="refund-help">
            {t.refundHelp}
          </p>
          <form class="stack" method="post" action={`${root}/refunds`} aria-describedby="refund-help">
            <Csrf c={c} />
            <FormError message={props.refund?.message} />
            <Field id="f-refund-amount" name="amount" label={t.amountIn(cur)} inputmode="decimal" value={refundAmount} error={props.refund?.errors?.amount ?? props.refund?.errors?.currency} required />
            <Select
              id="f-refund-payment"
              name="payment_id"
              label={t.refundOf}
              value={rv.payment_id ?? ""}
              options={[["", t.latest], ...refundable.map((e): [string, string] => [e.id, `${fmtDateTime(e.created_at)} · ${t.methods[e.method] ?? e.method} · ${formatMoney(e.amount_minor, e.currency)}`])]}
              error={props.refund?.errors?.payment_id}
            />
            <Field id="f-refund-reason" name="reason" label={t.reason} value={rv.reason ?? ""} error={props.refund?.errors?.reason} autocomplete="off" />
            <button type="submit" class="danger">
              {t.refundSubmit}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  );
}
