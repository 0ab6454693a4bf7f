import { describe, expect, it } from "vitest";
import { exactMinor, isRefusal, paymentStatus, paymentTotals, refundableOf, refundSource, type LedgerEntry } from "./payments";

let seq = 0;
const pay = (amount: number, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `p${++seq}`,
  kind: "payment",
  amount_minor: amount,
  method: "cash",
  status: "succeeded",
  refunds_payment_id: null,
  created_at: `2026-11-0${seq % 9 + 1}T10:00:00Z`,
  ...extra,
});
const refund = (of: LedgerEntry, amount: number, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  ...pay(amount),
  kind: "refund",
  refunds_payment_id: of.id,
  ...extra,
});

describe("payment totals", () => {
  it("count succeeded entries only: a pending, failed or canceled payment paid nothing", () => {
    const a = pay(10000);
    const t = paymentTotals(50000, [a, pay(5000, { status: "pending" }), pay(7000, { status: "failed" }), pay(100, { status: "canceled" })]);
    expect(t).toEqual({ total: 50000, amount_paid: 10000, amount_refunded: 0, net_paid: 10000, balance_due: 40000, payment_status: "deposit_paid" });
  });

  it("take refunds off what was paid; the balance never goes below 0", () => {
    const a = pay(50000);
    expect(paymentTotals(50000, [a])).toMatchObject({ balance_due: 0, payment_status: "paid" });
    expect(paymentTotals(50000, [a, refund(a, 1)])).toMatchObject({ amount_refunded: 1, net_paid: 49999, balance_due: 1, payment_status: "partially_refunded" });
    expect(paymentTotals(50000, [a, refund(a, 50000)])).toMatchObject({ net_paid: 0, balance_due: 50000, payment_status: "refunded" });
    expect(paymentTotals(50000, [a, pay(1)])).toMatchObject({ net_paid: 50001, balance_due: 0, payment_status: "overpaid" });
    // a pending refund has given nothing back yet
    expect(paymentTotals(50000, [a, refund(a, 20000, { status: "pending" })])).toMatchObject({ amount_refunded: 0, payment_status: "paid" });
  });

  it("name every status at its boundary", () => {
    expect(paymentStatus(50000, 0, 0)).toBe("unpaid");
    expect(paymentStatus(50000, 1, 0)).toBe("deposit_paid");
    expect(paymentStatus(50000, 49999, 0)).toBe("deposit_paid");
    expect(paymentStatus(50000, 50000, 0)).toBe("paid");
    expect(paymentStatus(50000, 50001, 0)).toBe("overpaid");
    expect(paymentStatus(50000, 50001, 1)).toBe("paid"); // the excess given back
    expect(paymentStatus(50000, 30000, 1)).toBe("partially_refunded");
    expect(paymentStatus(50000, 30000, 30000)).toBe("refunded");
    expect(paymentStatus(0, 0, 0)).toBe("paid"); // nothing owed
  });
});

describe("refunds", () => {
  it("default to the latest payment that covers the amount", () => {
    const first = pay(30000, { created_at: "2026-11-01T10:00:00Z" });
    const second = pay(10000, { created_at: "2026-11-02T10:00:00Z" });
    expect(refundSource([first, second], 5000)).toBe(second);
    expect(refundSource([first, second], 20000)).toBe(first);
    expect(refundSource([first, second, refund(second, 6000)], 5000)).toBe(first);
  });

  it("never take more than a payment has left, pending refunds included", () => {
    const a = pay(30000);
    const entries = [a, refund(a, 10000), refund(a, 5000, { status: "pending" })];
    expect(refundableOf(a, entries)).toBe(15000);
    expect(refundSource(entries, 15000, a.id)).toBe(a);
    const over = refundSource(entries, 15001, a.id);
    expect(isRefusal(over) && over.path).toBe("amount");
    const none = refundSource(entries, 15001);
    expect(isRefusal(none) && none.path).toBe("amount");
  });

  it("refuse a payment that is not this booking's or did not succeed", () => {
    const failed = pay(1000, { status: "failed" });
    const r1 = refundSource([failed], 100, failed.id);
    expect(isRefusal(r1) && r1.path).toBe("payment_id");
    const r2 = refundSource([failed], 100, "elsewhere");
    expect(isRefusal(r2) && r2.path).toBe("payment_id");
    const r3 = refundSource([], 100);
    expect(isRefusal(r3) && r3.message).toMatch(/nothing has been paid/);
  });
});

describe("amounts sent in major units", () => {
  it("are exact in the currency's minor units, or refused", () => {
    expect(exactMinor(120.5, 2)).toBe(12050);
    expect(exactMinor(0.29, 2)).toBe(29); // 0.29 * 100 is 28.999999999999996 in binary
    expect(exactMinor(1.005, 2)).toBeNull();
    expect(exactMinor(1000, 0)).toBe(1000);
    expect(exactMinor(1000.5, 0)).toBeNull();
    expect(exactMinor(1.234, 3)).toBe(1234);
    expect(exactMinor(Number.NaN, 2)).toBeNull();
  });
});
