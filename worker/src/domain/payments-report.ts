/**
 * The Payments screen's arithmetic (issue 31): the ledger's entries of a period summed by day,
 * method and currency, as a cash-up needs them. Pure: the entries come from
 * db/payments-report.ts, each already placed on its day in the business's time zone. Only
 * succeeded entries move money (domain/payments.ts says why); amounts stay integers of minor
 * units, so the sums are exact and agree with the ledger to the cent.
 */
import type { EntryStatus, PaymentMethod } from "./payments";

export interface DayEntry {
  /** The entry's calendar day in the business's time zone. */
  day: string;
  kind: "payment" | "refund";
  method: PaymentMethod;
  status: EntryStatus;
  amount_minor: number;
  currency: string;
}

/** One row of the summary: a day, a method, a currency. */
export interface DaySum {
  day: string;
  method: PaymentMethod;
  currency: string;
  /** Succeeded payments: how many, and their sum. */
  payments: number;
  received_minor: number;
  /** Succeeded refunds: how many, and their sum. */
  refunds: number;
  refunded_minor: number;
  /** received − refunded. */
  net_minor: number;
}

/** Sums of succeeded entries by day, method and currency; days in order, then method, then currency. */
export function sumByDay(entries: readonly DayEntry[]): DaySum[] {
  const rows = new Map<string, DaySum>();
  for (const e of entries) {
    if (e.status !== "succeeded") continue;
    const key = `${e.day}|${e.method}|${e.currency}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { day: e.day, method: e.method, currency: e.currency, payments: 0, received_minor: 0, refunds: 0, refunded_minor: 0, net_minor: 0 }));
    if (e.kind === "payment") {
      row.payments++;
      row.received_minor += e.amount_minor;
      row.net_minor += e.amount_minor;
    } else {
      row.refunds++;
      row.refunded_minor += e.amount_minor;
      row.net_minor -= e.amount_minor;
    }
  }
  const order = (a: DaySum, b: DaySum) => (a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.method !== b.method ? (a.method < b.method ? -1 : 1) : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0);
  return [...rows.values()].sort(order);
}

/** The period's totals per currency (received, refunded, net), currencies in order. */
export function totalsByCurrency(sums: readonly DaySum[]): { currency: string; received_minor: number; refunded_minor: number; net_minor: number }[] {
  const totals = new Map<string, { currency: string; received_minor: number; refunded_minor: number; net_minor: number }>();
  for (const s of sums) {
    const t = totals.get(s.currency) ?? { currency: s.currency, received_minor: 0, refunded_minor: 0, net_minor: 0 };
    t.received_minor += s.received_minor;
    t.refunded_minor += s.refunded_minor;
    t.net_minor += s.net_minor;
    totals.set(s.currency, t);
  }
  return [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
