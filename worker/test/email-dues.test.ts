/**
 * The confirmation e-mail states what was paid and what is due by when (issue 31) when the
 * business's payment policy asks a deposit or a balance date; unchanged otherwise. Read from the
 * real message handed to the send_email binding.
 */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/lib/time";
import { day } from "../src/domain/email/booking";
import { customer } from "./carts-fixtures";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { handedOver, mailSettled, outboxRows, textPart } from "./mail-fixtures";

const euros = (n: number) => new Intl.NumberFormat("en", { style: "currency", currency: "EUR", minimumFractionDigits: 2 }).format(n);

async function bookAWeek(): Promise<{ id: string; text: string }> {
  const key = await createKey("public", DEMO_BUSINESS_ID);
  const cart = await callJson("/api/pub/v2/bookings/add", {
    key,
    body: { currency: "EUR", guests: [{ first_name: "Ana", last_name: "Dues", gender: "f", birth_date: "1990-05-01", package: { id: 101, start_date: MAY_SAT, end_date: addDays(MAY_SAT, 7), accommodation_id: 203 } }] },
  });
  expect(cart.status).toBe(201);
  const res = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: customer({ language_code: "en", email: `dues-${crypto.randomUUID().slice(0, 8)}@example.com` }) } });
  expect(res.status).toBe(200);
  await mailSettled(DEMO_BUSINESS_ID);
  const row = (await outboxRows(DEMO_BUSINESS_ID)).find((e: any) => e.booking_id === res.body.id && e.kind === "booking_confirmation");
  return { id: res.body.id, text: textPart((await handedOver(row.message_id))[0].raw) };
}

describe("the confirmation's payment", () => {
  it("states the deposit and the balance with their dates when the policy asks them, and is as before otherwise", async () => {
    const key = await createKey("private");
    const plain = await bookAWeek();
    expect(plain.text).toContain("Nothing has been charged online.");
    expect(plain.text).not.toMatch(/Deposit:/);

    expect((await callJson("/private/settings", { key, method: "PATCH", body: { payment_policy: { deposit: { type: "percent", percent: 30 }, balance_due_days: 30 } } })).status).toBe(200);
    const { id, text } = await bookAWeek();
    const booking = (await callJson(`/private/bookings/${id}`, { key })).body.data;
    expect(booking.deposit_due).toBeGreaterThan(0);
    expect(text).not.toContain("Nothing has been charged online.");
    expect(text).toContain("Payment:");
    expect(text).toContain(`Deposit: ${euros(booking.deposit_due)}, due by ${day(booking.deposit_due_date, "en")}`);
    expect(text).toContain(`Balance: ${euros(booking.total)}, due by ${day(addDays(MAY_SAT, -30), "en")}`);
    await callJson("/private/settings", { key, method: "PATCH", body: { payment_policy: { deposit: { type: "none" }, balance_due_days: 0 } } });
  });
});
