/**
 * Prices, Seasons and Inventory in the back office (issue 20, phase 2), in Chromium: an owner of a
 * new business (made with the CLI, its products with the private API) sets up its seasons, prices,
 * the yoga class's timeslots and a closed day through the screens (the kit a journey chains), and
 * the public API quotes and sells what was set; the owner edits a price in the grid by keyboard
 * and sees it saved; a bad cell is shown at the cell; axe finds nothing on the three screens, at
 * full width and at 390 px, where the wide grid scrolls in its own box.
 */
import { npmRun } from "../worker/test/cli/helpers";
import { acceptInvite, axeClean, fitsWidth, signIn } from "./admin-kit";
import { surfCampPricesInScreens } from "./admin-screens-kit";
import { expect, test } from "./fixtures";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The first Saturday on or after `date`. */
const saturdayFrom = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

test("the owner sets seasons, prices, timeslots and a closed day in the screens, and guests are quoted and sold what was set", async ({ server, browser }) => {
  const slug = `prices-${Date.now().toString(36)}`;
  const state = ["--persist-to", server.persistTo];
  const made = await npmRun("business", ["create", "--slug", slug, "--title", "Atlantic Surf House", "--currency", "EUR", ...state]);
  expect(made.code, made.stderr).toBe(0);
  const keyOf = async (scope: string) => {
    const ran = await npmRun("keys", ["create", "--business", slug, "--scope", scope, "--name", `${scope} e2e`, ...state]);
    expect(ran.code, ran.stderr).toBe(0);
    return ran.stdout.trim();
  };
  const [privateKey, publicKey] = [await keyOf("private"), await keyOf("public")];
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${path.startsWith("/private") ? privateKey : publicKey}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 400)).toBeLessThan(300);
    return json;
  };
  // The products, as the catalog screens (or the API) make them: no prices, no timeslots yet.
  const yoga = (await api("POST", "/private/catalog/products", { type: "activity", title: "Sunrise yoga", duration: { unit: "hour", default: 1 }, capacity: 10 })).data;
  const pkg = (
    await api("POST", "/private/catalog/products", {
      type: "package",
      title: "Surf week",
      duration: { default: 7, min: 7, max: 7 },
      pax: { min: 1, max: 6 },
      allowed_checkin_days: { mon: false, tue: false, wed: false, thu: false, fri: false, sat: true, sun: false },
      capacity: 14,
    })
  ).data;

  // The owner: a link from the CLI, a password, signed in.
  const email = `owner.${slug}@atlantic.example`;
  const invite = await npmRun("staff", ["invite", "--business", slug, "--email", email, "--role", "owner", "--url", server.url, ...state]);
  expect(invite.code, invite.stderr).toBe(0);
  const page = await (await browser.newContext()).newPage();
  await acceptInvite(page, invite.stdout.trim());
  await signIn(page, email);
  await expect(page).toHaveURL(new RegExp(`/admin/${slug}/today$`));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Prices" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prices");

  // Everything buildSurfCamp sets after its products, through the screens.
  const camp = await surfCampPricesInScreens(page, server.url, slug, { packageTitle: "Surf week", packageId: pkg.id, yogaId: yoga.id });

  // What a guest is quoted and offered.
  const low = saturdayFrom(day(7));
  const high = saturdayFrom(day(130));
  const quote = async (start: string) => (await api("GET", `/api/pub/v2/products/${pkg.id}/prices?start_date=${start}&pax=1&duration=7`)).total_price;
  expect(await quote(low)).toBe(315); // 7 nights at 45
  expect(await quote(high)).toBe(455); // 7 nights at 65
  const monday = day(7 + ((8 - new Date(`${day(7)}T00:00:00Z`).getUTCDay()) % 7));
  const sunday = day(7 + ((7 - new Date(`${day(7)}T00:00:00Z`).getUTCDay()) % 7));
  const yogaDays = await api("GET", `/api/pub/v2/products/${yoga.id}/availabilities?start_date=${day(7)}&end_date=${day(14)}`);
  expect(yogaDays[monday].timeslots).toEqual([{ time: "07:00", available: 8, capacity: 8 }]);
  expect(yogaDays[sunday].timeslots).toEqual([{ time: "09:00", available: 12, capacity: 12 }]);
  const closed = await api("GET", `/api/pub/v2/products/${pkg.id}/availabilities?start_date=${camp.blockedDate}&end_date=${camp.blockedDate}`);
  expect(closed[camp.blockedDate]).toMatchObject({ blocked: true, available: 0 });

  // The owner raises the high season's price by keyboard alone, and sees it saved.
  await page.goto(`${server.url}/admin/${slug}/prices`);
  await axeClean(page, "prices");
  const cell = page.getByLabel("Surf week, High season", { exact: true });
  await expect(cell).toHaveValue("65.00");
  await cell.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("69.5");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Prices saved for 1 product.");
  await expect(page.getByLabel("Surf week, High season", { exact: true })).toHaveValue("69.50");
  expect(await quote(high)).toBe(486.5);

  // A bad cell: its message at the cell, what was typed kept, nothing saved.
  await page.getByLabel("Surf week, Low season", { exact: true }).fill("cheap");
  await page.getByRole("button", { name: "Save prices" }).click();
  const bad = page.getByLabel("Surf week, Low season", { exact: true });
  await expect(bad).toHaveValue("cheap");
  await expect(bad).toHaveAttribute("aria-invalid", "true");
  await expect(bad).toHaveAccessibleDescription("Enter an amount such as 45 or 45.50, or leave the cell empty.");
  await axeClean(page, "prices with an error");
  expect(await quote(low)).toBe(315);

  // The three screens, axe-clean at full width and at 390 px, the grid scrolling in its own box.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    for (const [name, path] of [
      ["Prices", "prices"],
      ["Seasons", "seasons"],
      ["Inventory: Sunrise yoga", `catalog/products/${yoga.id}/inventory`],
    ] as const) {
      await page.goto(`${server.url}/admin/${slug}/${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
      await axeClean(page, `${path} at ${width}px`);
      await fitsWidth(page, width, `${path} at ${width}px`);
    }
  }
  await page.goto(`${server.url}/admin/${slug}/prices`);
  const grid = page.getByRole("region", { name: /Prices by product and season/ });
  expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
});
