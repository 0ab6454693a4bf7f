/**
 * Phone and walk-in bookings made by the front desk in the back office (issue 31): the New booking
 * screen books through the widget's own cart operations (the same places, prices and rules), the
 * booking's audit entry names the staff user and the channel, and a cash deposit is recorded in
 * the ledger at once. A sold-out time or an invalid field is shown at its field and nothing is
 * booked; a user who may not book here gets the 403 page.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callJson, createBusiness, createKey, dbOf, DEMO_BUSINESS_ID, nextWeekday } from "./helpers";
import { CatalogFile } from "../src/contract/catalog-file";
import { applyCatalog } from "../src/manage/catalog/file";
import { diveCatalog } from "../seed/demo";
import { createStaff, signedIn, type Browser } from "./admin-fixtures";
import { createBookingFixture, uniqueEmail } from "./private-fixtures";

const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const count = async (sql: string, ...args: unknown[]) => (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;
const bookingsOfDemo = () => count("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?", DEMO_BUSINESS_ID);

let seq = 0;
const booker = (prefix: string) => ({
  "customer.first_name": "Rita",
  "customer.last_name": `Caller${++seq}`,
  "customer.email": uniqueEmail(prefix),
  "customer.phone_countrycode": "351",
  "customer.phone": "912345678",
  terms_accepted: "true",
});

/** The booking id the POST's redirect names, and its message key. */
function redirected(res: Response): { id: string; done: string } {
  expect(res.status).toBe(303);
  const m = /\/admin\/demo\/bookings\/([0-9a-f-]{36})\?done=([\w-]+)$/.exec(res.headers.get("Location") ?? "");
  expect(m, res.headers.get("Location") ?? "").not.toBeNull();
  return { id: m![1], done: m![2] };
}

const sums = (html: string) => ({
  total: /data-total[^>]*>([^<]*)</.exec(html)?.[1],
  paid: /data-paid[^>]*>([^<]*)</.exec(html)?.[1],
  balance: /data-balance[^>]*>([^<]*)</.exec(html)?.[1],
  status: /data-payment-status="([^"]*)"/.exec(html)?.[1],
});

async function desk(): Promise<{ b: Browser; staffId: string; email: string }> {
  const staff = await createStaff(DEMO_BUSINESS_ID, "front_desk");
  return { b: await signedIn("demo", staff.email), ...staff };
}

