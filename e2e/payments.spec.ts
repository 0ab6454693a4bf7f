/**
 * A booking's payments in the back office (issue 31), in Chromium: the front desk records a cash
 * deposit and sees what is still due, and has no refund form (its POST is refused); a manager
 * refunds part of it. What the page shows is checked against the private API's booking and ledger.
 */
import { isoDay, saturdayAfter } from "./bench/seed-scale";
import { acceptInvite, axeClean, signIn } from "./admin-kit";
import { expect, test } from "./fixtures";
import { npmRun } from "../worker/test/cli/helpers";

test("the front desk records a cash deposit and sees the balance; a manager refunds part of it", async ({ server, browser }) => {
  const suffix = Date.now().toString(36);
  const people: Record<"front_desk" | "manager", string> = { front_desk: `desk.${suffix}@bluewave.example`, manager: `manager.${suffix}@bluewave.example` };
  const pages = {} as Record<"front_desk" | "manager", Awaited<ReturnType<Awaited<ReturnType<typeof browser.newContext>>["newPage"]>>>;
  for (const role of ["front_desk", "manager"] as const) {
    const cli = await npmRun("staff", ["invite", "--business", "demo", "--email", people[role], "--role", role, "--persist-to", server.persistTo, "--url", server.url]);
    expect(cli.code, cli.stderr).toBe(0);
    const page = await (await browser.newContext()).newPage();
    await acceptInvite(page, cli.stdout.trim());
    await signIn(page, people[role]);
    await expect(page).toHaveURL(/\/admin\/demo\/today$/);
    pages[role] = page;
  }

  // A guest books the surf week through the public API.
  const key = await server.publicKey();
  const api = (path: string, body: unknown) =>
    fetch(`${server.url}/api/pub/v2${path}`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const week = saturdayAfter(new Date().toISOString().slice(0, 10), 35);
  const added = await api("/bookings/add", {
    currency: "EUR",
    guests: [{ first_name: "Paula", last_name: "Payer", gender: "f", birth_date: "1990-03-03", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 203 } }],
  });
  expect(added.status, await added.clone().text()).toBe(201);
  const cartId = ((await added.json()) as { cart_id: string }).cart_id;
  const checkout = await api(`/carts/${cartId}/checkout`, {
    terms_accepted: true,
    customer: { first_name: "Paula", last_name: "Payer", email: `paula.${suffix}@example.com`, phone: "912345678", phone_countrycode: 351 },
  });
  expect(checkout.status, await checkout.clone().text()).toBe(200);
  const booking = (await checkout.json()) as { id: string };
  const privateKey = await server.privateKey();
  const detail = async () => ((await (await fetch(`${server.url}/private/bookings/${booking.id}`, { headers: { Authorization: `Bearer ${privateKey}` } })).json()) as { data: Record<string, any> }).data;
  const total = (await detail()).total as number;
  const eur = (n: number) => `${n.toFixed(2)} EUR`;
  const sums = (page: (typeof pages)["manager"]) => page.locator("[data-payment-sums]");

  // The front desk: nothing paid yet, a cash deposit of 100.00, the balance shown.
  const desk = pages.front_desk;
  await desk.goto(`${server.url}/admin/demo/bookings/${booking.id}`);
  await expect(sums(desk).locator("[data-balance]")).toHaveText(eur(total));
  await expect(sums(desk).locator("[data-payment-status]")).toHaveText("Unpaid");
  await desk.getByText("Record a payment").click();
  await desk.getByLabel("Amount (EUR)").fill("100");
  await desk.getByLabel("Method").selectOption("cash");
  await desk.getByLabel("Reference").fill("front desk till");
  await desk.getByRole("button", { name: "Record payment" }).click();
  await expect(desk.getByRole("status")).toHaveText("Payment recorded.");
  await expect(sums(desk).locator("[data-paid]")).toHaveText("100.00 EUR");
  await expect(sums(desk).locator("[data-balance]")).toHaveText(eur(total - 100));
  await expect(sums(desk).locator("[data-payment-status]")).toHaveText("Deposit paid");
  const row = desk.locator('tr[data-kind="payment"]');
  await expect(row).toContainText("Cash");
  await expect(row).toContainText("front desk till");
  await expect(row).toContainText(people.front_desk);
  await axeClean(desk, "booking with a payment");
  // No refund form for the front desk, and a refund sent all the same is refused.
  await expect(desk.getByRole("button", { name: "Record refund" })).toHaveCount(0);
  const csrf = await desk.locator('input[name="_csrf"]').first().inputValue();
  const sneaky = await desk.request.post(`${server.url}/admin/demo/bookings/${booking.id}/refunds`, { form: { _csrf: csrf, amount: "10" }, headers: { Origin: server.url } });
  expect(sneaky.status()).toBe(403);

  // The manager refunds 30.00 of the deposit.
  const manager = pages.manager;
  await manager.goto(`${server.url}/admin/demo/bookings/${booking.id}`);
  await manager.getByText("Refund", { exact: true }).click();
  await manager.getByLabel("Amount (EUR)").last().fill("30");
  await manager.getByLabel("Reason").fill("one lesson cancelled");
  await manager.getByRole("button", { name: "Record refund" }).click();
  await expect(manager.getByRole("status")).toHaveText("Refund recorded.");
  await expect(sums(manager).locator("[data-refunded]")).toHaveText("30.00 EUR");
  await expect(sums(manager).locator("[data-balance]")).toHaveText(eur(total - 70));
  await expect(sums(manager).locator("[data-payment-status]")).toHaveText("Partially refunded");
  await expect(manager.locator('tr[data-kind="refund"]')).toContainText("one lesson cancelled");
  await axeClean(manager, "booking with a refund");

  // The private API says the same.
  expect(await detail()).toMatchObject({ amount_paid: 100, amount_refunded: 30, balance_due: Number((total - 70).toFixed(2)), payment_status: "partially_refunded" });

  // The Payments screen: the front desk cashes up the day and sees the booking among those still
  // owing. The day's cash is the ledger's as D1 holds it (other journeys on this server take cash
  // from the demo too), this booking's 100.00 in and 30.00 back among it.
  const today = new Date().toISOString().slice(0, 10);
  const [{ id: business }] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  const ledger = await server.query<{ kind: string; amount_minor: number; booking_id: string }>(
    "SELECT kind, amount_minor, booking_id FROM payments WHERE business_id = ? AND method = 'cash' AND status = 'succeeded' AND currency = 'EUR' AND created_at >= ? AND created_at < ?",
    business, `${today}T00:00:00`, `${isoDay(today, 1)}T00:00:00`,
  );
  expect(ledger.filter((e) => e.booking_id === booking.id).map((e) => [e.kind, e.amount_minor]).sort()).toEqual([["payment", 10000], ["refund", 3000]]);
  const cashIn = ledger.filter((e) => e.kind === "payment").reduce((n, e) => n + e.amount_minor, 0) / 100;
  const cashBack = ledger.filter((e) => e.kind === "refund").reduce((n, e) => n + e.amount_minor, 0) / 100;
  await desk.getByRole("navigation").getByRole("link", { name: "Payments" }).click();
  await expect(desk).toHaveURL(/\/admin\/demo\/payments$/);
  const cash = desk.locator(`tr[data-day="${today}"][data-method="cash"]`);
  await expect(cash.locator("td").nth(3)).toHaveText(eur(cashIn));
  await expect(cash.locator("td").nth(5)).toHaveText(eur(cashBack));
  await expect(cash.locator("[data-net]")).toHaveText(eur(cashIn - cashBack));
  await expect(desk.locator(`tr[data-open="${booking.id}"] [data-owes]`)).toHaveText(eur(total - 70));
  await axeClean(desk, "payments");
});
