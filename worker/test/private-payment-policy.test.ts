/**
 * The business's payment policy applied (issue 31): settings payment_policy through the private
 * API, a product's own policy (the catalog API and the catalog file), and a booking's dues on
 * GET /private/bookings/{id} (docs/payments.md "The payment policy").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, dbOf } from "./helpers";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";
import { applyCatalog, exportCatalog } from "../src/manage/catalog/file";
import { CatalogFile } from "../src/contract/catalog-file";

let key: string;
let biz: number;
beforeAll(async () => {
  biz = await createBusiness(`policy-${crypto.randomUUID().slice(0, 6)}`, { time_zone: "America/New_York" });
  key = await createKey("private", biz, `owner-${biz}`);
});

const settings = async () => (await callJson("/private/settings", { key })).body.data;
const patch = (body: unknown) => callJson("/private/settings", { key, method: "PATCH", body });
const createProduct = (body: unknown) => callJson("/private/catalog/products", { key, method: "POST", body });
const detail = async (bookingId: string) => (await callJson(`/private/bookings/${bookingId}`, { key })).body.data;
const dues = (d: any) => ({ deposit_due: d.deposit_due, deposit_due_date: d.deposit_due_date, balance_due_date: d.balance_due_date });

describe("the business's payment policy in settings", () => {
  it("is saved whole by PATCH /private/settings, and a bad value is a 422 naming payment_policy.<field> with nothing saved", async () => {
    const policy = { online_payment: true, deposit: { type: "percent", percent: 30 }, balance_due_days: 30, reminder_days: 5, cancellation_rules: [{ days_before: 30, refund_percent: 100 }, { days_before: 7, refund_percent: 50 }] };
    const ok = await patch({ payment_policy: policy });
    expect(ok.status).toBe(200);
    expect((await settings()).payment_policy).toEqual({ ...policy, pay_to_confirm: false, payment_hold_minutes: 60 });
    const cases: [unknown, string][] = [
      [{ ...policy, deposit: { type: "percent", percent: 120 } }, "payment_policy.deposit.percent"],
      [{ ...policy, deposit: { type: "per_person", amount: -5 } }, "payment_policy.deposit.amount"],
      [{ ...policy, balance_due_days: 1.5 }, "payment_policy.balance_due_days"],
      [{ ...policy, payment_hold_minutes: 10 }, "payment_policy.payment_hold_minutes"],
      [{ ...policy, cancellation_rules: [{ days_before: 7, refund_percent: 50 }, { days_before: 7, refund_percent: 20 }] }, "payment_policy.cancellation_rules.1.days_before"],
      [{ ...policy, surprise: true }, "payment_policy.surprise"],
    ];
    for (const [body, path] of cases) {
      const res = await patch({ payment_policy: body, title: "Renamed meanwhile" });
      expect(res.status, path).toBe(422);
      expect(res.body.errors.map((e: any) => e.path), path).toContain(path);
    }
    const after = await settings();
    expect(after.payment_policy.deposit).toEqual({ type: "percent", percent: 30 });
    expect(after.title).not.toBe("Renamed meanwhile");
    // back to no deposit for the other tests
    await patch({ payment_policy: { deposit: { type: "none" } } });
  });
});

describe("a product's own payment policy", () => {
  it("is written and answered by the private catalog API, refused with a 422 naming the field, and kept by the catalog file", async () => {
    const made = await createProduct({ type: "activity", title: "Boat dive", payment_policy: { deposit: { type: "per_person", amount: 40 }, balance_due_days: 14 } });
    expect(made.status).toBe(201);
    expect(made.body.data.payment_policy).toEqual({ deposit: { type: "per_person", amount: 40 }, balance_due_days: 14 });
    const id = made.body.data.id;
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy).toEqual({ deposit: { type: "per_person", amount: 40 }, balance_due_days: 14 });
    const plain = await createProduct({ type: "activity", title: "Snorkel" });
    expect(plain.body.data.payment_policy).toBeNull();

    const bad = await callJson(`/private/catalog/products/${id}`, { key, method: "PATCH", body: { payment_policy: { deposit: { type: "percent", percent: 0 } } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toContain("payment_policy.deposit.percent");
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy.deposit).toEqual({ type: "per_person", amount: 40 });

    // the catalog file carries it out and back in
    const { file } = await exportCatalog(await dbOf(biz), biz);
    const exported = file.products.find((p) => p.title === "Boat dive")!;
    expect(exported.payment_policy).toEqual({ deposit: { type: "per_person", amount: 40 }, balance_due_days: 14 });
    expect(file.products.find((p) => p.title === "Snorkel")).not.toHaveProperty("payment_policy");
    const changed = CatalogFile.parse({ ...file, products: file.products.map((p) => (p.title === "Boat dive" ? { ...p, payment_policy: { balance_due_days: 3 } } : p)) });
    await applyCatalog({ DB: await dbOf(biz) }, { kind: "cli", id: "test", name: "cli" }, biz, changed, new Date());
    expect((await callJson(`/private/catalog/products/${id}`, { key })).body.data.payment_policy).toEqual({ balance_due_days: 3 });

    // a PATCH with null follows the business again
    const cleared = await callJson(`/private/catalog/products/${id}`, { key, method: "PATCH", body: { payment_policy: null } });
    expect(cleared.body.data.payment_policy).toBeNull();
  });
});

describe("a booking's dues", () => {
  it("are the policy's deposit and dates: a percent of each product's part, a product's own per-person deposit and due days, booked_on in the business's time zone", async () => {
    const surf = (await createProduct({ type: "activity", title: "Surf lessons" })).body.data.id;
    const diveMade = await createProduct({ type: "activity", title: "Dive course", payment_policy: { deposit: { type: "per_person", amount: 50 }, balance_due_days: 45 } });
    const dive = diveMade.body.data.id;
    await patch({ payment_policy: { deposit: { type: "percent", percent: 30 }, balance_due_days: 30 } });
    const guests = [{ first_name: "Ana", email: uniqueEmail("a") }, { first_name: "Ben", email: uniqueEmail("b") }];
    const b = await createBookingFixture({
      businessId: biz,
      booker: { email: uniqueEmail("booker"), first_name: "Booker" },
      guests,
      start: "2027-03-06",
      end: "2027-03-13",
      // 03:00 UTC on 1 December is still 30 November in New York
      createdAt: "2026-12-01T03:00:00Z",
      totalMinor: 150_000,
      lines: [
        { product_id: surf, product_type: "activity", dates: ["2027-03-06"], price_minor: 100_000 },
        { product_id: dive, product_type: "activity", dates: ["2027-03-07"], price_minor: 50_000, guest: 1 },
      ],
    });
    // surf 30 % of 1000 = 300; dive 50 per person, one guest on its line = 50; due 45 days before the start
    expect(dues(await detail(b.bookingId))).toEqual({ deposit_due: 350, deposit_due_date: "2026-11-30", balance_due_date: "2027-01-20" });

    // booked inside the balance window: everything at once, due the day it was booked
    const late = await createBookingFixture({
      businessId: biz,
      booker: { email: uniqueEmail("late"), first_name: "Late" },
      start: "2026-12-10",
      end: "2026-12-12",
      createdAt: "2026-11-30T12:00:00Z",
      totalMinor: 20_000,
      lines: [{ product_id: surf, product_type: "activity", dates: ["2026-12-10"], price_minor: 20_000 }],
    });
    expect(dues(await detail(late.bookingId))).toEqual({ deposit_due: 200, deposit_due_date: "2026-11-30", balance_due_date: "2026-11-30" });

    // no deposit asked: null, the balance due 30 days before the start
    await patch({ payment_policy: { deposit: { type: "none" }, balance_due_days: 30 } });
    const plain = await createBookingFixture({ businessId: biz, booker: { email: uniqueEmail("p"), first_name: "P" }, start: "2027-03-06", totalMinor: 10_000, lines: [{ product_id: surf, product_type: "activity", dates: ["2027-03-06"], price_minor: 10_000 }] });
    expect(dues(await detail(plain.bookingId))).toEqual({ deposit_due: null, deposit_due_date: null, balance_due_date: "2027-02-04" });
    await patch({ payment_policy: { deposit: { type: "none" } } });
  });

  it("converts a per-person deposit at the booking's own rate", async () => {
    const db = await dbOf(biz);
    const tour = (await createProduct({ type: "activity", title: "Tour", payment_policy: { deposit: { type: "per_person", amount: 100 } } })).body.data.id;
    const b = await createBookingFixture({
      businessId: biz,
      booker: { email: uniqueEmail("usd"), first_name: "Usd" },
      guests: [{ first_name: "G", email: uniqueEmail("g") }],
      start: "2027-05-01",
      totalMinor: 54_250,
      lines: [{ product_id: tour, product_type: "activity", dates: ["2027-05-01"], price_minor: 54_250 }],
    });
    // the booking in USD at 1.085 (its total in EUR 500.00): 100 EUR a person is 108.50 USD
    await db.prepare("UPDATE bookings SET currency = 'USD', total_default_minor = 50000 WHERE id = ?").bind(b.bookingId).run();
    expect((await detail(b.bookingId)).deposit_due).toBe(108.5);
  });
});
