/**
 * Money has one owner (domain/totals.ts): a booking in a currency other than the business's
 * default, with options and a single room supplement, booked through the public API's cart and
 * checkout, shows the same amounts to the cent wherever it is shown: the cart, the checkout's
 * answer, the private API, the booker's confirmation e-mail (as handed to the send_email binding)
 * and the back office's booking page.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { mailStub } from "../src/db/emails";
import { addDays } from "../src/lib/time";
import { createStaff, signedIn } from "./admin-fixtures";
import { customer } from "./carts-fixtures";
import { MAY_SAT } from "./catalog-fixtures";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";

const d = (n: number) => addDays(MAY_SAT, n);
const week = { id: 101, start_date: MAY_SAT, end_date: d(7) }; // a week of base rates

/** Major units as shown ("1,523.36", 904.9) to cents, without floating point. */
function cents(shown: string | number): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(shown).replace(/[^\d.-]/g, ""));
  if (!m) throw new Error(`not an amount: ${shown}`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number((m[3] ?? "0").padEnd(2, "0")));
}

/** The decoded text/plain part of a message this service built (base64, UTF-8). */
function textPart(raw: string): string {
  const m = /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(raw);
  if (!m) throw new Error("no text part");
  return new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/\r\n/g, "")), (c) => c.charCodeAt(0)));
}

/** What the local send_email binding was handed with this Message-ID (worker/test/mail-files.ts). */
async function handedOver(messageId: string): Promise<{ raw: string }[]> {
  return (await fetch(`http://127.0.0.1:${inject("mailFilesPort")}/mail?message_id=${encodeURIComponent(messageId)}`)).json();
}

