import { describe, expect, it } from "vitest";
import { paymentPolicySchemas, type PaymentPolicy } from "../contract/payment-policy";
import { bookedOn, bookedParts, bookingDues, cancellationRefund } from "./booking-dues";
import type { LedgerEntry } from "./payments";

const policy = (over: Partial<PaymentPolicy> = {}) => paymentPolicySchemas().PaymentPolicy.parse(over);

describe("a stored booking's parts", () => {
  it("gives each guest's lines to the package the guest booked, and a line without one to its own product", () => {
    const parts = bookedParts([
      { guest_id: "a", product_id: 101, role: "package", price_minor: 50_000 },
      { guest_id: "a", product_id: 203, role: "accommodation", price_minor: 20_000 },
      { guest_id: "b", product_id: 101, role: "package", price_minor: 50_000 },
      { guest_id: "c", product_id: 7, role: "package", price_minor: 3_000 },
      { guest_id: null, product_id: 9, role: "option", price_minor: 1_000 },
    ]);
    expect(parts).toEqual([
      { product_id: 101, guests: 2, amount_minor: 120_000 },
      { product_id: 7, guests: 1, amount_minor: 3_000 },
      { product_id: 9, guests: 0, amount_minor: 1_000 },
    ]);
  });
});

describe("a stored booking's dues", () => {
  const booking = { currency: "USD", total_minor: 54_250, total_default_minor: 50_000, start_date: "2027-05-01", created_at: "2027-01-01T03:00:00Z" };
  const lines = [{ guest_id: "a", product_id: 1, role: "package", price_minor: 54_250 }];

  it("converts a per-person deposit in the default currency at the booking's own rate, and counts the day booked in the business's time zone", () => {
    const dues = bookingDues(policy({ deposit: { type: "per_person", amount: 100 }, balance_due_days: 30 }), booking, lines, new Map(), "America/New_York", "EUR");
    expect(dues).toMatchObject({ deposit_due: 10_850, deposit_due_date: "2026-12-31", balance_due_date: "2027-04-01" });
  });

  it("takes a product's own rules over the business's", () => {
    const own = new Map([[1, { deposit: { type: "percent" as const, percent: 10 }, balance_due_days: 60 }]]);
    expect(bookingDues(policy({ deposit: { type: "percent", percent: 50 } }), booking, lines, own, "UTC", "EUR")).toMatchObject({ deposit_due: 5_425, balance_due_date: "2027-03-02" });
  });

  it("falls back to the UTC date of an unknown time zone", () => {
    expect(bookedOn("2027-01-01T03:00:00Z", "Not/AZone")).toBe("2027-01-01");
  });
});

describe("the refund the cancellation terms suggest", () => {
  const entry = (kind: "payment" | "refund", amount: number, at: string): LedgerEntry => ({ id: `${kind}-${at}`, kind, amount_minor: amount, method: "cash", status: "succeeded", refunds_payment_id: null, created_at: at });
  const terms = policy({ cancellation_rules: [{ days_before: 30, refund_percent: 100 }, { days_before: 7, refund_percent: 50 }] });

  it("is of what was paid net when cancelled, and refunds made since count against it", () => {
    const ledger = [entry("payment", 40_000, "2027-04-01T10:00:00Z"), entry("refund", 10_000, "2027-04-02T10:00:00Z"), entry("refund", 5_000, "2027-04-20T10:00:00Z")];
    // cancelled 10 days before the start: half of 300
    expect(cancellationRefund(terms, { start_date: "2027-05-01" }, "2027-04-21T10:00:00Z", ledger, "UTC")).toEqual({ percent: 50, amount_minor: 12_500, left_minor: 12_500, on: "2027-04-21" });
    const since = [...ledger, entry("refund", 12_500, "2027-04-21T11:00:00Z")];
    expect(cancellationRefund(terms, { start_date: "2027-05-01" }, "2027-04-21T10:00:00Z", since, "UTC")?.left_minor).toBe(0);
  });

  it("is none without terms, and nothing later than every rule", () => {
    const ledger = [entry("payment", 40_000, "2027-04-01T10:00:00Z")];
    expect(cancellationRefund(policy(), { start_date: "2027-05-01" }, "2027-04-21T10:00:00Z", ledger, "UTC")).toBeNull();
    expect(cancellationRefund(terms, { start_date: "2027-05-01" }, "2027-04-28T10:00:00Z", ledger, "UTC")).toMatchObject({ percent: 0, amount_minor: 0 });
  });
});