describe("a phone booking made by the front desk", () => {
  it("books the surf week with a room for two, priced as the widget prices it, and records a cash deposit", async () => {
    const { b, staffId, email } = await desk();
    // Today and Bookings lead to the screen
    expect(await (await b.get("/admin/demo/today")).text()).toContain('href="/admin/demo/bookings/new"');
    expect(await (await b.get("/admin/demo/bookings")).text()).toContain('href="/admin/demo/bookings/new"');

    const week = nextWeekday(6, new Date(), 60);
    const pick = { product: "101", start_date: week, days: "7", guests: "2" };
    const form = await b.get(`/admin/demo/bookings/new?${new URLSearchParams(pick)}`);
    expect(form.status).toBe(200);
    const html = await form.text();
    // the room, each guest's gender (a room needs it) and birth date (the demo requires it), the booker's phone
    for (const name of ["accommodation_id", "guests.0.gender", "guests.1.birth_date", "customer.phone", "terms_accepted", "payment"]) expect(html).toContain(`name="${name}"`);

    const guests = {
      "guests.0.first_name": "Ana",
      "guests.0.last_name": "Silva",
      "guests.0.gender": "f",
      "guests.0.birth_date": "1991-04-05",
      "guests.1.first_name": "Rui",
      "guests.1.last_name": "Silva",
      "guests.1.gender": "m",
      "guests.1.birth_date": "1989-10-11",
    };
    // the caller asks the price first: the cart's quote, before any name is typed, nothing booked or held
    const bookingsBefore = await bookingsOfDemo();
    const preview = await b.post("/admin/demo/bookings/new", { ...pick, accommodation_id: "203", "guests.0.gender": "f", "guests.1.gender": "m", preview: "1" });
    expect(preview.status).toBe(200);
    const price = /data-quote[^>]*>Price: ([\d.]+) EUR/.exec(await preview.text())?.[1];
    expect(price).toBeDefined();
    expect(await bookingsOfDemo()).toBe(bookingsBefore);

    const res = await b.post("/admin/demo/bookings/new", { ...pick, accommodation_id: "203", ...guests, ...booker("phone-week"), channel: "phone", payment: "deposit", amount: "150", method: "cash", reference: "till 4" });
    const { id, done } = redirected(res);
    expect(done).toBe("booked-paid");

    // the booking, priced as the widget's cart prices the same selection
    const booking = await env.DB.prepare("SELECT b.status, b.total_minor, b.start_date, b.end_date, c.client_id FROM bookings b JOIN carts c ON c.id = b.cart_id WHERE b.id = ?").bind(id).first<Record<string, unknown>>();
    expect(booking).toMatchObject({ status: "confirmed", start_date: week, end_date: addDays(week, 7), client_id: `staff:${staffId}` });
    const key = await createKey("public", DEMO_BUSINESS_ID);
    const same = await callJson("/api/pub/v2/bookings/add", {
      key,
      body: {
        currency: "EUR",
        guests: [0, 1].map((i) => ({ first_name: "X", last_name: "Y", gender: i ? "m" : "f", birth_date: "1990-01-01", package: { id: 101, start_date: week, end_date: addDays(week, 7), accommodation_id: 203 } })),
      },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(201);
    expect(Math.round(same.body.total * 100)).toBe(booking!.total_minor);
    expect(Math.round(Number(price) * 100)).toBe(booking!.total_minor);
    await callJson(`/api/pub/v2/carts/${same.body.cart_id}`, { key, method: "DELETE" });

    // the ledger holds the cash deposit; the booking's page shows it
    const ledger = await env.DB.prepare("SELECT kind, amount_minor, method, status, reference, actor_kind FROM payments WHERE booking_id = ?").bind(id).all();
    expect(ledger.results).toEqual([{ kind: "payment", amount_minor: 15000, method: "cash", status: "succeeded", reference: "till 4", actor_kind: "staff" }]);
    const page = await (await b.get(`/admin/demo/bookings/${id}?done=booked-paid`)).text();
    const total = (booking!.total_minor as number) / 100;
    expect(sums(page)).toEqual({ total: `${total.toFixed(2)} EUR`, paid: "150.00 EUR", balance: `${(total - 150).toFixed(2)} EUR`, status: "deposit_paid" });
    expect(page).toContain("Booked, and the payment recorded.");
    expect(page).toContain("Ana Silva");

    // the audit entry names the staff user and the channel
    const audit = await env.DB.prepare("SELECT actor_kind, actor_name, after FROM audit_log WHERE entity_id = ? AND action = 'booked'").bind(id).first<{ actor_kind: string; actor_name: string; after: string }>();
    expect(audit).toMatchObject({ actor_kind: "staff", actor_name: email });
    expect(JSON.parse(audit!.after)).toMatchObject({ channel: "phone", source: "back_office" });
  });

  it("books a yoga class at 18:00 for a walk-in with a cash deposit, and refuses a full slot at the time field with nothing booked", async () => {
    const { b } = await desk();
    const day = nextWeekday(3, new Date(), 40);
    const pick = { product: "302", start_date: day, days: "1", guests: "1" };
    const html = await (await b.get(`/admin/demo/bookings/new?${new URLSearchParams(pick)}`)).text();
    expect(html).toContain('name="time"');
    expect(html).toContain("18:00 (12 left)");
    const guest = { "guests.0.first_name": "Joana", "guests.0.last_name": "Mar", "guests.0.birth_date": "1995-02-02" };
    const { id } = redirected(await b.post("/admin/demo/bookings/new", { ...pick, time: "18:00", ...guest, ...booker("walk-in"), channel: "walk_in", payment: "deposit", amount: "5", method: "cash" }));
    const line = await env.DB.prepare("SELECT dates FROM booking_lines WHERE booking_id = ?").bind(id).first<{ dates: string }>();
    expect(JSON.parse(line!.dates)).toEqual([`${day} 18:00:00`]);
    const page = await (await b.get(`/admin/demo/bookings/${id}`)).text();
    expect(sums(page)).toMatchObject({ total: "12.00 EUR", paid: "5.00 EUR", balance: "7.00 EUR", status: "deposit_paid" });
    expect(JSON.parse((await env.DB.prepare("SELECT after FROM audit_log WHERE entity_id = ? AND action = 'booked'").bind(id).first<{ after: string }>())!.after).channel).toBe("walk_in");

    // a guest's cart holds the other eleven places at 08:00; one more is refused at the time, nothing booked or held
    const key = await createKey("public", DEMO_BUSINESS_ID);
    const item = await itemOf(key, day);
    const crowd = await callJson("/api/pub/v2/bookings/add", {
      key,
      body: { currency: "EUR", guests: Array.from({ length: 12 }, (_, i) => ({ first_name: `Y${i}`, last_name: "Oga", birth_date: "1990-01-01", package: { id: 302, start_date: day, end_date: addDays(day, 1), items: [{ package_item_id: item, dates: [`${day} 08:00:00`] }] } })) },
    });
    expect(crowd.status, JSON.stringify(crowd.body)).toBe(201);
    const before = await bookingsOfDemo();
    const paymentsBefore = await count("SELECT COUNT(*) AS n FROM payments WHERE business_id = ?", DEMO_BUSINESS_ID);
    const holdsBefore = await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?", DEMO_BUSINESS_ID);
    const refused = await b.post("/admin/demo/bookings/new", { ...pick, time: "08:00", ...guest, ...booker("sold-out"), channel: "phone", payment: "deposit", amount: "5", method: "cash" });
    expect(refused.status).toBe(409);
    const text = await refused.text();
    expect(text).toMatch(/id="f-time-error"[^>]*>[^<]*Yoga Class on [\d-]+ at 08:00: 0 left, 1 wanted/);
    // what was typed is kept
    expect(text).toContain('value="Joana"');
    expect(await bookingsOfDemo()).toBe(before);
    expect(await count("SELECT COUNT(*) AS n FROM allocations WHERE business_id = ?", DEMO_BUSINESS_ID)).toBe(holdsBefore);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE business_id = ?", DEMO_BUSINESS_ID)).toBe(paymentsBefore);
  });

  it("shows an invalid field next to it and books nothing; a booker the checkout refuses leaves no places held", async () => {
    const { b, staffId } = await desk();
    const week = nextWeekday(6, new Date(), 90);
    const pick = { product: "101", start_date: week, days: "7", guests: "1" };
    const before = await bookingsOfDemo();
    // no birth date (the demo requires it), no gender for the room
    const missing = await b.post("/admin/demo/bookings/new", { ...pick, accommodation_id: "203", "guests.0.first_name": "Lia", "guests.0.last_name": "Sol", ...booker("invalid"), payment: "none" });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(html).toMatch(/id="f-guests-0-birth_date-error"[^>]*>is required by this business/);
    // a deposit of more decimals than euros have, at the amount
    const badAmount = await b.post("/admin/demo/bookings/new", { ...pick, accommodation_id: "203", "guests.0.first_name": "Lia", "guests.0.last_name": "Sol", "guests.0.gender": "f", "guests.0.birth_date": "1990-01-01", ...booker("amount"), payment: "deposit", amount: "10.005", method: "cash" });
    expect(badAmount.status).toBe(422);
    expect(await badAmount.text()).toMatch(/id="f-amount-error"/);
    // a country the checkout does not know: the cart was opened, then abandoned, its places free again
    const country = await b.post("/admin/demo/bookings/new", { ...pick, accommodation_id: "203", "guests.0.first_name": "Lia", "guests.0.last_name": "Sol", "guests.0.gender": "f", "guests.0.birth_date": "1990-01-01", ...booker("country"), "customer.country": "Atlantis", payment: "none" });
    expect(country.status).toBe(422);
    expect(await country.text()).toMatch(/id="f-customer-country-error"/);
    expect(await bookingsOfDemo()).toBe(before);
    expect(await count("SELECT COUNT(*) AS n FROM carts WHERE client_id = ? AND status = 'open'", `staff:${staffId}`)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM allocations a JOIN carts c ON c.id = a.cart_id WHERE c.client_id = ? AND a.released_at IS NULL", `staff:${staffId}`)).toBe(0);
  });

  it("is not bound by a widget visitor's limits: a party of 11 in one yoga class (a visitor may hold 10 guests at once)", async () => {
    const { b } = await desk();
    const day = nextWeekday(5, new Date(), 45);
    const party = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [[`guests.${i}.first_name`, `Guest${i}`], [`guests.${i}.last_name`, "Group"], [`guests.${i}.birth_date`, "1990-01-01"]]).flat());
    const { id } = redirected(await b.post("/admin/demo/bookings/new", { product: "302", start_date: day, days: "1", guests: "11", time: "18:00", ...party, ...booker("party"), payment: "none" }));
    expect(await count("SELECT COUNT(*) AS n FROM guests WHERE booking_id = ?", id)).toBe(11);
  });

  it("finds a known person as the booker, fills the booker's fields, and books them as that person", async () => {
    const { b } = await desk();
    const last = `Zq${crypto.randomUUID().slice(0, 6)}`;
    const email = uniqueEmail("known");
    await createBookingFixture({ booker: { first_name: "Odete", last_name: last, email, phone: "912000111" } });
    const person = await env.DB.prepare("SELECT id FROM persons WHERE email = ?").bind(email).first<{ id: string }>();
    const day = nextWeekday(1, new Date(), 45);
    const pick = { product: "302", start_date: day, days: "1", guests: "1" };
    const found = await (await b.get(`/admin/demo/bookings/new?${new URLSearchParams({ ...pick, person_q: last })}`)).text();
    const use = new RegExp(`href="(/admin/demo/bookings/new\\?[^"]*booker=${person!.id})"`).exec(found);
    expect(use, "a link that uses the person").not.toBeNull();
    const filled = await (await b.get(use![1].replaceAll("&amp;", "&"))).text();
    expect(filled).toContain(`name="booker" value="${person!.id}"`);
    expect(filled).toMatch(new RegExp(`name="customer.email" type="email" value="${email}"`));
    expect(filled).toMatch(/name="customer.phone" type="tel" value="912000111"/);
    const { id } = redirected(await b.post("/admin/demo/bookings/new", { ...pick, time: "08:00", "guests.0.first_name": "Odete", "guests.0.last_name": last, "guests.0.birth_date": "1970-01-01", "customer.first_name": "Odete", "customer.last_name": last, "customer.email": email, "customer.phone": "912000111", terms_accepted: "true", payment: "none" }));
    const bookerOf = await env.DB.prepare("SELECT person_id FROM bookers WHERE booking_id = ?").bind(id).first<{ person_id: string }>();
    expect(bookerOf!.person_id).toBe(person!.id);
  });

  it("says so when Stripe is not connected, and refuses a link with nothing booked", async () => {
    const { b } = await desk();
    const day = nextWeekday(4, new Date(), 40);
    const pick = { product: "302", start_date: day, days: "1", guests: "1" };
    const html = await (await b.get(`/admin/demo/bookings/new?${new URLSearchParams(pick)}`)).text();
    expect(html).toContain("data-no-stripe");
    expect(html).not.toContain('value="link"');
    const before = await bookingsOfDemo();
    const res = await b.post("/admin/demo/bookings/new", { ...pick, time: "08:00", "guests.0.first_name": "Nuno", "guests.0.last_name": "Link", "guests.0.birth_date": "1990-01-01", ...booker("nolink"), payment: "link" });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/id="f-payment-none-error"[^>]*>[^<]*Stripe is not connected/);
    expect(await bookingsOfDemo()).toBe(before);
  });

  it("gives the 403 page to a staff user of another business, and books nothing", async () => {
    const slug = `phone-other-${Date.now().toString(36)}`;
    const stranger = await createStaff(await createBusiness(slug), "owner");
    const b = await signedIn(slug, stranger.email);
    const before = await bookingsOfDemo();
    const res = await b.post("/admin/demo/bookings/new", { product: "302", start_date: nextWeekday(2), days: "1", guests: "1", time: "08:00", "guests.0.first_name": "No", "guests.0.last_name": "Body", "guests.0.birth_date": "1990-01-01", ...booker("stranger") });
    expect(res.status).toBe(403);
    expect(await bookingsOfDemo()).toBe(before);
  });
});

