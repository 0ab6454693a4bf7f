/**
 * The back office (issue 20, phase 1) as its people use it, in Chromium: the first owner accepts
 * the CLI's link and signs in, invites a front-desk user who accepts; a booking made through the
 * public API shows on Today and in Bookings; the front desk checks the guest in (by keyboard),
 * downloads the guests CSV (parsed here); is refused the owner's screens with a 403 that changes
 * nothing; the owner removes them and their open session ends at once. axe on every screen, and
 * the screens at 390 px wide.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { isoDay, saturdayAfter } from "./bench/seed-scale";
import { acceptInvite, axeClean, fitsNarrow, parseCsv, PASSWORD, signIn } from "./admin-kit";
import { expect, test } from "./fixtures";
import { npmRun } from "../worker/test/cli/helpers";

test("the back office: owner and front desk run a day, each only where their role allows", async ({ server, browser }) => {
  const suffix = Date.now().toString(36);
  const ownerEmail = `owner.${suffix}@bluewave.example`;
  const deskEmail = `desk.${suffix}@bluewave.example`;

  // The first owner: the CLI prints a one-time link.
  const cli = await npmRun("staff", ["invite", "--business", "demo", "--email", ownerEmail, "--role", "owner", "--persist-to", server.persistTo, "--url", server.url]);
  expect(cli.code, cli.stderr).toBe(0);
  const ownerLink = cli.stdout.trim();
  expect(ownerLink).toMatch(new RegExp(`^${server.url}/admin/invite/[A-Za-z0-9_-]{40,}$`));
  // Only the link token's SHA-256 is stored.
  const tokenHash = createHash("sha256").update(ownerLink.split("/").at(-1)!).digest("hex");
  expect(await server.query("SELECT purpose, created_by FROM staff_invites WHERE token_hash = ?", tokenHash)).toEqual([{ purpose: "invite", created_by: "staff CLI" }]);

  const owner = await (await browser.newContext()).newPage();
  await owner.goto(ownerLink);
  await expect(owner.getByRole("heading", { level: 1 })).toHaveText("Join Blue Wave Surf & Yoga Camp");
  await axeClean(owner, "invitation");
  await acceptInvite(owner, ownerLink);
  await axeClean(owner, "sign-in");
  await signIn(owner, ownerEmail);
  await expect(owner).toHaveURL(/\/admin\/demo\/today$/);
  await expect(owner.getByRole("heading", { level: 1 })).toContainText("Today");
  await axeClean(owner, "today");
  // The link was for once.
  expect((await owner.request.get(ownerLink)).status()).toBe(404);

  // The owner invites a front-desk user, who accepts in a browser of their own.
  await owner.getByRole("link", { name: "Staff" }).click();
  await owner.getByLabel("E-mail").fill(deskEmail);
  await owner.getByLabel("Name", { exact: true }).fill("Dana Desk");
  await owner.getByLabel("Role", { exact: true }).selectOption("front_desk");
  await owner.getByRole("button", { name: "Invite" }).click();
  const deskLink = (await owner.locator("#invite-link").textContent())!.trim();
  expect(deskLink).toContain("/admin/invite/");
  await axeClean(owner, "staff");

  const desk = await (await browser.newContext()).newPage();
  await acceptInvite(desk, deskLink);
  // Signing in by keyboard alone.
  // (the invitation filled in the e-mail; typed over here all the same)
  await desk.getByLabel("E-mail").focus();
  await desk.keyboard.press("ControlOrMeta+a");
  await desk.keyboard.type(deskEmail);
  await desk.keyboard.press("Tab");
  await desk.keyboard.type(PASSWORD);
  await desk.keyboard.press("Enter");
  await expect(desk).toHaveURL(/\/admin\/demo\/today$/);

  // A guest books through the public API.
  const key = await server.publicKey();
  const api = (path: string, body: unknown) =>
    fetch(`${server.url}/api/pub/v2${path}`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const week = saturdayAfter(new Date().toISOString().slice(0, 10), 21);
  const guestEmail = `greta.${suffix}@example.com`;
  const added = await api("/bookings/add", {
    currency: "EUR",
    guests: [{ first_name: "Greta", last_name: "Gast", email: guestEmail, gender: "f", birth_date: "1992-05-05", package: { id: 101, start_date: week, end_date: isoDay(week, 7), accommodation_id: 202 } }],
  });
  expect(added.status, await added.clone().text()).toBe(201);
  const cartId = ((await added.json()) as { cart_id: string }).cart_id;
  const checkout = await api(`/carts/${cartId}/checkout`, {
    terms_accepted: true,
    customer: { first_name: "Bruno", last_name: "Booker", email: `bruno.${suffix}@example.com`, phone: "912345678", phone_countrycode: 351 },
  });
  expect(checkout.status, await checkout.clone().text()).toBe(200);
  const booking = (await checkout.json()) as { id: string; reference: string };
  // one booking number everywhere: the checkout's, the widget's and the e-mails' (2026-00002)
  const reference = booking.reference;
  expect(reference).toMatch(/^\d{4}-\d{5}$/);

  // It shows on Today (new since yesterday) and in Bookings.
  await owner.getByRole("link", { name: "Today" }).click();
  const newBookings = owner.getByRole("table", { name: /New bookings since yesterday/ });
  await expect(newBookings.getByRole("link", { name: reference })).toBeVisible();
  await owner.getByRole("link", { name: "Bookings", exact: true }).click();
  await owner.getByLabel("Search (reference, name or e-mail)").fill("bruno booker");
  await owner.getByRole("button", { name: "Apply" }).click();
  await expect(owner.getByRole("link", { name: reference })).toBeVisible();
  await axeClean(owner, "bookings");
  await owner.getByRole("link", { name: reference }).click();
  await expect(owner.getByRole("heading", { level: 1 })).toHaveText(`Booking ${reference}`);
  await axeClean(owner, "booking");

  // The booking's page at 390 px wide (the owner's other screens: the next test).
  await owner.setViewportSize({ width: 390, height: 800 });
  await owner.goto(`${server.url}/admin/demo/bookings/${booking.id}`);
  await fitsNarrow(owner, "booking");

  // The guest turns up early: check-in opens on the arrival day (the demo's date, UTC), so the
  // guest's arrival is today, as the front desk would record it.
  await server.exec("UPDATE guests SET arrival_date = ? WHERE booking_id = ?", new Date().toISOString().slice(0, 10), booking.id);
  // The front desk checks the guest in, by keyboard.
  await desk.goto(`${server.url}/admin/demo/bookings/${booking.id}`);
  const checkIn = desk.getByRole("button", { name: "Check in: Greta Gast" });
  await checkIn.focus();
  await desk.keyboard.press("Enter");
  await expect(desk.getByRole("status")).toHaveText("Checked in.");
  await expect(desk.getByRole("row", { name: /Greta Gast/ })).toContainText("Checked in");

  // ... and downloads the guests CSV of those checked in, and finds her there.
  await desk.goto(`${server.url}/admin/demo/guests`);
  await desk.getByLabel("Checked in", { exact: true }).selectOption("notnull");
  await desk.getByRole("button", { name: "Apply" }).click();
  await expect(desk.getByRole("cell", { name: guestEmail })).toBeVisible();
  await axeClean(desk, "guests");
  const [download] = await Promise.all([desk.waitForEvent("download"), desk.getByRole("link", { name: "Download CSV of this filter" }).click()]);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  const greta = rows.find((r) => r.email === guestEmail);
  expect(greta, JSON.stringify(rows.slice(0, 3))).toBeDefined();
  expect(greta).toMatchObject({ first_name: "Greta", last_name: "Gast", booking_reference: reference, booking_status: "confirmed" });
  expect(greta!.checked_in_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(rows.every((r) => r.checked_in_at !== "")).toBe(true);

  // The front desk is refused the owner's screens, and nothing changes.
  expect(await desk.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Developers" }).count()).toBe(0);
  const refused = await desk.goto(`${server.url}/admin/demo/developers`);
  expect(refused!.status()).toBe(403);
  await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Not allowed");
  await expect(desk.getByText("Your role does not allow this. Nothing was changed.")).toBeVisible();
  await axeClean(desk, "403");
  const csrf = await desk.goto(`${server.url}/admin/demo/today`).then(() => desk.locator('input[name="_csrf"]').first().inputValue());
  const sneaky = await desk.request.post(`${server.url}/admin/demo/developers/keys`, { form: { _csrf: csrf, name: "desk-key", scope: "private" }, headers: { Origin: server.url } });
  expect(sneaky.status()).toBe(403);
  expect(await server.query("SELECT id FROM api_keys WHERE name = 'desk-key'")).toEqual([]);

  // The owner removes the front desk: the open session ends at once.
  await owner.setViewportSize({ width: 1280, height: 900 });
  await owner.goto(`${server.url}/admin/demo/staff`);
  const row = owner.getByRole("row", { name: new RegExp(deskEmail.replace(/[.+]/g, "\\$&")) });
  await row.locator("summary", { hasText: "Remove" }).click();
  await row.getByRole("button", { name: `Yes, remove ${deskEmail}` }).click();
  await expect(owner.getByRole("status")).toHaveText("Removed; their sessions ended.");
  await desk.reload();
  await expect(desk).toHaveURL(/\/admin\/demo\/sign-in\?next=.*expired=1/);
  await expect(desk.getByRole("status")).toHaveText("Your session has ended. Please sign in again.");

  // Everything the back office changed is in the audit log, naming who did it.
  const audit = await server.query<{ actor_name: string; action: string }>(
    "SELECT actor_name, action FROM audit_log WHERE business_id = 1 AND actor_kind = 'staff' ORDER BY id",
  );
  expect(audit).toEqual(
    expect.arrayContaining([
      { actor_name: ownerEmail, action: "invited" },
      { actor_name: deskEmail, action: "checked_in" },
      { actor_name: ownerEmail, action: "removed" },
    ]),
  );
});

test("the owner's other screens are axe-clean and fit a 390 px phone", async ({ server, browser }) => {
  // A long address, as real ones are: it must wrap on a phone, whatever the machine's fonts.
  const ownerEmail = `owner.screens.${Date.now().toString(36)}.reservations@bluewavesurfandyoga.example`;
  const cli = await npmRun("staff", ["invite", "--business", "demo", "--email", ownerEmail, "--role", "owner", "--persist-to", server.persistTo, "--url", server.url]);
  expect(cli.code, cli.stderr).toBe(0);
  const owner = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
  await acceptInvite(owner, cli.stdout.trim());
  await signIn(owner, ownerEmail);
  await expect(owner).toHaveURL(/\/admin\/demo\/today$/);
  for (const [name, path] of [["Calendar", "calendar"], ["Manifest", "manifest"], ["Guests", "guests"], ["Developers", "developers"], ["Audit log", "audit"], ["Staff", "staff"], ["Your account", "account"], ["Today", "today"]] as const) {
    await owner.goto(`${server.url}/admin/demo/${path}`);
    await expect(owner.getByRole("heading", { level: 1 })).toContainText(name);
    await axeClean(owner, path);
    await fitsNarrow(owner, path);
  }
});
