import { describe, expect, it } from "vitest";
import { paymentPolicySchemas, type PaymentPolicy } from "../contract/payment-policy";
import { duesOf, refundPercent, suggestedRefund, type BookingForPolicy } from "./payment-policy";

const policy = (over: Partial<PaymentPolicy> = {}) => paymentPolicySchemas().PaymentPolicy.parse(over);
const none = () => null;
const eurCents = (amount: number) => Math.round(amount * 100);

// The surf week: €560 per guest, two guests, booked in November for a week in March.
const week: BookingForPolicy = {
  total_minor: 112_000,
  start_date: "2027-03-06",
  booked_on: "2026-11-27",
  parts: [{ product_id: 101, guests: 2, amount_minor: 112_000 }],
};

describe("a booking's dues under the payment policy", () => {
  it("asks no deposit by default, the whole total due on the first day", () => {
    expect(duesOf(policy(), week, none, eurCents)).toEqual({ deposit_due: null, deposit_due_date: null, balance_due_date: "2027-03-06", due_at_booking: 112_000, in_full_now: false });
  });

  it("takes a 30 % deposit on the day of booking, the balance 30 days before the start", () => {
    const dues = duesOf(policy({ deposit: { type: "percent", percent: 30 }, balance_due_days: 30 }), week, none, eurCents);
    expect(dues).toEqual({ deposit_due: 33_600, deposit_due_date: "2026-11-27", balance_due_date: "2027-02-04", due_at_booking: 33_600, in_full_now: false });
  });

  it("rounds a percent half-up to the cent, and counts a per-person amount for each guest at the booking's rate", () => {
    const odd = { ...week, total_minor: 33_335, parts: [{ product_id: 101, guests: 2, amount_minor: 33_335 }] };
    expect(duesOf(policy({ deposit: { type: "percent", percent: 30 } }), odd, none, eurCents).deposit_due).toBe(10_001); // 10000.5 -> 10001
    const inUsd = (amount: number) => Math.round(amount * 1.1 * 100);
    expect(duesOf(policy({ deposit: { type: "per_person", amount: 100 } }), week, none, inUsd).deposit_due).toBe(22_000);
  });

  it("never asks a deposit above the total", () => {
    const cheap = { ...week, total_minor: 5_000, parts: [{ product_id: 101, guests: 2, amount_minor: 5_000 }] };
    expect(duesOf(policy({ deposit: { type: "per_person", amount: 100 } }), cheap, none, eurCents).deposit_due).toBe(5_000);
  });

  it("follows a product's own deposit and due days where it sets them, the business's elsewhere", () => {
    const mixed: BookingForPolicy = {
      ...week,
      total_minor: 62_000,
      parts: [
        { product_id: 101, guests: 1, amount_minor: 56_000 },
        { product_id: 501, guests: 1, amount_minor: 6_000 }, // a lesson: paid in full up front
      ],
    };
    const own = (id: number) => (id === 501 ? { deposit: { type: "percent" as const, percent: 100 }, balance_due_days: 60 } : null);
    const dues = duesOf(policy({ deposit: { type: "percent", percent: 30 }, balance_due_days: 30 }), mixed, own, eurCents);
    expect(dues.deposit_due).toBe(16_800 + 6_000);
    expect(dues.balance_due_date).toBe("2027-01-05"); // the longer of 30 and 60 days
  });

  it("asks everything at once of a booking made inside the balance window", () => {
    const late = { ...week, booked_on: "2027-02-20" };
    expect(duesOf(policy({ deposit: { type: "percent", percent: 30 }, balance_due_days: 30 }), late, none, eurCents)).toEqual({
      deposit_due: 112_000,
      deposit_due_date: "2027-02-20",
      balance_due_date: "2027-02-20",
      due_at_booking: 112_000,
      in_full_now: true,
    });
    // on the balance due date itself, too
    expect(duesOf(policy({ deposit: { type: "percent", percent: 30 }, balance_due_days: 30 }), { ...week, booked_on: "2027-02-04" }, none, eurCents).in_full_now).toBe(true);
    expect(duesOf(policy({ deposit: { type: "percent", percent: 30 }, balance_due_days: 30 }), { ...week, booked_on: "2027-02-03" }, none, eurCents).in_full_now).toBe(false);
  });
});

describe("the cancellation terms", () => {
  const rules = [
    { days_before: 7, refund_percent: 50 },
    { days_before: 30, refund_percent: 100 },
  ];
  it("refund by the first rule the cancellation is still ahead of, nothing after the last", () => {
    expect(refundPercent(rules, "2027-03-06", "2027-02-04")).toBe(100); // 30 days ahead
    expect(refundPercent(rules, "2027-03-06", "2027-02-05")).toBe(50); // 29
    expect(refundPercent(rules, "2027-03-06", "2027-02-27")).toBe(50); // 7
    expect(refundPercent(rules, "2027-03-06", "2027-02-28")).toBe(0); // 6
    expect(refundPercent([], "2027-03-06", "2027-02-28")).toBeNull();
  });
  it("suggest that part of what was paid net, to the cent", () => {
    expect(suggestedRefund(rules, "2027-03-06", "2027-02-10", 33_601)).toBe(16_801);
    expect(suggestedRefund(rules, "2027-03-06", "2027-03-01", 33_601)).toBe(0);
    expect(suggestedRefund([], "2027-03-06", "2027-03-01", 33_601)).toBeNull();
  });
});

describe("the policy's settings", () => {
  it("refuse two rules for the same day, a hold Stripe cannot keep, and an unknown field", () => {
    const r = paymentPolicySchemas().PaymentPolicy.safeParse({ cancellation_rules: [{ days_before: 7, refund_percent: 50 }, { days_before: 7, refund_percent: 20 }], payment_hold_minutes: 10, deposit: { type: "percent", percent: 30, amount: 5 } });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["cancellation_rules.1.days_before", "payment_hold_minutes", "deposit"]));
  });
});