describe("a booking in USD for a business that keeps its books in EUR", () => {
  it("shows the same totals to the cent in the cart, the checkout, the private API, the confirmation e-mail and the back office", async () => {
    const key = await createKey("public");
    const privateKey = await createKey("private");
    // The demo sells in EUR (its default) and in USD at 1.085.
    const cart = await callJson("/api/pub/v2/bookings/add", {
      key,
      body: {
        currency: "USD",
        guests: [
          {
            first_name: "Ana",
            last_name: "Money",
            gender: "f",
            birth_date: "1990-05-01",
            language_code: "en",
            // the twin room to herself (a single room supplement), yoga twice and the airport transfer
            package: { ...week, accommodation_id: 203, srs: true, items: [{ package_item_id: 1002, dates: [`${d(1)} 08:00:00`, `${d(2)} 18:00:00`] }, { package_item_id: 1003, dates: [MAY_SAT] }] },
          },
          {
            first_name: "Bruno",
            last_name: "Money",
            gender: "m",
            birth_date: "1988-02-03",
            // a bed in the dorm and a softboard for three days (at the three-day rate, 12.00 a day)
            package: { ...week, accommodation_id: 201, items: [{ package_item_id: 1004, dates: [d(1), d(2), d(3)] }] },
          },
        ],
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const [ana, bruno] = cart.body.guests;
    expect(ana.items.map((i: any) => i.role).sort()).toEqual(["accommodation", "default", "option", "option", "package", "srs"]);

    // Each line is converted once when priced, half-up (EUR 385 * 1.085 = 417.725 -> 417.73), and
    // the totals add the lines: Ana's EUR 834.00 is USD 904.90 (not 904.89), Bruno's EUR 561.00 is
    // USD 608.69, the cart USD 1,513.59 (not 1,513.58, EUR 1,395.00 converted whole).
    const ANA = 90490;
    const BRUNO = 60869;
    const TOTAL = ANA + BRUNO;
    // Back in EUR at the cart's rate, rounded once: 1,513.59 / 1.085 = 1,395.0138 -> 1,395.01.
    const TOTAL_EUR = 139501;
    const sum = (items: { price: number }[]) => items.reduce((s, i) => s + cents(i.price), 0);
    expect([cents(ana.total), cents(bruno.total), cents(cart.body.total)]).toEqual([ANA, BRUNO, TOTAL]);
    expect([sum(ana.items), sum(bruno.items)]).toEqual([ANA, BRUNO]);
    const viewed = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}`, { key });
    expect(cents(viewed.body.total)).toBe(TOTAL);

    // The checkout's answer.
    const booker = customer({ language_code: "en" });
    const booked = await callJson(`/api/pub/v2/carts/${cart.body.cart_id}/checkout`, { key, body: { terms_accepted: true, customer: booker } });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const bookingId: string = booked.body.id;
    expect(booked.body.currency).toBe("USD");
    expect(cents(booked.body.total)).toBe(TOTAL);
    expect(booked.body.guests.map((g: any) => [cents(g.total), sum(g.items)])).toEqual([
      [ANA, ANA],
      [BRUNO, BRUNO],
    ]);

    // The private API: the total, its lines, and the total in the default currency.
    const got = await callJson(`/private/bookings/${bookingId}`, { key: privateKey });
    expect(got.status).toBe(200);
    const data = got.body.data;
    expect(data.currency).toBe("USD");
    expect([cents(data.total), cents(data.totals.total), cents(data.totals.lines), sum(data.lines)]).toEqual([TOTAL, TOTAL, TOTAL, TOTAL]);
    expect(cents(data.total_default_currency)).toBe(TOTAL_EUR);
    const guestLines = (guestId: string) => sum(data.lines.filter((l: any) => l.guest_id === guestId));
    expect([guestLines(ana.id), guestLines(bruno.id)]).toEqual([ANA, BRUNO]);

    // The booker's confirmation, as handed to the binding.
    await mailStub(env, DEMO_BUSINESS_ID).idle();
    const email = await env.DB.prepare("SELECT message_id, status FROM emails WHERE booking_id = ? AND kind = 'booking_confirmation'").bind(bookingId).first<{ message_id: string; status: string }>();
    expect(email?.status).toBe("sent");
    const [message] = await handedOver(email!.message_id);
    const text = textPart(message.raw);
    const amounts = (label: string) => [...text.matchAll(new RegExp(`^\\s*${label}: (.+)$`, "gm"))].map((m) => m[1].trim());
    expect(amounts("Subtotal").map(cents)).toEqual([ANA, BRUNO]);
    expect(amounts("Total").map(cents)).toEqual([TOTAL, TOTAL]); // the summary's and the last line's
    expect(amounts("Total")[0]).toBe("$1,513.59");

    // The back office's booking page: its total, and its lines adding up to it.
    const owner = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const page = await owner.get(`/admin/demo/bookings/${bookingId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const total = /<dt>Total<\/dt>\s*<dd>([^<]+)<\/dd>/.exec(html)?.[1];
    expect(total).toBe("1513.59 USD");
    const linePrices = [...html.matchAll(/<td class="num">([\d.]+) USD<\/td>/g)].map((m) => cents(m[1]));
    expect(linePrices).toHaveLength(data.lines.length);
    expect(linePrices.reduce((s, c) => s + c, 0)).toBe(TOTAL);

    // A payment in USD: the same cents in the private API and the back office, and the booker's
    // total paid in EUR at the booking's own rate (its stored EUR total over its USD total).
    const paid = await callJson(`/private/bookings/${bookingId}/payments`, { key: privateKey, method: "POST", body: { amount: 500.01, currency: "USD", method: "card_terminal" } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const after = (await callJson(`/private/bookings/${bookingId}`, { key: privateKey })).body.data;
    expect([cents(after.amount_paid), cents(after.balance_due), after.payment_status]).toEqual([50001, TOTAL - 50001, "deposit_paid"]);
    const again = await (await owner.get(`/admin/demo/bookings/${bookingId}`)).text();
    expect(/data-paid[^>]*>([^<]+)</.exec(again)?.[1]).toBe("500.01 USD");
    expect(/data-balance[^>]*>([^<]+)</.exec(again)?.[1]).toBe(`${((TOTAL - 50001) / 100).toFixed(2)} USD`);
    const bookerNow = (await callJson(`/private/bookings/${bookingId}/booker`, { key: privateKey })).body.data;
    expect(cents(bookerNow.person.totals.total_paid_as_booker)).toBe(Math.round((50001 * TOTAL_EUR) / TOTAL));
  });
});