describe("a payment link for a phone booking, once Stripe is connected", () => {
  it("sends a link for the balance; with Stripe down the booking stands and its page says the payment is still to do", async () => {
    const key = await createKey("private", DEMO_BUSINESS_ID);
    expect((await callJson("/private/settings/stripe", { key, method: "PUT", body: { secret_key: "rk_test_phoneBooking0123456789", webhook_secret: "whsec_phoneBookingSecret0123456789" } })).status).toBe(200);
    const { b } = await desk();
    const day = nextWeekday(2, new Date(), 50);
    const pick = { product: "302", start_date: day, days: "1", guests: "1" };
    const html = await (await b.get(`/admin/demo/bookings/new?${new URLSearchParams(pick)}`)).text();
    expect(html).not.toContain("data-no-stripe");
    expect(html).toContain('value="link"');
    const guest = { "guests.0.first_name": "Lina", "guests.0.last_name": "Link", "guests.0.birth_date": "1990-01-01" };
    const linked = redirected(await b.post("/admin/demo/bookings/new", { ...pick, time: "08:00", ...guest, ...booker("link"), payment: "link", amount: "" }));
    expect(linked.done).toBe("booked-linked");
    const entry = await env.DB.prepare("SELECT method, status, amount_minor FROM payments WHERE booking_id = ?").bind(linked.id).first();
    expect(entry).toEqual({ method: "stripe", status: "pending", amount_minor: 1200 });

    // Stripe down: the booking is made all the same, and its page says the payment is still to do
    // (the stand-in is shared by the files running at once: the outage is for this link's own amount)
    const cents = 101 + Math.floor(Math.random() * 1000);
    const match = encodeURIComponent(`[unit_amount]=${cents}&`);
    expect((await fetch(`${env.STRIPE_API_BASE}/_standin/outage?count=3&match=${match}`, { method: "POST" })).status).toBe(200);
    const down = redirected(await b.post("/admin/demo/bookings/new", { ...pick, time: "18:00", ...guest, ...booker("link-down"), payment: "link", amount: (cents / 100).toFixed(2) }));
    expect(down.done).toBe("booked-payment-failed");
    expect(await count("SELECT COUNT(*) AS n FROM bookings WHERE id = ? AND status = 'confirmed'", down.id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE booking_id = ?", down.id)).toBe(0);
    expect(await (await b.get(`/admin/demo/bookings/${down.id}?done=booked-payment-failed`)).text()).toContain("Booked, but the payment was not recorded");
  });
});

describe("every shape the dive centre sells, booked at its front desk", () => {
  it("books a boat dive at 09:00, a course on a Monday, a wetsuit for 3 days, the lodge's double room and the weekend package, each paid in full", async () => {
    const slug = `dive-desk-${Date.now().toString(36)}`;
    const businessId = await createBusiness(slug);
    const db = await dbOf(businessId);
    const file = CatalogFile.parse(diveCatalog);
    file.settings.email_from = null;
    file.settings.notification_emails = [];
    // the business's own questions: one asked of every guest, one of the booker
    file.settings.custom_fields = [
      { key: "certification", title: "Certification", type: "select", options: ["None", "Open Water"], required: true, applies_to: "guest", translations: {} },
      { key: "hotel", title: "Hotel", type: "text", options: [], required: true, applies_to: "customer", translations: {} },
    ];
    await applyCatalog({ DB: db }, { kind: "cli", id: "test", name: "cli" }, businessId, file, new Date());
    const ids = Object.fromEntries(((await db.prepare("SELECT id, title FROM products WHERE business_id = ?").bind(businessId).all<{ id: number; title: string }>()).results).map((p) => [p.title, String(p.id)]));
    const b = await signedIn(slug, (await createStaff(businessId, "front_desk")).email);
    const monday = nextWeekday(1, new Date(), 50);
    const saturday = nextWeekday(6, new Date(), 50);
    const guest = (i: number, extra: Record<string, string> = {}) => ({ [`guests.${i}.first_name`]: `Diver${i}`, [`guests.${i}.last_name`]: "Costa", [`guests.${i}.custom_fields.certification`]: "Open Water", ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`guests.${i}.${k}`, v])) });

    // the questions are on the form, and unanswered they are refused at their fields, nothing booked
    const form = await (await b.get(`/admin/${slug}/bookings/new?${new URLSearchParams({ product: ids["Boat Dive"], start_date: monday, days: "1", guests: "1" })}`)).text();
    expect(form).toContain('name="guests.0.custom_fields.certification"');
    expect(form).toContain('name="customer.custom_fields.hotel"');
    const unanswered = await b.post(`/admin/${slug}/bookings/new`, { product: ids["Boat Dive"], start_date: monday, days: "1", guests: "1", time: "09:00", "guests.0.first_name": "No", "guests.0.last_name": "Answer", ...booker("dive-unanswered"), payment: "none" });
    expect(unanswered.status).toBe(422);
    const refusedHtml = await unanswered.text();
    expect(refusedHtml).toMatch(/id="f-guests-0-custom_fields-certification-error"[^>]*>is required by this business/);
    expect(refusedHtml).toMatch(/id="f-customer-custom_fields-hotel-error"[^>]*>is required by this business/);
    expect((await db.prepare("SELECT COUNT(*) AS n FROM bookings WHERE business_id = ?").bind(businessId).first<{ n: number }>())!.n).toBe(0);
    const cases: [string, Record<string, string>][] = [
      ["Boat Dive", { start_date: monday, days: "1", guests: "1", time: "09:00", ...guest(0) }],
      ["Open Water Course", { start_date: monday, days: "3", guests: "1", ...guest(0) }],
      ["Wetsuit Rental", { start_date: monday, days: "3", guests: "1", ...guest(0) }],
      ["Sea Lodge Double", { start_date: monday, days: "2", guests: "2", ...guest(0, { gender: "f" }), ...guest(1, { gender: "m" }) }],
      ["Dive Weekend", { start_date: saturday, days: "2", guests: "2", ...guest(0), ...guest(1) }],
    ];
    for (const [title, form] of cases) {
      const res = await b.post(`/admin/${slug}/bookings/new`, { product: ids[title], ...form, ...booker(`dive-${title.replaceAll(" ", "")}`), "customer.custom_fields.hotel": "Sea Lodge", payment: "full", method: "card_terminal" });
      expect({ title, status: res.status, body: res.status === 303 ? "" : (await res.text()).match(/class="(?:error|form-error)"[^>]*>[^<]*/g) }).toEqual({ title, status: 303, body: "" });
      const id = /bookings\/([0-9a-f-]{36})/.exec(res.headers.get("Location")!)![1];
      const row = await db.prepare("SELECT b.total_minor, b.start_date, (SELECT SUM(amount_minor) FROM payments p WHERE p.booking_id = b.id AND p.method = 'card_terminal') AS paid FROM bookings b WHERE b.id = ?").bind(id).first<{ total_minor: number; start_date: string; paid: number }>();
      expect({ title, start: row!.start_date, paidInFull: row!.total_minor > 0 && row!.paid === row!.total_minor }).toEqual({ title, start: form.start_date, paidInFull: true });
    }
  });
});

/** The yoga class's own item (GET /packages/302: a product sold on its own is its one-item package). */
async function itemOf(key: string, day: string): Promise<number> {
  const res = await callJson(`/api/pub/v2/packages/302?start_date=${day}&duration=1`, { key });
  return res.body.single_items[0].package_item_id;
}
