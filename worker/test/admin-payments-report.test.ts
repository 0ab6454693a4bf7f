import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEMO_BUSINESS_ID } from "./helpers";
import { createStaff, signedIn } from "./admin-fixtures";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

/** The day the Payments page shows by default: today where the business is. */
const pageToday = (html: string) => /id="f-from"[^>]*value="(\d{4}-\d{2}-\d{2})"/.exec(html)?.[1];
const cells = (row: string) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());
const rowOf = (html: string, attrs: string) => new RegExp(`<tr ${attrs}>([\\s\\S]*?)</tr>`).exec(html)?.[1];

describe("the Payments screen", () => {
  it("sums the day's money by method, lists each entry and what confirmed bookings still owe, and its CSV agrees with the ledger to the cent", async () => {
    const owing = await createBookingFixture({ booker: { email: uniqueEmail("pr-owe"), first_name: "Ana", last_name: "Owing" }, totalMinor: 80000, start: "2027-03-01", end: "2027-03-08" });
    const settled = await createBookingFixture({ booker: { email: uniqueEmail("pr-paid"), first_name: "Bo", last_name: "Settled" }, totalMinor: 12050, start: "2027-02-01", end: "2027-02-03" });
    const untouched = await createBookingFixture({ booker: { email: uniqueEmail("pr-none"), first_name: "Cy", last_name: "Nothing" }, totalMinor: 5000, start: "2027-04-01", end: "2027-04-02" });
    await createBookingFixture({ booker: { email: uniqueEmail("pr-gone"), first_name: "Di", last_name: "Cancelled" }, totalMinor: 9000, status: "cancelled" });

    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const pay = async (id: string, amount: string, method: string, reference = "") => expect((await desk.post(`/admin/demo/bookings/${id}/payments`, { amount, method, reference })).status).toBe(303);
    await pay(owing.bookingId, "200.10", "cash", "till 1");
    await pay(owing.bookingId, "99.95", "cash");
    await pay(owing.bookingId, "50", "card_terminal");
    await pay(settled.bookingId, "120.50", "bank_transfer", "SEPA 42");
    const manager = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "manager")).email);
    expect((await manager.post(`/admin/demo/bookings/${owing.bookingId}/refunds`, { amount: "20.05", payment_id: "", reason: "one lesson less" })).status).toBe(303);

    const first = await desk.get("/admin/demo/payments");
    expect(first.status).toBe(200);
    const day = pageToday(await first.text())!;
    const html = await (await desk.get(`/admin/demo/payments?from=${day}&to=${day}`)).text();

    // by day and method: cash 300.05 in; the terminal 50 in and 20.05 back (the refund came from
    // the latest payment that covers it, the terminal's, and goes back the way it came); the transfer 120.50
    expect(cells(rowOf(html, `data-day="${day}" data-method="cash"`)!)).toEqual([day, "Cash", "2", "300.05 EUR", "0", "0.00 EUR", "300.05 EUR"]);
    expect(cells(rowOf(html, `data-day="${day}" data-method="card_terminal"`)!)).toEqual([day, "Card terminal", "1", "50.00 EUR", "1", "20.05 EUR", "29.95 EUR"]);
    expect(cells(rowOf(html, `data-day="${day}" data-method="bank_transfer"`)!)).toEqual([day, "Bank transfer", "1", "120.50 EUR", "0", "0.00 EUR", "120.50 EUR"]);
    expect(/data-total-net="EUR">([^(]*)\(/.exec(html)?.[1].trim()).toBe("450.50 EUR");
    // every entry listed, the refund as money out
    expect(html.match(/<tr data-entry=/g)).toHaveLength(5);
    expect(html).toContain("−20.05 EUR");

    // still owed: the partly paid booking (800 − 330.00 net) and the untouched one, soonest first; not the paid or the cancelled
    const open = [...html.matchAll(/<tr data-open="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => [m[1], cells(m[2]).slice(1)]);
    expect(open).toEqual([
      [owing.bookingId, ["Ana Owing", "2027-03-01", "800.00 EUR", "330.00 EUR", "470.00 EUR"]],
      [untouched.bookingId, ["Cy Nothing", "2027-04-01", "50.00 EUR", "0.00 EUR", "50.00 EUR"]],
    ]);

    // the CSV: one line per entry, amounts that sum to the ledger's net to the cent
    const csv = await desk.get(`/admin/demo/payments.csv?from=${day}&to=${day}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("entry_id,created_at,day,booking_id,booking_reference,booker,kind,method,status,amount,currency,reference,by");
    expect(lines).toHaveLength(6);
    const amounts = lines.slice(1).map((l) => l.split(",")[9]);
    expect(amounts.sort()).toEqual(["-20.05", "120.50", "200.10", "50.00", "99.95"]);
    const csvCents = amounts.reduce((s, a) => s + Math.round(Number(a) * 100), 0);
    const ledger = await env.DB.prepare("SELECT SUM(CASE kind WHEN 'payment' THEN amount_minor ELSE -amount_minor END) AS net FROM payments WHERE business_id = ? AND status = 'succeeded'").bind(DEMO_BUSINESS_ID).first<{ net: number }>();
    expect(csvCents).toBe(ledger!.net);
    expect(csvCents).toBe(45050);
  });

  it("shows on Today what an arriving guest's booking still owes", async () => {
    const booking = await createBookingFixture({ booker: { email: uniqueEmail("pr-today"), first_name: "Eva" }, guests: [{ first_name: "Eva", last_name: "Arriving", email: uniqueEmail("pr-guest") }], totalMinor: 30000 });
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const day = pageToday(await (await desk.get("/admin/demo/payments")).text())!;
    await env.DB.prepare("UPDATE guests SET arrival_date = ? WHERE booking_id = ?").bind(day, booking.bookingId).run();
    expect((await desk.post(`/admin/demo/bookings/${booking.bookingId}/payments`, { amount: "75.25", method: "cash", reference: "" })).status).toBe(303);
    const today = await (await desk.get("/admin/demo/today")).text();
    const row = [...today.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => cells(m[1])).find((c) => c[0] === "Eva Arriving");
    expect(row?.at(-1)).toBe("224.75 EUR");
  });

  it("refuses a period that ends before it starts or is longer than a year, at the field, and a bad date in the CSV link", async () => {
    const desk = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "front_desk")).email);
    const backwards = await desk.get("/admin/demo/payments?from=2027-05-02&to=2027-05-01");
    expect(backwards.status).toBe(422);
    expect(await backwards.text()).toMatch(/id="f-to-error"[^>]*>must not be before From/);
    const long = await desk.get("/admin/demo/payments?from=2026-01-01&to=2027-01-02");
    expect(long.status).toBe(422);
    expect((await desk.get("/admin/demo/payments.csv?from=2027-02-30")).status).toBe(422);
  });
});
