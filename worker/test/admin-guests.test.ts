import { beforeAll, describe, expect, it } from "vitest";
import { createStaff, signedIn, type Browser } from "./admin-fixtures";
import { callJson, createKey, DEMO_BUSINESS_ID } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

// The Guests screen takes every filter of GET /private/guests in its URL (docs/back-office.md):
// whichever door asks, the same filter finds the same guests, in the same order.
describe("the Guests screen's filters", () => {
  let key: string;
  let owner: Browser;
  let scope: string;

  beforeAll(async () => {
    key = await createKey("private");
    owner = await signedIn("demo", (await createStaff(DEMO_BUSINESS_ID, "owner")).email);
    const a = await createBookingFixture({
      booker: { email: uniqueEmail("bk") },
      guests: [
        { first_name: "Ann", gender: "female", diet_id: 1, custom_fields: { surf_level: "beginner" } },
        { first_name: "Bob", gender: "male", diet_id: 2, custom_fields: { surf_level: "advanced" } },
      ],
      start: "2032-12-05",
      end: "2032-12-12",
      createdAt: "2032-11-01T10:00:00Z",
      lines: [{ product_id: 101, product_type: "package", dates: ["2032-12-05"], price_minor: 50000 }],
    });
    const b = await createBookingFixture({
      booker: { email: uniqueEmail("bk") },
      guests: [{ first_name: "Cy", gender: "male" }],
      start: "2032-12-19",
      end: "2032-12-26",
      createdAt: "2032-11-10T10:00:00Z",
      status: "cancelled",
      lines: [{ product_id: 301, product_type: "activity", dates: ["2032-12-19"], price_minor: 0 }],
    });
    const [ann, bob] = a.guestIds;
    const put = async (bookingId: string, id: string, related: Record<string, unknown>) =>
      expect((await callJson(`/private/bookings/${bookingId}/guests/${id}`, { key, method: "PUT", body: { booking_related_data: related } })).status).toBe(200);
    await put(a.bookingId, ann, { checked_in_at: "2032-12-05T15:00:00Z", check_in_at: "2032-12-05T14:00:00Z", arrival_location_id: 1, arrival_date: "2032-12-05", departure_date: "2032-12-12" });
    await put(a.bookingId, bob, { odd_arrival_date: "2032-12-07", arrival_date: "2032-12-05", checked_out_at: "2032-12-10T09:00:00Z", departure_location_id: 2 });
    scope = `booking_id[]=${a.bookingId}&booking_id[]=${b.bookingId}`;
  });

  const apiIds = async (qs: string) => {
    const res = await callJson(`/private/guests?${qs}&limit=100`, { key });
    expect(res.status, qs).toBe(200);
    return (res.body as { id: string }[]).map((g) => g.id);
  };
  const screenIds = async (qs: string) => {
    const res = await owner.get(`/admin/demo/guests.csv?${qs}`);
    expect(res.status, qs).toBe(200);
    return (await res.text()).replace(/^\uFEFF/, "").trim().split("\r\n").slice(1).map((line) => line.split(",")[0]);
  };

  it("finds the guests the private API finds, in its order, for every filter and sort", async () => {
    const cases = [
      "booking_status=cancelled",
      "booking_status[]=confirmed",
      "checked_in_at=notnull",
      "checked_in_at=null",
      "checked_in_at=2032-12-05",
      "checked_in_at=..2032-12-05T14:59:59Z",
      "checked_out_at=notnull",
      "check_in_at=2032-12-01..2032-12-31",
      "arrives_at=2032-12-07",
      "arrives_at=2032-12-15..",
      "departs_at=..2032-12-12",
      "is_odd_arrival=true",
      "is_odd_arrival=false",
      "arrival_location_id=1",
      "departure_location_id=1,2",
      "booking_start_date=2032-12-19",
      "booking_end_date=..2032-12-20",
      "booking_created_at=2032-11-05T00:00:00Z..",
      "booking_product_id=101",
      "booking_product_type=activity",
      "booking_location_id=2",
      "diet_id=2",
      `custom_fields=${encodeURIComponent('{"surf_level":"beginner"}')}`,
      "on_site_at=2032-12-08T12:00:00Z",
      "on_site_at=2032-12-10T10:00:00Z..2032-12-20",
      "transfer_dates=2032-12-12..2032-12-12",
      `agreement_id=${crypto.randomUUID()}`,
      "booking_product_variant_id=1",
      "sort_by=person.gender,desc",
      "sort_by=booking_related_data.checked_in_at,desc",
    ];
    let matched = 0;
    for (const qs of cases) {
      const expected = await apiIds(`${scope}&${qs}`);
      // the screen shows confirmed bookings' guests unless told otherwise ("any" for all, as the API lists)
      expect(await screenIds(`${scope}&${qs}${qs.startsWith("booking_status") ? "" : "&booking_status=any"}`), qs).toEqual(expected);
      matched += expected.length;
    }
    expect(matched).toBeGreaterThan(cases.length); // the cases find guests, not only nothing
  });

  it("shows the front desk the guests of confirmed bookings by default, with the booking's status", async () => {
    const confirmed = await apiIds(`${scope}&booking_status=confirmed`);
    expect(confirmed.length).toBeGreaterThan(0);
    expect(await screenIds(scope)).toEqual(confirmed); // no cancelled guest among the arrivals
    expect((await screenIds(`${scope}&booking_status=any`)).length).toBeGreaterThan(confirmed.length);
    const html = await (await owner.get(`/admin/demo/guests?${scope}&booking_status=any`)).text();
    expect(html).toContain('data-status="cancelled">Cancelled<');
    expect(html).toContain('data-status="confirmed">Confirmed<');
  });

  it("refuses what the private API refuses, at the field it names", async () => {
    for (const [qs, field] of [
      ["arrives_at=2032-12-10..2032-12-01", "arrives_at"],
      ["booking_product_type=boat", "booking_product_type"],
      ["is_odd_arrival=maybe", "is_odd_arrival"],
      ["custom_fields=%5B1%5D", "custom_fields"],
      ["sort_by=price", "sort_by"],
      ["booking_id=not-a-uuid", "booking_id"],
    ] as const) {
      expect((await callJson(`/private/guests?${qs}`, { key })).status, qs).toBe(422);
      const res = await owner.get(`/admin/demo/guests?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(await owner.get(`/admin/demo/guests.csv?${qs}`).then((r) => r.status), qs).toBe(422);
      if (field === "arrives_at") expect(await res.text(), qs).toContain(`id="f-${field}-error"`);
    }
  });
});
