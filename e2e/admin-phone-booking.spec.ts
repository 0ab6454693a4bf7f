/**
 * A phone booking at the front desk (issue 31), in Chromium on a 390 px phone: the front desk
 * opens New booking from Today, books the surf week with a room for a caller through the plain
 * forms (telling the caller the price first), records a cash deposit, and sees the booking with what is still due. The Payments screen
 * and its CSV then agree with the ledger (read from D1) to the cent.
 */
import { readFileSync } from "node:fs";
import { isoDay, saturdayAfter } from "./bench/seed-scale";
import { axeClean, fitsNarrow, parseCsv, PASSWORD, signIn } from "./admin-kit";
import { expect, test } from "./fixtures";
import { hashPassword } from "../worker/src/lib/password";

test.use({ viewport: { width: 390, height: 844 } });

test("the front desk books the surf week by phone with a cash deposit; Payments and its CSV agree with the ledger to the cent", async ({ server, page }) => {
  const suffix = Date.now().toString(36);
  const email = `phone.desk.${suffix}@bluewave.example`;
  const now = new Date().toISOString();
  const [{ id: business }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  await server.exec(
    "INSERT INTO staff_users (id, business_id, email, email_norm, name, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'Desk', 'front_desk', ?, ?, ?)",
    crypto.randomUUID(), business, email, email, await hashPassword(PASSWORD), now, now,
  );
  await page.goto(`${server.url}/admin/demo/sign-in`);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/admin\/demo\/today$/);

  // What is booked: the surf week, a Saturday five weeks on, 7 nights, one guest.
  await page.getByRole("link", { name: "New booking", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/demo\/bookings\/new$/);
  const week = saturdayAfter(now.slice(0, 10), 35);
  await page.getByLabel("Product").selectOption({ label: "Surf & Yoga Week" });
  await page.getByLabel("Start date").fill(week);
  await page.getByLabel("Nights or days").fill("7");
  await page.getByLabel("Guests", { exact: true }).fill("1");
  await page.getByRole("button", { name: "Continue" }).click();

  // The room, the guest, the caller as booker, a cash deposit of 120.50.
  const form = page.locator("form[data-new-booking]");
  await expect(form).toBeVisible();
  await fitsNarrow(page, "new booking");
  await axeClean(page, "new booking");
  await form.getByLabel("Room", { exact: true }).selectOption({ label: "Twin Room" });
  await form.locator('[name="guests.0.first_name"]').fill("Marta");
  await form.locator('[name="guests.0.last_name"]').fill("Telefone");
  await form.locator('[name="guests.0.gender"]').selectOption("f");
  await form.locator('[name="guests.0.birth_date"]').fill("1992-06-07");
  // The caller asks the price: the form comes back with it, and with what was typed.
  await form.getByRole("button", { name: "Check the price" }).click();
  await expect(page.locator("[data-quote]")).toContainText(/^Price: \d+\.\d\d EUR/);
  const quoted = /Price: ([\d.]+) EUR/.exec((await page.locator("[data-quote]").textContent())!)![1];
  await expect(form.locator('[name="guests.0.first_name"]')).toHaveValue("Marta");
  await expect(form.getByLabel("Room", { exact: true })).toHaveValue(/\d+/);
  await form.locator('[name="customer.first_name"]').fill("Marta");
  await form.locator('[name="customer.last_name"]').fill("Telefone");
  await form.locator('[name="customer.email"]').fill(`marta.${suffix}@example.com`);
  await form.locator('[name="customer.phone_countrycode"]').fill("351");
  await form.locator('[name="customer.phone"]').fill("912 345 678");
  await form.getByLabel("Made by").selectOption("phone");
  await form.getByLabel("The booker accepts the business's terms").check();
  await form.getByLabel("Record a deposit").check();
  await form.getByLabel(/^Amount \(EUR\)/).fill("120.50");
  await form.getByLabel("Method", { exact: true }).selectOption("cash");
  await form.getByLabel("Reference (bank transfer, receipt)").fill(`till ${suffix}`);
  await form.getByRole("button", { name: "Book" }).click();

  // The booking's page: booked, the deposit in its ledger, the balance due.
  await expect(page).toHaveURL(/\/admin\/demo\/bookings\/[0-9a-f-]{36}\?done=booked-paid$/);
  await expect(page.getByRole("status")).toHaveText("Booked, and the payment recorded.");
  const bookingId = /bookings\/([0-9a-f-]{36})/.exec(page.url())![1];
  const [booking] = await server.query<{ total_minor: number; currency: string; client_id: string }>(
    "SELECT b.total_minor, b.currency, c.client_id FROM bookings b JOIN carts c ON c.id = b.cart_id WHERE b.id = ?",
    bookingId,
  );
  expect(booking.client_id).toMatch(/^staff:/);
  expect(booking.total_minor).toBe(Math.round(Number(quoted) * 100));
  const eur = (minor: number) => `${(minor / 100).toFixed(2)} EUR`;
  const sums = page.locator("[data-payment-sums]");
  await expect(sums.locator("[data-paid]")).toHaveText("120.50 EUR");
  await expect(sums.locator("[data-balance]")).toHaveText(eur(booking.total_minor - 12050));
  await expect(sums.locator("[data-payment-status]")).toHaveText("Deposit paid");
  await fitsNarrow(page, "the booking made by phone");

  // The ledger as D1 holds it: today's succeeded entries of the business.
  const today = now.slice(0, 10);
  const ledger = await server.query<{ id: string; kind: string; method: string; status: string; amount_minor: number; currency: string; booking_id: string }>(
    "SELECT id, kind, method, status, amount_minor, currency, booking_id FROM payments WHERE business_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at, id",
    business, `${today}T00:00:00`, `${isoDay(today, 1)}T00:00:00`,
  );
  const mine = ledger.filter((e) => e.booking_id === bookingId);
  expect(mine).toEqual([expect.objectContaining({ kind: "payment", method: "cash", status: "succeeded", amount_minor: 12050, currency: "EUR" })]);
  const cashNet = ledger.filter((e) => e.method === "cash" && e.status === "succeeded" && e.currency === "EUR").reduce((s, e) => s + (e.kind === "refund" ? -e.amount_minor : e.amount_minor), 0);

  // Payments: the day's cash net is the ledger's, and the entry is listed with its booking.
  await page.goto(`${server.url}/admin/demo/payments`);
  await expect(page.locator(`tr[data-day="${today}"][data-method="cash"] [data-net]`)).toHaveText(eur(cashNet));
  await expect(page.locator(`tr[data-entry="${mine[0].id}"]`)).toContainText("120.50 EUR");
  await expect(page.locator(`tr[data-open="${bookingId}"] [data-owes]`)).toHaveText(eur(booking.total_minor - 12050));

  // ... and its CSV holds every entry of the ledger, each amount to the cent.
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("a[download]").click()]);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  expect(rows.map((r) => r.entry_id).sort()).toEqual(ledger.map((e) => e.id).sort());
  for (const e of ledger) {
    const row = rows.find((r) => r.entry_id === e.id)!;
    expect({ id: e.id, cents: cents(row.amount), method: row.method, currency: row.currency }).toEqual({ id: e.id, cents: e.kind === "refund" ? -e.amount_minor : e.amount_minor, method: e.method, currency: e.currency });
  }
  const csvCash = rows.filter((r) => r.method === "cash" && r.status === "succeeded" && r.currency === "EUR").reduce((s, r) => s + cents(r.amount), 0);
  expect(csvCash).toBe(cashNet);
  expect(rows.find((r) => r.booking_id === bookingId)).toMatchObject({ kind: "payment", method: "cash", amount: "120.50", by: email });
});
