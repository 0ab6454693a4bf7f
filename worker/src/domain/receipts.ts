/**
 * Receipts (issue 31, docs/payments.md "Receipts"): every payment and every refund that succeeds
 * gets a receipt number, sequential per business and calendar year in the business's time zone,
 * "YYYY-NNNNNN" (allocated in SQL, in the batch of the change: db/payments.ts
 * receiptNumberStatements), and a receipt e-mail to the booker. Pure: the year a number belongs
 * to, the order of numbers, and what a booking still owed once a receipt's entry counted.
 */
import { dateIn } from "../lib/time";
import { paymentTotals, type LedgerEntry } from "./payments";

/** The calendar year of `now` in the business's time zone: the series a receipt number is taken from. */
export function receiptYear(now: Date, timeZone: string): number {
  return Number(dateIn(now, timeZone).slice(0, 4));
}

/** A receipt number's place in the business's series: [year, number]; null for none or a malformed one. */
export function receiptOrder(receipt: string | null): [number, number] | null {
  const m = receipt ? /^(\d{4})-(\d+)$/.exec(receipt) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

const before = (a: [number, number], b: [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);

/**
 * What the booking's ledger says once the entry with receipt `receipt` counted, and no entry that
 * succeeded after it: the succeeded entries numbered up to it (an entry that succeeded before
 * receipts were numbered counts as earlier). Two payments at once each get a receipt that states
 * the balance after its own place in the series, never the other's.
 */
export function totalsAfterReceipt(total: number, ledger: readonly (LedgerEntry & { receipt_number: string | null })[], receipt: string) {
  const own = receiptOrder(receipt);
  const counted = ledger.filter((e) => {
    if (e.status !== "succeeded") return false;
    const order = receiptOrder(e.receipt_number);
    return !order || !own || before(order, own);
  });
  return paymentTotals(total, counted);
}
