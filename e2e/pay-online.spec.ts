/**
 * A guest pays online at checkout (issue 31), in Chromium: the demo surf camp takes a 30 % deposit
 * before it confirms (payment_policy: online payment, pay_to_confirm) and is connected to the
 * loopback Stripe stand-in (worker/test/stripe-standin.ts, the e2e server's STRIPE_API_BASE), whose
 * payment page completes the session, sends Stripe's signed webhook and brings the guest back. The
 * booking exists, deposit_paid, only after that webhook; the owner's balance link is paid on the
 * same page (paid); a refund of part of it (partially_refunded) reaches the stand-in exactly once;
 * the booker's total paid is the net amount.
 */
import { acceptInvite, signIn } from "./admin-kit";
import { expect, heading, test } from "./fixtures";
import { toCheckout, w } from "./journey";
import { npmRun } from "../worker/test/cli/helpers";
import type { ParsedMail } from "mailparser";

const SK = "rk_test_e2eStandinKey0123456789";
const WHSEC = "whsec_e2eStandinSigningSecret0123456789";

test("the guest pays the deposit on Stripe's page and is booked by the webhook; the balance link is paid; a manager refunds part once", async ({ page, server, browser }) => {
  const key = await server.privateKey();
  const priv = async (path: string, method = "GET", body?: unknown) => {
    const res = await fetch(`${server.url}/private${path}`, { method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const standin = async (path: string, body?: unknown) =>
    (await fetch(`${server.stripeStandin}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })).json() as Promise<any>;

  await server.setDemoConfig({ payment_policy: { online_payment: true, deposit: { type: "percent", percent: 30 }, pay_to_confirm: true, payment_hold_minutes: 30 } });
  expect((await priv("/settings/stripe", "PUT", { secret_key: SK, webhook_secret: WHSEC })).status).toBe(200);
  // where the stand-in's payment page sends the demo business's events (its webhook endpoint and signing secret)
  const [demo] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  await standin("/_standin/webhook-targets", { business_id: demo.id, url: `${server.url}/stripe/webhook/demo`, secret: WHSEC });
  try {
    const email = `petra.payer.${Date.now().toString(36)}@example.com`;
    await toCheckout(page, server.url, { first: "Petra", last: "Payer", email, birth: "1990-02-02" }, 6);
    await expect(w(page, "form [data-payment]")).toContainText("you pay online on the next page");
    // the checkout's answer, read on its way to the page (the page is left at once after it)
    let answered: { status: number; body: any } | undefined;
    await page.route("**/widget/v1/demo/carts/*/checkout", async (route) => {
      const res = await route.fetch();
      answered = { status: res.status(), body: await res.json() };
      await route.fulfill({ response: res });
    });
    await w(page, "button[type=submit]").click();
    await page.waitForURL(`${server.stripeStandin}/checkout/**`);
    expect(answered?.status).toBe(202);
    const awaiting = answered!.body as { cart_id: string; payment: { url: string; amount: number; currency: string } };
    expect(awaiting.payment.url.startsWith(`${server.stripeStandin}/checkout/`)).toBe(true);

    // The stand-in's page (the host page was left): nothing is booked yet.
    await expect(page.locator("[data-amount]")).toHaveText(`${awaiting.payment.amount.toFixed(2)} EUR`);
    const waiting = await server.publicApi(`/api/pub/v2/carts/${awaiting.cart_id}`);
    expect(waiting.body).toMatchObject({ status: "open", booking: null, payment: { status: "awaiting", amount: awaiting.payment.amount } });
    expect(await server.query("SELECT id FROM bookings WHERE cart_id = ?", awaiting.cart_id)).toEqual([]);

    // Paid: the stand-in sends the signed webhook, then the guest is back on the demo page.
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((url) => url.pathname === "/demo");
    // a page load takes no focus from the host page: the confirmation is shown, not focused
    await expect(heading(page)).toHaveText("Booking confirmed");
    await expect(w(page, "[data-payment]")).toContainText("Paid now:");
    await expect(w(page, "[data-payment]")).toContainText("Still due:");
    expect(new URL(page.url()).searchParams.get("bw_payment")).toBe(null); // the marker is read once
    expect(await standin("/_standin/delivered")).toEqual([{ type: "checkout.session.completed", session: awaiting.payment.url.split("/").pop(), status: 200 }]);

    const bookingId = (await server.publicApi(`/api/pub/v2/carts/${awaiting.cart_id}`)).body.booking.id as string;
    const booking = async () => (await priv(`/bookings/${bookingId}`)).body.data;
    const deposit = await booking();
    expect(deposit).toMatchObject({ status: "confirmed", payment_status: "deposit_paid", amount_paid: awaiting.payment.amount });
    expect(awaiting.payment.amount).toBe(Math.round(deposit.total * 30) / 100);
    const reference = (await server.publicApi(`/api/pub/v2/carts/${awaiting.cart_id}`)).body.booking.reference as string;
    await expect(w(page, "[data-booking-reference]")).toHaveText(reference);

    // The receipt, as handed to the send_email binding and parsed as MIME: to the booker, with the
    // ledger entry's number, the amount, the method and the balance left.
    const [entry] = (await priv(`/bookings/${bookingId}/payments`)).body.data as { receipt_number: string }[];
    expect(entry.receipt_number).toMatch(/^\d{4}-\d{6}$/);
    const eur = (n: number) => new Intl.NumberFormat("en", { style: "currency", currency: "EUR" }).format(n);
    let receipt: ParsedMail | undefined;
    await expect
      .poll(async () => (receipt = (await server.sentMail()).find((m) => m.subject?.startsWith(`Receipt ${entry.receipt_number}:`))) !== undefined, { message: "the receipt e-mail", timeout: 10_000 })
      .toBe(true);
    expect(receipt!.to && "value" in receipt!.to ? receipt!.to.value[0].address : null).toBe(email);
    expect(receipt!.subject).toBe(`Receipt ${entry.receipt_number}: ${eur(awaiting.payment.amount)} received for your booking ${reference}`);
    expect(receipt!.text).toContain(`Amount paid: ${eur(awaiting.payment.amount)}`);
    expect(receipt!.text).toContain("Method: Card (online)");
    expect(receipt!.text).toContain(`Balance left to pay: ${eur(deposit.balance_due)}`);

    // The owner sends a link for the balance; the guest pays it on the same page.
    const link = await priv(`/bookings/${bookingId}/payment-links`, "POST", { send_email: false });
    expect(link.status).toBe(201);
    expect(link.body.data.amount).toBe(deposit.balance_due);
    await page.goto(link.body.data.url);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((url) => url.pathname === "/book/demo" && url.searchParams.get("payment") === "success");
    const paid = await booking();
    expect(paid).toMatchObject({ payment_status: "paid", balance_due: 0, amount_paid: paid.total });

    // A manager refunds part of it in the back office: through Stripe, once.
    const managerEmail = `manager.${Date.now().toString(36)}@bluewave.example`;
    const invite = await npmRun("staff", ["invite", "--business", "demo", "--email", managerEmail, "--role", "manager", "--persist-to", server.persistTo, "--url", server.url]);
    expect(invite.code, invite.stderr).toBe(0);
    const manager = await (await browser.newContext()).newPage();
    await acceptInvite(manager, invite.stdout.trim());
    await signIn(manager, managerEmail);
    await manager.goto(`${server.url}/admin/demo/bookings/${bookingId}`);
    await manager.getByText("Refund", { exact: true }).click();
    await manager.getByLabel("Amount (EUR)").last().fill("50");
    await manager.getByLabel("Reason").fill("one lesson less");
    await manager.getByRole("button", { name: "Record refund" }).click();
    await expect(manager.getByRole("status")).toHaveText("Refund recorded.");
    await expect(manager.locator("[data-payment-sums] [data-payment-status]")).toHaveText("Partially refunded");
    const refunded = await booking();
    expect(refunded).toMatchObject({ payment_status: "partially_refunded", amount_refunded: 50 });
    const ledger = (await priv(`/bookings/${bookingId}/payments`)).body.data as { type: string; reference: string | null }[];
    const refundsAsked = ((await standin("/_standin/requests")) as { path: string; form: Record<string, string> }[]).filter((r) => r.path === "/v1/refunds");
    expect(refundsAsked.map((r) => r.form.amount)).toEqual(["5000"]);
    expect(ledger.filter((e) => e.type === "refund").map((e) => e.reference)).toHaveLength(1);

    // The booker's total paid: what was paid less what was refunded.
    const person = (await priv(`/persons?email=${encodeURIComponent(email)}`)).body.data[0];
    expect(person.totals.total_paid_as_booker).toBe(Math.round((paid.total - 50) * 100) / 100);
  } finally {
    await server.setDemoConfig({ payment_policy: { online_payment: false } });
    await priv("/settings/stripe", "PUT", { secret_key: null, webhook_secret: null });
  }
});

test("cancelled on Stripe's page, the guest is back at the cart, still held, and pays from there", async ({ page, server }) => {
  const key = await server.privateKey();
  const priv = (path: string, method: string, body: unknown) =>
    fetch(`${server.url}/private${path}`, { method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await server.setDemoConfig({ payment_policy: { online_payment: true, deposit: { type: "percent", percent: 30 }, pay_to_confirm: true, payment_hold_minutes: 30 } });
  expect((await priv("/settings/stripe", "PUT", { secret_key: SK, webhook_secret: WHSEC })).status).toBe(200);
  const [demo] = await server.query<{ id: number }>("SELECT id FROM businesses WHERE slug = 'demo'");
  await fetch(`${server.stripeStandin}/_standin/webhook-targets`, { method: "POST", body: JSON.stringify({ business_id: demo.id, url: `${server.url}/stripe/webhook/demo`, secret: WHSEC }) });
  try {
    await toCheckout(page, server.url, { first: "Carla", last: "Cancel", email: `carla.${Date.now().toString(36)}@example.com`, birth: "1992-03-03" }, 7);
    await w(page, "button[type=submit]").click();
    await page.waitForURL(`${server.stripeStandin}/checkout/**`);
    const payPage = page.url();
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL((url) => url.pathname === "/demo");
    // back at the cart: still held, nothing booked, the way to pay again
    await expect(heading(page)).toHaveText("Your cart");
    await expect(w(page, '[role="status"]')).toContainText("Payment cancelled: nothing was charged.");
    await expect(w(page, "[data-payment-awaiting]")).toContainText("Your places are held while you pay");
    await expect(w(page, "[data-pay-now]")).toHaveAttribute("href", payPage);
    await w(page, "[data-pay-now]").click();
    await page.waitForURL(payPage);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((url) => url.pathname === "/demo");
    await expect(heading(page)).toHaveText("Booking confirmed");
  } finally {
    await server.setDemoConfig({ payment_policy: { online_payment: false } });
    await priv("/settings/stripe", "PUT", { secret_key: null, webhook_secret: null });
  }
});
