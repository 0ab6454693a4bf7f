import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, lastOutboxSeq, outboxEvents, uniqueEmail } from "./private-fixtures";

let key: string;
let biz: number;
beforeAll(async () => {
  biz = await createBusiness(`bookings-${crypto.randomUUID().slice(0, 6)}`);
  key = await createKey("private", biz);
});

describe("bookings", () => {
  it("lists with filters (status, dates, reference) and paging headers", async () => {
    const a = await createBookingFixture({ businessId: biz, booker: { email: uniqueEmail() }, start: "2027-01-02", end: "2027-01-09", createdAt: "2026-10-01T08:00:00Z" });
    const b = await createBookingFixture({ businessId: biz, booker: { email: uniqueEmail() }, start: "2027-02-06", end: "2027-02-13", createdAt: "2026-10-05T08:00:00Z", status: "cancelled" });
    const ids = async (qs: string) => (await callJson(`/private/bookings?${qs}`, { key })).body.data.map((x: any) => x.id);
    expect(await ids("")).toEqual([b.bookingId, a.bookingId]);
    expect(await ids("status=confirmed")).toEqual([a.bookingId]);
    expect(await ids("status[]=cancelled&status[]=confirmed")).toHaveLength(2);
    expect(await ids("start_date=2027-02-01..")).toEqual([b.bookingId]);
    expect(await ids("end_date=..2027-01-31")).toEqual([a.bookingId]);
    expect(await ids("created_at=2026-10-01")).toEqual([a.bookingId]);
    const ref = await env.DB.prepare("SELECT reference_number, reference_year FROM bookings WHERE id = ?").bind(b.bookingId).first<any>();
    expect(await ids(`reference=${ref.reference_year}-${ref.reference_number}`)).toEqual([b.bookingId]);
    expect(await ids(`reference_number=${ref.reference_number}`)).toEqual([b.bookingId]);
    const page = await callJson("/private/bookings?limit=1&page=2", { key });
    expect(page.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
    expect(page.headers.get("X-Total-Count")).toBe("2");
    for (const bad of ["limit=0", "status=lost", "reference=abc", "start_date=2027-13-01"]) {
      expect((await callJson(`/private/bookings?${bad}`, { key })).status, bad).toBe(422);
    }
  });

  it("fetches one with booker, guests, lines and totals", async () => {
    const email = uniqueEmail("det");
    const booking = await createBookingFixture({
      businessId: biz,
      booker: { email, first_name: "Det" },
      guests: [{ email, first_name: "Det" }, { first_name: "Kid" }],
      totalMinor: 123456,
      lines: [
        { product_id: 101, product_type: "package", dates: ["2026-12-05", "2026-12-12"], price_minor: 100000 },
        { product_id: 301, product_type: "activity", dates: ["2026-12-06"], qty: 2, price_minor: 23456 },
      ],
    });
    const res = await callJson(`/private/bookings/${booking.bookingId}`, { key });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ id: booking.bookingId, status: "confirmed", currency: "EUR", total: 1234.56, newsletter_opt_in: false });
    expect(d.booker).toMatchObject({ id: booking.bookerId, person: { email } });
    expect(d.guests.map((g: any) => g.person.first_name)).toEqual(["Det", "Kid"]);
    expect(d.lines).toEqual([
      expect.objectContaining({ product_id: 101, dates: ["2026-12-05", "2026-12-12"], price: 1000 }),
      expect.objectContaining({ product_id: 301, qty: 2, price: 234.56 }),
    ]);
    expect(d.totals).toEqual({ lines: 1234.56, total: 1234.56, currency: "EUR", guest_count: 2 });
    const person = (await callJson(`/private/persons?email=${encodeURIComponent(email)}`, { key })).body.data[0];
    // Nothing was paid (a booking's total is its price, not a payment).
    expect(person.totals).toMatchObject({ booking_count: 1, total_as_booker: 1, total_as_guest: 1, total_paid_as_booker: 0 });
  });

  it("cancel releases the booked units, sends BookingCancelled, and a second cancel is 409", async () => {
    const booking = await createBookingFixture({ businessId: biz, booker: { email: uniqueEmail("cx") }, totalMinor: 5000 });
    await env.DB.prepare("INSERT INTO allocations (business_id, product_id, date, slot, qty, booking_id, created_at) VALUES (?, 301, '2027-03-01', '', 2, ?, '2026-11-01T00:00:00Z')")
      .bind(biz, booking.bookingId)
      .run();
    const seq = await lastOutboxSeq();
    const res = await callJson(`/private/bookings/${booking.bookingId}/cancel`, { key, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "cancelled" });
    expect(res.body.data.cancelled_at).toBeTruthy();
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM allocations WHERE booking_id = ? AND released_at IS NULL").bind(booking.bookingId).first<{ n: number }>();
    expect(live!.n).toBe(0);
    expect((await outboxEvents(biz, seq)).map((e) => [e.event, e.data])).toEqual([["BookingCancelled", { booking_id: booking.bookingId }]]);
    expect((await callJson(`/private/bookings/${booking.bookingId}/cancel`, { key, method: "POST" })).status).toBe(409);
    const booker = await callJson(`/private/bookings/${booking.bookingId}/booker`, { key });
    expect(booker.body.data.person.totals.total_paid_as_booker).toBe(0);
  });

  it("isolation and auth", async () => {
    const demoBooking = await createBookingFixture({ businessId: DEMO_BUSINESS_ID, booker: { email: uniqueEmail() } });
    expect((await callJson(`/private/bookings/${demoBooking.bookingId}`, { key })).status).toBe(404);
    expect((await callJson(`/private/bookings/${demoBooking.bookingId}/cancel`, { key, method: "POST" })).status).toBe(404);
    expect((await callJson(`/private/bookings`, { key })).body.data.map((b: any) => b.id)).not.toContain(demoBooking.bookingId);
    expect((await callJson(`/private/bookings/not-a-uuid`, { key })).status).toBe(400);
    expect((await callJson(`/private/bookings`, { key: await createKey("public") })).status).toBe(403);
    expect((await callJson(`/private/bookings`)).status).toBe(401);
  });
});
