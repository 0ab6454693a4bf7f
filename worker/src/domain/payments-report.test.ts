import { describe, expect, it } from "vitest";
import { sumByDay, totalsByCurrency, type DayEntry } from "./payments-report";

const e = (day: string, kind: DayEntry["kind"], method: DayEntry["method"], amount_minor: number, status: DayEntry["status"] = "succeeded", currency = "EUR"): DayEntry => ({ day, kind, method, status, amount_minor, currency });

describe("the Payments screen's sums", () => {
  it("sum succeeded payments and refunds by day, method and currency; pending, failed and canceled entries move nothing", () => {
    const sums = sumByDay([
      e("2027-05-02", "payment", "cash", 10050),
      e("2027-05-01", "payment", "cash", 20000),
      e("2027-05-01", "payment", "cash", 5025),
      e("2027-05-01", "refund", "cash", 1000),
      e("2027-05-01", "payment", "card_terminal", 7000),
      e("2027-05-01", "payment", "stripe", 99999, "pending"),
      e("2027-05-01", "payment", "stripe", 88888, "failed"),
      e("2027-05-01", "payment", "bank_transfer", 3000, "succeeded", "GBP"),
    ]);
    expect(sums).toEqual([
      { day: "2027-05-01", method: "bank_transfer", currency: "GBP", payments: 1, received_minor: 3000, refunds: 0, refunded_minor: 0, net_minor: 3000 },
      { day: "2027-05-01", method: "card_terminal", currency: "EUR", payments: 1, received_minor: 7000, refunds: 0, refunded_minor: 0, net_minor: 7000 },
      { day: "2027-05-01", method: "cash", currency: "EUR", payments: 2, received_minor: 25025, refunds: 1, refunded_minor: 1000, net_minor: 24025 },
      { day: "2027-05-02", method: "cash", currency: "EUR", payments: 1, received_minor: 10050, refunds: 0, refunded_minor: 0, net_minor: 10050 },
    ]);
    expect(totalsByCurrency(sums)).toEqual([
      { currency: "EUR", received_minor: 42075, refunded_minor: 1000, net_minor: 41075 },
      { currency: "GBP", received_minor: 3000, refunded_minor: 0, net_minor: 3000 },
    ]);
  });

  it("is empty for a period with nothing succeeded", () => {
    expect(sumByDay([e("2027-05-01", "payment", "stripe", 100, "canceled")])).toEqual([]);
    expect(totalsByCurrency([])).toEqual([]);
  });
});
